/**
 * The document of `plan` (docs/design.md §4): what applying a manifest does, per node (its effect,
 * the new pod's fit, the states it can settle in), per group of nodes, to the rollout, and what a
 * reviewer must know.
 */
import type { PlanFindingCode, ReasonCode } from '../reasons/index.js';
import type { Severity } from '../severity.js';
import type { API_VERSION, ObjectRef } from './common.js';

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
