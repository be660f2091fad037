/**
 * Rolling-update arithmetic of the DaemonSet controller: `GetScaledValueFromIntOrPercent`
 * (k8s.io/apimachinery/pkg/util/intstr), `UnavailableCount` / `SurgeCount` / `AllowsSurge`
 * (pkg/controller/daemon/util/daemonset_util.go), `updatedDesiredNodeCounts`,
 * `findUpdatedPodsOnNode` and the node loop of `rollingUpdate` (kubernetes v1.35
 * pkg/controller/daemon/update.go), docs/semantics.md §3.2–§3.4.
 */
import type { DaemonSet, IntOrString, Pod } from '../model/k8s-types.js';
import { isRollingUpdate } from './defaults.js';
import { isPodAvailable } from './podutil.js';
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
  if (surge === undefined)
    return {
      maxUnavailable: 0,
      maxSurge: 0,
      forcedOne: false,
      error: `invalid value for MaxSurge: ${String(ru.maxSurge)}`,
    };
  const unavailable = ru.maxUnavailable === undefined ? 1 : scaledValue(ru.maxUnavailable, desired, true);
  if (unavailable === undefined)
    return {
      maxUnavailable: 0,
      maxSurge: 0,
      forcedOne: false,
      error: `couldn't get unavailable numbers: invalid value for MaxUnavailable: ${String(ru.maxUnavailable)}`,
    };
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

/**
 * Why a node holds the rolling update back, as the node loop of `rollingUpdate` sees it:
 * `findUpdatedPodsOnNode` not ok (`duplicates`), no pod or an old and a new pod side by side
 * (the manage loop's to sort out), a new pod not available yet, an old pod not available (a
 * replacement the controller allows whatever the budget), or a surge pod not available yet.
 */
export type BudgetSlot = 'no-pod' | 'duplicates' | 'old-and-new' | 'new-unavailable' | 'old-unavailable' | 'surging';

/** One node entry of the loop: its daemon pods and whether the DaemonSet should run there. */
export interface NodeDaemonPods {
  node: string;
  pods: Pod[];
  /** `NodeShouldRunDaemonPod`'s shouldRun for the node. */
  shouldRun: boolean;
}

/** A node that holds the update back, with the pod that holds it (none for a node without a pod). */
export interface SlotUse {
  node: string;
  slot: BudgetSlot;
  pod?: Pod;
}

export interface RollingUpdateNodes {
  /**
   * Nodes that hold the update back, in the order given. Without surge each counts against
   * maxUnavailable (`numUnavailable`); with surge only `numSurge` counts against maxSurge.
   */
  uses: SlotUse[];
  /** Nodes whose available old pod the controller replaces next, as far as the budget allows. */
  candidates: string[];
  /** `numSurge`: nodes counted against maxSurge (duplicates and new pods not available yet). */
  numSurge: number;
}

/** What the revision of the update is and when a pod counts as available. */
export interface UpdateTarget {
  hash: string;
  generation: number | undefined;
  minReadySeconds: number;
  now: Date;
}

/**
 * The node loop of `rollingUpdate` with maxSurge 0: nodes that are unavailable hold budget, an
 * unavailable old pod is replaced regardless of it, and an available old pod is a candidate.
 * `nodes` are the entries of `nodeToDaemonPods` after `updatedDesiredNodeCounts` added the
 * desired nodes without pods.
 */
function rollingUpdateWithoutSurge(nodes: NodeDaemonPods[], target: UpdateTarget): RollingUpdateNodes {
  const uses: SlotUse[] = [];
  const candidates: string[] = [];
  const available = (p: Pod) => isPodAvailable(p, target.minReadySeconds, target.now);
  for (const { node, pods, shouldRun } of nodes) {
    const { ok, newPod, oldPod } = findUpdatedPodsOnNode(pods, target.hash, target.generation);
    if (!ok) uses.push({ node, slot: 'duplicates' });
    else if (!newPod && !oldPod) {
      if (shouldRun || pods.length) uses.push({ node, slot: 'no-pod', ...(pods[0] ? { pod: pods[0] } : {}) });
    } else if (newPod && oldPod) uses.push({ node, slot: 'old-and-new', pod: newPod });
    else if (newPod) {
      if (!available(newPod)) uses.push({ node, slot: 'new-unavailable', pod: newPod });
    } else if (!available(oldPod!)) uses.push({ node, slot: 'old-unavailable', pod: oldPod! });
    else candidates.push(node);
  }
  return { uses, candidates, numSurge: 0 };
}

/**
 * The node loop of `rollingUpdate` with a positive maxSurge: a new pod not yet available next
 * to the old one counts against maxSurge, an unavailable old pod gets its new pod regardless,
 * and a node with only an available old pod is a candidate. Nodes without an old pod are the
 * manage loop's; they are listed when their pod is missing or not available.
 */
function rollingUpdateWithSurge(nodes: NodeDaemonPods[], target: UpdateTarget): RollingUpdateNodes {
  const uses: SlotUse[] = [];
  const candidates: string[] = [];
  let numSurge = 0;
  const available = (p: Pod) => isPodAvailable(p, target.minReadySeconds, target.now);
  for (const { node, pods, shouldRun } of nodes) {
    const { ok, newPod, oldPod } = findUpdatedPodsOnNode(pods, target.hash, target.generation);
    if (!ok) {
      numSurge++;
      uses.push({ node, slot: 'duplicates' });
      continue;
    }
    if (!oldPod) {
      if (!newPod && shouldRun) uses.push({ node, slot: 'no-pod', ...(pods[0] ? { pod: pods[0] } : {}) });
      else if (newPod && !available(newPod)) uses.push({ node, slot: 'new-unavailable', pod: newPod });
      continue;
    }
    if (!newPod) {
      if (!available(oldPod)) uses.push({ node, slot: 'old-unavailable', pod: oldPod });
      else if (shouldRun) candidates.push(node);
      continue;
    }
    if (!available(newPod)) {
      numSurge++;
      uses.push({ node, slot: 'surging', pod: newPod });
    }
  }
  return { uses, candidates, numSurge };
}

/** `rollingUpdate`'s node loop, the surge branch when `AllowsSurge(ds)`. */
export function rollingUpdateNodes(nodes: NodeDaemonPods[], target: UpdateTarget, surge: boolean): RollingUpdateNodes {
  return surge ? rollingUpdateWithSurge(nodes, target) : rollingUpdateWithoutSurge(nodes, target);
}
