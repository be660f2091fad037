/** How long a daemon pod takes to become available, from the pods the DaemonSet runs now. */
import type { Pod } from '../../model/k8s-types.js';
import { parseRfc3339 } from '../../model/duration.js';
import { isPodAvailable, podCondition } from '../../k8s/podutil.js';

/**
 * The median seconds from a pod's creation to its Ready condition, plus minReadySeconds, over
 * the available pods; undefined when none tells.
 */
export function readinessSeconds(pods: Pod[], minReadySeconds: number, now: Date): number | undefined {
  const times = pods
    .filter((p) => isPodAvailable(p, minReadySeconds, now))
    .map(
      (p) =>
        (parseRfc3339(podCondition(p, 'Ready')?.lastTransitionTime ?? '') -
          parseRfc3339(p.metadata?.creationTimestamp ?? '')) /
        1000,
    )
    .filter((s) => Number.isFinite(s) && s >= 0)
    .sort((a, b) => a - b);
  if (!times.length) return undefined;
  const mid = Math.floor(times.length / 2);
  const median = times.length % 2 ? times[mid]! : (times[mid - 1]! + times[mid]!) / 2;
  return median + minReadySeconds;
}
