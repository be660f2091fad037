/**
 * The document of `rollout` (docs/design.md §4): the rollout's verdict, the budget and who holds
 * it, the blockers and reasons, the revisions and the template diff, the next steps.
 */
import type { RolloutReasonCode } from '../reasons/index.js';
import type { Severity } from '../severity.js';
import type { API_VERSION, ObjectRef, RootCause } from './common.js';

export interface RolloutBlocker {
  node: string;
  pod: string;
  code: string;
  message: string;
}

export interface RolloutReason {
  code: RolloutReasonCode;
  severity: Severity;
  message: string;
  evidence: string[];
  fix: string;
}

export interface RevisionInfo {
  revision: number;
  name: string;
  hash: string;
  age?: string;
  changeCause?: string;
  current: boolean;
  images: string[];
}

export interface RolloutDiagnosis {
  apiVersion: typeof API_VERSION;
  kind: 'RolloutDiagnosis';
  daemonSet: ObjectRef;
  strategy: 'RollingUpdate' | 'OnDelete';
  verdict: 'Complete' | 'Progressing' | 'Stuck' | 'Pending' | 'Manual';
  desired: number;
  updated: number;
  available: number;
  unavailable: number;
  maxUnavailable: number;
  maxSurge: number;
  blockers: RolloutBlocker[];
  reasons: RolloutReason[];
  kubectlStatus: string;
  revisions: RevisionInfo[];
  templateDiff: string[];
  nextSteps: string[];
  estimate?: string;
  /** Units of the budget in use: unavailable nodes (maxUnavailable) or surging nodes (maxSurge). */
  budgetUsed: number;
  /** Every node that holds a unit of the maxUnavailable (or maxSurge) budget now, and why. */
  budgetInUse: { node: string; pod: string; state: string; code: string; resolvesOnItsOwn: boolean }[];
  causes?: RootCause[];
  notes?: string[];
}
