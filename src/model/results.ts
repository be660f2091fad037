/**
 * Result documents of every analysis: the stable JSON contract of docs/design.md §4.
 * Renderers turn these into tables, JSON, YAML, Markdown or SARIF.
 */
import type { CauseCode, ImpactCode, PlanFindingCode, ReasonCode, RolloutReasonCode } from './reasons/index.js';
import type { Severity } from './severity.js';

export const API_VERSION = 'ds-doctor/v1';

/** Per DaemonSet × node verdict. */
export type Verdict = 'Healthy' | 'Excluded' | 'Missing' | 'Pending' | 'Unhealthy' | 'Misscheduled';

export const VERDICTS: readonly Verdict[] = ['Healthy', 'Excluded', 'Missing', 'Pending', 'Unhealthy', 'Misscheduled'];

/** Reason codes (PascalCase, stable): the keys of the registries in model/reasons/. */
export type { CauseCode, ImpactCode, PlanFindingCode, ReasonCode, RolloutReasonCode };

/** An object a root cause names: the one to look at or fix. */
export interface CauseObject {
  kind: string;
  namespace?: string;
  name: string;
}

/**
 * A root cause found across objects (src/analyze/causes/): the chain from the symptom to the one
 * object an SRE must fix, shortest first, with its evidence and the fix that works.
 */
export interface RootCause {
  /** The kubeconfig context it was found in, when the command read several. */
  context?: string;
  code: CauseCode;
  severity: Severity;
  /** The chain on one line: "worker-5: network not ready → calico-node not there (…) → affects …". */
  summary: string;
  /** The steps from the symptom to the cause, one phrase each. */
  chain: string[];
  /** The nodes the cause is seen on (empty when it is not about nodes). */
  nodes: string[];
  /** The object to look at or fix. */
  cause: CauseObject;
  /** The DaemonSets whose symptoms it explains. */
  affects: ObjectRef[];
  evidence: string[];
  fix: string;
  /** The upstream code, issue or vendor documentation the link rests on. */
  reference?: string;
}

export type { Severity };

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

export interface ObjectRef {
  namespace: string;
  name: string;
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

/**
 * One cluster of a command that reads several (`--context` repeated, `--all-contexts`): how many
 * DaemonSets it gave, the exit code the command would give for it alone, and, when it could not be
 * read, the one error line.
 */
export interface ContextOutcome {
  context: string;
  scope?: string;
  daemonSets: number;
  exitCode: number;
  error?: string;
}

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

/** What applying the manifest does to one node's daemon pod. */
export type PlanEffect = 'gain' | 'lose' | 'keep' | 'replace' | 'none';

/**
 * A state a node can end in once the controllers and the scheduler have settled and the kubelets
 * report bound pods Ready: no daemon pod, a new-revision pod bound or unbound, or the old pod kept
 * (the rollout stopped before the node, or OnDelete).
 */
export type PlanSettledState = 'none' | 'new-bound' | 'new-pending' | 'old-kept';

/** One scheduler Filter failure for the new pod on a node, with its numbers. */
export interface PlanFitReason {
  /** A placement code: InsufficientResource, TooManyPods, HostPortConflict, VolumeConflict, … */
  code: ReasonCode;
  message: string;
  /** The resource or host port concerned, with what is asked and what is free. */
  resource?: string;
  requested?: string;
  free?: string;
  allocatable?: string;
  /** Whether evicting lower-priority pods on the node would make room (DefaultPreemption). */
  preemptionHelps?: boolean;
}

export interface PlanFit {
  fits: boolean;
  reasons: PlanFitReason[];
  /** True when both the old and the new pod must fit at once (maxSurge). */
  surge?: boolean;
}

/** The daemon pod a node runs before the change. */
export interface PlanPodBefore {
  name: string;
  /** The controller-revision-hash label of the pod. */
  hash: string;
  /** Whether it is of the revision the change produces (no replacement needed). */
  current: boolean;
  state: 'Running' | 'Unavailable' | 'Pending' | 'Terminating';
}

export interface PlanNode {
  node: string;
  /** The value of the --group-by label on the node ("" when the node lacks it). */
  group: string;
  effect: PlanEffect;
  /** nodeShouldRunDaemonPod of the new spec. */
  shouldRun: boolean;
  /** Why the new spec does not want a pod here (a placement code), when shouldRun is false. */
  reason?: ReasonCode;
  message?: string;
  before?: PlanPodBefore;
  /** The new pod against the node's other pods (only when shouldRun and a new pod is made). */
  fit?: PlanFit;
  /** Every state the node can end in; several when the controller's order decides. */
  settled: PlanSettledState[];
  /** The template diff lines that cause this node's effect. */
  causes?: string[];
}

export interface PlanGroup {
  group: string;
  nodes: number;
  effects: Record<PlanEffect, number>;
  /** Nodes that should run the new pod where it will not be scheduled. */
  pending: number;
}

export interface PlanRollout {
  /** Whether the pod template hash changes: a metadata-only change replaces nothing. */
  replaced: boolean;
  strategy: 'RollingUpdate' | 'OnDelete';
  maxUnavailable: number;
  maxSurge: number;
  /** Nodes whose pod is replaced by the rolling update. */
  toReplace: number;
  batches: number;
  /** The controller's order: nodes with an unavailable old pod first, then the rest. */
  order: string[];
  /** When set, the rollout stops once this many nodes at most are left Pending. */
  blockedAfter?: number;
  /** Seconds per batch (minReadySeconds plus the observed readiness time) and in all. */
  batchSeconds?: number;
  estimateSeconds?: number;
  estimate?: string;
}

export interface PlanFinding {
  code: PlanFindingCode;
  severity: Severity;
  message: string;
  evidence: string[];
  fix: string;
}

export interface PlanReport {
  apiVersion: typeof API_VERSION;
  kind: 'PlanReport';
  daemonSet: ObjectRef;
  /** create: no such DaemonSet exists yet; update: the manifest changes an existing one. */
  change: 'create' | 'update';
  /** The node label nodes are grouped by ("" when none of the pool labels is present). */
  groupBy: string;
  nodes: PlanNode[];
  groups: PlanGroup[];
  rollout: PlanRollout;
  templateDiff: string[];
  findings: PlanFinding[];
  summary: Record<PlanEffect, number> & { pending: number };
  notes?: string[];
}
