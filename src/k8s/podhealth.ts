/**
 * The kubelet's words for a pod that is not running well, as it writes them into the pod and
 * node status: the waiting reasons of image pulls (`kubernetes v1.35 pkg/kubelet/images/types.go`,
 * ErrImagePullBackOff and the others), of container creation
 * (`pkg/kubelet/kuberuntime/kuberuntime_container.go`, `pkg/kubelet/container/sync_result.go`)
 * and of a pod still starting (`pkg/kubelet/kubelet_pods.go#convertToAPIContainerStatuses`, ContainerCreating and
 * PodInitializing), and the node's Ready condition
 * (`pkg/api/v1/node/util.go#GetNodeCondition`). What they mean for a DaemonSet, with a fix,
 * is analyze/pod-health.ts. docs/semantics.md §6.
 */
import type { Node } from '../model/k8s-types.js';
import { memoizedPerObject } from '../model/memo.js';

/** Waiting reasons of a container whose image cannot be pulled. */
const IMAGE_PULL = new Set([
  'ImagePullBackOff',
  'ErrImagePull',
  'InvalidImageName',
  'ErrImageNeverPull',
  'RegistryUnavailable',
  'SignatureValidationFailed',
]);
/** Waiting reasons of a container the runtime cannot create or start. */
const CONFIG_ERRORS = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError']);
/** Waiting reasons of containers still being set up. */
const CREATING = new Set(['ContainerCreating', 'PodInitializing']);

/** A waiting reason of an image that cannot be pulled. */
export function isImagePullWaiting(reason: string | undefined): boolean {
  return IMAGE_PULL.has(reason ?? '');
}

/** A waiting reason of a container that cannot be created from its configuration. */
export function isConfigErrorWaiting(reason: string | undefined): boolean {
  return CONFIG_ERRORS.has(reason ?? '');
}

/** A waiting reason of a container still being created. */
export function isCreatingWaiting(reason: string | undefined): boolean {
  return CREATING.has(reason ?? '');
}

/**
 * The node's Ready condition status: "True", "False", "Unknown" or "" when not reported. Kept per
 * node object: every DaemonSet's analysis asks it of every node.
 */
export function nodeReadyStatus(node: Node | undefined): string {
  return node ? readyOf(node) : '';
}

const readyOf = memoizedPerObject(
  (node: Node): string => node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? '',
);

/**
 * The node's kubelet has stopped reporting (Ready Unknown, set by the node lifecycle controller,
 * `pkg/controller/nodelifecycle/node_lifecycle_controller.go#tryUpdateNodeHealth`): nothing
 * it would confirm, such as a pod's graceful deletion, happens until it comes back.
 */
export function isNodeUnreachable(node: Node | undefined): boolean {
  return nodeReadyStatus(node) === 'Unknown';
}
