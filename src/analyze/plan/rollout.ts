/**
 * How far the rolling update of the changed DaemonSet gets once everything has settled:
 * kubernetes v1.35 pkg/controller/daemon/update.go#rollingUpdate, run to its fixpoint. Without
 * surge, old pods that are unavailable are replaced regardless of the budget and the others
 * while fewer than maxUnavailable nodes are unavailable; with surge, a new pod is created beside
 * the old one while fewer than maxSurge new pods are unavailable. A new pod the scheduler refuses
 * never becomes available and holds its unit of budget for good. The controller walks a Go map,
 * so which nodes it reaches first is random: when the budget runs out part way, every node not
 * yet reached may end either way.
 */

/** One node the rolling update would replace. */
export interface ReplaceCandidate {
  node: string;
  /** The old pod is unavailable now: it is replaced outside the budget. */
  oldUnavailable: boolean;
  /** The new pod will be bound (it fits, or preemption makes room). */
  binds: boolean;
}

export interface RolloutOutcome {
  /** Nodes certainly replaced, by whether the new pod binds. */
  replaced: Set<string>;
  /** Nodes the rollout may or may not reach, when the budget stops it part way. */
  undecided: Set<string>;
  /** Set when the budget stops the rollout: the most nodes left with a Pending new pod. */
  blockedAfter?: number;
}

/**
 * The settled rollout: `budget` is maxSurge when surging, else maxUnavailable; `stuckElsewhere`
 * counts the nodes already unavailable for good without a replacement (a new pod that will stay
 * Pending on a node that gains one, an existing new pod that stays unavailable). Surge counts only
 * the surge pods themselves (`numSurge`): `surging`, the new pods already next to their old pod
 * that stay unavailable.
 */
export function settleRollout(
  candidates: ReplaceCandidate[],
  budget: number,
  stuckElsewhere: number,
  surge: boolean,
  surging = 0,
): RolloutOutcome {
  const replaced = new Set<string>();
  const undecided = new Set<string>();
  // Replaced whatever the budget: nodes whose old pod is unavailable.
  const forced = candidates.filter((c) => c.oldUnavailable);
  for (const c of forced) replaced.add(c.node);
  let held = (surge ? surging : stuckElsewhere) + forced.filter((c) => !c.binds).length;
  const rest = candidates.filter((c) => !c.oldUnavailable);
  const stuck = rest.filter((c) => !c.binds);
  const room = budget - held;
  if (room > 0 && stuck.length < room) {
    // The budget never runs out: every node is replaced.
    for (const c of rest) replaced.add(c.node);
    return { replaced, undecided };
  }
  if (!rest.length) return { replaced, undecided };
  if (room <= 0) {
    // Nothing more is replaced: every other node keeps its old pod.
    return { replaced, undecided, blockedAfter: held };
  }
  // The budget runs out after `room` more nodes go Pending; which ones depends on the order.
  held += room;
  for (const c of rest) undecided.add(c.node);
  return { replaced, undecided, blockedAfter: held };
}
