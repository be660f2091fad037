/**
 * The node-independent facts of a DaemonSet, computed once per snapshot index: its placement
 * predicate, the pods it claims by node, its current revision, FailedCreate events, role and
 * notes. Every per-node answer in this folder starts from it.
 */
import type { DaemonSet, KubeEvent, Pod } from '../../model/k8s-types.js';
import { type Reason } from '../../model/results.js';
import { objectKey, type SnapshotIndex } from '../../model/snapshot-index.js';
import { isMissing } from '../../model/snapshot.js';
import { parseRfc3339 } from '../../model/duration.js';
import { compileDaemonPlacement, targetNodeName, type DaemonPlacement } from '../../k8s/daemonpod.js';
import { claimDaemonPods, nodesToDaemonPods } from '../../k8s/controller.js';
import { currentRevision, isPodUpdated, LABEL_REVISION_HASH, type CurrentRevision } from '../../k8s/revision.js';
import { detectRoles } from '../../model/roles.js';
import { rollbackTarget, type RollbackTarget } from '../../k8s/rollback.js';

export type RawReason = Omit<Reason, 'short'> & { short?: string };
/** Everything about one DaemonSet that does not depend on the node, computed once. */
export interface DaemonSetContext {
  ds: DaemonSet;
  namespace: string;
  name: string;
  placement: DaemonPlacement;
  byNode: Map<string, Pod[]>;
  revision: CurrentRevision;
  failedCreates: KubeEvent[];
  eventsAvailable: boolean;
  /** The DaemonSet looks like the cluster's network (CNI) agent. */
  networkAgent: boolean;
  /** The labels of the DaemonSet's Namespace, when the input holds it (PodSecurity reads them). */
  namespaceLabels?: Record<string, string>;
  /** What `kubectl rollout undo` would restore. */
  rollback: RollbackTarget;
  /** Notes on the whole DaemonSet. */
  notes: string[];
  /**
   * The notes for a question about one node: orphans are counted on that node (bound to it or
   * waiting for it), the ones the answer is about; elsewhere they do not change it.
   */
  nodeNotes: (node: string) => string[];
}

/** "3 orphaned pod(s) match the selector…": of the whole DaemonSet, or of the pods for one node. */
function adoptableNote(count: number, node?: string): string {
  return `${count} orphaned pod(s)${node === undefined ? '' : ` on node ${node}`} match the selector and will be adopted on the next sync`;
}

/** The labels of a namespace the input holds (none set is `{}`), else undefined. */
function namespaceLabels(index: SnapshotIndex, name: string): Record<string, string> | undefined {
  const ns = index.snapshot.namespaces.find((n) => n.metadata?.name === name);
  return ns ? (ns.metadata?.labels ?? {}) : undefined;
}

/** What decides whether a pod is updated, when the current revision's hash is not known. */
function generationText(revision: CurrentRevision): string {
  return revision.generation === undefined
    ? 'the DaemonSet records no template generation, so no pod can be judged updated'
    : `pods are judged by their pod-template-generation label against template generation ${revision.generation} (${revision.generationField})`;
}

/**
 * One note on how pods are judged updated when the current revision's hash is unknown: no
 * ControllerRevision in the input (cluster-info dumps hold none) and no pod at the template
 * generation to take it from (none at it, or none of those carries the controller-revision-hash
 * label), or no ControllerRevision matching the template. With the hash taken from the pods, or no
 * pod to judge, nothing is said.
 */
export function currentRevisionNote(
  revision: CurrentRevision,
  revisionsMissing: boolean,
  pods: readonly Pod[],
): string | undefined {
  if (revision.source !== 'unknown' || pods.length === 0) return undefined;
  const atGeneration = pods.some((p) => isPodUpdated(p, '', revision.generation));
  const why = revisionsMissing
    ? `no ControllerRevisions in the input (kubectl cluster-info dump does not collect them), and ${atGeneration ? `no pod at the current template generation carries the ${LABEL_REVISION_HASH} label` : 'no pod at the current template generation'}`
    : 'no ControllerRevision matches the template';
  return `the current revision is unknown: ${why}; ${generationText(revision)}`;
}

/** Builds (once per index) the node-independent facts of a DaemonSet. */
export function daemonSetContext(index: SnapshotIndex, ds: DaemonSet): DaemonSetContext {
  return index.cached(`dsctx:${objectKey(ds)}`, () => {
    const claimed = claimDaemonPods(index, ds);
    const revisions = index.revisionsFor(ds);
    const revision = currentRevision(ds, revisions, claimed.pods);
    const eventsAvailable = !isMissing(index.snapshot, 'Event');
    const failedCreates = index
      .eventsFor('DaemonSet', ds)
      .filter((e) => e.reason === 'FailedCreate')
      .sort((a, b) => parseRfc3339(b.lastTimestamp ?? '') - parseRfc3339(a.lastTimestamp ?? ''));
    const revisionNote = currentRevisionNote(revision, isMissing(index.snapshot, 'ControllerRevision'), claimed.pods);
    const notesFor = (node?: string): string[] => {
      const adoptable =
        node === undefined
          ? claimed.adoptable.length
          : claimed.adoptable.filter((p) => targetNodeName(p) === node).length;
      const notes: string[] = [];
      if (!eventsAvailable) notes.push('events not available: FailedCreate and FailedScheduling causes cannot be seen');
      if (claimed.selectorError)
        notes.push(`the DaemonSet's selector is invalid (${claimed.selectorError}): no pod can be matched`);
      if (adoptable) notes.push(adoptableNote(adoptable, node));
      if (revisionNote) notes.push(revisionNote);
      return notes;
    };
    return {
      ds,
      namespace: ds.metadata?.namespace ?? '',
      name: ds.metadata?.name ?? '',
      placement: compileDaemonPlacement(ds),
      byNode: nodesToDaemonPods(index, ds),
      revision,
      failedCreates,
      eventsAvailable,
      networkAgent: detectRoles(
        ds,
        index.snapshot.csiDrivers.map((d) => d.metadata?.name ?? ''),
      ).some((r) => r.role === 'network'),
      rollback: rollbackTarget(revisions, !isMissing(index.snapshot, 'ControllerRevision')),
      namespaceLabels: namespaceLabels(index, ds.metadata?.namespace ?? ''),
      notes: notesFor(),
      nodeNotes: notesFor,
    };
  });
}
