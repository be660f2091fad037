/**
 * What the kubelet's eviction manager writes into a pod it refuses or evicts, and whom it admits
 * under node pressure (kubernetes v1.35.4 pkg/kubelet/eviction/helpers.go and
 * eviction_manager.go).
 *
 * Both paths leave the pod `phase: Failed, reason: Evicted` (helpers.go, Reason); the message tells
 * them apart:
 * - admission (eviction_manager.go#Admit): while the node has a pressure condition the kubelet
 *   refuses to start a new pod, message `The node had condition: [DiskPressure]. `
 *   (nodeConditionMessageFmt), prefixed by the kubelet's rejectPod with "Pod " (before v1.27:
 *   "Pod The node had condition: …") or "Pod was rejected: ". The pod never ran. Critical pods
 *   (pkg/kubelet/types/pod_update.go#IsCriticalPod: priority at least SystemCriticalPriority,
 *   2000000000, as system-node-critical and system-cluster-critical have) are always admitted; under
 *   MemoryPressure alone only BestEffort pods are refused, and not those tolerating the
 *   memory-pressure taint; any other condition refuses every other pod.
 * - eviction of a running pod (eviction_manager.go#synchronize): `The node was low on resource:
 *   ephemeral-storage. ` (nodeLowMessageFmt), followed by the containers' usage.
 *
 * A DaemonSet tolerates the disk-pressure, memory-pressure and pid-pressure NoSchedule taints by
 * default (pkg/controller/daemon/util/daemonset_util.go#AddOrUpdateDaemonPodTolerations), so the
 * scheduler keeps placing its pod on the node and the kubelet keeps refusing it until the pressure
 * ends: the node is the cause, not the DaemonSet.
 */
import type { Pod } from '../model/k8s-types.js';
import { tolerationsTolerateTaint } from './taints.js';

/** pkg/apis/scheduling/types.go, SystemCriticalPriority. */
export const SYSTEM_CRITICAL_PRIORITY = 2000000000;

const CRITICAL_CLASSES: Record<string, number> = {
  'system-cluster-critical': SYSTEM_CRITICAL_PRIORITY,
  'system-node-critical': SYSTEM_CRITICAL_PRIORITY + 1000,
};

export type KubeletEviction = { kind: 'refused'; conditions: string[] } | { kind: 'evicted'; resources: string[] };

/** How the kubelet's eviction manager failed the pod, from its status reason and message. */
export function kubeletEviction(reason: string | undefined, message: string | undefined): KubeletEviction | undefined {
  if (reason !== 'Evicted' || !message) return undefined;
  const cond = /The node had condition: \[([^\]]*)\]/.exec(message);
  if (cond) return { kind: 'refused', conditions: cond[1]!.split(/[\s,]+/).filter(Boolean) };
  const low = /The node was low on resource: ([^.]+)\./.exec(message);
  if (low) return { kind: 'evicted', resources: low[1]!.split(/[\s,]+/).filter(Boolean) };
  return undefined;
}

/** pkg/kubelet/types/pod_update.go#IsCriticalPodBasedOnPriority, for a pod whose priority may be unset in a dump. */
export function isCriticalPriority(pod: Pod): boolean {
  const p = pod.spec?.priority ?? CRITICAL_CLASSES[pod.spec?.priorityClassName ?? ''];
  return p !== undefined && p >= SYSTEM_CRITICAL_PRIORITY;
}

/** pkg/apis/core/v1/helper/qos/qos.go#GetPodQOS == BestEffort: no cpu or memory request or limit in any container. */
export function isBestEffort(pod: Pod): boolean {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  return all.every((c) =>
    ['cpu', 'memory'].every((r) => c.resources?.requests?.[r] === undefined && c.resources?.limits?.[r] === undefined),
  );
}

/** eviction_manager.go#Admit: whether the kubelet starts `pod` while the node has `conditions`. */
export function admittedUnderPressure(pod: Pod, conditions: string[]): boolean {
  if (conditions.length === 0) return true;
  if (isCriticalPriority(pod)) return true;
  if (conditions.length === 1 && conditions[0] === 'MemoryPressure') {
    if (!isBestEffort(pod)) return true;
    return tolerationsTolerateTaint(pod.spec?.tolerations, {
      key: 'node.kubernetes.io/memory-pressure',
      effect: 'NoSchedule',
    });
  }
  return false;
}
