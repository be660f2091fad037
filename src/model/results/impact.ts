/**
 * The document of `impact` (docs/design.md §4): what deleting the DaemonSet breaks, the risk and
 * the reasons for it, the roles inferred with their evidence, and the safer alternatives.
 */
import type { ImpactCode } from '../reasons/index.js';
import type { Severity } from '../severity.js';
import type { API_VERSION, ObjectRef, RootCause } from './common.js';

export type Risk = 'critical' | 'high' | 'medium' | 'low';

export interface ImpactFinding {
  code: ImpactCode;
  severity: Severity;
  message: string;
  evidence: string[];
}

/** A role of a DaemonSet with the evidence it was inferred from. */
export interface RoleEvidence {
  role: string;
  evidence: string[];
}

/** One reason that contributes to a deletion risk; the highest one sets `risk`. */
export interface RiskReason {
  risk: Risk;
  reason: string;
}

/** A safer alternative to a plain delete: what it does, commands to paste, and its caveats. */
export interface ImpactPlan {
  summary: string;
  commands: string[];
  caveats: string[];
}

/** The `--cascade` modes of `kubectl delete`, the default first. */
export const CASCADES = ['background', 'foreground', 'orphan'] as const;

export interface DeleteImpact {
  apiVersion: typeof API_VERSION;
  kind: 'DeleteImpact';
  daemonSet: ObjectRef;
  cascade: (typeof CASCADES)[number];
  risk: Risk;
  pods: number;
  nodes: number;
  roles: string[];
  findings: ImpactFinding[];
  alternatives: string[];
  notChecked: string[];
  /** The evidence behind each of `roles`, in the same order. */
  roleEvidence?: RoleEvidence[];
  /** Every reason that raised the risk, highest first. */
  riskReasons?: RiskReason[];
  /** ControllerRevisions deleted with the DaemonSet (or orphaned with `--cascade=orphan`). */
  revisions?: number;
  /** `alternatives` in full: one plan each, in the same order, with commands. */
  plans?: ImpactPlan[];
  causes?: RootCause[];
}
