/**
 * Root-cause rules: how a symptom on one object links to the cause in another object of the same
 * snapshot (src/analyze/causes/). They appear as `causes[].code` in every result kind. Each entry
 * says which evidence the rule needs and which objects it links, besides the usual fields.
 */
import type { ReasonEntry } from './entry.js';

const K = 'kubernetes v1.35.4';

export interface CauseEntry extends ReasonEntry {
  /** The evidence the rule needs in the snapshot before it links anything. */
  readonly needs: string;
  /** The objects the rule links, from symptom to cause. */
  readonly links: string;
}

export const CAUSE_RULES = {
  NetworkAgentNotRunning: {
    severity: 'error',
    short: "node's network agent has no running pod",
    meaning:
      "Pods on the node cannot get a sandbox (or the node is NotReady) because the container network is not ready, and the cluster's network (CNI) agent DaemonSet has no Ready pod on that node; the agent's own reason there is the root cause.",
    needs:
      'a pod stuck in ContainerCreating with a NetworkNotReady / FailedCreatePodSandBox event or a "cni plugin not initialized" message, or a node whose Ready condition says NetworkPluginNotReady; a DaemonSet whose role is network (CNI config or binary host paths)',
    links: 'the affected DaemonSets → the node → the network agent DaemonSet and its verdict on that node',
    upstream: `${K} pkg/kubelet/kubelet.go#syncPod (network not ready: pods other than host-network ones are not started)`,
  },
  CloudProviderNotInitialized: {
    severity: 'error',
    short: "the network agent waits for the cloud controller manager's initialisation",
    meaning:
      "The node's network is not ready because its network (CNI) agent is kept off by node.cloudprovider.kubernetes.io/uninitialized, the taint a kubelet with --cloud-provider=external sets and the cloud controller manager removes once it has initialised the node. The cloud controller manager is the cause: it has no running pod (often kept off by the not-ready taint, so that neither can start), or it runs and has not initialised the node (its logs say why).",
    needs:
      'the network symptoms on a node with the uninitialized taint that the network agent does not tolerate; a DaemonSet that runs a cloud controller manager (by name, image, command or a --cloud-provider argument), or none in the input',
    links:
      'the affected DaemonSets → the node → the network agent kept off by the uninitialized taint → the cloud controller manager DaemonSet and its verdicts',
    upstream: `${K} staging/src/k8s.io/cloud-provider/controllers/node/node_controller.go#syncNode (removes the taint the kubelet sets in pkg/kubelet/kubelet_node_status.go#initialNode)`,
  },
  NetworkNotReadyAgentRunning: {
    severity: 'error',
    short: "node's network not ready, or the CNI refusing, although its agent runs",
    meaning:
      "The node reports its network not ready, or the CNI plugin refuses to set up a pod's network there (FailedCreatePodSandBox with the plugin's own error, such as an exhausted address pool), while the network agent's pod there is Ready: the cause is on the host (CNI configuration or binaries the agent writes, the plugin's state, the agent's own logs), outside any object in the input.",
    needs:
      'the same network symptoms as NetworkAgentNotRunning, or a sandbox the CNI plugin refused, with the network agent Healthy on the node',
    links: 'the affected DaemonSets → the node → the network agent pod (its logs)',
    upstream: `${K} pkg/kubelet/kubelet.go#syncPod`,
  },
  NoNetworkAgent: {
    severity: 'warning',
    short: 'network not ready and no network agent in the input',
    meaning:
      'The node reports its network not ready and the input holds no network (CNI) agent DaemonSet: the agent is installed on the host, lives in an unread namespace, or is missing.',
    needs: 'the network symptoms, and no DaemonSet with the network role in the snapshot',
    links: 'the affected DaemonSets → the node',
    upstream: `${K} pkg/kubelet/kubelet.go#syncPod`,
  },
  NodeWithoutPodCIDR: {
    severity: 'error',
    alsoSeverities: ['warning'],
    short: 'the network agent fails where the node has no pod CIDR',
    meaning:
      "The network (CNI) agent fails on the nodes whose Node object has no spec.podCIDR: agents that take the node's pod range from the API (flannel's kube subnet manager, kube-router, kindnet, Cilium with Kubernetes IPAM) cannot start without it. An error when the split is exact (it runs wherever the range is set); a warning when it fails everywhere and no node has one (nothing allocates ranges: kube-controller-manager without --allocate-node-cidrs).",
    needs:
      'a DaemonSet with the network role whose bound pods fail by themselves (crash, failed, readiness) on nodes without spec.podCIDR, and either healthy pods only on nodes with one, or failures on at least two nodes of a cluster where no node has one',
    links: 'the network agent → the failing nodes → their missing spec.podCIDR (the node IPAM controller)',
    upstream: `${K} pkg/controller/nodeipam/ipam/range_allocator.go#AllocateOrOccupyCIDR`,
  },
  NodePressure: {
    severity: 'error',
    short: 'the kubelet refuses pods while the node reports pressure',
    meaning:
      'The kubelet refuses to start the DaemonSet\'s pods on a node that reports DiskPressure, MemoryPressure or PIDPressure (the pod ends Failed, reason Evicted, "The node had condition: [DiskPressure]"); the DaemonSet tolerates the pressure taints, so its controller creates the pod there again, refused again until the condition clears. The node is the cause: one cause per node, shared by every DaemonSet refused there. Critical pods (system-node-critical, system-cluster-critical) are admitted under pressure.',
    needs:
      'a Failed daemon pod whose status says the kubelet refused it for a node condition, on a node whose Node object still reports that condition True',
    links: 'the refused DaemonSets → the node → its pressure condition',
    upstream: `${K} pkg/kubelet/eviction/eviction_manager.go#Admit`,
  },
  LabellerNotRunning: {
    severity: 'error',
    short: 'the node labeller does not run where the label is missing',
    meaning:
      'The DaemonSet selects nodes by a label that no matching node carries, a labeller DaemonSet in the input writes that label family, and the labeller has no Ready pod on the nodes that lack it (its own reason says why, e.g. a toleration with the right key and the wrong value).',
    needs:
      'a nodeSelector or required node-affinity term on a label key no node satisfies; a DaemonSet that writes node labels of that family (node-feature-discovery, GPU feature discovery, a vendor labeller by name or image)',
    links: 'the DaemonSet → the missing label → the labeller DaemonSet and its verdict on the nodes',
  },
  LabelNotWritten: {
    severity: 'warning',
    short: 'the node labeller runs but the label is missing',
    meaning:
      "The labeller DaemonSet runs on the nodes, yet no node carries the label the DaemonSet selects on: the labeller's configuration or its access to the API decides (its logs say which).",
    needs: 'as LabellerNotRunning, with the labeller Healthy on the nodes that lack the label',
    links: 'the DaemonSet → the missing label → the labeller DaemonSet (its logs)',
  },
  SelectsNoNode: {
    severity: 'error',
    short: 'a node agent that selects no node',
    meaning:
      'A DaemonSet whose role must run somewhere (network, storage, device plugin, logging, monitoring) selects no node of the cluster: nothing runs, which is never healthy. The nearest miss says what the closest node lacks.',
    needs: 'a DaemonSet with such a role, nodes in the input, and every node excluded by the placement',
    links: 'the DaemonSet → the nearest node and the requirement it misses',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#NodeShouldRunDaemonPod`,
  },
  WebhookInjectedField: {
    severity: 'error',
    short: 'a mutating webhook adds what the API server refuses',
    meaning:
      "FailedCreate says the pod is invalid at a field or name the DaemonSet's template does not have, so something added it on the way in: a mutating admission webhook in the input that matches pod CREATE in the namespace.",
    needs:
      'FailedCreate events "Pod … is invalid" naming a container, volume or mount absent from the template; a MutatingWebhookConfiguration whose rules match pods CREATE and whose selectors match the namespace and the pod labels',
    links: 'the DaemonSet → the FailedCreate event → the MutatingWebhookConfiguration',
    upstream: `${K} staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go#Dispatch`,
  },
  HostPortHeldByDaemonSet: {
    severity: 'error',
    short: "another DaemonSet's pods hold the host port",
    meaning:
      "The DaemonSet's pods cannot be placed on nodes where a host port they ask for is held by a pod of another DaemonSet. That controller keeps its pod on every node it selects and creates it again when deleted, so the port stays taken until one of the two DaemonSets asks for another port (or none).",
    needs:
      "HostPortConflict on the DaemonSet's nodes, with the conflicting host port held by a pod whose controller reference is another DaemonSet",
    links: 'the DaemonSet → the nodes it cannot reach → the DaemonSet whose pods hold the port there',
    upstream: `${K} pkg/scheduler/framework/plugins/nodeports/node_ports.go#Fits`,
  },
  NodeAttributeSplit: {
    severity: 'warning',
    alsoSeverities: ['error'],
    short: 'failures follow a node attribute exactly',
    meaning:
      'Every node where the pods fail shares an attribute no healthy node has (architecture, OS, instance type or pool, kernel, OS image, container runtime or kubelet version): the cause is what that attribute brings (an image without that architecture, a driver, a kernel feature).',
    needs:
      'at least two failing bound pods (one when the attribute is the architecture or OS) and at least one healthy one, and a node attribute whose values split them exactly',
    links: 'the DaemonSet → the failing nodes → the attribute they share',
  },
  RevisionFailing: {
    severity: 'error',
    short: 'the new revision fails on every node it reached',
    meaning:
      'Pods of the current revision fail on every node where they run while an older revision was healthy: the template change is the cause, and rolling back restores the revision that worked.',
    needs:
      'bound pods of the current revision, all failing (crash, image, config, probe), and pods or a ControllerRevision of an older revision',
    links: 'the DaemonSet → its current revision → the template change and the last healthy revision',
    upstream: `${K} staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollback.go#DaemonSetRollbacker`,
  },
  PullSecretNotCarried: {
    severity: 'error',
    short: 'the registry refuses anonymous pulls and the pods carry no pull secret',
    meaning:
      "The DaemonSet's pods cannot pull their image: the registry refuses an anonymous pull (unauthorized, denied), the pods carry no imagePullSecrets (neither the template nor the ServiceAccount gives one), and another DaemonSet of the same namespace pulls from the same registry with imagePullSecrets: those Secrets are the ones to list.",
    needs:
      'pods in ImagePullBackOff whose pull the registry refused for want of credentials, without spec.imagePullSecrets; a DaemonSet of the same namespace whose template lists imagePullSecrets and pulls from the same registry host',
    links: 'the failing DaemonSet → the registry → the DaemonSet that pulls from it with a secret',
    upstream: `${K} pkg/kubelet/kuberuntime/kuberuntime_image.go#PullImage (pulls with the pod's imagePullSecrets; plugin/pkg/admission/serviceaccount/admission.go copies the ServiceAccount's into a pod that sets none)`,
  },
  BudgetHeldByDeadNodes: {
    severity: 'error',
    short: 'pods on NotReady or unreachable nodes hold the update budget',
    meaning:
      'The rolling update is stuck because pods on nodes that are NotReady or unreachable count as unavailable and hold the whole maxUnavailable budget; raising maxUnavailable past them, or deleting the Node objects of nodes that are gone, lets the rollout continue. Deleting such a pod does not help when the controller creates it again on the same node.',
    needs:
      'a Stuck RollingUpdate whose budget in use is held by pods on nodes whose Ready condition is False or Unknown',
    links: 'the DaemonSet → its budget → the dead nodes',
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  KnownUpstreamBug: {
    severity: 'warning',
    short: 'a known controller bug of this release',
    meaning:
      "The cluster's version (the kubelets' versions in a dump) is in the affected range of a known DaemonSet controller bug whose symptom matches what the snapshot shows; upgrading past the fixed release is the cure.",
    needs: "the nodes' kubeletVersion (or the server version) in the bug's affected range, and the bug's exact symptom",
    links: 'the DaemonSet → the cluster version → the upstream issue and fix',
  },
  LegacyOnDeleteDefault: {
    severity: 'info',
    short: 'OnDelete from the extensions/v1beta1 default',
    meaning:
      'The DaemonSet uses OnDelete and was written through extensions/v1beta1 (or created before apps/v1), whose default update strategy was OnDelete: a template change replaces no pod until each is deleted. apps/v1 defaults to RollingUpdate.',
    needs:
      'updateStrategy OnDelete, and extensions/v1beta1 in the last-applied configuration or selfLink, or no strategy in the last-applied configuration on a cluster older than 1.16',
    links: 'the DaemonSet → its update strategy → the API version it was written with',
    upstream: 'kubernetes v1.15 pkg/apis/extensions/v1beta1/defaults.go#SetDefaults_DaemonSet',
  },
} as const satisfies Record<string, CauseEntry>;

export type CauseCode = keyof typeof CAUSE_RULES;
