/**
 * Pod CIDR chain: a network (CNI) agent fails by itself on nodes whose Node object has no
 * spec.podCIDR → the node IPAM controller gave those nodes no pod range. Agents that take the
 * node's range from the API (flannel's kube subnet manager, kube-router, kindnet, Cilium in
 * Kubernetes IPAM mode) cannot start without it ("pod cidr not assigned"). The range is written
 * by kube-controller-manager's node IPAM controller, which runs only with --allocate-node-cidrs
 * and allocates from --cluster-cidr when a Node is added (kubernetes v1.35.4
 * pkg/controller/nodeipam/ipam/range_allocator.go#AllocateOrOccupyCIDR; it records a
 * CIDRNotAvailable event on the Node when the range is used up). A node that joined while the
 * controller did not allocate, or after the range ran out, stays without one: spec.podCIDR can be
 * set once, never changed (pkg/apis/core/validation/validation.go#ValidateNodeUpdate).
 *
 * The link needs the split to be exact: every node where the agent fails lacks a pod CIDR and
 * every node where it is healthy has one (an error). When it fails everywhere and no node has a
 * pod CIDR (kubeadm init without --pod-network-cidr), it is a warning: an agent with its own IPAM
 * (Calico's, by default) would not care.
 */
import type { DaemonSet, Node } from '../../model/k8s-types.js';
import type { NodeVerdict } from '../placement/index.js';
import { type CauseContext, type CauseDraft, dsObject, dsRef, nameList } from './context.js';

/** Reasons that say the agent's own process fails (not its image, its config objects or the node). */
const AGENT_FAILURES: ReadonlySet<string> = new Set(['CrashLoopBackOff', 'PodFailed', 'ReadinessProbeFailing']);

function podCIDR(n: Node): string | undefined {
  return n.spec?.podCIDR || undefined;
}

function agentFails(r: NodeVerdict): NodeVerdict['reasons'][number] | undefined {
  if (r.verdict !== 'Unhealthy') return undefined;
  return r.reasons.find((x) => AGENT_FAILURES.has(x.code) && x.severity === 'error');
}

export function podCIDRCauses(c: CauseContext, ds: DaemonSet, rows: NodeVerdict[]): CauseDraft[] {
  if (c.partial || !c.roles(ds).includes('network')) return [];
  const failing: { node: Node; reason: NonNullable<ReturnType<typeof agentFails>> }[] = [];
  const healthy: Node[] = [];
  for (const r of rows) {
    const node = c.index.nodesByName.get(r.node);
    if (!node) continue;
    const reason = agentFails(r);
    if (reason) failing.push({ node, reason });
    else if (r.verdict === 'Healthy') healthy.push(node);
  }
  if (!failing.length || failing.some((f) => podCIDR(f.node))) return [];
  // An agent that runs on a node without a pod CIDR does not need one.
  if (healthy.some((n) => !podCIDR(n))) return [];
  const everyNode = c.index.nodesInNameOrder;
  const exact = healthy.length > 0;
  // Failing everywhere: only when no node of the cluster has a range either (nothing allocates them).
  if (!exact && (failing.length < 2 || everyNode.some((n) => podCIDR(n)))) return [];
  const names = failing.map((f) => f.node.metadata?.name ?? '');
  const first = failing[0]!;
  const withRange = healthy.map((n) => `${n.metadata?.name}=${podCIDR(n)}`);
  const patch = `kubectl patch node ${names[0]} -p '{"spec":{"podCIDR":"<a free range>","podCIDRs":["<a free range>"]}}'`;
  return [
    {
      code: 'NodeWithoutPodCIDR',
      severity: exact ? 'error' : 'warning',
      chain: exact
        ? [
            `no spec.podCIDR (set on the ${healthy.length} node(s) where the agent runs)`,
            'the network agent takes its pod range from the Node and cannot start there',
          ]
        : [
            `no node has spec.podCIDR and the network agent fails on all ${failing.length}`,
            'nothing allocates node pod ranges (kube-controller-manager without --allocate-node-cidrs): an agent that takes its range from the Node cannot start',
          ],
      nodes: names,
      cause: exact ? { kind: 'Node', name: names[0]! } : dsObject(ds),
      affects: [dsRef(ds)],
      evidence: [
        `no spec.podCIDR on ${failing.length} node(s): ${nameList(names)}`,
        ...(exact
          ? [`spec.podCIDR set on the ${healthy.length} node(s) where it runs: ${nameList(withRange)}`]
          : [`no node of the ${everyNode.length} has spec.podCIDR`]),
        `node ${names[0]}: ${first.reason.code}: ${first.reason.message}`,
      ],
      fix: exact
        ? `its logs should say "pod cidr not assigned" (kubectl logs -n ${ds.metadata?.namespace} ${rows.find((r) => r.node === names[0])?.pod?.name ?? `ds/${ds.metadata?.name}`} --all-containers --previous); give the node a range: the node IPAM controller allocates one when a Node is added (look for a CIDRNotAvailable event on the node: the cluster CIDR is used up), or set one that no other node uses: ${patch}`
        : `if the agent takes its range from the Node (flannel with --kube-subnet-mgr, kube-router, kindnet, Cilium with Kubernetes IPAM; its logs say "pod cidr not assigned"), run kube-controller-manager with --allocate-node-cidrs=true --cluster-cidr=<pod network> (kubeadm init --pod-network-cidr, or networking.podSubnet), or set each node's range: ${patch}`,
    },
  ];
}
