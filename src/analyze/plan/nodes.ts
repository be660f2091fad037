/**
 * Per node: what the changed DaemonSet's controller wants (NodeShouldRunDaemonPod of the new
 * spec), what it does to the pod there, and whether the scheduler binds the new pod (the Filter
 * plugins against the node's other pods, with the old daemon pod released or, when surging, kept).
 */
import type { Node, Pod, PriorityClass } from '../../model/k8s-types.js';
import type { PlanEffect, PlanFit, PlanFitReason, PlanPodBefore, ReasonCode } from '../../model/results.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import { compileDaemonPlacement, newDaemonPod, type ShouldRunResult } from '../../k8s/daemonpod.js';
import { preemptionCouldHelp, runFilters, type FilterOutcome } from '../../k8s/scheduler.js';
import { podsUsingNode } from '../../k8s/resources.js';
import { formatAmount } from '../../k8s/quantity.js';
import { formatHostPort } from '../../k8s/hostports.js';
import { compareDaemonPodAge, isPodAvailable, isPodReady, isPodTerminating } from '../../k8s/podutil.js';
import { allowsSurge } from '../../k8s/rollingupdate.js';
import { podRevisionHash } from '../../k8s/revision.js';
import type { DaemonSet } from '../../model/k8s-types.js';
import { filterReasons, predicateReasons } from '../placement/index.js';

/** The built-in priority classes, which a dump need not hold (pkg/apis/scheduling/types.go). */
const SYSTEM_PRIORITIES: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

/**
 * The priority the Priority admission plugin gives a new pod: its class's value, the global
 * default class's value without a class, else 0 (plugin/pkg/admission/priority/admission.go).
 */
export function resolvePriority(className: string | undefined, classes: PriorityClass[]): number | undefined {
  if (className) return classes.find((c) => c.metadata?.name === className)?.value ?? SYSTEM_PRIORITIES[className];
  return classes.find((c) => c.globalDefault)?.value ?? 0;
}

/** The daemon pod the changed DaemonSet creates for a node, with its admitted priority. */
export function plannedPod(ds: DaemonSet, nodeName: string, priority: number | undefined): Pod {
  const pod = newDaemonPod(ds, nodeName);
  if (priority !== undefined) pod.spec!.priority = priority;
  return pod;
}

/** The pod that speaks for a node before the change: not terminating, newest first. */
export function podBefore(pods: Pod[], newHash: string): PlanPodBefore | undefined {
  const live = pods.filter((p) => !isPodTerminating(p));
  const pod = live.find((p) => podRevisionHash(p) === newHash) ?? live[0] ?? pods[0];
  if (!pod) return undefined;
  const state: PlanPodBefore['state'] = isPodTerminating(pod)
    ? 'Terminating'
    : !pod.spec?.nodeName
      ? 'Pending'
      : isPodReady(pod)
        ? 'Running'
        : 'Unavailable';
  return {
    name: pod.metadata?.name ?? '',
    hash: podRevisionHash(pod),
    current: podRevisionHash(pod) === newHash && newHash !== '',
    state,
  };
}

/** The placement code and sentence for a node the new spec does not want. */
export function exclusion(
  sr: ShouldRunResult,
  node: Node,
  hasPod: boolean,
): { reason: ReasonCode; message: string } | undefined {
  const first = sr.failures[0];
  if (!first) return undefined;
  const r = predicateReasons(first, node, hasPod)[0];
  return r ? { reason: r.code, message: r.message } : undefined;
}

function fitReasons(outcome: FilterOutcome, pod: Pod, node: Node, others: Pod[], preemption: boolean): PlanFitReason[] {
  const raw = filterReasons(outcome, pod, node, others);
  if (outcome.plugin === 'NodeResourcesFit') {
    const out: PlanFitReason[] = [];
    let i = 0;
    if (outcome.fit.tooManyPods) {
      const t = outcome.fit.tooManyPods;
      out.push({
        code: 'TooManyPods',
        message: raw[i++]!.message,
        resource: 'pods',
        requested: '1',
        free: String(Math.max(0, t.allowed - t.existing)),
        allocatable: String(t.allowed),
        preemptionHelps: preemption,
      });
    }
    for (const s of outcome.fit.shortages) {
      out.push({
        code: 'InsufficientResource',
        message: raw[i++]!.message,
        resource: s.resource,
        requested: formatAmount(s.resource, s.requested),
        free: formatAmount(s.resource, Math.max(0, s.allocatable - s.used)),
        allocatable: formatAmount(s.resource, s.allocatable),
        preemptionHelps: preemption,
      });
    }
    return out;
  }
  if (outcome.plugin === 'NodePorts') {
    const ports = [...new Set(outcome.conflicts.map((c) => formatHostPort(c.port)))];
    return [
      {
        code: 'HostPortConflict',
        message: raw[0]!.message,
        resource: `hostPort ${ports.join(', ')}`,
        requested: ports.join(', '),
        free: 'held by ' + [...new Set(outcome.conflicts.map((c) => c.holder))].join(', '),
        preemptionHelps: preemption,
      },
    ];
  }
  return raw.map((r) => ({ code: r.code, message: r.message }));
}

/**
 * The scheduler's Filter plugins for the new pod on `node` against `others`; whether
 * DefaultPreemption could make room when they refuse it.
 */
export function fitOnNode(
  pod: Pod,
  node: Node,
  others: Pod[],
  surge: boolean,
): PlanFit & { bindsAfterPreemption: boolean } {
  const outcome = runFilters(pod, node, others);
  if (!outcome) return { fits: true, reasons: [], ...(surge ? { surge } : {}), bindsAfterPreemption: false };
  const preemption =
    (outcome.plugin === 'NodeResourcesFit' || outcome.plugin === 'NodePorts') &&
    preemptionCouldHelp(pod, node, others).possible;
  return {
    fits: false,
    reasons: fitReasons(outcome, pod, node, others, preemption),
    ...(surge ? { surge } : {}),
    bindsAfterPreemption: preemption,
  };
}

/** The other pods the new pod meets on the node: every bound, non-terminal pod but the ones released. */
export function othersOnNode(index: SnapshotIndex, nodeName: string, released: Pod[]): Pod[] {
  const skip = new Set(released);
  return podsUsingNode(index.podsByNode.get(nodeName)).filter((p) => !skip.has(p));
}

export interface NodeDecision {
  sr: ShouldRunResult;
  effect: PlanEffect;
  /** The daemon pods of the existing DaemonSet on the node (terminal ones left out). */
  pods: Pod[];
  /** The pod of an old revision the rolling update replaces. */
  oldPod?: Pod;
  /** An existing pod already of the new revision. */
  currentPod?: Pod;
  /**
   * The node keeps an old pod it may continue to run (an untolerated NoSchedule taint): the
   * rolling update deletes it, within the budget, and no new pod follows.
   */
  loseByUpdate?: boolean;
  /** Pods manage() deletes because the new spec allows no surge (a surge pod waiting next to its old pod). */
  pruned?: Pod[];
  /** With surge, the old pod still running next to the node's pod of the new revision. */
  surgeOld?: Pod;
}

/**
 * The pods manage() leaves on a node: without surge it keeps only the oldest of several (bound
 * pods first), so a surge pod waiting next to its old pod is deleted once maxSurge goes to 0
 * (kubernetes v1.35.4 pkg/controller/daemon/daemon_controller.go#podsShouldBeOnNode, "When surge
 * is not enabled, if there is more than 1 running pod on a node delete all but the oldest").
 */
export function podsManageKeeps(live: Pod[], surge: boolean, shouldRun: boolean): Pod[] {
  if (surge || !shouldRun || live.length <= 1) return live;
  return [[...live].sort(compareDaemonPodAge)[0]!];
}

/** The effect on one node, from the new spec's placement and the pods there now. */
export function decideNode(
  node: Node,
  applied: DaemonSet,
  pods: Pod[],
  newHash: string,
  templateChanged: boolean,
): NodeDecision {
  const sr = compileDaemonPlacement(applied).evaluate(node);
  const live = podsManageKeeps(
    pods.filter((p) => !isPodTerminating(p)),
    allowsSurge(applied),
    sr.shouldContinueRunning,
  );
  // With the new revision's hash known, pods are judged by it; unknown (no revision in the input), an unchanged template keeps them.
  const currentPod =
    newHash !== '' ? live.find((p) => podRevisionHash(p) === newHash) : templateChanged ? undefined : live[0];
  const oldPod = currentPod ? undefined : live[0];
  const pruned = pods.filter((p) => !isPodTerminating(p) && !live.includes(p));
  // A surge in progress: the old pod runs next to the new one until that is available.
  const surgeOld = currentPod ? live.find((p) => p !== currentPod && podRevisionHash(p) !== newHash) : undefined;
  const base = {
    sr,
    pods,
    ...(oldPod ? { oldPod } : {}),
    ...(currentPod ? { currentPod } : {}),
    ...(pruned.length ? { pruned } : {}),
    ...(surgeOld ? { surgeOld } : {}),
  };
  if (!sr.shouldRun) {
    if (!live.length) return { ...base, effect: 'none' };
    // A pod that may continue (an untolerated NoSchedule taint) stays unless the update replaces it.
    if (sr.shouldContinueRunning && (currentPod || !templateChanged)) return { ...base, effect: 'keep' };
    return { ...base, effect: 'lose', ...(sr.shouldContinueRunning ? { loseByUpdate: true } : {}) };
  }
  if (!live.length) return { ...base, effect: 'gain' };
  return { ...base, effect: currentPod ? 'keep' : 'replace' };
}

/** Whether a pod counts as available for the rolling update now. */
export function availableNow(pod: Pod | undefined, minReadySeconds: number, now: Date): boolean {
  return pod !== undefined && Boolean(pod.spec?.nodeName) && isPodAvailable(pod, minReadySeconds, now);
}
