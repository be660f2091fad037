/**
 * `rollout`: is the rolling update complete, progressing or stuck, and why. Re-runs the
 * controller's budget loop (`rollingUpdate` in pkg/controller/daemon/update.go, mirrored in
 * k8s/rollingupdate.ts; docs/semantics.md §3.3 non-surge and §3.4 surge, with the 1.31 rule that
 * unavailable old pods count against maxUnavailable), classifies every node that uses the budget
 * with the placement engine's reasons (budget.ts), decides whether anything can move without
 * someone acting (facts.ts), and reports one reason per finding (reasons.ts).
 */
import type { DaemonSet } from '../../model/k8s-types.js';
import { API_VERSION, type RolloutDiagnosis } from '../../model/results.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import { DEFAULT_STUCK_AFTER } from '../stuck.js';
import { SLOT_TEXT } from './budget.js';
import { rolloutFacts } from './facts.js';
import { kubectlStatus, rolloutHistory } from './history.js';
import { nextSteps, remainingEstimate } from './next-steps.js';
import { rolloutReasons } from './reasons.js';

/** Diagnoses the rollout of one DaemonSet. `stuckAfter` is in seconds. */
export function diagnoseRollout(
  index: SnapshotIndex,
  ds: DaemonSet,
  now: Date,
  stuckAfter = DEFAULT_STUCK_AFTER,
): RolloutDiagnosis {
  const f = rolloutFacts(index, ds, now, stuckAfter);
  const reasons = rolloutReasons(f);
  const history = rolloutHistory(index, ds, f.ctx.revision.hash, now);
  const estimate = remainingEstimate(f);
  // Load warnings too (duplicates kept, kinds taken as collected with none), as why and scan give them.
  const notes = [...f.ctx.notes, ...index.snapshot.warnings, ...history.notes];
  return {
    apiVersion: API_VERSION,
    kind: 'RolloutDiagnosis',
    daemonSet: { namespace: f.ns, name: f.name },
    strategy: f.strategy,
    verdict: f.verdict,
    desired: f.status.desired,
    updated: f.status.updated,
    available: f.status.available,
    unavailable: f.status.unavailable,
    maxUnavailable: f.budget.maxUnavailable,
    maxSurge: f.budget.maxSurge,
    blockers: f.blockers,
    reasons,
    kubectlStatus: kubectlStatus(ds),
    revisions: history.revisions,
    templateDiff: history.templateDiff,
    // Being deleted, the one next step is the deletion's: nothing else moves.
    nextSteps: f.deleting ? reasons.map((r) => r.fix) : nextSteps(f, reasons),
    ...(estimate ? { estimate } : {}),
    budgetUsed: f.used,
    budgetInUse: f.uses.map((u) => ({
      node: u.node,
      pod: u.pod?.metadata?.name ?? '',
      state: SLOT_TEXT[u.slot],
      code: u.code,
      resolvesOnItsOwn: !u.hard,
    })),
    ...(notes.length ? { notes } : {}),
  };
}
