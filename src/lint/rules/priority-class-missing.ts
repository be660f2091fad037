/**
 * `priority-class-missing`: node-level agents run with `system-node-critical` or another high
 * priority class, and the class they name exists.
 * Motivation: the DaemonSet guide, 调度到指定节点 → 建议 (set `priorityClassName:
 * system-node-critical` for node-critical agents so they are not squeezed out when nodes are
 * short), Polaris #232; and the Priority admission plugin, which rejects a pod naming a
 * PriorityClass that does not exist.
 */
import type { PriorityClass } from '../../model/k8s-types.js';
import { isMissing } from '../../model/snapshot.js';
import type { LintRule, RuleFinding } from '../types.js';
import { nodeAgentEvidence, POD_SPEC, podSpec } from '../template.js';

/** The built-in classes every cluster has (scheduling.k8s.io SystemPriorityClasses). */
const BUILT_IN: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

function priorityOf(name: string, classes: PriorityClass[]): number | undefined {
  return BUILT_IN[name] ?? classes.find((c) => c.metadata?.name === name)?.value;
}

/** The `priority-class-missing` rule, as the registry lists it. */
export const priorityClassMissing: LintRule = {
  meta: {
    id: 'priority-class-missing',
    severity: 'error',
    severityNote: 'warning for a missing or outranked class; error when the named class does not exist',
    description:
      'Node-level agents (CNI, CSI, proxy, log, monitoring, hostNetwork or hostPath, kube-system) set a high priority class, and any class named exists.',
    rationale:
      'A DaemonSet pod is scheduled by kube-scheduler like any pod: on a full node, a pod of priority 0 cannot preempt anything and waits, and higher-priority pods can preempt it. Node-level agents should win that contest (DaemonSet guide, "set priorityClassName: system-node-critical or a high priority"). A class that does not exist makes the API server reject every pod of the DaemonSet.',
    howToFix:
      "Set `spec.template.spec.priorityClassName: system-node-critical` (or a custom class above your workloads' classes); create the class first when it is a custom one.",
    example:
      'spec:\n  template:\n    spec:\n      hostNetwork: true\n      # no priorityClassName\n      containers:\n        - name: agent\n          image: example/agent:1.4.2',
  },
  check(ds, ctx) {
    const spec = podSpec(ds);
    const name = spec.priorityClassName;
    const snapshot = ctx.index.snapshot;
    const classesKnown = !isMissing(snapshot, 'PriorityClass');
    const path = `${POD_SPEC}.priorityClassName`;
    const out: RuleFinding[] = [];
    if (name && classesKnown && priorityOf(name, snapshot.priorityClasses) === undefined) {
      return [
        {
          severity: 'error',
          message: `priority class "${name}" does not exist in the input's PriorityClasses: the API server rejects every pod of this DaemonSet (FailedCreate: no PriorityClass with name ${name} was found)`,
          path,
          fix: 'create the PriorityClass, or use a built-in one:\npriorityClassName: system-node-critical',
        },
      ];
    }
    const agent = nodeAgentEvidence(ds, ctx);
    if (!agent) return out;
    if (!name) {
      out.push({
        severity: 'warning',
        message: `${agent} runs without a priority class (priority 0): on a node short of cpu or memory its pod cannot preempt ordinary pods and stays Pending, and any higher-priority pod can preempt it`,
        path,
        fix: 'give node-level agents the node-critical class:\npriorityClassName: system-node-critical',
      });
      return out;
    }
    const own = priorityOf(name, snapshot.priorityClasses);
    if (own === undefined || !classesKnown) return out;
    // "High" is relative: a class that user-defined classes of the cluster outrank is not high.
    const higher = snapshot.priorityClasses
      .filter((c) => !(c.metadata?.name ?? '').startsWith('system-') && (c.value ?? 0) > own)
      .map((c) => `${c.metadata?.name} (${c.value})`)
      .sort();
    if (higher.length) {
      out.push({
        severity: 'warning',
        message: `${agent} uses priority class "${name}" (${own}), below ${higher.length} class(es) of the cluster: ${higher.join(', ')}; pods of those classes can preempt it`,
        path,
        fix: 'use the node-critical class, or one above every workload class:\npriorityClassName: system-node-critical',
      });
    }
    return out;
  },
};
