/**
 * Rolling-update arithmetic of the DaemonSet controller: `GetScaledValueFromIntOrPercent`
 * (k8s.io/apimachinery/pkg/util/intstr), `UnavailableCount` / `SurgeCount` / `AllowsSurge`
 * (pkg/controller/daemon/util/daemonset_util.go), `updatedDesiredNodeCounts` and
 * `findUpdatedPodsOnNode` (pkg/controller/daemon/update.go), docs/semantics.md §3.2–§3.4.
 */
import type { DaemonSet, IntOrString, Pod } from '../model/k8s-types.js';
import { isRollingUpdate } from './defaults.js';
import { isPodUpdated } from './revision.js';

/**
 * `GetScaledValueFromIntOrPercent(v, total, roundUp)`: an int as is, "N%" of total (rounded up
 * or down). Returns undefined for a value that does not parse.
 */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  const m = /^(\d+)%$/.exec(v.trim());
  // A string that is not a percentage is an error upstream ("string is not a percentage").
  if (!m) return undefined;
  const pct = Number(m[1]);
  return roundUp ? Math.ceil((pct * total) / 100) : Math.floor((pct * total) / 100);
}

export interface Budget {
  maxUnavailable: number;
  maxSurge: number;
  /** True when both were 0 and maxUnavailable was forced to 1. */
  forcedOne: boolean;
  /** Set when a value does not parse: the controller's rollingUpdate returns this error. */
  error?: string;
}

/**
 * `updatedDesiredNodeCounts`: maxSurge and maxUnavailable resolved against
 * desiredNumberScheduled, percentages rounded up; both 0 with desired > 0 → maxUnavailable 1.
 */
export function rollingBudget(ds: DaemonSet, desired: number): Budget {
  const ru = ds.spec?.updateStrategy?.rollingUpdate;
  if (!isRollingUpdate(ds) || !ru) {
    // API defaulting gives maxUnavailable 1 when rollingUpdate is omitted on a RollingUpdate DaemonSet.
    return { maxUnavailable: isRollingUpdate(ds) ? 1 : 0, maxSurge: 0, forcedOne: false };
  }
  const surge = ru.maxSurge === undefined ? 0 : scaledValue(ru.maxSurge, desired, true);
  if (surge === undefined) return { maxUnavailable: 0, maxSurge: 0, forcedOne: false, error: `invalid value for MaxSurge: ${String(ru.maxSurge)}` };
  const unavailable = ru.maxUnavailable === undefined ? 1 : scaledValue(ru.maxUnavailable, desired, true);
  if (unavailable === undefined) return { maxUnavailable: 0, maxSurge: 0, forcedOne: false, error: `couldn't get unavailable numbers: invalid value for MaxUnavailable: ${String(ru.maxUnavailable)}` };
  if (desired > 0 && surge === 0 && unavailable === 0) return { maxUnavailable: 1, maxSurge: 0, forcedOne: true };
  return { maxUnavailable: unavailable, maxSurge: surge, forcedOne: false };
}

/** `util.AllowsSurge(ds)`: a positive maxSurge (int or percent). */
export function allowsSurge(ds: DaemonSet): boolean {
  const ru = ds.spec?.updateStrategy?.rollingUpdate;
  if (!isRollingUpdate(ds) || !ru) return false;
  return (scaledValue(ru.maxSurge, 1, true) ?? 0) > 0;
}

export interface NodePods {
  newPod?: Pod;
  oldPod?: Pod;
  /** False when there is more than one new or more than one old pod (manage() prunes them). */
  ok: boolean;
}

/** `findUpdatedPodsOnNode`: pods with a deletionTimestamp are ignored; at most one new and one old. */
export function findUpdatedPodsOnNode(pods: Pod[], hash: string, generation: number | undefined): NodePods {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const p of pods) {
    if (p.metadata?.deletionTimestamp) continue;
    if (isPodUpdated(p, hash, generation)) {
      if (newPod) return { ok: false };
      newPod = p;
    } else {
      if (oldPod) return { ok: false };
      oldPod = p;
    }
  }
  return { ok: true, ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}) };
}
