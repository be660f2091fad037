/**
 * What the rollout diagnosis knows about one DaemonSet, computed once: the recomputed status, the
 * budget, the nodes that use it, what stops the controller, and the verdict.
 */
import type { DaemonSet, KubeEvent } from '../../model/k8s-types.js';
import type { RolloutBlocker, RolloutDiagnosis } from '../../model/results.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import { recomputeStatus, type RecomputedStatus } from '../../k8s/status.js';
import { allowsSurge, rollingBudget, type Budget } from '../../k8s/rollingupdate.js';
import { rollbackAdvice } from '../../k8s/rollback.js';
import { updateStrategyType } from '../../k8s/defaults.js';
import { daemonSetContext, diagnoseAllNodes, type DaemonSetContext, type NodeVerdict } from '../placement/index.js';
import {
  SLOT_TEXT,
  createFailuresSinceRevision,
  holdBlockedReplacements,
  nodeBudget,
  type BudgetUse,
} from './budget.js';

export type RolloutVerdict = RolloutDiagnosis['verdict'];

export interface RolloutFacts {
  index: SnapshotIndex;
  ds: DaemonSet;
  ctx: DaemonSetContext;
  now: Date;
  ns: string;
  name: string;
  rows: NodeVerdict[];
  /** The rollback tail of a fix (`, or roll back: …`). */
  rollback: string;
  status: RecomputedStatus;
  strategy: 'OnDelete' | 'RollingUpdate';
  budget: Budget;
  surge: boolean;
  minReady: number;
  /** Nodes that use the budget (none under OnDelete, which has no budget). */
  uses: BudgetUse[];
  leaving: BudgetUse[];
  candidates: string[];
  /** Creations refused since the current revision. */
  createFailures: KubeEvent[];
  /** Surging, and the API refuses the surge pods. */
  surgeBlocked: boolean;
  /** Nodes without a pod whose pod the API refuses. */
  refusedNodes: BudgetUse[];
  /** manage() fails before rollingUpdate() runs: no old pod is replaced anywhere. */
  manageBlocked: boolean;
  /** Budget in use: surge pods when surging, else unavailable nodes. */
  used: number;
  /** maxSurge when surging, else maxUnavailable. */
  limit: number;
  hardUses: BudgetUse[];
  transient: BudgetUse[];
  /** Nodes that are not available, whatever the strategy (surge pods excluded). */
  unavailableUses: BudgetUse[];
  blockers: RolloutBlocker[];
  /** Desired nodes not yet updated. */
  outdated: number;
  /** Nodes whose pod is of an old revision; a node without a pod is not waiting for anyone to delete one. */
  oldPods: number;
  /**
   * The DaemonSet is being deleted: syncDaemonSet returns before manage() and rollingUpdate()
   * when `ds.DeletionTimestamp != nil` (kubernetes v1.35.4 pkg/controller/daemon/daemon_controller.go),
   * so no node uses a budget and .status is no longer updated.
   */
  deleting: boolean;
  verdict: RolloutVerdict;
}

/** Whether the rollout is pending, complete, progressing, stuck or waiting for someone (OnDelete). */
function rolloutVerdict(f: Omit<RolloutFacts, 'verdict'>): RolloutVerdict {
  // Nothing moves for a DaemonSet being deleted until it is gone.
  if (f.deleting) return 'Stuck';
  if ((f.ds.status?.observedGeneration ?? 0) < (f.ds.metadata?.generation ?? 0)) return 'Pending';
  if (f.budget.error) return 'Stuck';
  if (f.strategy === 'OnDelete') {
    // OnDelete leaves old pods to the user; pods missing or unavailable are the controller's and
    // the kubelet's to sort out, or are blocked like under RollingUpdate.
    // Every desired node runs an updated pod: nothing is left to roll, whether or not each pod is
    // available (an unavailable one is its node's or the kubelet's trouble, not the rollout's).
    return f.oldPods > 0
      ? 'Manual'
      : f.status.updated >= f.status.desired
        ? 'Complete'
        : f.transient.length > 0
          ? 'Progressing'
          : 'Stuck';
  }
  if (f.status.updated >= f.status.desired && f.status.available >= f.status.desired) return 'Complete';
  // Progress is possible when a transient state will resolve, or budget is left for a candidate.
  const canDeleteMore = f.candidates.length > 0 && f.used < f.limit && !f.surgeBlocked && !f.manageBlocked;
  return f.transient.length > 0 || canDeleteMore || f.leaving.some((l) => !l.hard) ? 'Progressing' : 'Stuck';
}

/** Gathers the facts of one DaemonSet's rollout. `stuckAfter` is in seconds. */
export function rolloutFacts(index: SnapshotIndex, ds: DaemonSet, now: Date, stuckAfter: number): RolloutFacts {
  const ctx = daemonSetContext(index, ds);
  const ns = ctx.namespace;
  const name = ctx.name;
  const rows = diagnoseAllNodes(index, ds, now, stuckAfter);
  const status = recomputeStatus(index, ds, ctx.revision.hash, ctx.revision.generation, now);
  const strategy = updateStrategyType(ds) === 'OnDelete' ? 'OnDelete' : 'RollingUpdate';
  const budget = rollingBudget(ds, status.desired);
  const surge = allowsSurge(ds);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const createFailures = createFailuresSinceRevision(ctx);
  const surgeBlocked = surge && createFailures.length > 0;
  const { uses, leaving, candidates, numSurge, shouldRun } = nodeBudget(index, {
    ctx,
    rows,
    now,
    stuckAfter,
    surge,
    minReady,
  });
  // manage() runs before rollingUpdate() and returns the create error (updateDaemonSet in
  // pkg/controller/daemon/daemon_controller.go): while the API refuses the pod of a node that has
  // none, every sync stops there and no old pod is replaced anywhere, unavailable ones included.
  const refusedNodes = uses.filter((u) => u.slot === 'no-pod' && u.code === 'FailedCreate' && u.hard);
  const manageBlocked = strategy === 'RollingUpdate' && refusedNodes.length > 0;
  holdBlockedReplacements(uses, shouldRun, manageBlocked, surgeBlocked);
  // OnDelete has no budget: syncDaemonSet runs rollingUpdate only for RollingUpdate
  // (pkg/controller/daemon/daemon_controller.go), so an unavailable pod holds nothing back. A
  // desired node without a pod still waits for manage() to create one.
  const deleting = Boolean(ds.metadata?.deletionTimestamp);
  const waiting = deleting ? [] : strategy === 'OnDelete' ? uses.filter((u) => u.slot === 'no-pod') : uses;
  const budgetUses = strategy === 'OnDelete' || deleting ? [] : uses;
  const unavailableUses = budgetUses.filter((u) => u.slot !== 'surging');
  const hardUses = waiting.filter((u) => u.hard);
  const facts = {
    index,
    ds,
    ctx,
    now,
    ns,
    name,
    rows,
    status,
    strategy,
    budget,
    surge,
    minReady,
    rollback: rollbackAdvice(ctx.rollback, ns, name),
    uses: budgetUses,
    leaving,
    candidates: deleting ? [] : candidates,
    createFailures,
    surgeBlocked,
    refusedNodes,
    manageBlocked,
    used: surge ? numSurge : unavailableUses.length,
    limit: surge ? budget.maxSurge : budget.maxUnavailable,
    hardUses,
    transient: waiting.filter((u) => !u.hard),
    unavailableUses,
    blockers: [...hardUses, ...leaving.filter((l) => l.hard)].map((u) => ({
      node: u.node,
      pod: u.pod?.metadata?.name ?? '',
      code: u.code,
      message: `${SLOT_TEXT[u.slot]}: ${u.message}`,
    })),
    outdated: status.desired - status.updated,
    oldPods: status.current - status.updated,
    deleting,
  } satisfies Omit<RolloutFacts, 'verdict'>;
  return { ...facts, verdict: rolloutVerdict(facts) };
}
