/**
 * The fields the analyses read (src/model/k8s-types.ts), described as data for the shape check
 * at load (src/load/shape.ts): what each field of each snapshot kind must hold. The description
 * and the types agree field by field (test/unit/shape-types.test.ts).
 */
/** What a field must hold. */
export type Shape =
  | 'string'
  | 'stringOrNull'
  | 'boolean'
  | 'int32'
  | 'int64'
  | 'quantity'
  | 'intOrString'
  | 'object'
  | { list: Shape }
  | { map: Shape }
  | { fields: Fields };
export type Fields = { readonly [field: string]: Shape };

const S = 'string';
/**
 * A string, or null left as null: for a time the API server writes as null whenever it is unset,
 * as a pod condition's `lastProbeTime` is in every condition the kubelet writes. It is a metav1.Time
 * held by value, so `omitempty` never drops it, and kubernetes v1.35.4
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go#Time.MarshalJSON encodes the zero
 * time as null. Its type says null (src/model/k8s-types.ts) and its one reader
 * (src/model/snapshot-time.ts) skips it. Removing the null means copying the map (see
 * `without`): on the benchmark's 30,000 pods, 150,000 condition copies, two thirds of the time
 * their status took to check.
 */
export const S_NULL = 'stringOrNull';
const B = 'boolean';
const I32 = 'int32';
const I64 = 'int64';
const OBJ = 'object';
const list = (item: Shape): Shape => ({ list: item });
const map = (value: Shape): Shape => ({ map: value });
const fields = (f: Fields): Shape => ({ fields: f });

const ownerReference = fields({ apiVersion: S, kind: S, name: S, uid: S, controller: B, blockOwnerDeletion: B });
const objectMeta = fields({
  name: S,
  generateName: S,
  namespace: S,
  uid: S,
  resourceVersion: S,
  generation: I64,
  creationTimestamp: S,
  deletionTimestamp: S,
  deletionGracePeriodSeconds: I64,
  labels: map(S),
  annotations: map(S),
  ownerReferences: list(ownerReference),
  finalizers: list(S),
});
const requirement = fields({ key: S, operator: S, values: list(S) });
const labelSelector = fields({ matchLabels: map(S), matchExpressions: list(requirement) });
const nodeSelectorTerm = fields({ matchExpressions: list(requirement), matchFields: list(requirement) });
const nodeSelector = fields({ nodeSelectorTerms: list(nodeSelectorTerm) });
const affinity = fields({
  nodeAffinity: fields({
    requiredDuringSchedulingIgnoredDuringExecution: nodeSelector,
    preferredDuringSchedulingIgnoredDuringExecution: list(fields({ weight: I32, preference: nodeSelectorTerm })),
  }),
  podAffinity: OBJ,
  podAntiAffinity: OBJ,
});
const toleration = fields({ key: S, operator: S, value: S, effect: S, tolerationSeconds: I64 });
const taint = fields({ key: S, value: S, effect: S, timeAdded: S });
const resources = fields({ requests: map('quantity'), limits: map('quantity') });
const probe = fields({
  httpGet: OBJ,
  tcpSocket: OBJ,
  exec: OBJ,
  grpc: OBJ,
  initialDelaySeconds: I32,
  periodSeconds: I32,
  failureThreshold: I32,
});
const keyRef = fields({ name: S, key: S, optional: B });
const sourceRef = fields({ name: S, optional: B });
const container = fields({
  name: S,
  image: S,
  command: list(S),
  args: list(S),
  ports: list(fields({ name: S, containerPort: I32, hostPort: I32, hostIP: S, protocol: S })),
  env: list(
    fields({
      name: S,
      value: S,
      valueFrom: fields({ configMapKeyRef: keyRef, secretKeyRef: keyRef, fieldRef: OBJ, resourceFieldRef: OBJ }),
    }),
  ),
  envFrom: list(fields({ configMapRef: sourceRef, secretRef: sourceRef })),
  resources,
  volumeMounts: list(fields({ name: S, mountPath: S, readOnly: B, mountPropagation: S })),
  readinessProbe: probe,
  livenessProbe: probe,
  startupProbe: probe,
  securityContext: fields({
    privileged: B,
    runAsNonRoot: B,
    runAsUser: I64,
    readOnlyRootFilesystem: B,
    allowPrivilegeEscalation: B,
    capabilities: fields({ add: list(S), drop: list(S) }),
  }),
  restartPolicy: S,
  imagePullPolicy: S,
});
const volume = fields({
  name: S,
  hostPath: fields({ path: S, type: S }),
  configMap: fields({ name: S, optional: B }),
  secret: fields({ secretName: S, optional: B }),
  persistentVolumeClaim: fields({ claimName: S, readOnly: B }),
  csi: fields({ driver: S }),
  emptyDir: OBJ,
  projected: OBJ,
  ephemeral: OBJ,
});
const podSpec = fields({
  nodeName: S,
  nodeSelector: map(S),
  affinity,
  tolerations: list(toleration),
  containers: list(container),
  initContainers: list(container),
  volumes: list(volume),
  hostNetwork: B,
  hostPID: B,
  hostIPC: B,
  dnsPolicy: S,
  priorityClassName: S,
  priority: I32,
  preemptionPolicy: S,
  schedulerName: S,
  serviceAccountName: S,
  imagePullSecrets: list(fields({ name: S })),
  restartPolicy: S,
  terminationGracePeriodSeconds: I64,
  securityContext: fields({ runAsNonRoot: B, runAsUser: I64 }),
  overhead: map('quantity'),
  resources,
  schedulingGates: list(fields({ name: S })),
  runtimeClassName: S,
});
const podTemplate = fields({ metadata: objectMeta, spec: podSpec });
const containerState = fields({
  running: fields({ startedAt: S }),
  waiting: fields({ reason: S, message: S }),
  terminated: fields({ reason: S, message: S, exitCode: I32, signal: I32, startedAt: S, finishedAt: S }),
});
const containerStatus = fields({
  name: S,
  ready: B,
  started: B,
  restartCount: I32,
  image: S,
  imageID: S,
  state: containerState,
  lastState: containerState,
});
const podCondition = fields({
  type: S,
  status: S,
  reason: S,
  message: S,
  lastTransitionTime: S,
  lastProbeTime: S_NULL,
});
const nodeCondition = fields({
  type: S,
  status: S,
  reason: S,
  message: S,
  lastHeartbeatTime: S,
  lastTransitionTime: S,
});
const objectReference = fields({ kind: S, namespace: S, name: S, uid: S, apiVersion: S, fieldPath: S });

/** The fields of every kind a snapshot holds, besides apiVersion, kind and metadata. */
export const KIND_SHAPES: { readonly [kind: string]: Fields } = {
  Node: {
    spec: fields({ unschedulable: B, taints: list(taint), podCIDR: S, providerID: S }),
    status: fields({
      capacity: map('quantity'),
      allocatable: map('quantity'),
      conditions: list(nodeCondition),
      addresses: list(fields({ type: S, address: S })),
      // NodeSystemInfo: its strings (`swap`, since v1.30, is a map, read by nothing).
      nodeInfo: fields({
        operatingSystem: S,
        architecture: S,
        kernelVersion: S,
        osImage: S,
        containerRuntimeVersion: S,
        kubeletVersion: S,
        kubeProxyVersion: S,
        machineID: S,
        systemUUID: S,
        bootID: S,
      }),
    }),
  },
  DaemonSet: {
    spec: fields({
      selector: labelSelector,
      template: podTemplate,
      updateStrategy: fields({
        type: S,
        rollingUpdate: fields({ maxUnavailable: 'intOrString', maxSurge: 'intOrString' }),
      }),
      minReadySeconds: I32,
      revisionHistoryLimit: I32,
      templateGeneration: I64,
    }),
    status: fields({
      currentNumberScheduled: I32,
      numberMisscheduled: I32,
      desiredNumberScheduled: I32,
      numberReady: I32,
      observedGeneration: I64,
      updatedNumberScheduled: I32,
      numberAvailable: I32,
      numberUnavailable: I32,
      collisionCount: I32,
    }),
  },
  Pod: {
    spec: podSpec,
    status: fields({
      phase: S,
      reason: S,
      message: S,
      conditions: list(podCondition),
      containerStatuses: list(containerStatus),
      initContainerStatuses: list(containerStatus),
      hostIP: S,
      podIP: S,
      startTime: S,
      nominatedNodeName: S,
      qosClass: S,
    }),
  },
  Event: {
    involvedObject: objectReference,
    regarding: objectReference,
    reason: S,
    message: S,
    note: S,
    type: S,
    count: I32,
    firstTimestamp: S,
    lastTimestamp: S,
    eventTime: S,
    series: fields({ count: I32, lastObservedTime: S }),
    source: fields({ component: S, host: S }),
    reportingComponent: S,
    deprecatedCount: I32,
    deprecatedFirstTimestamp: S,
    deprecatedLastTimestamp: S,
  },
  ControllerRevision: { revision: I64, data: fields({ spec: fields({ template: podTemplate }) }) },
  PodDisruptionBudget: {
    spec: fields({ selector: labelSelector, minAvailable: 'intOrString', maxUnavailable: 'intOrString' }),
  },
  PriorityClass: { value: I32, globalDefault: B, preemptionPolicy: S },
  Service: {
    spec: fields({
      selector: map(S),
      ports: list(fields({ name: S, port: I32, targetPort: 'intOrString', protocol: S })),
      clusterIP: S,
      type: S,
      externalTrafficPolicy: S,
      internalTrafficPolicy: S,
    }),
  },
  EndpointSlice: {
    endpoints: list(
      fields({
        addresses: list(S),
        nodeName: S,
        targetRef: fields({ kind: S, name: S, namespace: S, uid: S }),
        conditions: fields({ ready: B }),
      }),
    ),
  },
  Namespace: { status: fields({ phase: S }) },
  ResourceQuota: {
    spec: fields({ hard: map('quantity') }),
    status: fields({ hard: map('quantity'), used: map('quantity') }),
  },
  LimitRange: {
    spec: fields({
      limits: list(
        fields({
          type: S,
          max: map('quantity'),
          min: map('quantity'),
          default: map('quantity'),
          defaultRequest: map('quantity'),
          maxLimitRequestRatio: map('quantity'),
        }),
      ),
    }),
  },
  CSIDriver: {},
};
const webhooks: Fields = {
  webhooks: list(
    fields({
      name: S,
      clientConfig: fields({ service: fields({ namespace: S, name: S, path: S, port: I32 }), url: S }),
      failurePolicy: S,
      rules: list(
        fields({ operations: list(S), apiGroups: list(S), apiVersions: list(S), resources: list(S), scope: S }),
      ),
      namespaceSelector: labelSelector,
      objectSelector: labelSelector,
    }),
  ),
};
(KIND_SHAPES as Record<string, Fields>)['ValidatingWebhookConfiguration'] = webhooks;
(KIND_SHAPES as Record<string, Fields>)['MutatingWebhookConfiguration'] = webhooks;

export const COMMON: Fields = { apiVersion: S, kind: S, metadata: objectMeta };
