/**
 * A node agent that selects no node: a DaemonSet whose role must run somewhere (network, storage,
 * device plugin, logging, monitoring) with every node of the cluster excluded by its placement
 * (NodeShouldRunDaemonPod false everywhere) runs nothing, which `scan` used to call Healthy 0/0.
 * The nearest miss is the node that fails the fewest requirements, and what it lacks.
 */
import type { DaemonSet, Node } from '../../model/k8s-types.js';
import { compileDaemonPlacement, SYSTEM_TAINT_KEYS } from '../../k8s/daemonpod.js';
import { isLabeller } from './labels.js';
import { formatTaint } from '../../k8s/taints.js';
import type { Role } from '../../model/roles.js';
import type { NodeVerdict } from '../placement/index.js';
import { type CauseContext, type CauseDraft, dsObject, dsRef, nameList } from './context.js';

/** A miss that is a node's own state: a taint of the node lifecycle controller or the kubelet. */
const SYSTEM_TAINT_MISS = /^taint node\.kubernetes\.io\/[\w-]+(=[^:]*)?:\w+ not tolerated$/;

/** Roles whose absence from every node is a failure, not a choice. */
export const MUST_RUN_ROLES: readonly Role[] = ['network', 'storage', 'device', 'logging', 'monitoring'];

/** What keeps the DaemonSet off one node, one phrase per requirement. */
function misses(ds: DaemonSet, node: Node): string[] {
  const out: string[] = [];
  for (const f of compileDaemonPlacement(ds).evaluate(node).failures) {
    if (f.kind === 'NodeName') out.push(`spec.nodeName is ${f.want}`);
    else if (f.kind === 'Taint') out.push(...f.taints.map((t) => `taint ${formatTaint(t)} not tolerated`));
    else {
      for (const m of f.match.selectorMismatches)
        out.push(
          m.have === undefined
            ? `no label ${m.key} (nodeSelector wants ${m.key}=${m.want})`
            : `label ${m.key}=${m.have} (nodeSelector wants ${m.want})`,
        );
      if (f.match.affinityFailed) {
        const best = [...f.match.termMismatches].sort((a, b) => a.failures.length - b.failures.length)[0];
        out.push(...(best?.failures ?? ['no required node-affinity term matches']));
      }
    }
  }
  return out;
}

export function selectsNoNodeCauses(c: CauseContext, ds: DaemonSet, rows: NodeVerdict[]): CauseDraft[] {
  if (c.partial || !rows.length || rows.some((r) => r.verdict !== 'Excluded')) return [];
  const role = c.roles(ds).find((r) => MUST_RUN_ROLES.includes(r));
  if (!role) return [];
  // A device plugin selects the nodes with its hardware; on a cluster with none it runs nowhere
  // by design. Its hardware is there when a labeller could label it, or a node carries a taint the
  // plugin tolerates by name (GPU nodes are tainted for their plugin).
  if (role === 'device') {
    const tolerated = (compileDaemonPlacement(ds).tolerations ?? [])
      .filter((t) => t.key && !SYSTEM_TAINT_KEYS.includes(t.key))
      .map((t) => t.key);
    const hardware =
      c.index.snapshot.daemonSets.some((d) => d !== ds && isLabeller(d)) ||
      c.index.nodesInNameOrder.some((n) => (n.spec?.taints ?? []).some((t) => tolerated.includes(t.key)));
    if (!hardware) return [];
  }
  let best: { node: string; misses: string[] }[] = [];
  for (const n of c.index.nodesInNameOrder) {
    const m = misses(ds, n);
    // A node kept off only by its own state (NotReady, unreachable, pressure) is selected: the
    // node is the problem, and the network chain says why.
    if (m.length && m.every((x) => SYSTEM_TAINT_MISS.test(x))) return [];
    if (!m.length) continue;
    if (!best.length || m.length < best[0]!.misses.length) best = [{ node: n.metadata?.name ?? '', misses: m }];
    else if (m.length === best[0]!.misses.length) best.push({ node: n.metadata?.name ?? '', misses: m });
  }
  const nearest = best[0];
  const nearText = nearest
    ? `nearest miss: ${nameList(best.map((b) => b.node))}: ${nearest.misses.join('; ')}`
    : 'no node is near';
  return [
    {
      code: 'SelectsNoNode',
      severity: 'error',
      chain: [`${ds.metadata?.name} (${role} agent) selects none of the ${rows.length} node(s)`, nearText],
      nodes: best.map((b) => b.node),
      cause: dsObject(ds),
      affects: [dsRef(ds)],
      evidence: [
        `0 of ${rows.length} node(s) should run a pod (desiredNumberScheduled ${ds.status?.desiredNumberScheduled ?? 0})`,
        ...(nearest ? [`node ${nearest.node}: ${nearest.misses.join('; ')}`] : []),
      ],
      fix: nearest
        ? `label or untaint the nodes meant to run it, or change the DaemonSet's nodeSelector, affinity or tolerations to match them (kubectl get nodes --show-labels; ds-doctor why ${ds.metadata?.namespace}/${ds.metadata?.name} ${nearest.node})`
        : `check the DaemonSet's placement against the nodes (kubectl get nodes --show-labels)`,
    },
  ];
}
