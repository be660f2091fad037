/**
 * The documents of `why`, `nodes` and `node` (docs/design.md §4): a DaemonSet × node verdict with
 * its reasons, the deciding pod and the events, for one node, every node of a DaemonSet, or every
 * DaemonSet on one node.
 */
import type { ReasonCode } from '../reasons/index.js';
import type { Severity } from '../severity.js';
import type { API_VERSION, ObjectRef, RootCause } from './common.js';

/** Per DaemonSet × node verdict. */
export type Verdict = 'Healthy' | 'Excluded' | 'Missing' | 'Pending' | 'Unhealthy' | 'Misscheduled';

export const VERDICTS: readonly Verdict[] = ['Healthy', 'Excluded', 'Missing', 'Pending', 'Unhealthy', 'Misscheduled'];

/** One explained "no": a code, a sentence, the evidence, and a fix. */
export interface Reason {
  code: ReasonCode;
  severity: Severity;
  message: string;
  evidence: string[];
  fix: string;
  /** A short phrase in the scheduler's style, used to group nodes in summaries. */
  short: string;
}

/** The pod that decides a node's verdict, when one exists. */
export interface PodSummary {
  name: string;
  phase: string;
  ready: boolean;
  revision: string;
  /** True when the pod is of the DaemonSet's current revision (IsPodUpdated). */
  updated: boolean;
  restarts: number;
  age?: string;
}

/** A short event line shown with a node diagnosis. */
export interface EventSummary {
  type: string;
  reason: string;
  message: string;
  count: number;
  lastSeen?: string;
  object: string;
}

export interface NodeDiagnosis {
  apiVersion: typeof API_VERSION;
  kind: 'NodeDiagnosis';
  daemonSet: ObjectRef;
  node: string;
  verdict: Verdict;
  reasons: Reason[];
  pod?: PodSummary;
  events?: EventSummary[];
  /** Root causes behind the verdict, found across the snapshot, most important first. */
  causes?: RootCause[];
  notes?: string[];
}

export interface VerdictSummary {
  verdicts: Partial<Record<Verdict, number>>;
  reasons: Partial<Record<ReasonCode, number>>;
}

export interface DaemonSetDiagnosis {
  apiVersion: typeof API_VERSION;
  kind: 'DaemonSetDiagnosis';
  daemonSet: ObjectRef;
  totalNodes: number;
  nodes: Omit<NodeDiagnosis, 'apiVersion' | 'kind' | 'daemonSet'>[];
  summary: VerdictSummary;
  /** One line in the scheduler's style: "7/9 nodes healthy: 2 …". */
  headline: string;
  causes?: RootCause[];
  notes?: string[];
}

export interface NodeRow {
  node: string;
  verdict: Verdict;
  reasons: Reason[];
  pod?: PodSummary;
}

export interface DaemonSetNodes {
  apiVersion: typeof API_VERSION;
  kind: 'DaemonSetNodes';
  daemonSet: ObjectRef;
  nodes: NodeRow[];
  summary: VerdictSummary;
  causes?: RootCause[];
  notes?: string[];
}

export interface NodeReportEntry {
  namespace: string;
  name: string;
  verdict: Verdict;
  reasons: Reason[];
  pod?: PodSummary;
}

export interface NodeReport {
  apiVersion: typeof API_VERSION;
  kind: 'NodeReport';
  node: string;
  /** The namespaces whose DaemonSets were weighed ("all namespaces" unless -n narrowed it). */
  scope: string;
  nodeStatus: { ready: string; unschedulable: boolean; taints: string[] };
  daemonSets: NodeReportEntry[];
  causes?: RootCause[];
  notes?: string[];
}
