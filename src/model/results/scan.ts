/**
 * The document of `scan` (docs/design.md §4): one entry per DaemonSet in scope with its counts as
 * `.status` reports them and as recomputed, its health and problems, and the root causes grouped
 * across DaemonSets.
 */
import type { API_VERSION, ContextOutcome, RootCause } from './common.js';

export type ScanHealth = 'Healthy' | 'Degraded' | 'RollingOut' | 'Stuck' | 'Failing';

/** DaemonSet status counters, as reported by `.status` or recomputed. */
export interface StatusCounts {
  desired: number;
  current: number;
  ready: number;
  updated: number;
  available: number;
  misscheduled: number;
}

/** One DaemonSet in a scan: the counts as `.status` reports them, and what was found. */
export interface ScanEntry extends StatusCounts {
  /** The kubeconfig context the DaemonSet was read from: set when a scan reads several (`--context` repeated, `--all-contexts`). */
  context?: string;
  namespace: string;
  name: string;
  health: ScanHealth;
  problems: string[];
  /** Problem code → number of nodes or pods it was seen on. */
  problemCounts: Record<string, number>;
  /** The counts as recomputed from the pods and nodes in the snapshot. */
  recomputed: StatusCounts;
  /** Sentences saying where `.status` and the recomputation disagree. */
  statusMismatch: string[];
  /** The one-line summary of the most important problem. */
  topProblem: string;
  /**
   * Nodes the DaemonSet stays off for a reason `why` warns about (a custom taint not tolerated,
   * an invalid affinity term), one line per cause: coverage gaps, not failures.
   */
  coverageGaps: { code: string; nodes: string[]; message: string }[];
}

export interface ScanReport {
  apiVersion: typeof API_VERSION;
  kind: 'ScanReport';
  scope: string;
  daemonSets: ScanEntry[];
  /** Root causes grouped across DaemonSets: one outage of one cause is one entry. */
  causes: RootCause[];
  notes: string[];
  /** A scan of several contexts: each context read, in order, with its outcome. */
  contexts?: ContextOutcome[];
}
