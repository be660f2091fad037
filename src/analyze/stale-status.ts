/**
 * Where a DaemonSet's `.status` and the counts recomputed from the snapshot's pods and nodes
 * disagree (docs/semantics.md §3.8): the controller is behind, or the dump caught things changing.
 */
import type { DaemonSet } from '../model/k8s-types.js';
import type { StatusCounts } from '../model/results.js';
import { reportedStatus } from '../k8s/status.js';

const FIELDS: [keyof StatusCounts, string][] = [
  ['desired', 'desiredNumberScheduled'],
  ['current', 'currentNumberScheduled'],
  ['ready', 'numberReady'],
  ['updated', 'updatedNumberScheduled'],
  ['available', 'numberAvailable'],
  ['misscheduled', 'numberMisscheduled'],
];

/** "numberAvailable 1 (recomputed 2)" per counter that differs; empty without a `.status`. */
export function statusDifferences(ds: DaemonSet, recomputed: StatusCounts): string[] {
  if (!ds.status) return [];
  const reported = reportedStatus(ds);
  return FIELDS.filter(([k]) => reported[k] !== recomputed[k]).map(
    ([k, f]) => `${f} ${reported[k]} (recomputed ${recomputed[k]})`,
  );
}

/** Whether the controller has observed the DaemonSet's latest spec. */
export function statusObserved(ds: DaemonSet): boolean {
  return (ds.status?.observedGeneration ?? 0) >= (ds.metadata?.generation ?? 0);
}

/**
 * The differences of a `.status` whose spec the controller has observed: counts that lag
 * although nothing is pending on the spec side. Empty when they agree or the spec is unobserved.
 */
export function statusDisagreement(ds: DaemonSet, recomputed: StatusCounts): string[] {
  return statusObserved(ds) ? statusDifferences(ds, recomputed) : [];
}
