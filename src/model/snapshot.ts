import type {
  ControllerRevision,
  DaemonSet,
  EndpointSlice,
  KubeEvent,
  KubeObject,
  Namespace,
  Node,
  LimitRange,
  Pod,
  PodDisruptionBudget,
  PriorityClass,
  ResourceQuota,
  Service,
  WebhookConfiguration,
} from './k8s-types.js';

/** Where an object was read from, for error messages and SARIF locations. */
export interface SourceLocation {
  file: string;
  /** 1-based line of the object's first line in the file (0 when unknown). */
  line: number;
}

/**
 * The kinds a snapshot holds, each with the field that stores it and the API
 * group/version/plural the live loader lists it from.
 */
export const SNAPSHOT_KINDS = {
  Node: { field: 'nodes', group: '', version: 'v1', plural: 'nodes', namespaced: false },
  DaemonSet: { field: 'daemonSets', group: 'apps', version: 'v1', plural: 'daemonsets', namespaced: true },
  Pod: { field: 'pods', group: '', version: 'v1', plural: 'pods', namespaced: true },
  Event: { field: 'events', group: '', version: 'v1', plural: 'events', namespaced: true },
  ControllerRevision: {
    field: 'controllerRevisions',
    group: 'apps',
    version: 'v1',
    plural: 'controllerrevisions',
    namespaced: true,
  },
  PodDisruptionBudget: {
    field: 'podDisruptionBudgets',
    group: 'policy',
    version: 'v1',
    plural: 'poddisruptionbudgets',
    namespaced: true,
  },
  PriorityClass: {
    field: 'priorityClasses',
    group: 'scheduling.k8s.io',
    version: 'v1',
    plural: 'priorityclasses',
    namespaced: false,
  },
  Service: { field: 'services', group: '', version: 'v1', plural: 'services', namespaced: true },
  EndpointSlice: {
    field: 'endpointSlices',
    group: 'discovery.k8s.io',
    version: 'v1',
    plural: 'endpointslices',
    namespaced: true,
  },
  Namespace: { field: 'namespaces', group: '', version: 'v1', plural: 'namespaces', namespaced: false },
  ResourceQuota: { field: 'resourceQuotas', group: '', version: 'v1', plural: 'resourcequotas', namespaced: true },
  LimitRange: { field: 'limitRanges', group: '', version: 'v1', plural: 'limitranges', namespaced: true },
  ValidatingWebhookConfiguration: {
    field: 'validatingWebhooks',
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
  },
  MutatingWebhookConfiguration: {
    field: 'mutatingWebhooks',
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    plural: 'mutatingwebhookconfigurations',
    namespaced: false,
  },
  CSIDriver: { field: 'csiDrivers', group: 'storage.k8s.io', version: 'v1', plural: 'csidrivers', namespaced: false },
} as const;

export type SnapshotKind = keyof typeof SNAPSHOT_KINDS;

/** A kind the snapshot could not see, and why. */
export interface MissingKind {
  kind: SnapshotKind;
  reason: 'absent' | 'forbidden' | 'error';
  /** For `forbidden` / `error`: the refused verb, resource and namespace, as a sentence. */
  detail?: string;
}

/**
 * Cluster state as plain API JSON, from a dump or a live cluster: one shape for both.
 */
export interface ClusterSnapshot {
  nodes: Node[];
  daemonSets: DaemonSet[];
  pods: Pod[];
  events: KubeEvent[];
  controllerRevisions: ControllerRevision[];
  podDisruptionBudgets: PodDisruptionBudget[];
  priorityClasses: PriorityClass[];
  services: Service[];
  endpointSlices: EndpointSlice[];
  namespaces: Namespace[];
  resourceQuotas: ResourceQuota[];
  limitRanges: LimitRange[];
  validatingWebhooks: WebhookConfiguration[];
  mutatingWebhooks: WebhookConfiguration[];
  csiDrivers: KubeObject[];
  /** Kinds that were not available; analyses that need them say so. */
  missing: MissingKind[];
  /** Non-fatal notes from loading (ignored kinds, duplicates…). */
  warnings: string[];
  /** Where each object came from (file input only). */
  origins: WeakMap<object, SourceLocation>;
  /**
   * The newest timestamp of each pod the file loader slimmed, taken before it dropped the pod's
   * status (src/load/prune.ts): the dump is dated, and duplicates ranked, as from the whole pod.
   */
  prunedTimes: WeakMap<object, number>;
  /** How the snapshot was obtained: `files` (a dump or manifests) or `live`. */
  source: 'files' | 'live';
}

/** An empty snapshot: every list empty, nothing missing yet. */
export function emptySnapshot(source: 'files' | 'live' = 'files'): ClusterSnapshot {
  return {
    nodes: [],
    daemonSets: [],
    pods: [],
    events: [],
    controllerRevisions: [],
    podDisruptionBudgets: [],
    priorityClasses: [],
    services: [],
    endpointSlices: [],
    namespaces: [],
    resourceQuotas: [],
    limitRanges: [],
    validatingWebhooks: [],
    mutatingWebhooks: [],
    csiDrivers: [],
    missing: [],
    warnings: [],
    origins: new WeakMap(),
    prunedTimes: new WeakMap(),
    source,
  };
}

/** True when the snapshot could not see `kind`. */
export function isMissing(snapshot: ClusterSnapshot, kind: SnapshotKind): boolean {
  return snapshot.missing.some((m) => m.kind === kind);
}

/** What a command needs from the cluster, so the live loader can ask for no more. */
export interface LoadRequest {
  /** The DaemonSet argument, if the command names one. */
  daemonSet?: string;
  /** The node argument, if the command names one (the name alone, without `node/`). */
  node?: string;
  /**
   * The answer is about the DaemonSet on `node` alone: a live load reads that node and the pods
   * on it or waiting for it, not every node and every pod of the DaemonSet (src/load/live.ts).
   */
  nodeScoped?: boolean;
  /** Kinds the analysis reads besides DaemonSets, Nodes and their Pods. */
  kinds: SnapshotKind[];
  /** Whether every pod is needed (e.g. other pods' requests on nodes), not only daemon pods. */
  allPods?: boolean;
  /** The named DaemonSet may not exist yet (plan: the manifest creates it). */
  daemonSetOptional?: boolean;
  /** Every pod of the cluster, in one list (plan: the fit of a new pod on every node). */
  everyPod?: boolean;
  /**
   * The DaemonSets a problem elsewhere may come from, wherever they run: the network (CNI) agent
   * and node labellers, with their pods (root causes, src/analyze/causes/).
   */
  causeAgents?: boolean;
  /** -l: only the DaemonSets whose labels match this selector (kubectl's syntax), when none is named. */
  daemonSetSelector?: string;
}

export interface LoadedSnapshot {
  snapshot: ClusterSnapshot;
  /** The namespace a live context defaults to (undefined for files: the input is the scope). */
  defaultNamespace?: string;
}
