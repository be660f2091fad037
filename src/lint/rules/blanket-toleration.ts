/**
 * `blanket-toleration`: no toleration without a key that tolerates NoExecute taints.
 * Motivation: `Toleration.ToleratesTaint` (docs/semantics.md §1.4): an empty key with `Exists` matches
 * every taint of its effect, or every taint when the effect is empty; either way the NoExecute
 * taints used to evict pods from nodes being drained, repaired or dedicated are tolerated.
 * `{operator: Exists, effect: NoExecute}` covers NoExecute taints only, and the finding says so.
 * Peer-tools §14 item 10: right for a CNI agent (and a node monitor), surprising for anything else.
 */
import { formatTaint, formatToleration, tolerationFor } from '../../k8s/taints.js';
import type { Taint, Toleration } from '../../model/k8s-types.js';
import { SYSTEM_TAINT_KEYS } from '../../k8s/daemonpod.js';
import type { LintRule, RuleFinding } from '../types.js';
import { EVERYWHERE_ROLES, findRole, POD_SPEC, podSpec, roleText, yamlBlock } from '../template.js';
import { compareText } from '../../model/order.js';

/** The fix for `{operator: Exists, effect: NoExecute}`: name the NoExecute taints the agent must outlast. */
function noExecuteFix(specific: Toleration[]): string {
  const noExecute = specific.filter((t) => t.effect === 'NoExecute');
  if (noExecute.length)
    return `tolerate by key the NoExecute taints of the input's nodes that the agent must stay through, and let evacuations evict it otherwise:\n${yamlBlock({ tolerations: noExecute })}`;
  return 'tolerate by key the NoExecute taints the agent must stay through (e.g. key: node.kubernetes.io/out-of-service), or remove the toleration so that evacuations evict it';
}

/** The `blanket-toleration` rule, as the registry lists it. */
export const blanketToleration: LintRule = {
  meta: {
    id: 'blanket-toleration',
    severity: 'warning',
    severityNote:
      'info for agents that must run on every node: network (CNI) agents, CSI node plugins, service proxies, node-local DNS caches, node monitors and problem detectors, security agents, Secrets Store CSI providers',
    description:
      'No toleration has `operator: Exists` without a key and with no effect or `NoExecute` (which tolerates every taint, or every NoExecute taint).',
    rationale:
      'A keyless `Exists` toleration matches every taint of its effect. Without an effect it matches every taint: the pods land on every dedicated node and stay on nodes that are being evacuated (out-of-service, maintenance, a custom NoExecute taint for a broken GPU). With `effect: NoExecute` it matches every NoExecute taint only: the pods still stay on evacuated nodes, but NoSchedule taints keep them off dedicated nodes. That is right for a CNI agent or a node monitor that every node needs, and surprising for anything else.',
    howToFix:
      'List the taints the agent must tolerate (the finding names those of the nodes in the input), or restrict the blanket toleration to `effect: NoSchedule`.',
    example: 'spec:\n  template:\n    spec:\n      tolerations:\n        - operator: Exists',
  },
  check(ds, ctx) {
    const tolerations = podSpec(ds).tolerations ?? [];
    const out: RuleFinding[] = [];
    const roles = ctx.roles(ds);
    const needsIt = findRole(roles, ...EVERYWHERE_ROLES);
    // The taints of the input's nodes are what the agent should name instead, when there are
    // nodes; the controller already tolerates the lifecycle ones.
    const seen = new Map<string, Taint>();
    for (const n of ctx.index.snapshot.nodes) {
      for (const t of n.spec?.taints ?? []) if (!SYSTEM_TAINT_KEYS.includes(t.key)) seen.set(formatTaint(t), t);
    }
    const specific = [...seen.entries()].sort(([a], [b]) => compareText(a, b)).map(([, t]) => tolerationFor(t));
    tolerations.forEach((t, i) => {
      const keyless = !t.key && t.operator === 'Exists';
      if (!keyless || (t.effect !== undefined && t.effect !== '' && t.effect !== 'NoExecute')) return;
      const path = `${POD_SPEC}.tolerations[${i}]`;
      // Another keyless Exists toleration for NoSchedule makes the pair tolerate every taint that keeps pods off a node.
      const noSchedule = tolerations.findIndex((o) => !o.key && o.operator === 'Exists' && o.effect === 'NoSchedule');
      const noExecuteOnly = t.effect === 'NoExecute' && noSchedule < 0;
      const what =
        t.effect !== 'NoExecute'
          ? 'tolerates every taint, NoExecute included'
          : noExecuteOnly
            ? 'tolerates every NoExecute taint (NoSchedule taints still apply)'
            : `tolerates every NoExecute taint, and with tolerations[${noSchedule}] ${formatToleration(tolerations[noSchedule]!)} every NoSchedule taint too`;
      if (needsIt) {
        out.push({
          severity: 'info',
          message: `toleration ${formatToleration(t)} ${what}, as a ${roleText(needsIt)} needs: it must run on every node, even one being evacuated`,
          path,
          fix: 'nothing required; to record the decision, add the annotation ds-doctor.io/ignore: blanket-toleration',
        });
        return;
      }
      out.push({
        message: noExecuteOnly
          ? `toleration ${formatToleration(t)} ${what}: the pods stay on nodes being evacuated (out-of-service, maintenance, a NoExecute taint for broken hardware)`
          : `toleration ${formatToleration(t)} ${what}: the pods run on every dedicated node and stay on nodes being evacuated (out-of-service, maintenance)`,
        path,
        fix: noExecuteOnly
          ? noExecuteFix(specific)
          : specific.length
            ? `tolerate the taints of the input's nodes that the agent needs, and nothing else:\n${yamlBlock({ tolerations: specific })}`
            : `tolerate the taints the agent needs by key, or at least only NoSchedule:\n${yamlBlock({ tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }] })}`,
      });
    });
    return out;
  },
};
