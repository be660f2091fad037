/**
 * The answers of `rollout <ds>`, `why <ds>` and `why <ds> <node>` whole: the analysis with the
 * DaemonSet's root causes (causes/), as the CLI's commands, `rollout --watch` and the library
 * (src/api/) give them. One place, so the three cannot drift apart.
 */
import type { DaemonSet, Node } from '../model/k8s-types.js';
import type { SnapshotIndex } from '../model/snapshot-index.js';
import type { DaemonSetDiagnosis, NodeDiagnosis, RolloutDiagnosis } from '../model/results.js';
import { causesOf, causesOnNode, withCauses } from './causes/index.js';
import { whyDaemonSet, whyNode } from './placement/index.js';
import { diagnoseRollout } from './rollout/index.js';

/** `rollout <ds>`: complete, progressing or stuck, and why, root causes first. */
export function rolloutAnswer(index: SnapshotIndex, ds: DaemonSet, now: Date, stuckAfter: number): RolloutDiagnosis {
  return withCauses(diagnoseRollout(index, ds, now, stuckAfter), causesOf(index, [ds], { now, stuckAfter }));
}

/** `why <ds>`: every node without a healthy pod, with the reasons and the root causes. */
export function daemonSetAnswer(
  index: SnapshotIndex,
  ds: DaemonSet,
  now: Date,
  stuckAfter: number,
): DaemonSetDiagnosis {
  return withCauses(whyDaemonSet(index, ds, now, stuckAfter), causesOf(index, [ds], { now, stuckAfter }));
}

/**
 * `why <ds> <node>`: the verdict on one node and the root causes that reach it. `partial` for a
 * live answer that read one node's worth: rules over every node stay out.
 */
export function nodeAnswer(
  index: SnapshotIndex,
  ds: DaemonSet,
  node: Node,
  now: Date,
  stuckAfter: number,
  partial: boolean,
): NodeDiagnosis {
  return withCauses(
    whyNode(index, ds, node, now, stuckAfter),
    causesOnNode(index, [ds], node.metadata?.name ?? '', { now, stuckAfter, partial }),
  );
}
