/**
 * Pod state helpers: `IsPodReady`, `IsPodAvailable` (pkg/api/v1/pod/util.go), terminal
 * phases, and the oldest-pod ordering of the DaemonSet controller (`podByCreationTimestampAndPhase`,
 * pkg/controller/controller_utils.go).
 */
import type { Pod, PodCondition } from '../model/k8s-types.js';
import { parseRfc3339 } from '../model/duration.js';
import { compareText } from '../model/order.js';
import { memoizedPerObject } from '../model/memo.js';

export function podCondition(pod: Pod, type: string): PodCondition | undefined {
  return type === 'Ready' ? readyCondition(pod) : findCondition(pod, type);
}

function findCondition(pod: Pod, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

// Kept per pod object: status, rows and the rolling update each ask every pod for it.
const readyCondition = memoizedPerObject((pod: Pod) => findCondition(pod, 'Ready'));

/** `IsPodReady`: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/**
 * `IsPodAvailable` (1.34+): Ready, and Ready since at least minReadySeconds
 * (lastTransitionTime + minReadySeconds ≤ now). A missing transition time with
 * minReadySeconds > 0 is not available.
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: Date): boolean {
  const ready = podCondition(pod, 'Ready');
  if (ready?.status !== 'True') return false;
  if (!minReadySeconds) return true;
  const since = ready.lastTransitionTime ? parseRfc3339(ready.lastTransitionTime) : NaN;
  if (Number.isNaN(since)) return false;
  return since + minReadySeconds * 1000 <= now.getTime();
}

/** Seconds left until a Ready pod becomes available, or 0. */
export function secondsUntilAvailable(pod: Pod, minReadySeconds: number, now: Date): number {
  const ready = podCondition(pod, 'Ready');
  if (ready?.status !== 'True' || !minReadySeconds || !ready.lastTransitionTime) return 0;
  const at = parseRfc3339(ready.lastTransitionTime) + minReadySeconds * 1000;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/** Phase Succeeded or Failed. */
export function isPodTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** A deletion timestamp is set: the pod is being deleted (the controller counts it neither old nor new). */
export function isPodTerminating(pod: Pod): boolean {
  return Boolean(pod.metadata?.deletionTimestamp);
}

/**
 * Whether deleting the pod waits for its kubelet: the API server deletes a pod gracefully (it
 * stays, Terminating, until the kubelet confirms) when it is bound, not terminal and its grace
 * period is above 0; one already being deleted waits too
 * (`kubernetes v1.35 pkg/registry/core/pod/strategy.go#CheckGracefulDelete`).
 */
export function deletionWaitsForKubelet(pod: Pod): boolean {
  if (isPodTerminating(pod)) return (pod.metadata?.deletionGracePeriodSeconds ?? 1) > 0;
  return Boolean(pod.spec?.nodeName) && !isPodTerminal(pod) && (pod.spec?.terminationGracePeriodSeconds ?? 30) > 0;
}

/**
 * `podByCreationTimestampAndPhase`: bound pods first, then older creationTimestamp, then name.
 * The first pod after sorting is the one the controller keeps and counts.
 */
export function compareDaemonPodAge(a: Pod, b: Pod): number {
  const aBound = a.spec?.nodeName ? 1 : 0;
  const bBound = b.spec?.nodeName ? 1 : 0;
  if (aBound !== bBound) return bBound - aBound;
  const at = parseRfc3339(a.metadata?.creationTimestamp ?? '') || 0;
  const bt = parseRfc3339(b.metadata?.creationTimestamp ?? '') || 0;
  if (at !== bt) return at - bt;
  return compareText(a.metadata?.name ?? '', b.metadata?.name ?? '');
}

/** Total container restarts of a pod. */
export function podRestarts(pod: Pod): number {
  return (pod.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0);
}
