/**
 * Result documents of every analysis: the stable JSON contract of docs/design.md §4.
 * Renderers turn these into tables, JSON, YAML, Markdown or SARIF. One file per family under
 * results/: what they share (common.ts), placement (`why`, `nodes`, `node`), scan, rollout,
 * impact, lint and plan; this module is the one the rest of the code imports.
 */
import type { CauseCode, ImpactCode, PlanFindingCode, ReasonCode, RolloutReasonCode } from './reasons/index.js';
import type { Severity } from './severity.js';

/** Reason codes (PascalCase, stable): the keys of the registries in model/reasons/. */
export type { CauseCode, ImpactCode, PlanFindingCode, ReasonCode, RolloutReasonCode };

export type { Severity };

export * from './results/common.js';
export * from './results/placement.js';
export * from './results/scan.js';
export * from './results/rollout.js';
export * from './results/impact.js';
export * from './results/lint.js';
export * from './results/plan.js';
