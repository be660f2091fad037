/**
 * Rolling-update budgets as the DaemonSet controller resolves them (reference §3.2):
 * `intstr.GetScaledValueFromIntOrPercent` with round-up, API defaults (`SetDefaults_DaemonSet`:
 * maxUnavailable 1, maxSurge 0) and the "both zero → 1" rule of `updatedDesiredNodeCounts`.
 */
import type { DaemonSet, IntOrString } from '../model/k8s-types.js';
import { parsePercent } from './template.js';

/**
 * `GetScaledValueFromIntOrPercent(v, total, roundUp=true)`: an int as is, `p%` as
 * ceil(p × total / 100). Undefined for a value the controller rejects (a string without `%`).
 */
export function scaledValue(value: IntOrString | undefined, total: number): number | undefined {
  if (value === undefined) return 0;
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  const percent = parsePercent(value);
  if (percent === undefined) return undefined;
  return Math.ceil((percent * total) / 100);
}

/** The budgets of one rollout, or why they cannot be resolved. */
export type RollingBudget =
  | { kind: 'OnDelete' }
  | { kind: 'RollingUpdate'; maxUnavailable: number; maxSurge: number }
  | { kind: 'Invalid'; error: string };

/** True when the update strategy is RollingUpdate, written or defaulted. */
export function isRollingUpdate(ds: DaemonSet): boolean {
  const type = ds.spec?.updateStrategy?.type;
  return type === undefined || type === 'RollingUpdate';
}

/** True when `maxSurge` is a positive int or percentage (`util.AllowsSurge`). */
export function allowsSurge(ds: DaemonSet): boolean {
  if (!isRollingUpdate(ds)) return false;
  const surge = ds.spec?.updateStrategy?.rollingUpdate?.maxSurge;
  return (scaledValue(surge, 1) ?? 0) > 0;
}

/** maxUnavailable and maxSurge for `desired` nodes, rounded the way the controller rounds them. */
export function rollingBudget(ds: DaemonSet, desired: number): RollingBudget {
  if (!isRollingUpdate(ds)) return { kind: 'OnDelete' };
  const rolling = ds.spec?.updateStrategy?.rollingUpdate;
  // API defaulting fills maxUnavailable 1 and maxSurge 0 before the controller sees the object.
  const unavailableValue = rolling?.maxUnavailable ?? 1;
  const maxUnavailable = scaledValue(unavailableValue, desired);
  if (maxUnavailable === undefined) return { kind: 'Invalid', error: `invalid value for MaxUnavailable: ${String(unavailableValue)}` };
  const maxSurge = scaledValue(rolling?.maxSurge, desired);
  if (maxSurge === undefined) return { kind: 'Invalid', error: `invalid value for MaxSurge: ${String(rolling?.maxSurge)}` };
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) return { kind: 'RollingUpdate', maxUnavailable: 1, maxSurge: 0 };
  return { kind: 'RollingUpdate', maxUnavailable, maxSurge };
}
