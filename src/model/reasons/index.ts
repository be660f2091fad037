/** The reason-code registries, one per family; docs/reasons.md is generated from REASON_FAMILIES. */
import type { ReasonFamily } from './entry.js';
import { CAUSE_RULES } from './causes.js';
import { IMPACT_FINDINGS } from './impact.js';
import { PLACEMENT_REASONS } from './placement.js';
import { PLAN_FINDINGS } from './plan.js';
import { ROLLOUT_REASONS } from './rollout.js';

export type { ReasonEntry, ReasonFamily } from './entry.js';
export { CAUSE_RULES, type CauseCode, type CauseEntry } from './causes.js';
export { IMPACT_FINDINGS, type ImpactCode } from './impact.js';
export { PLACEMENT_REASONS, type ReasonCode } from './placement.js';
export { PLAN_FINDINGS, type PlanFindingCode } from './plan.js';
export { ROLLOUT_REASONS, type RolloutReasonCode } from './rollout.js';

export const REASON_FAMILIES = {
  placement: {
    title: 'Node verdict reasons',
    appearsIn: '`why`, `nodes`, `node` and `scan`: `reasons[].code`',
    entries: PLACEMENT_REASONS,
  },
  rollout: { title: 'Rollout reasons', appearsIn: '`rollout`: `reasons[].code`', entries: ROLLOUT_REASONS },
  impact: { title: 'Impact findings', appearsIn: '`impact`: `findings[].code`', entries: IMPACT_FINDINGS },
  plan: { title: 'Plan findings', appearsIn: '`plan`: `findings[].code`', entries: PLAN_FINDINGS },
  causes: {
    title: 'Root causes',
    appearsIn: 'every result kind: `causes[].code` (`scan` groups them across DaemonSets)',
    entries: CAUSE_RULES,
  },
} as const satisfies Record<string, ReasonFamily>;
