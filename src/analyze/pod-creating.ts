/**
 * Why a pod's containers are still being created (ContainerCreating), for pod-health.ts: the
 * sandbox the CNI cannot set up, a hostPath volume that fails the kubelet's type check
 * (k8s/hostpath.ts), a ConfigMap or Secret volume whose object is missing (k8s/volume-objects.ts),
 * another volume that cannot be mounted, or nothing yet.
 */
import type { KubeEvent, Node, Pod } from '../model/k8s-types.js';
import { formatDuration, parseRfc3339 } from '../model/duration.js';
import { hostPathTypeFailure, kubeletRootOf, nodeKubeletRoot } from '../k8s/hostpath.js';
import { missingVolumeObject } from '../k8s/volume-objects.js';
import { eventLine, latest, type RawReason } from './pod-evidence.js';

/**
 * What to do about a hostPath volume that fails the kubelet's type check (k8s/hostpath.ts): the
 * path is on the node, outside any object; under a kubelet root, it is most often a manifest
 * written for another distribution's kubelet root.
 */
function hostPathFix(message: string, node: Node | undefined, nodeName: string): string | undefined {
  const f = hostPathTypeFailure(message);
  if (!f) return undefined;
  const vol = f.volume ? `hostPath volume ${f.volume}` : 'a hostPath volume';
  const head = `on node ${nodeName}, ${f.path} does not exist or is not ${f.want}, and the ${vol} requires it to be (the kubelet checks the volume's type before it mounts it); this is on the node, outside any object: look there (ls -ld ${f.path})`;
  const root = kubeletRootOf(f.path);
  if (!root) return `${head}; create it there, or fix the path in the DaemonSet's volume`;
  const dist = nodeKubeletRoot(node);
  if (dist && dist.root !== root)
    return `${head}. The path lies under ${root}, but the node runs ${dist.name}, whose kubelet keeps its files under ${dist.root}: set the DaemonSet's kubelet directory (its chart's kubelet path value) to ${dist.root}`;
  return `${head}. The path lies under the kubelet directory ${root}: if the node's kubelet uses another root (--root-dir; k0s uses /var/lib/k0s/kubelet, MicroK8s /var/snap/microk8s/common/var/lib/kubelet), set the DaemonSet's kubelet directory to that root; creating the path by hand hides the mismatch`;
}

export function creatingReason(pod: Pod, events: KubeEvent[], now: Date, node?: Node): RawReason {
  const blockers = latest(events, [
    'FailedMount',
    'FailedAttachVolume',
    'FailedCreatePodSandBox',
    'FailedKillPodSandBox',
    'NetworkNotReady',
  ]);
  const started = pod.status?.startTime ?? pod.metadata?.creationTimestamp;
  const startedAt = parseRfc3339(started ?? '');
  const age = Number.isNaN(startedAt) ? 'an unknown time' : formatDuration(now.getTime() - startedAt);
  const sandbox = blockers.some((e) => e.reason === 'FailedCreatePodSandBox' || e.reason === 'NetworkNotReady');
  const mount = blockers.find((e) => e.reason === 'FailedMount' || e.reason === 'FailedAttachVolume');
  const hostPath = blockers
    .filter((e) => e.reason === 'FailedMount')
    .map((e) => hostPathFix(e.message ?? '', node, pod.spec?.nodeName ?? '<node>'))
    .find(Boolean);
  const failure = blockers.map((e) => hostPathTypeFailure(e.message ?? '')).find(Boolean);
  const missing = blockers
    .filter((e) => e.reason === 'FailedMount')
    .map((e) => missingVolumeObject(e.message ?? ''))
    .find(Boolean);
  const ns = pod.metadata?.namespace ?? '';
  const missingText = missing
    ? `${missing.volume ? `volume ${missing.volume}: ` : ''}${missing.kind} ${ns}/${missing.name} does not exist`
    : undefined;
  const missingFix = missing
    ? `create ${missing.kind} ${missing.name} in namespace ${ns}, or fix the name in the DaemonSet's volume${missing.volume ? ` ${missing.volume}` : ''}, or mark that volume optional (${missing.kind === 'ConfigMap' ? 'configMap' : 'secret'}.optional: true) if the agent can start without it; the kubelet retries the mount, so the pods start once it exists, without being recreated`
    : undefined;
  const hostPathText = failure
    ? `${failure.volume ? `hostPath volume ${failure.volume}` : 'a hostPath volume'}: ${failure.path} is not ${failure.want} on the node`
    : undefined;
  return {
    code: 'ContainerCreating',
    severity: blockers.length ? 'error' : 'warning',
    message: blockers.length
      ? `containers are not starting after ${age}: ${sandbox ? 'the pod sandbox (network) cannot be created' : (hostPathText ?? missingText ?? 'a volume cannot be mounted')}`
      : `containers are still being created (${age})`,
    evidence: [
      ...(pod.status?.containerStatuses ?? [])
        .filter((c) => c.state?.waiting)
        .map((c) => `container ${c.name}: waiting: ${c.state!.waiting!.reason}`),
      ...blockers.map(eventLine),
    ],
    fix: sandbox
      ? `the node's CNI is not working: check the network agent's pod on node ${pod.spec?.nodeName} (kubectl get pods -A -o wide --field-selector spec.nodeName=${pod.spec?.nodeName})`
      : hostPath
        ? hostPath
        : missingFix
          ? missingFix
          : mount
            ? `fix the volume named in the event (missing ConfigMap/Secret/hostPath, CSI driver not registered on the node)`
            : `wait; if it lasts, check events: kubectl describe pod -n ${pod.metadata?.namespace} ${pod.metadata?.name}`,
  };
}
