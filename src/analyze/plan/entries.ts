/**
 * Each node's entry of a plan: the pod there now, why the new spec wants none, whether the new pod
 * is created (a pod on an unreachable node still being deleted, an admission refusal), its fit
 * against the node's other pods, and the template diff lines behind the node's effect. What the
 * controller and the scheduler decide is nodes.ts's; this file puts it together per node.
 */
import type { DaemonSet, Node, Pod } from '../../model/k8s-types.js';
import type { PlanEffect, PlanNode } from '../../model/results.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import { deletionWaitsForKubelet, isPodReady } from '../../k8s/podutil.js';
import { isNodeUnreachable } from '../../k8s/podhealth.js';
import { exclusion, fitOnNode, othersOnNode, plannedPod, podBefore, type NodeDecision } from './nodes.js';

/** Which template diff lines bear on an effect: placement fields for gain/lose, everything for replace. */
const PLACEMENT_FIELDS = /^spec\.(nodeSelector|affinity|tolerations|nodeName)\b/;
const FIT_FIELDS =
  /(^spec\.overhead|^spec\.resources|\.resources\.|\.ports|^spec\.(priorityClassName|hostNetwork|initContainers|containers\[[^\]]*\]$))/;

/** The diff lines behind a node's effect; `placementChanged`: the current spec decides this node otherwise. */
export function causesFor(effect: PlanEffect, pending: boolean, placementChanged: boolean, diff: string[]): string[] {
  if (effect === 'replace') return pending ? diff.filter((l) => FIT_FIELDS.test(l)) : [];
  if (effect === 'gain' || effect === 'lose' || effect === 'none')
    return placementChanged ? diff.filter((l) => PLACEMENT_FIELDS.test(l)) : [];
  return [];
}

/** One node as the plan works it out: its entry, and what the rollout stage needs to know of it. */
export interface NodeWork {
  node: Node;
  name: string;
  decision: NodeDecision;
  entry: PlanNode;
  /** The new pod will stay Pending (not bound even with preemption). */
  pending: boolean;
  /**
   * Without surge, no new pod is ever created: the pod there is deleted (or being deleted) on an
   * unreachable node, so it stays Terminating and the controller waits for it.
   */
  waitsForDeletion: boolean;
  /** The API refuses the node's new pod (admission): no pod is created. */
  refused: boolean;
  /** A quota admits only some of the new pods: which nodes get one depends on the controller's order. */
  maybeRefused: boolean;
}

/** What every node's entry needs from the plan as a whole. */
export interface NodeSetting {
  index: SnapshotIndex;
  applied: DaemonSet;
  newHash: string;
  groupBy: string;
  priority: number | undefined;
  surge: boolean;
  /** The API server's refusal of every new pod, when admission refuses them. */
  refusal: string | undefined;
  /** A quota admits fewer new pods than the nodes to gain one: some of them get none. */
  partial: boolean;
}

/** One node's entry: the pod there now, why the new spec wants none, and the new pod's fit. */
export function nodeWork(set: NodeSetting, node: Node, nodeName: string, decision: NodeDecision): NodeWork {
  const group = set.groupBy ? (node.metadata?.labels?.[set.groupBy] ?? '') : '';
  const before = podBefore(
    decision.pods.filter((p) => !decision.pruned?.includes(p)),
    set.newHash,
  );
  const entry: PlanNode = {
    node: nodeName,
    group,
    effect: decision.effect,
    shouldRun: decision.sr.shouldRun,
    settled: [],
    ...(before ? { before } : {}),
  };
  if (!decision.sr.shouldRun) {
    const why = exclusion(decision.sr, node, decision.pods.length > 0);
    if (why) Object.assign(entry, why);
    if (decision.loseByUpdate && entry.message)
      entry.message += '; the rolling update deletes the old pod and no new one follows';
  }
  let pending = false;
  // Pods whose deletion an unreachable node's kubelet never confirms: they stay, holding their requests and ports.
  const lingers = (p: Pod) => isNodeUnreachable(node) && deletionWaitsForKubelet(p);
  const needsNewPod =
    decision.effect === 'gain' ||
    decision.effect === 'replace' ||
    (decision.effect === 'keep' &&
      decision.sr.shouldRun &&
      decision.currentPod !== undefined &&
      !decision.currentPod.spec?.nodeName);
  // A terminating pod still makes the node's pod "exist": without surge the controller creates none until it is gone (semantics §1.5).
  const waitsForDeletion = needsNewPod && !set.surge && decision.effect !== 'keep' && decision.pods.some(lingers);
  const refused = needsNewPod && !waitsForDeletion && set.refusal !== undefined && !set.partial;
  const maybeRefused = needsNewPod && !waitsForDeletion && set.partial && decision.effect === 'gain';
  if (needsNewPod && !waitsForDeletion && !refused) {
    // manage() deletes an old pod that is not Ready as soon as the surge pod exists (semantics §1.5).
    // A surge already in progress (a new pod not yet bound next to the old one) keeps the old pod as well.
    const beside =
      decision.effect === 'replace' ? decision.oldPod : decision.effect === 'keep' ? decision.surgeOld : undefined;
    const surging = set.surge && beside !== undefined && isPodReady(beside);
    // The old pod's resources and ports are released before the new pod is created, unless surging.
    const released = (surging ? decision.pods.filter((p) => p !== beside) : decision.pods).filter((p) => !lingers(p));
    const { bindsAfterPreemption, ...fit } = fitOnNode(
      plannedPod(set.applied, nodeName, set.priority),
      node,
      othersOnNode(set.index, nodeName, released),
      surging,
    );
    entry.fit = fit;
    pending = !fit.fits && !bindsAfterPreemption;
  }
  return { node, name: nodeName, decision, entry, pending, waitsForDeletion, refused, maybeRefused };
}
