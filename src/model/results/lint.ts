/**
 * The document of `lint` (docs/design.md §4): the findings of the best-practice rules, the rules
 * annotations turned off, and the rules the input could not check.
 */
import type { Severity } from '../severity.js';
import type { API_VERSION, ContextOutcome, ObjectRef } from './common.js';

export interface LintFinding {
  /** The kubeconfig context the DaemonSet was read from, when lint read several. */
  context?: string;
  rule: string;
  severity: Severity;
  daemonSet: ObjectRef;
  message: string;
  path: string;
  fix: string;
  /** Where the DaemonSet was read from (file input only). */
  location?: { file: string; line: number };
}

export interface LintReport {
  apiVersion: typeof API_VERSION;
  kind: 'LintReport';
  findings: LintFinding[];
  /** Rules that were turned off by annotation, per DaemonSet. */
  suppressed: {
    /** The kubeconfig context, when lint read several. */
    context?: string;
    daemonSet: ObjectRef;
    rules: string[];
    /** Rule id → the reason the annotation gives (`ignore-check.ds-doctor.io/<rule>: <reason>`). */
    reasons?: Record<string, string>;
    /** How many findings the annotation hid. */
    hiddenFindings?: number;
  }[];
  /** Rules that need cluster data the input lacks. */
  notChecked: { rule: string; why: string }[];
  daemonSets: number;
  /** Findings per severity. */
  summary?: Record<Severity, number>;
  /** Remarks about the run: unknown rule ids in annotations, load warnings. */
  notes?: string[];
  /** A lint of several contexts: each context read, in order, with its outcome. */
  contexts?: ContextOutcome[];
}
