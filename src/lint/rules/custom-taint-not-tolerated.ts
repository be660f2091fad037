/**
 * `custom-taint-not-tolerated`: nodes the DaemonSet selects carry no custom taint it fails to
 * tolerate.
 * Motivation: the DaemonSet guide, 常见坑 (forgetting to tolerate business taints other than
 * node.kubernetes.io/unschedulable, so critical dedicated nodes get no agent) and FAQ ("custom
 * taints need explicit tolerations"); `NodeShouldRunDaemonPod` (docs/semantics.md §1.2), which skips
 * such nodes silently: no pod, no event.
 */
import type { Taint } from '../../model/k8s-types.js';
import { SYSTEM_TAINT_KEYS } from '../../k8s/daemonpod.js';
import { formatTaint, tolerationFor } from '../../k8s/taints.js';
import type { LintRule, RuleFinding } from '../types.js';
import { nodesUnavailable } from '../context.js';
import { findRole, nodeAgentEvidence, POD_SPEC, yamlBlock } from '../template.js';
import { compareText } from '../../model/order.js';

/**
 * Control-plane taints: an ordinary DaemonSet is meant to stay off those nodes, so they are not
 * reported for it; a network agent or service proxy must run there too, so they are.
 */
export const CONTROL_PLANE_TAINT_KEYS: readonly string[] = [
  'node-role.kubernetes.io/control-plane',
  'node-role.kubernetes.io/master',
];

/** How many node names a message lists before "and N more". */
const LISTED = 5;

function nodeList(nodes: string[]): string {
  const shown = nodes.slice(0, LISTED).join(', ');
  return nodes.length > LISTED ? `${shown} and ${nodes.length - LISTED} more` : shown;
}

/** The `custom-taint-not-tolerated` rule, as the registry lists it. */
export const customTaintNotTolerated: LintRule = {
  meta: {
    id: 'custom-taint-not-tolerated',
    severity: 'warning',
    severityNote: 'info for an ordinary application DaemonSet, which may be meant to stay off dedicated nodes',
    description:
      "Nodes of the input that the DaemonSet's nodeSelector and affinity match carry no custom NoSchedule/NoExecute taint that it does not tolerate (system taints and, except for network agents and service proxies, control-plane taints are not counted).",
    rationale:
      'The controller adds tolerations only for node-lifecycle taints. A custom taint (dedicated=gpu:NoSchedule) keeps the DaemonSet off that node silently: no pod, no event, and `desiredNumberScheduled` simply leaves the node out. The DaemonSet guide lists it as the common pitfall: critical dedicated nodes end up without the log or network agent.',
    howToFix:
      'If the agent belongs on those nodes, add the toleration the finding gives; if it does not, say so with a nodeSelector or affinity that excludes them.',
    example:
      '# node gpu-1 carries dedicated=gpu:NoSchedule\nspec:\n  template:\n    spec:\n      tolerations: []   # the DaemonSet skips gpu-1',
    needsCluster: 'Nodes (their taints and labels)',
  },
  notChecked: nodesUnavailable,
  check(ds, ctx) {
    const placement = ctx.placement(ds);
    const roles = ctx.roles(ds);
    const controlPlaneToo = Boolean(findRole(roles, 'network', 'service-proxy'));
    const counted = (t: Taint) =>
      !SYSTEM_TAINT_KEYS.includes(t.key) && (controlPlaneToo || !CONTROL_PLANE_TAINT_KEYS.includes(t.key));
    const byTaint = new Map<string, { taint: Taint; nodes: string[] }>();
    for (const node of ctx.index.nodesInNameOrder) {
      const result = placement.evaluate(node);
      // Only nodes the DaemonSet is meant for: nodeName, nodeSelector and affinity match.
      if (result.shouldRun || result.failures.some((f) => f.kind !== 'Taint')) continue;
      const taints = result.failures.flatMap((f) => (f.kind === 'Taint' ? f.taints : []));
      // A control-plane taint the DaemonSet is not meant to tolerate excludes the node anyway.
      if (taints.some((t) => CONTROL_PLANE_TAINT_KEYS.includes(t.key) && !counted(t))) continue;
      for (const taint of taints.filter(counted)) {
        const key = formatTaint(taint);
        const entry = byTaint.get(key) ?? { taint, nodes: [] };
        entry.nodes.push(node.metadata?.name ?? '');
        byTaint.set(key, entry);
      }
    }
    const agent = nodeAgentEvidence(ds, ctx);
    return [...byTaint.entries()]
      .sort(([a], [b]) => compareText(a, b))
      .map(([key, { taint, nodes: names }]): RuleFinding => ({
        severity: agent ? 'warning' : 'info',
        message: `${names.length} node(s) carry taint ${key}, which the DaemonSet does not tolerate: ${nodeList(names)}. Its nodeSelector and affinity match them, yet no pod runs there${taint.effect === 'NoExecute' ? ' (NoExecute: running pods are evicted too)' : ''}${agent ? `, and it is ${agent}` : ''}`,
        path: `${POD_SPEC}.tolerations`,
        fix: `if the DaemonSet belongs on those nodes, tolerate the taint:\n${yamlBlock({ tolerations: [tolerationFor(taint)] })}`,
      }));
  },
};
