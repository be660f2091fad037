/**
 * The data a differential scenario is made of: the API objects to create (as plain JSON, the
 * way `kubectl create -f` would send them), how the simulated kubelets behave, and what changes
 * after the DaemonSets have placed their pods.
 */
import type {
  DaemonSet,
  IntOrString,
  KubeObject,
  Namespace,
  Node,
  NodeCondition,
  Pod,
  PodTemplateSpec,
  ResourceQuota,
  Taint,
} from '../../src/model/k8s-types.js';

/**
 * What the simulated kubelet reports for a bound daemon pod on a healthy node:
 * Running and Ready; a crash loop; an image that cannot be pulled; a failing readiness probe;
 * or nothing at all (the pod stays ContainerCreating).
 */
export type KubeletState = 'ready' | 'crash' | 'imagepull' | 'probe-failing' | 'none';

export interface KubeletPlan {
  default: KubeletState;
  /** Per-node exceptions. */
  nodes: Record<string, KubeletState>;
}

/** A Node to create. `heartbeat` false: its Lease is never renewed (the kubelet is gone). */
export interface NodePlan {
  object: Node;
  heartbeat: boolean;
}

/** A pod that is not a daemon pod, bound to a node, holding resources or host ports. */
export interface OtherPodPlan {
  object: Pod;
  /** The phase its (simulated) kubelet reports; Succeeded and Failed pods hold nothing. */
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
}

export interface DaemonSetPlan {
  object: DaemonSet;
  kubelet: KubeletPlan;
}

/** A change to a node after the DaemonSets have placed their pods. */
export type NodeChange =
  | { node: string; kind: 'stop-heartbeat' }
  | { node: string; kind: 'condition'; condition: NodeCondition }
  | { node: string; kind: 'cordon'; unschedulable: boolean }
  | { node: string; kind: 'add-taint'; taint: Taint }
  | { node: string; kind: 'remove-taint'; key: string; effect: string }
  | { node: string; kind: 'label'; key: string; value: string | null };

/** A template change of one DaemonSet, and how the pods of the new template fare. */
export interface RolloutPlan {
  /** Index into `daemonSets`. */
  daemonSet: number;
  /** What changes, in words (for the report). */
  change: string;
  template: PodTemplateSpec;
  updateStrategy?: {
    type: 'RollingUpdate' | 'OnDelete';
    rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString };
  };
  kubelet: KubeletPlan;
}

/** What a plan scenario's change does (its feature tag `plan:<kind>`). */
export type PlanChangeKind =
  | 'selector-narrow'
  | 'selector-widen'
  | 'tolerations-add'
  | 'tolerations-remove'
  | 'requests-raise'
  | 'requests-lower'
  | 'hostPort'
  | 'strategy'
  | 'metadata'
  | 'create'
  | 'strategy-unblock';

/**
 * The change a plan scenario asks `ds-doctor plan` about, then applies: the whole DaemonSet
 * manifest as a user would `kubectl apply -f` it (a new DaemonSet for `create`).
 */
export interface PlanChange {
  kind: PlanChangeKind;
  /** What changes, in words (for the report). */
  text: string;
  manifest: DaemonSet;
  /** Index into `daemonSets` of the DaemonSet changed; absent for `create`. */
  daemonSet?: number;
  /**
   * Applied and settled before `plan` is asked (`strategy-unblock`: a new image with surge, whose
   * surge pods cannot be scheduled next to the old pods holding the same host port).
   */
  prelude?: { text: string; manifest: DaemonSet };
}

export interface Scenario {
  /** `d<seed>-<index>`: also the prefix of every object name. */
  id: string;
  seed: number;
  index: number;
  /** `plan`: a settled placement or rollout base (without its rollout), then `change`. */
  kind: 'placement' | 'rollout' | 'plan';
  /** Feature tags, for the coverage table. */
  features: string[];
  namespaces: Namespace[];
  quotas: ResourceQuota[];
  /** LimitRanges: default requests and limits, maxima (admission rejects or fills in). */
  limitRanges: KubeObject[];
  nodes: NodePlan[];
  others: OtherPodPlan[];
  daemonSets: DaemonSetPlan[];
  changes: NodeChange[];
  rollout?: RolloutPlan;
  change?: PlanChange;
}

/** The namespace that holds the pods of other workloads. */
export function othersNamespace(s: Scenario): string {
  return `${s.id}-o`;
}

/** The namespace that holds the probe DaemonSets (placement oracles). */
export function probeNamespace(s: Scenario): string {
  return `${s.id}-p`;
}
