/**
 * The rollout part of a plan: which nodes the rolling update replaces and in what order, how far
 * it gets before it settles (rollout.ts's fixpoint, or not at all when creates are refused), in
 * how many batches and how long (pace.ts), and the states each node can settle in.
 */
import type { Pod } from '../../model/k8s-types.js';
import type { PlanRollout, PlanSettledState } from '../../model/results.js';
import { formatDuration } from '../../model/duration.js';
import { compareText } from '../../model/order.js';
import type { Budget } from '../../k8s/rollingupdate.js';
import type { NodeWork } from './entries.js';
import { availableNow } from './nodes.js';
import { readinessSeconds } from './pace.js';
import { settleRollout, type ReplaceCandidate } from './rollout.js';

/** What the rollout stage needs from the plan as a whole. */
interface RolloutInput {
  strategy: 'RollingUpdate' | 'OnDelete';
  templateChanged: boolean;
  surge: boolean;
  budget: Budget;
  minReady: number;
  now: Date;
  replacedPods: Pod[];
}

/** The rollout document, and the outcome the nodes' settled states are read from. */
export function planRollout(
  work: NodeWork[],
  input: RolloutInput,
): { doc: PlanRollout; outcome: ReturnType<typeof settleRollout> } {
  const { strategy, surge, budget, minReady, now } = input;
  const replace = work.filter((w) => w.entry.effect === 'replace');
  const candidates: ReplaceCandidate[] = replace.map((w) => ({
    node: w.name,
    oldUnavailable: !availableNow(w.decision.oldPod, minReady, now),
    binds: !w.pending && !w.waitsForDeletion && !w.refused,
  }));
  // Old pods on nodes the new spec no longer wants but lets continue (an untolerated NoSchedule
  // taint): without surge the rolling update deletes them like any old pod, and no unavailability
  // remains once they are gone.
  const leaving = work.filter((w) => w.decision.loseByUpdate);
  if (!surge)
    candidates.push(
      ...leaving.map((w) => ({
        node: w.name,
        oldUnavailable: !availableNow(w.decision.oldPod, minReady, now),
        binds: true,
      })),
    );
  // Unavailable without a replacement: a gained or kept new pod that stays Pending, or a pod
  // already of the new revision that is bound but unavailable now (taken as it is).
  const stuckElsewhere = work.filter(
    (w) =>
      w.entry.effect !== 'replace' &&
      w.decision.sr.shouldRun &&
      (w.pending ||
        w.waitsForDeletion ||
        w.refused ||
        (w.decision.currentPod?.spec?.nodeName !== undefined && !availableNow(w.decision.currentPod, minReady, now))),
  ).length;
  // With surge only surge pods count (numSurge): one already waiting next to its old pod that will stay Pending.
  const surgingForGood = work.filter(
    (w) => w.entry.effect === 'keep' && w.decision.surgeOld !== undefined && w.pending,
  ).length;
  const outcome =
    strategy === 'OnDelete' || rollingUpdateNeverRuns(work, surge)
      ? { replaced: new Set<string>(), undecided: new Set<string>() }
      : settleRollout(
          candidates,
          surge ? budget.maxSurge : budget.maxUnavailable,
          stuckElsewhere,
          surge,
          surgingForGood,
        );
  const order = candidates
    .filter((c) => replace.some((w) => w.name === c.node))
    .sort((a, b) => Number(b.oldUnavailable) - Number(a.oldUnavailable) || compareText(a.node, b.node))
    .map((c) => c.node);
  const step = Math.max(1, surge ? budget.maxSurge : budget.maxUnavailable);
  const batches = strategy === 'OnDelete' ? 0 : Math.ceil(replace.length / step);
  const pace = readinessSeconds(input.replacedPods, minReady, now);
  const doc: PlanRollout = {
    replaced: replace.length > 0,
    strategy,
    maxUnavailable: budget.maxUnavailable,
    maxSurge: budget.maxSurge,
    toReplace: replace.length,
    batches,
    order,
    ...(outcome.blockedAfter !== undefined ? { blockedAfter: outcome.blockedAfter } : {}),
  };
  if (batches > 0 && pace !== undefined) {
    doc.batchSeconds = Math.round(pace);
    doc.estimateSeconds = Math.round(pace * batches);
    doc.estimate = `about ${formatDuration(doc.estimateSeconds * 1000)} (${batches} batch(es) of ${step}, each about ${formatDuration(doc.batchSeconds * 1000)}: minReadySeconds ${minReady} plus the time the current pods took to become Ready)`;
  }
  // With surge they go only while enough pods are available elsewhere: not while a new pod of
  // a node that should run one stays Pending.
  if (surge && strategy === 'RollingUpdate') {
    for (const w of leaving) (stuckElsewhere > 0 ? outcome.undecided : outcome.replaced).add(w.name);
  }
  return { doc, outcome };
}

/**
 * Whether the rolling update never deletes an old pod because creates are refused: manage()
 * returns the create error before rollingUpdate() runs (`kubernetes v1.35
 * pkg/controller/daemon/daemon_controller.go#syncDaemonSet`), so a node that needs a pod at once
 * (a gain) stops it from the start; with surge the surge pods themselves are refused and the old
 * pods stay.
 */
function rollingUpdateNeverRuns(work: NodeWork[], surge: boolean): boolean {
  if (work.some((w) => w.maybeRefused)) return true;
  if (!work.some((w) => w.refused)) return false;
  return surge || work.some((w) => w.refused && w.entry.effect !== 'replace');
}

/** The states a node can settle in. */
export function settledStates(
  w: NodeWork,
  outcome: ReturnType<typeof settleRollout>,
  strategy: 'RollingUpdate' | 'OnDelete',
): PlanSettledState[] {
  const newPod: PlanSettledState = w.waitsForDeletion || w.refused ? 'none' : w.pending ? 'new-pending' : 'new-bound';
  switch (w.entry.effect) {
    case 'none':
      return ['none'];
    case 'lose':
      if (!w.decision.loseByUpdate) return ['none'];
      if (strategy === 'OnDelete') return ['old-kept'];
      if (outcome.replaced.has(w.name)) return ['none'];
      return outcome.undecided.has(w.name) ? ['none', 'old-kept'] : ['old-kept'];
    case 'gain':
      return w.maybeRefused ? [newPod, 'none'] : [newPod];
    case 'keep': {
      const pod = w.decision.currentPod ?? w.decision.oldPod;
      if (!pod) return ['none'];
      if (!w.decision.currentPod) return ['old-kept'];
      return pod.spec?.nodeName ? ['new-bound'] : [newPod];
    }
    case 'replace':
      if (strategy === 'OnDelete') return ['old-kept'];
      if (outcome.replaced.has(w.name)) return [newPod];
      if (outcome.undecided.has(w.name)) return [newPod, 'old-kept'];
      return ['old-kept'];
  }
}
