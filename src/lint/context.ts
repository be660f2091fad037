/** The lint context: an index over the input plus per-DaemonSet facts, each computed once. */
import type { DaemonSet, Node } from '../model/k8s-types.js';
import { memoizedPerObject } from '../model/memo.js';
import type { ClusterSnapshot, SnapshotKind } from '../model/snapshot.js';
import { SnapshotIndex } from '../model/snapshot-index.js';
import { compileDaemonPlacement } from '../k8s/daemonpod.js';
import { detectAgentRoles, type AgentRole, type RoleMatch } from '../model/roles.js';
import { evidencedRoles } from './template.js';
import type { LintContext } from './types.js';

/** Builds the context the rules share for one run over `snapshot`. */
export function createLintContext(snapshot: ClusterSnapshot): LintContext {
  const index = new SnapshotIndex(snapshot);
  const csiDrivers = snapshot.csiDrivers.map((d) => d.metadata?.name ?? '').filter(Boolean);
  return {
    index,
    placement: compileDaemonPlacement,
    roles: memoizedPerObject((ds: DaemonSet): RoleMatch<AgentRole>[] =>
      evidencedRoles(ds, detectAgentRoles(ds, csiDrivers)),
    ),
    targetNodes: memoizedPerObject((ds: DaemonSet): Node[] =>
      snapshot.nodes.filter((n) => compileDaemonPlacement(ds).evaluate(n).shouldRun),
    ),
  };
}

/**
 * Why a rule that needs `kind` cannot run: the input has none (a bare manifest, or a dump
 * without them) or the cluster refused to list them. Undefined when the kind was read.
 */
export function kindUnavailable(ctx: LintContext, kind: SnapshotKind): string | undefined {
  const missing = ctx.index.snapshot.missing.find((m) => m.kind === kind);
  if (!missing) return undefined;
  if (missing.reason === 'absent') return `the input has no ${kind} objects`;
  return `${kind} objects could not be read${missing.detail ? `: ${missing.detail}` : ` (${missing.reason})`}`;
}

/** Why node-based rules cannot run on this input (no nodes, or an empty list), or undefined. */
export function nodesUnavailable(ctx: LintContext): string | undefined {
  const why = kindUnavailable(ctx, 'Node');
  if (why) return `${why}: lint a live cluster, or add the nodes to the input: \`kubectl get nodes -o yaml\``;
  if (ctx.index.snapshot.nodes.length === 0) return 'the input has an empty node list';
  return undefined;
}
