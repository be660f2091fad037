/**
 * kube-scheduler's Filter plugins for one pod on its target node, in the default profile order
 * (pkg/scheduler/apis/config/v1/default_plugins.go): SchedulingGates, NodeUnschedulable,
 * NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit. The first plugin that
 * rejects the node decides, as in the framework's RunFilterPlugins. Reason strings are the
 * scheduler's own (docs/semantics.md §4.2).
 */
import type { Node, Pod, Taint } from '../model/k8s-types.js';
import { matchRequiredNodeAffinity, type AffinityMatch } from './nodeaffinity.js';
import { formatTaintBraces, tolerationsTolerateTaint, untoleratedTaints } from './taints.js';
import { hostPortConflicts, type HostPort } from './hostports.js';
import { fitsNode, type FitResult } from './resources.js';
import { TAINT_UNSCHEDULABLE } from './daemonpod.js';

export type FilterOutcome =
  | { plugin: 'SchedulingGates'; reasons: string[]; gates: string[] }
  | { plugin: 'NodeUnschedulable'; reasons: string[] }
  | { plugin: 'NodeName'; reasons: string[] }
  | { plugin: 'TaintToleration'; reasons: string[]; taint: Taint }
  | { plugin: 'NodeAffinity'; reasons: string[]; match: AffinityMatch }
  | { plugin: 'NodePorts'; reasons: string[]; conflicts: { port: HostPort; holder: string }[] }
  | { plugin: 'NodeResourcesFit'; reasons: string[]; fit: FitResult };

/**
 * Runs the filters for `pod` on `node` with `others` (the non-terminal pods bound there).
 * Returns undefined when every filter passes.
 */
export function runFilters(pod: Pod, node: Node, others: Pod[]): FilterOutcome | undefined {
  const gates = (pod.spec?.schedulingGates ?? []).map((g) => g.name);
  if (gates.length)
    return { plugin: 'SchedulingGates', reasons: [`waiting for scheduling gates: [${gates.join(' ')}]`], gates };

  const tolerations = pod.spec?.tolerations ?? [];
  if (
    node.spec?.unschedulable &&
    !tolerationsTolerateTaint(tolerations, { key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' })
  ) {
    return { plugin: 'NodeUnschedulable', reasons: ['node(s) were unschedulable'] };
  }
  if (pod.spec?.nodeName && pod.spec.nodeName !== node.metadata?.name) {
    return { plugin: 'NodeName', reasons: ["node(s) didn't match the requested node name"] };
  }
  const taint = untoleratedTaints(node.spec?.taints, tolerations, ['NoSchedule', 'NoExecute'])[0];
  if (taint) {
    return { plugin: 'TaintToleration', reasons: [`node(s) had untolerated taint ${formatTaintBraces(taint)}`], taint };
  }
  const match = matchRequiredNodeAffinity(pod.spec, node);
  if (!match.matches)
    return { plugin: 'NodeAffinity', reasons: ["node(s) didn't match Pod's node affinity/selector"], match };

  const conflicts = hostPortConflicts(pod, others);
  if (conflicts.length)
    return { plugin: 'NodePorts', reasons: ["node(s) didn't have free ports for the requested pod ports"], conflicts };

  const fit = fitsNode(pod, node, others);
  if (fit.tooManyPods || fit.shortages.length) {
    const reasons = [
      ...(fit.tooManyPods ? ['Too many pods'] : []),
      ...fit.shortages.map((s) => `Insufficient ${s.resource}`),
    ];
    return { plugin: 'NodeResourcesFit', reasons, fit };
  }
  return undefined;
}

/**
 * Whether evicting lower-priority pods could make room (DefaultPreemption's dry run on the
 * target node, simplified to the resource and port filters it can relieve).
 */
export function preemptionCouldHelp(pod: Pod, node: Node, others: Pod[]): { possible: boolean; victims: string[] } {
  if (pod.spec?.preemptionPolicy === 'Never') return { possible: false, victims: [] };
  const prio = pod.spec?.priority ?? 0;
  const lower = others.filter((p) => (p.spec?.priority ?? 0) < prio);
  if (!lower.length) return { possible: false, victims: [] };
  const remaining = others.filter((p) => (p.spec?.priority ?? 0) >= prio);
  const still = runFilters(pod, node, remaining);
  return {
    possible: still === undefined,
    victims: lower.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`),
  };
}
