/**
 * Node pressure: the kubelet refuses to start a DaemonSet's pod because its node reports a
 * pressure condition (kubernetes v1.35.4 pkg/kubelet/eviction/eviction_manager.go#Admit: "The node
 * had condition: [DiskPressure]"; critical pods are admitted, and under MemoryPressure alone every
 * pod but a BestEffort one that does not tolerate the memory-pressure taint: k8s/eviction.ts). The
 * DaemonSet tolerates the pressure taints (daemonpod.go's automatic tolerations), so its controller
 * deletes the Failed pod and creates another there, refused again for as long as the condition
 * lasts (pkg/controller/daemon/daemon_controller.go#podsShouldBeOnNode). The node is the cause, not
 * the DaemonSet: one cause per node and condition, shared by every DaemonSet refused there.
 * Linked only while the Node still reports the condition True.
 */
import type { DaemonSet, Node, Pod } from '../../model/k8s-types.js';
import { kubeletEviction } from '../../k8s/eviction.js';
import { pressureConditionText } from '../pod-evidence.js';
import type { NodeVerdict } from '../placement/index.js';
import { type CauseContext, type CauseDraft, dsRef } from './context.js';

/** What to free on a node for each pressure condition, and where the kubelet's thresholds are. */
const RELIEF: Record<string, string> = {
  DiskPressure:
    'free disk on its root or image filesystem (unused images: crictl rmi --prune; container logs and emptyDir volumes)',
  MemoryPressure: 'free memory (the pods using more than they request go first)',
  PIDPressure: 'end runaway processes (a pod forking without bound)',
};

function conditionText(node: Node, type: string): string | undefined {
  const c = node.status?.conditions?.find((x) => x.type === type && x.status === 'True');
  return c ? `node ${node.metadata?.name}: ${pressureConditionText(c)}` : undefined;
}

export function nodePressureCauses(c: CauseContext, ds: DaemonSet, rows: NodeVerdict[]): CauseDraft[] {
  const failing = new Set(rows.filter((r) => r.reasons.some((x) => x.code === 'PodFailed')).map((r) => r.node));
  if (!failing.size) return [];
  const refused = new Map<string, { pod: Pod; conditions: string[] }>();
  for (const pod of c.index.podsControlledBy('DaemonSet', ds)) {
    const nodeName = pod.spec?.nodeName ?? '';
    if (!failing.has(nodeName) || pod.status?.phase !== 'Failed' || refused.has(nodeName)) continue;
    const eviction = kubeletEviction(pod.status?.reason, pod.status?.message);
    if (eviction?.kind === 'refused') refused.set(nodeName, { pod, conditions: eviction.conditions });
  }
  const out: CauseDraft[] = [];
  for (const [nodeName, { pod, conditions }] of refused) {
    const node = c.index.nodesByName.get(nodeName);
    if (!node) continue;
    const still = conditions.filter((t) => conditionText(node, t) !== undefined);
    if (!still.length) continue;
    const relief = still.map((t) => RELIEF[t] ?? `relieve ${t}`).join('; ');
    out.push({
      code: 'NodePressure',
      severity: 'error',
      chain: [`node reports ${still.join(', ')}`, 'the kubelet refuses to start daemon pods there until it clears'],
      nodes: [nodeName],
      cause: { kind: 'Node', name: nodeName },
      affects: [dsRef(ds)],
      evidence: [
        ...still.map((t) => conditionText(node, t)!),
        `pod ${pod.metadata?.namespace}/${pod.metadata?.name}: Evicted: ${(pod.status?.message ?? '').trim()}`,
      ],
      fix: `on node ${nodeName}, ${relief}; the kubelet admits the pods once the condition clears (kubectl describe node ${nodeName} shows it; its thresholds are the kubelet's --eviction-hard), and the controller's next pod starts there`,
      reference: 'kubernetes v1.35.4 pkg/kubelet/eviction/eviction_manager.go#Admit',
    });
  }
  return out;
}
