/**
 * `blanket-toleration`: no toleration without a key that tolerates NoExecute taints.
 * Motivation: `Toleration.ToleratesTaint` (reference §1.4): an empty key with `Exists` matches
 * every taint; with no effect (or NoExecute) that includes the NoExecute taints used to evict
 * pods from nodes being drained, repaired or dedicated. Peer-tools §14 item 10: right for a CNI
 * agent, surprising for anything else.
 */
import { formatTaint, formatToleration, tolerationFor } from '../../k8s/taints.js';
import type { Taint } from '../../model/k8s-types.js';
import { SYSTEM_TAINT_KEYS } from '../../k8s/daemonpod.js';
import type { LintRule, RuleFinding } from '../types.js';
import { findRole, HOST_PRIVILEGED_ROLES, POD_SPEC, podSpec, roleText, yamlBlock } from '../template.js';

/** The `blanket-toleration` rule, as the registry lists it. */
export const blanketToleration: LintRule = {
  meta: {
    id: 'blanket-toleration',
    severity: 'warning',
    severityNote: 'info for network (CNI) agents, CSI node plugins and service proxies, which must run on every node',
    description: 'No toleration has `operator: Exists` without a key and without a NoSchedule/PreferNoSchedule effect (which tolerates every taint, NoExecute included).',
    rationale: 'A keyless `Exists` toleration matches every taint. Without an effect it also matches NoExecute taints, so the pods stay on nodes that are being evacuated (out-of-service, maintenance, a custom NoExecute taint for a broken GPU) and land on every dedicated node. That is right for a CNI agent that every node needs, and surprising for anything else.',
    howToFix: 'List the taints the agent must tolerate (the finding names those of the nodes in the input), or restrict the blanket toleration to `effect: NoSchedule`.',
    example: 'spec:\n  template:\n    spec:\n      tolerations:\n        - operator: Exists',
  },
  check(ds, ctx) {
    const tolerations = podSpec(ds).tolerations ?? [];
    const out: RuleFinding[] = [];
    const roles = ctx.roles(ds);
    const needsIt = findRole(roles, ...HOST_PRIVILEGED_ROLES);
    // The taints of the input's nodes are what the agent should name instead, when there are
    // nodes; the controller already tolerates the lifecycle ones.
    const seen = new Map<string, Taint>();
    for (const n of ctx.index.snapshot.nodes) {
      for (const t of n.spec?.taints ?? []) if (!SYSTEM_TAINT_KEYS.includes(t.key)) seen.set(formatTaint(t), t);
    }
    const specific = [...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, t]) => tolerationFor(t));
    tolerations.forEach((t, i) => {
      const keyless = !t.key && t.operator === 'Exists';
      if (!keyless || (t.effect !== undefined && t.effect !== '' && t.effect !== 'NoExecute')) return;
      const path = `${POD_SPEC}.tolerations[${i}]`;
      if (needsIt) {
        out.push({
          severity: 'info',
          message: `toleration ${formatToleration(t)} tolerates every taint, NoExecute included, as a ${roleText(needsIt)} needs: it must run on every node, even one being evacuated`,
          path,
          fix: 'nothing required; to record the decision, add the annotation ds-doctor.io/ignore: blanket-toleration',
        });
        return;
      }
      out.push({
        message: `toleration ${formatToleration(t)} tolerates every taint, NoExecute included: the pods run on every dedicated node and stay on nodes being evacuated (out-of-service, maintenance)`,
        path,
        fix: specific.length
          ? `tolerate the taints of the input's nodes that the agent needs, and nothing else:\n${yamlBlock({ tolerations: specific })}`
          : `tolerate the taints the agent needs by key, or at least only NoSchedule:\n${yamlBlock({ tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }] })}`,
      });
    });
    return out;
  },
};
