/** Snapshots and indexes over built objects, as the loaders produce them. */
import type { DaemonSet, KubeEvent, Node, Pod } from '../../src/model/k8s-types.js';
import { emptySnapshot, type ClusterSnapshot } from '../../src/model/snapshot.js';
import { SnapshotIndex } from '../../src/model/snapshot-index.js';

/** A snapshot of the given objects (every kind present, none missing). */
export function snapshotOf(
  objects: { nodes?: Node[]; daemonSets?: DaemonSet[]; pods?: Pod[]; events?: KubeEvent[] } & Partial<ClusterSnapshot>,
): ClusterSnapshot {
  return { ...emptySnapshot(), ...objects };
}

export function indexOf(objects: Parameters<typeof snapshotOf>[0]): SnapshotIndex {
  return new SnapshotIndex(snapshotOf(objects));
}
