/**
 * DaemonSet status as the controller computes it: `updateDaemonSetStatus`
 * (pkg/controller/daemon/daemon_controller.go), docs/semantics.md §3.8.
 */
import type { DaemonSet } from '../model/k8s-types.js';
import type { StatusCounts } from '../model/results.js';
import { objectKey, type SnapshotIndex } from '../model/snapshot-index.js';
import { compileDaemonPlacement } from './daemonpod.js';
import { nodesToDaemonPods } from './controller.js';
import { compareDaemonPodAge, isPodAvailable, isPodReady } from './podutil.js';
import { isPodUpdated } from './revision.js';

/** The seven counters plus numberUnavailable, recomputed over the snapshot's nodes. */
export interface RecomputedStatus extends StatusCounts {
  unavailable: number;
}

/**
 * Recomputes the status counters the controller would write, given the current revision hash.
 * Computed once per index and arguments: scan and the rollout analysis both need it.
 */
export function recomputeStatus(
  index: SnapshotIndex,
  ds: DaemonSet,
  hash: string,
  generation: number | undefined,
  now: Date,
): RecomputedStatus {
  const key = `status:${objectKey(ds)}:${hash}:${generation}:${now.getTime()}`;
  // A copy each time, so that no caller can change what the next one gets.
  return { ...index.cached(key, () => computeStatus(index, ds, hash, generation, now)) };
}

function computeStatus(
  index: SnapshotIndex,
  ds: DaemonSet,
  hash: string,
  generation: number | undefined,
  now: Date,
): RecomputedStatus {
  const byNode = nodesToDaemonPods(index, ds);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const s: RecomputedStatus = {
    desired: 0,
    current: 0,
    ready: 0,
    updated: 0,
    available: 0,
    misscheduled: 0,
    unavailable: 0,
  };
  const placement = compileDaemonPlacement(ds);
  for (const node of index.snapshot.nodes) {
    const { shouldRun } = placement.evaluate(node);
    const pods = byNode.get(node.metadata?.name ?? '') ?? [];
    const scheduled = pods.length > 0;
    if (shouldRun) {
      s.desired++;
      if (scheduled) {
        s.current++;
        // The oldest pod (the first of the pods sorted by compareDaemonPodAge).
        const pod = pods.reduce((oldest, p) => (compareDaemonPodAge(p, oldest) < 0 ? p : oldest));
        if (isPodReady(pod)) {
          s.ready++;
          if (isPodAvailable(pod, minReady, now)) s.available++;
        }
        if (isPodUpdated(pod, hash, generation)) s.updated++;
      }
    } else if (scheduled) {
      s.misscheduled++;
    }
  }
  s.unavailable = s.desired - s.available;
  return s;
}

/** The counters as the DaemonSet's `.status` reports them (absent fields are 0). */
export function reportedStatus(ds: DaemonSet): RecomputedStatus {
  const st = ds.status ?? {};
  return {
    desired: st.desiredNumberScheduled ?? 0,
    current: st.currentNumberScheduled ?? 0,
    ready: st.numberReady ?? 0,
    updated: st.updatedNumberScheduled ?? 0,
    available: st.numberAvailable ?? 0,
    misscheduled: st.numberMisscheduled ?? 0,
    unavailable: st.numberUnavailable ?? 0,
  };
}
