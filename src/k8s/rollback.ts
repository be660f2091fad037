/**
 * What `kubectl rollout undo daemonset/<name>` would do: kubectl v1.35
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollback.go#DaemonSetRollbacker.Rollback
 * and #findHistory. Without --to-revision it restores the second-newest ControllerRevision, and
 * with one revision or none it fails with "no last revision to roll back to".
 */
import type { ControllerRevision } from '../model/k8s-types.js';

/** The revision `rollout undo` restores, that there is none, or that the input cannot tell. */
export type RollbackTarget =
  { kind: 'revision'; revision: number } | { kind: 'none'; revisions: number } | { kind: 'unknown' };

/** `findHistory(0, history)` after the `len(history) <= 1` check. `known` is false when revisions were not collected. */
export function rollbackTarget(revisions: ControllerRevision[], known: boolean): RollbackTarget {
  if (!known) return { kind: 'unknown' };
  if (revisions.length <= 1) return { kind: 'none', revisions: revisions.length };
  const sorted = revisions.map((r) => r.revision ?? 0).sort((a, b) => b - a);
  return { kind: 'revision', revision: sorted[1]! };
}

/**
 * The rollback tail of a fix, to append to a sentence: ", or roll back to revision N: <command>"
 * when there is an earlier revision, and when there is none a note that the command would fail
 * (the sentence before it already says what to change instead).
 */
export function rollbackAdvice(target: RollbackTarget, namespace: string, name: string): string {
  const undo = `kubectl rollout undo daemonset/${name} -n ${namespace}`;
  switch (target.kind) {
    case 'revision':
      return `, or roll back to revision ${target.revision}: ${undo}`;
    case 'none':
      return ` (there is no earlier revision to roll back to: kubectl rollout undo would fail with "no last revision to roll back to")`;
    case 'unknown':
      return `, or, if an earlier revision exists (kubectl rollout history daemonset/${name} -n ${namespace}), roll back: ${undo}`;
  }
}
