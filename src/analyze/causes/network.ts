/**
 * Network chain: pods stuck creating their sandbox, or a node NotReady, because the container
 * network is not ready → the snapshot's network (CNI) agent → that agent's own verdict on the
 * node. The kubelet starts no pod but host-network ones while the runtime reports
 * NetworkReady=false (kubernetes v1.35.4 pkg/kubelet/kubelet.go#syncPod), and the runtime reports
 * it until the CNI agent has written its configuration on the node.
 */
import type { DaemonSet, Node } from '../../model/k8s-types.js';
import type { Reason } from '../../model/results.js';
import type { NodeVerdict } from '../placement/index.js';
import {
  type CauseContext,
  type CauseDraft,
  dsObject,
  dsRef,
  NETWORK_NOT_READY,
  nodeNetworkText,
  reasonPhrase,
  tolerationPatch,
} from './context.js';
import { cloudInitCause } from './cloud-init.js';

/**
 * The CNI plugin's own error when the runtime's network is ready but the plugin's ADD failed for
 * this pod (FailedCreatePodSandBox "... network for pod ...: <error>"), e.g. an address pool
 * exhausted. That is not "network not ready": the kubelet creates sandboxes only once the runtime
 * reports NetworkReady (kubernetes v1.35.4 pkg/kubelet/kubelet.go#syncPod), and the plugin's
 * refusal comes from RunPodSandbox (pkg/kubelet/kuberuntime/kuberuntime_sandbox.go#createPodSandbox).
 */
export function pluginError(texts: readonly string[]): string | undefined {
  if (texts.some((t) => NETWORK_NOT_READY.test(t))) return undefined;
  for (const t of texts) {
    if (!/FailedCreatePodSandBox|failed to set ?up (the )?(sandbox|network for sandbox|pod)/i.test(t)) continue;
    const m = /(?:failed \(add\)|network(?: for pod "[^"]*")?):\s*((?:(?!network: ).)+?)(?:\s*\(x\d+\))?$/.exec(t);
    const tail = m?.[1]?.trim();
    if (tail) return tail.length > 100 ? `${tail.slice(0, 97)}...` : tail;
  }
  return undefined;
}

/** The reason on a row that says its pod waits for the network, with the words that say so. */
function networkSymptom(
  r: NodeVerdict,
  node: Node | undefined,
): { reason: Reason; text: string; plugin?: string } | undefined {
  if (r.verdict === 'Healthy' || r.verdict === 'Excluded') return undefined;
  for (const reason of r.reasons) {
    const texts = [reason.message, ...reason.evidence];
    const text = texts.find(
      (t) => NETWORK_NOT_READY.test(t) || /FailedCreatePodSandBox|pod sandbox \(network\)/.test(t),
    );
    if (
      text &&
      (reason.code === 'ContainerCreating' || reason.code === 'NodeNotReady' || reason.code === 'PodFailed')
    ) {
      const plugin = pluginError(texts);
      return { reason, text, ...(plugin ? { plugin } : {}) };
    }
  }
  const nodeText = nodeNetworkText(node);
  if (nodeText && r.reasons.some((x) => x.code === 'NodeNotReady' || x.code === 'ContainerCreating'))
    return { reason: r.reasons[0]!, text: nodeText };
  return undefined;
}

/** The agent's verdict phrase on the node: "has no pod there (untolerated taint …)". */
function agentState(v: NodeVerdict): string {
  const main = v.reasons.find((x) => x.severity !== 'info') ?? v.reasons[0];
  const why = main ? ` (${reasonPhrase(main)})` : '';
  switch (v.verdict) {
    case 'Excluded':
      return `has no pod there${why}`;
    case 'Missing':
      return `should run there but has no pod${why}`;
    case 'Pending':
      return `has a pod there that is not scheduled${why}`;
    default:
      return `has a pod there that is not Ready${why}`;
  }
}

/**
 * Network causes behind `ds`'s rows. For the network agent itself, its own absence from a node
 * whose network is not ready is the cause (the demo's worker-5 deadlock).
 */
export function networkCauses(c: CauseContext, ds: DaemonSet, rows: NodeVerdict[]): CauseDraft[] {
  const agents = c.withRole('network');
  const out: CauseDraft[] = [];
  const isAgent = agents.includes(ds);
  for (const r of rows) {
    const node = c.index.nodesByName.get(r.node);
    const nodeText = nodeNetworkText(node);
    let symptomText: string | undefined;
    let plugin: string | undefined;
    if (isAgent) {
      if (!nodeText || r.verdict === 'Healthy') continue;
      symptomText = nodeText;
    } else {
      const s = networkSymptom(r, node);
      if (!s) continue;
      symptomText = s.text;
      plugin = s.plugin;
    }
    if (!node) continue;
    const head = plugin ? `the CNI plugin cannot set up the pod's network (${plugin})` : 'network not ready';
    const candidates = isAgent ? [ds] : agents;
    if (!candidates.length) {
      // A partial snapshot (one node's worth, live) holds no other DaemonSet to name.
      if (c.partial) continue;
      out.push({
        code: 'NoNetworkAgent',
        severity: 'warning',
        chain: [head, 'no network (CNI) agent DaemonSet in the input'],
        nodes: [r.node],
        cause: { kind: 'Node', name: r.node },
        affects: [dsRef(ds)],
        evidence: [symptomText],
        fix: `find the node's CNI agent (kubectl get pods -A -o wide --field-selector spec.nodeName=${r.node}); if it runs in a namespace the input lacks, include it (kubectl get ds -A -o yaml); on the node, /etc/cni/net.d must hold its configuration`,
      });
      continue;
    }
    const verdicts = candidates.map((a) => ({ agent: a, v: isAgent ? r : c.verdictOn(a, node) }));
    const down = verdicts.filter((x) => x.v.verdict !== 'Healthy');
    if (!down.length) {
      const a = verdicts[0]!;
      out.push({
        code: 'NetworkNotReadyAgentRunning',
        severity: 'error',
        chain: [
          head,
          `${a.agent.metadata?.name} runs there and is Ready`,
          plugin
            ? "the cause is in the plugin's state on the host (the agent's logs say why)"
            : 'the cause is on the host (CNI configuration, the agent logs)',
        ],
        nodes: [r.node],
        cause: dsObject(a.agent),
        affects: [dsRef(ds)],
        evidence: [symptomText, ...(a.v.pod ? [`pod ${a.v.pod.name} is Ready on node ${r.node}`] : [])],
        fix: plugin
          ? `read the agent's logs on the node for why the plugin refuses (kubectl logs -n ${a.agent.metadata?.namespace} ${a.v.pod?.name ?? `ds/${a.agent.metadata?.name}`} --all-containers); the plugin said: ${plugin}; this is outside any object in the input`
          : `read the agent's logs on the node (kubectl logs -n ${a.agent.metadata?.namespace} ${a.v.pod?.name ?? `ds/${a.agent.metadata?.name}`} --all-containers) and check /etc/cni/net.d on node ${r.node}; this is outside any object in the input`,
      });
      continue;
    }
    for (const { agent, v } of down) {
      const cloud = v.verdict === 'Excluded' ? cloudInitCause(c, agent, node, head, [ds], symptomText) : undefined;
      if (cloud) {
        out.push(cloud);
        continue;
      }
      const main = v.reasons.find((x) => x.severity !== 'info') ?? v.reasons[0];
      const patch =
        v.verdict === 'Excluded'
          ? tolerationPatch(agent, node, 'so the agent can start there (a network agent must, to make the node Ready)')
          : undefined;
      out.push({
        code: 'NetworkAgentNotRunning',
        severity: 'error',
        chain: [head, `${agent.metadata?.name} ${agentState(v)}`],
        nodes: [r.node],
        cause: dsObject(agent),
        affects: isAgent ? [] : [dsRef(ds)],
        evidence: [
          symptomText,
          ...(main
            ? [
                `${agent.metadata?.namespace}/${agent.metadata?.name} on node ${r.node}: ${v.verdict}: ${main.code}: ${main.message}`,
              ]
            : []),
        ],
        fix: patch ?? main?.fix ?? `see ds-doctor why ${agent.metadata?.namespace}/${agent.metadata?.name} ${r.node}`,
      });
    }
  }
  return out;
}
