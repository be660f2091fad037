/**
 * Node verdict reasons: why a DaemonSet has no (healthy) pod on a node. They appear in
 * `why`, `nodes`, `node` and `scan` results (`reasons[].code`).
 */
import type { ReasonEntry } from './entry.js';

const K = 'kubernetes v1.35.4';

export const PLACEMENT_REASONS = {
  NodeNameMismatch: {
    severity: 'info',
    alsoSeverities: ['error'],
    short: "node(s) didn't match the template's nodeName",
    meaning: 'The pod template names another node in spec.nodeName, so the controller does not place a pod here.',
    upstream: `${K} pkg/scheduler/framework/plugins/nodename/node_name.go#Fits`,
  },
  NodeSelectorMismatch: {
    severity: 'info',
    short: "node(s) didn't match the nodeSelector",
    meaning: "The node's labels do not satisfy the template's nodeSelector: the node is excluded by design.",
    upstream: `${K} staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go#GetRequiredNodeAffinity`,
  },
  NodeAffinityMismatch: {
    severity: 'info',
    alsoSeverities: ['warning'],
    short: "node(s) didn't match the required node affinity",
    meaning:
      'No term of requiredDuringSchedulingIgnoredDuringExecution matches the node; a warning when a term is invalid and can never match.',
    upstream: `${K} staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go#Match`,
  },
  UntoleratedTaint: {
    severity: 'warning',
    alsoSeverities: ['error', 'info'],
    short: 'node(s) had untolerated taint(s)',
    meaning:
      'The node has a NoSchedule or NoExecute taint the template does not tolerate (beyond the tolerations the controller adds); an error when it keeps a networking agent off a NotReady node.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#predicates`,
  },
  FailedCreate: {
    severity: 'error',
    short: 'pod creation failed (FailedCreate)',
    meaning:
      "The API server refused to create the daemon pod (admission, quota, PodSecurity, webhook), as the controller's FailedCreate events say.",
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#syncNodes`,
  },
  SelectingAll: {
    severity: 'error',
    short: 'DaemonSet selector selects all pods',
    meaning: 'The selector is empty and selects every pod: the controller refuses to act on the DaemonSet.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#syncDaemonSet`,
  },
  DaemonSetDeleting: {
    severity: 'error',
    short: 'DaemonSet is being deleted',
    meaning: 'The DaemonSet has a deletionTimestamp: the controller creates no pods for it.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#syncDaemonSet`,
  },
  ControllerNotObserved: {
    severity: 'warning',
    alsoSeverities: ['info'],
    short: 'controller has not observed the latest spec',
    meaning:
      'status.observedGeneration is behind metadata.generation: the controller has not acted on the latest spec yet. Info when the controller reports FailedCreate: before v1.27 a sync whose pod creation fails writes no status (kubernetes#100683, fixed by #113787), so the status is stale, not the controller stopped.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#updateDaemonSetStatus`,
  },
  NotYetCreated: {
    severity: 'info',
    alsoSeverities: ['error'],
    short: 'pod not created yet',
    meaning:
      'The node should run a pod and has none yet: expected for a node that just joined, an error once it lasts.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#podsShouldBeOnNode`,
  },
  InsufficientResource: {
    severity: 'error',
    short: 'Insufficient resources',
    meaning: "The pod's requests do not fit in what the node has left to allocate.",
    upstream: `${K} pkg/scheduler/framework/plugins/noderesources/fit.go#fitsRequest`,
  },
  TooManyPods: {
    severity: 'error',
    short: 'Too many pods',
    meaning: 'The node already runs as many pods as its allocatable pods allows.',
    upstream: `${K} pkg/scheduler/framework/plugins/noderesources/fit.go#fitsRequest`,
  },
  HostPortConflict: {
    severity: 'error',
    short: "node(s) didn't have free ports for the requested pod ports",
    meaning: 'Another pod on the node holds a host port the daemon pod asks for.',
    upstream: `${K} pkg/scheduler/framework/plugins/nodeports/node_ports.go#fitsPorts`,
  },
  VolumeConflict: {
    severity: 'error',
    short: 'volume conflict',
    meaning:
      "The scheduler's FailedScheduling event gives a volume reason for the node (a volume in use, a PersistentVolume's node affinity, ReadWriteOncePod, no free storage).",
    upstream: `${K} pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go#Filter`,
  },
  SchedulingGated: {
    severity: 'warning',
    short: 'waiting for scheduling gates',
    meaning: 'The pod has spec.schedulingGates: the scheduler does not consider it until every gate is removed.',
    upstream: `${K} pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go#PreEnqueue`,
  },
  FailedScheduling: {
    severity: 'error',
    alsoSeverities: ['warning'],
    short: 'pod(s) not scheduled',
    meaning:
      'The pod is Pending and unscheduled for a reason the scheduler reported, or is still waiting for the scheduler.',
    upstream: `${K} pkg/scheduler/framework/types.go#FitError.Error`,
  },
  ImagePullBackOff: {
    severity: 'error',
    short: 'ImagePullBackOff',
    meaning: 'The kubelet cannot pull a container image and backs off.',
    upstream: `${K} pkg/kubelet/images/image_manager.go#EnsureImageExists`,
  },
  CrashLoopBackOff: {
    severity: 'error',
    short: 'CrashLoopBackOff',
    meaning: 'A container keeps exiting and the kubelet backs off before restarting it.',
    upstream: `${K} pkg/kubelet/kuberuntime/kuberuntime_manager.go#doBackOff`,
  },
  OOMKilled: {
    severity: 'error',
    short: 'OOMKilled',
    meaning: 'A container was killed for exceeding its memory limit.',
  },
  CreateContainerConfigError: {
    severity: 'error',
    short: 'CreateContainerConfigError',
    meaning: "The kubelet cannot build the container's configuration, typically a missing ConfigMap, Secret or key.",
    upstream: `${K} pkg/kubelet/kuberuntime/kuberuntime_container.go#startContainer`,
  },
  ContainerCreating: {
    severity: 'warning',
    alsoSeverities: ['error'],
    short: 'ContainerCreating',
    meaning:
      "The pod's containers are still being created (sandbox, volumes, image pull); an error when it lasts or its events show a failure.",
  },
  ReadinessProbeFailing: {
    severity: 'error',
    short: 'readiness probe failing',
    meaning: 'The containers run but a readiness probe fails, so the pod is not ready.',
    upstream: `${K} pkg/kubelet/prober/worker.go#doProbe`,
  },
  PodFailed: {
    severity: 'error',
    short: 'pod(s) Failed',
    meaning:
      'The pod reached phase Failed (for example evicted by the kubelet); the controller deletes it and creates a new one, with back-off.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#podsShouldBeOnNode`,
  },
  PodTerminating: {
    severity: 'warning',
    alsoSeverities: ['error'],
    short: 'pod(s) Terminating',
    meaning:
      'The pod has a deletionTimestamp and the kubelet has not confirmed its deletion; an error when its node is NotReady or unreachable.',
  },
  NodeNotReady: {
    severity: 'error',
    short: 'node(s) NotReady',
    meaning: 'The node is NotReady or unreachable, so the pod on it cannot become or stay ready.',
  },
  NotAvailableYet: {
    severity: 'info',
    short: 'pod(s) not available yet (minReadySeconds)',
    meaning: 'The pod is ready but has not been ready for minReadySeconds yet.',
    upstream: `${K} pkg/api/v1/pod/util.go#IsPodAvailable`,
  },
  OutdatedRevision: {
    severity: 'info',
    short: 'pod(s) on an outdated revision',
    meaning: 'The pod runs an older revision of the template (or a second pod shares the node during a surge).',
    upstream: `${K} pkg/controller/daemon/util/daemonset_util.go#IsPodUpdated`,
  },
} as const satisfies Record<string, ReasonEntry>;

/** Reason codes of node verdicts (PascalCase, stable). */
export type ReasonCode = keyof typeof PLACEMENT_REASONS;
