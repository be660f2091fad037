/**
 * One judgement, shared by `why`, `rollout` and `scan`, of whether a pod's trouble resolves on its
 * own: a transient state (containers being created, a pod waiting for the scheduler, a readiness
 * probe not yet passing) is stuck once the pod is older than `--stuck-after` plus the
 * DaemonSet's minReadySeconds (a new pod cannot be available sooner); an error that is not
 * transient is stuck at once.
 */
import type { Pod } from '../model/k8s-types.js';
import type { Reason, ReasonCode } from '../model/results.js';
import { parseRfc3339 } from '../model/duration.js';

/** The default of `--stuck-after`, in seconds. */
export const DEFAULT_STUCK_AFTER = 600;

/** Reason codes that resolve on their own, given time. */
export const TRANSIENT: ReadonlySet<ReasonCode> = new Set([
  'ContainerCreating',
  'NotAvailableYet',
  'NotYetCreated',
  'FailedScheduling',
  'ReadinessProbeFailing',
  'PodTerminating',
  'ControllerNotObserved',
]);

/** Seconds since the pod was created (infinite when unknown: an unknown age is no excuse). */
export function podAgeSeconds(pod: Pod | undefined, now: Date): number {
  const t = parseRfc3339(pod?.metadata?.creationTimestamp ?? '');
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : (now.getTime() - t) / 1000;
}

/** Whether the pod is past the time a transient state may last. */
export function isPastStuckAfter(
  pod: Pod | undefined,
  now: Date,
  stuckAfter: number,
  minReadySeconds: number,
): boolean {
  return podAgeSeconds(pod, now) > stuckAfter + minReadySeconds;
}

/**
 * Whether a pod's reasons describe a state that will not resolve without someone acting. Only
 * warnings and errors count; NotAvailableYet ends by the clock whatever the pod's age.
 */
export function isStuck(
  reasons: Reason[],
  pod: Pod | undefined,
  now: Date,
  stuckAfter: number,
  minReadySeconds: number,
): boolean {
  const problems = reasons.filter((r) => r.severity !== 'info' && r.code !== 'OutdatedRevision');
  if (problems.some((r) => r.severity === 'error' && !TRANSIENT.has(r.code))) return true;
  if (!problems.length) return false;
  return isPastStuckAfter(pod, now, stuckAfter, minReadySeconds);
}
