/**
 * The slice of the Kubernetes API types that ds-doctor reads, as plain JSON
 * (exactly what the API server returns: timestamps and quantities are strings).
 * Every field is optional because dumps are often partial.
 */

export interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
}

/** Any API object: apiVersion, kind, metadata and whatever else it carries. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms?: NodeSelectorTerm[];
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: { weight?: number; preference?: NodeSelectorTerm }[];
}

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: unknown;
  podAntiAffinity?: unknown;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface ResourceRequirements {
  requests?: Record<string, string>;
  limits?: Record<string, string>;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: string;
}

export interface Probe {
  httpGet?: unknown;
  tcpSocket?: unknown;
  exec?: unknown;
  grpc?: unknown;
  initialDelaySeconds?: number;
  periodSeconds?: number;
  failureThreshold?: number;
}

export interface SecurityContext {
  privileged?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  mountPropagation?: string;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    configMapKeyRef?: { name?: string; key?: string; optional?: boolean };
    secretKeyRef?: { name?: string; key?: string; optional?: boolean };
    fieldRef?: unknown;
    resourceFieldRef?: unknown;
  };
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: ContainerPort[];
  env?: EnvVar[];
  envFrom?: {
    configMapRef?: { name?: string; optional?: boolean };
    secretRef?: { name?: string; optional?: boolean };
  }[];
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMount[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  securityContext?: SecurityContext;
  restartPolicy?: string;
  imagePullPolicy?: string;
}

export interface Volume {
  name: string;
  hostPath?: { path: string; type?: string };
  configMap?: { name?: string; optional?: boolean };
  secret?: { secretName?: string; optional?: boolean };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  emptyDir?: unknown;
  projected?: unknown;
  csi?: { driver?: string };
  ephemeral?: unknown;
  [source: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  containers?: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  dnsPolicy?: string;
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: string;
  schedulerName?: string;
  serviceAccountName?: string;
  imagePullSecrets?: { name?: string }[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; [k: string]: unknown };
  overhead?: Record<string, string>;
  resources?: ResourceRequirements;
  schedulingGates?: { name: string }[];
  runtimeClassName?: string;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

export interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastProbeTime?: string | null;
}

export interface ContainerState {
  running?: { startedAt?: string };
  waiting?: { reason?: string; message?: string };
  terminated?: {
    reason?: string;
    message?: string;
    exitCode?: number;
    signal?: number;
    startedAt?: string;
    finishedAt?: string;
  };
}

export interface ContainerStatus {
  name: string;
  ready?: boolean;
  started?: boolean;
  restartCount?: number;
  image?: string;
  imageID?: string;
  state?: ContainerState;
  lastState?: ContainerState;
}

export interface PodStatus {
  phase?: string;
  reason?: string;
  message?: string;
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  hostIP?: string;
  podIP?: string;
  startTime?: string;
  nominatedNodeName?: string;
  qosClass?: string;
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: PodStatus;
}

export interface NodeCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

/** NodeSystemInfo's strings (`swap`, since v1.30, is a map, read by nothing). */
export interface NodeSystemInfo {
  operatingSystem?: string;
  architecture?: string;
  kernelVersion?: string;
  osImage?: string;
  containerRuntimeVersion?: string;
  kubeletVersion?: string;
  kubeProxyVersion?: string;
  machineID?: string;
  systemUUID?: string;
  bootID?: string;
}

export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: Taint[]; podCIDR?: string; providerID?: string };
  status?: {
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    conditions?: NodeCondition[];
    addresses?: { type: string; address: string }[];
    nodeInfo?: NodeSystemInfo;
  };
}

export type IntOrString = number | string;

export interface DaemonSetSpec {
  selector?: LabelSelector;
  template?: PodTemplateSpec;
  updateStrategy?: {
    type?: string;
    rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString };
  };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  templateGeneration?: number;
}

export interface DaemonSetStatus {
  currentNumberScheduled?: number;
  numberMisscheduled?: number;
  desiredNumberScheduled?: number;
  numberReady?: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
}

export interface DaemonSet extends KubeObject {
  spec?: DaemonSetSpec;
  status?: DaemonSetStatus;
}

export interface ControllerRevision extends KubeObject {
  revision?: number;
  data?: { spec?: { template?: PodTemplateSpec } } & Record<string, unknown>;
}

export interface KubeEvent extends KubeObject {
  involvedObject?: {
    kind?: string;
    namespace?: string;
    name?: string;
    uid?: string;
    apiVersion?: string;
    fieldPath?: string;
  };
  regarding?: {
    kind?: string;
    namespace?: string;
    name?: string;
    uid?: string;
    apiVersion?: string;
    fieldPath?: string;
  };
  reason?: string;
  message?: string;
  note?: string;
  type?: string;
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string };
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  deprecatedCount?: number;
  deprecatedFirstTimestamp?: string;
  deprecatedLastTimestamp?: string;
}

export interface PodDisruptionBudget extends KubeObject {
  spec?: { selector?: LabelSelector; minAvailable?: IntOrString; maxUnavailable?: IntOrString };
}

export interface PriorityClass extends KubeObject {
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

export interface Service extends KubeObject {
  spec?: {
    selector?: Record<string, string>;
    ports?: { name?: string; port: number; targetPort?: IntOrString; protocol?: string }[];
    clusterIP?: string;
    type?: string;
    externalTrafficPolicy?: string;
    internalTrafficPolicy?: string;
  };
}

export interface EndpointSlice extends KubeObject {
  endpoints?: {
    addresses?: string[];
    nodeName?: string;
    targetRef?: { kind?: string; name?: string; namespace?: string; uid?: string };
    conditions?: { ready?: boolean };
  }[];
}

export interface WebhookClientConfig {
  service?: { namespace?: string; name?: string; path?: string; port?: number };
  url?: string;
}

export interface WebhookConfiguration extends KubeObject {
  webhooks?: {
    name: string;
    clientConfig?: WebhookClientConfig;
    failurePolicy?: string;
    rules?: {
      operations?: string[];
      apiGroups?: string[];
      apiVersions?: string[];
      resources?: string[];
      scope?: string;
    }[];
    namespaceSelector?: LabelSelector;
    objectSelector?: LabelSelector;
  }[];
}

export interface Namespace extends KubeObject {
  status?: { phase?: string };
}

/** A LimitRange item: the bounds and defaults of one type (Container, Pod, PersistentVolumeClaim). */
export interface LimitRangeItem {
  type?: string;
  max?: Record<string, string>;
  min?: Record<string, string>;
  default?: Record<string, string>;
  defaultRequest?: Record<string, string>;
  maxLimitRequestRatio?: Record<string, string>;
}

export interface LimitRange extends KubeObject {
  spec?: { limits?: LimitRangeItem[] };
}

export interface ResourceQuota extends KubeObject {
  spec?: { hard?: Record<string, string> };
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}
