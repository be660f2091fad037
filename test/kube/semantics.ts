/**
 * What Kubernetes would do with built objects, from src/k8s's own mirrors of upstream (never a copy):
 * placement, the DaemonSet status counters, availability, requests and the scheduler's filters,
 * plus the kubelet's crash-loop back-off and the scheduler's FailedScheduling message.
 */
import { compileDaemonPlacement } from '../../src/k8s/daemonpod.js';
import { isPodAvailable, isPodTerminal } from '../../src/k8s/podutil.js';
import { allocatable, podRequests } from '../../src/k8s/resources.js';
import { runFilters } from '../../src/k8s/scheduler.js';
import { recomputeStatus } from '../../src/k8s/status.js';
import type { DaemonSet, DaemonSetStatus, Node, Pod } from '../../src/model/k8s-types.js';
import { emptySnapshot } from '../../src/model/snapshot.js';
import { SnapshotIndex } from '../../src/model/snapshot-index.js';
import { NOW } from './time.js';

/** The result of crashLoop: the starts (seconds ago), the last run, and the back-off NOW falls in. */
export interface CrashLoop {
  starts: number[];
  run: number;
  restarts: number;
  lastStartedAgo: number;
  lastFinishedAgo: number;
  backoff: string;
  waited: number;
}

/** Go's time.Duration.String() for whole seconds: 10s, 2m40s, 5m0s. */
export function goDuration(s: number): string {
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m${s % 60}s`;
}

/** Whether the controller should run (and keep running) a pod of `ds` on `node`: the real NodeShouldRunDaemonPod of src/k8s. */
export function shouldRun(ds: DaemonSet, node: Node): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const { shouldRun: run, shouldContinueRunning } = compileDaemonPlacement(ds).evaluate(node);
  return { shouldRun: run, shouldContinueRunning };
}

/**
 * updateDaemonSetStatus (docs/semantics.md §3.8), computed by src/k8s/status.ts over `nodes`
 * and `pods`. `hash`/`templateGeneration` are those of the revision the controller last synced
 * against (normally the current one). Field order and omitempty as the API serializes it.
 */
export function daemonSetStatus(
  ds: DaemonSet,
  nodes: Node[],
  pods: Pod[],
  {
    hash,
    templateGeneration,
    observedGeneration = ds.metadata?.generation,
  }: { hash: string; templateGeneration: number; observedGeneration?: number | undefined },
): DaemonSetStatus {
  const index = new SnapshotIndex({ ...emptySnapshot(), nodes, pods, daemonSets: [ds] });
  const s = recomputeStatus(index, ds, hash, templateGeneration, NOW);
  const status: DaemonSetStatus = {
    currentNumberScheduled: s.current,
    numberMisscheduled: s.misscheduled,
    desiredNumberScheduled: s.desired,
    numberReady: s.ready,
    observedGeneration: observedGeneration!,
  };
  if (s.updated) status.updatedNumberScheduled = s.updated;
  if (s.available) status.numberAvailable = s.available;
  if (s.unavailable) status.numberUnavailable = s.unavailable;
  return status;
}

/** Whether the pod is available with `minReadySeconds` at NOW (podutil.IsPodAvailable). */
export function podAvailable(pod: Pod, minReadySeconds: number): boolean {
  return isPodAvailable(pod, minReadySeconds, NOW);
}

/** The pod's request of `resource` as the scheduler counts it (cpu in millicores, the rest in units). */
export function podRequest(pod: Pod, resource: string): number {
  return podRequests(pod.spec).get(resource) ?? 0;
}

/** What is left of the node's allocatable `resource` after the requests of the non-terminal pods bound to it. */
export function freeResource(node: Node, pods: Pod[], resource: string): number {
  const onNode = pods.filter((p) => p.spec?.nodeName === node.metadata?.name && !isPodTerminal(p));
  return (allocatable(node).get(resource) ?? 0) - onNode.reduce((sum, p) => sum + podRequest(p, resource), 0);
}

/**
 * The reasons the scheduler's filters (src/k8s/scheduler.ts) give for `pod` on `node`,
 * counting every non-terminal pod bound to the node (docs/semantics.md §4.5, §4.6).
 */
export function filterReasons(pod: Pod, node: Node, pods: Pod[]): string[] {
  const others = pods.filter((p) => p !== pod && p.spec?.nodeName === node.metadata?.name && !isPodTerminal(p));
  return runFilters(pod, node, others)?.reasons ?? [];
}

/** The FailedScheduling message of a daemon pod whose target node fails one filter with `reason` (1.32+). */
export function failedSchedulingMessage(nodeCount: number, reason: string): string {
  const others = nodeCount - 1;
  return (
    `0/${nodeCount} nodes are available: 1 ${reason}, ${others} node(s) didn't satisfy plugin(s) [NodeAffinity]. ` +
    `preemption: 0/${nodeCount} nodes are available: 1 No preemption victims found for incoming pod, ${others} Preemption is not helpful for scheduling.`
  );
}

/**
 * A crash loop: the container starts `firstStartAgo`, runs `run` seconds, exits, and is
 * restarted after the kubelet's back-off (10s doubling to 5m). Returns the starts (seconds
 * ago) up to NOW, which falls inside a back-off wait.
 */
export function crashLoop(firstStartAgo: number, run: number): CrashLoop {
  const backoffs = [10, 20, 40, 80, 160, 300];
  const starts: number[] = [];
  let waited = 0;
  let tAgo = firstStartAgo;
  for (let i = 0; ; i++) {
    starts.push(tAgo);
    const finish = tAgo - run;
    const b = backoffs[Math.min(i, backoffs.length - 1)]!;
    if (finish - b <= 0) {
      if (finish <= 0) throw new Error('crash loop: container still running at NOW');
      waited += finish;
      return {
        starts,
        run,
        restarts: starts.length - 1,
        lastStartedAgo: tAgo,
        lastFinishedAgo: finish,
        backoff: goDuration(b),
        waited,
      };
    }
    waited += b;
    tAgo = finish - b;
  }
}
