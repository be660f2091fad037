/**
 * The scheduler's side of a node's answer: for an unbound daemon pod, its filters re-run on the
 * target node (pkg/scheduler/framework/plugins), or the FailedScheduling message it left.
 */
import type { KubeEvent, Node, Pod } from '../../model/k8s-types.js';
import { type ReasonCode } from '../../model/results.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import { formatDuration, parseRfc3339 } from '../../model/duration.js';
import { podCondition } from '../../k8s/podutil.js';
import { runFilters, preemptionCouldHelp, type FilterOutcome } from '../../k8s/scheduler.js';
import { podsUsingNode } from '../../k8s/resources.js';
import { formatAmount } from '../../k8s/quantity.js';
import { formatHostPort } from '../../k8s/hostports.js';
import { codeForSchedulerReason, parseFitError, preemptionVerdict, targetNodeEntries } from '../../k8s/schedmsg.js';
import type { RawReason } from './context.js';
import { TOLERATION_YAML, predicateReasons, taintReason } from './controller.js';

/** Reasons from the scheduler's filters re-run for an unbound pod on its target node. */
export function filterReasons(outcome: FilterOutcome, pod: Pod, node: Node, others: Pod[]): RawReason[] {
  const nodeName = node.metadata?.name ?? '';
  switch (outcome.plugin) {
    case 'SchedulingGates':
      return [
        {
          code: 'SchedulingGated',
          severity: 'warning',
          short: outcome.reasons[0]!,
          message: `the pod is ${outcome.reasons[0]}`,
          evidence: outcome.gates.map((g) => `spec.schedulingGates: ${g}`),
          fix: 'the controller that added the gate must remove it; check which admission webhook or operator sets it',
        },
      ];
    case 'NodeUnschedulable':
      return [
        {
          code: 'UntoleratedTaint',
          severity: 'error',
          short: outcome.reasons[0]!,
          message: `node ${nodeName} is cordoned and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule`,
          evidence: ['node spec.unschedulable: true'],
          fix: `kubectl uncordon ${nodeName}, or ${TOLERATION_YAML({ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' })}`,
        },
      ];
    case 'NodeName':
      return [
        {
          code: 'NodeNameMismatch',
          severity: 'error',
          short: outcome.reasons[0]!,
          message: `the pod asks for node ${pod.spec?.nodeName}, not ${nodeName}`,
          evidence: [`spec.nodeName: ${pod.spec?.nodeName}`],
          fix: 'remove spec.template.spec.nodeName from the DaemonSet',
        },
      ];
    case 'TaintToleration':
      return [{ ...taintReason(outcome.taint, node, true), severity: 'error', short: outcome.reasons[0]! }];
    case 'NodeAffinity':
      return predicateReasons({ kind: 'NodeAffinity', match: outcome.match }, node, true).map((r) => ({
        ...r,
        severity: 'error' as const,
        message: `${r.message}; the scheduler still enforces the pod's nodeSelector`,
      }));
    case 'NodePorts':
      return [
        {
          code: 'HostPortConflict',
          severity: 'error',
          short: outcome.reasons[0]!,
          message: `host port ${[...new Set(outcome.conflicts.map((c) => formatHostPort(c.port)))].join(', ')} is already taken on node ${nodeName}`,
          evidence: outcome.conflicts.map((c) => `${formatHostPort(c.port)} held by pod ${c.holder}`),
          fix: outcome.conflicts.some((c) =>
            c.holder.split('/')[1]?.startsWith(`${pod.metadata?.generateName ?? '\u0000'}`),
          )
            ? 'the old pod of this DaemonSet holds the port: surge cannot work with host ports; set spec.updateStrategy.rollingUpdate to {maxSurge: 0, maxUnavailable: 1}'
            : `free the port on node ${nodeName} (move or reconfigure the holder) or change the DaemonSet's hostPort`,
        },
      ];
    case 'NodeResourcesFit': {
      const out: RawReason[] = [];
      const preempt = preemptionCouldHelp(pod, node, others);
      const prio = pod.spec?.priority ?? 0;
      const preemptNote = preempt.possible
        ? `preemption can make room: ${preempt.victims.length} lower-priority pod(s) on the node (priority < ${prio})`
        : prio >= 2000000000
          ? 'preemption cannot make room: no lower-priority pods whose eviction would be enough'
          : `preemption cannot help: the pod's priority is ${prio}${pod.spec?.priorityClassName ? ` (${pod.spec.priorityClassName})` : ' (no priorityClassName)'}`;
      if (outcome.fit.tooManyPods) {
        out.push({
          code: 'TooManyPods',
          severity: 'error',
          short: 'Too many pods',
          message: `node ${nodeName} already runs ${outcome.fit.tooManyPods.existing} pods, its limit is ${outcome.fit.tooManyPods.allowed}`,
          evidence: [
            `allocatable pods: ${outcome.fit.tooManyPods.allowed}`,
            `pods on the node: ${outcome.fit.tooManyPods.existing}`,
            preemptNote,
          ],
          fix: `move pods off node ${nodeName}, raise the kubelet's maxPods, or give the DaemonSet priorityClassName: system-node-critical so it can preempt`,
        });
      }
      for (const s of outcome.fit.shortages) {
        const free = s.allocatable - s.used;
        out.push({
          code: 'InsufficientResource',
          severity: 'error',
          short: `Insufficient ${s.resource}`,
          message: `Insufficient ${s.resource} on node ${nodeName}: the pod requests ${formatAmount(s.resource, s.requested)}, ${formatAmount(s.resource, Math.max(0, free))} of ${formatAmount(s.resource, s.allocatable)} allocatable is free (${formatAmount(s.resource, s.used)} requested by ${others.length} other pod(s))`,
          evidence: [
            `${s.resource}: request ${formatAmount(s.resource, s.requested)}, allocatable ${formatAmount(s.resource, s.allocatable)}, in use ${formatAmount(s.resource, s.used)}`,
            ...s.top.map(([p, v]) => `largest ${s.resource} request on the node: ${p} ${formatAmount(s.resource, v)}`),
            preemptNote,
          ],
          fix:
            s.allocatable < s.requested
              ? `the node's whole allocatable ${s.resource} (${formatAmount(s.resource, s.allocatable)}) is less than the request: lower the DaemonSet's ${s.resource} request or exclude this node`
              : `lower the DaemonSet's ${s.resource} request to at most ${formatAmount(s.resource, Math.max(0, free))}, free room on node ${nodeName}${prio < 2000000000 ? ', or set priorityClassName: system-node-critical so the pod can preempt lower-priority pods' : ''}`,
        });
      }
      return out;
    }
  }
}

/** Why an unbound daemon pod is still Pending on its target node. */
export function pendingReasons(
  index: SnapshotIndex,
  pod: Pod,
  node: Node,
  now: Date,
): { reasons: RawReason[]; events: KubeEvent[] } {
  const others = podsUsingNode(index.podsByNode.get(node.metadata?.name ?? ''), pod);
  const outcome = runFilters(pod, node, others);
  const events = index
    .eventsFor('Pod', pod)
    .filter((e) => e.reason === 'FailedScheduling')
    .sort((a, b) => parseRfc3339(b.lastTimestamp ?? '') - parseRfc3339(a.lastTimestamp ?? ''));
  const cond = podCondition(pod, 'PodScheduled');
  const message = events[0]?.message ?? (cond?.status === 'False' ? cond.message : undefined);
  const schedEvidence = message ? [`scheduler: ${message.trim()}`] : [];
  const parsed = message ? parseFitError(message) : undefined;
  if (outcome) {
    const reasons = filterReasons(outcome, pod, node, others);
    if (reasons[0]) reasons[0].evidence.push(...schedEvidence);
    return { reasons, events };
  }
  if (parsed || message) {
    const target = parsed ? targetNodeEntries(parsed) : [];
    const code: ReasonCode = target[0] ? codeForSchedulerReason(target[0].reason) : 'FailedScheduling';
    const verdict = preemptionVerdict(parsed?.preemption);
    return {
      reasons: [
        {
          code,
          severity: 'error',
          short: target[0]?.reason ?? 'FailedScheduling',
          message: `the scheduler cannot place the pod on node ${node.metadata?.name}: ${target.map((t) => t.reason).join(', ') || message}`,
          evidence: [
            ...schedEvidence,
            'ds-doctor re-ran the scheduler filters on the snapshot and the pod fits now: the state changed since, or the cause is one the snapshot cannot show (volumes, pod affinity, DRA, other pods missing from the input)',
            ...(verdict === 'no-victims' ? ['preemption found no lower-priority pods to evict'] : []),
          ],
          fix: `check the current state: kubectl describe pod -n ${pod.metadata?.namespace} ${pod.metadata?.name}`,
        },
      ],
      events,
    };
  }
  const created = parseRfc3339(pod.metadata?.creationTimestamp ?? '');
  const age = Number.isNaN(created) ? 'an unknown time' : formatDuration(now.getTime() - created);
  return {
    reasons: [
      {
        code: 'FailedScheduling',
        severity: 'warning',
        short: 'pod(s) waiting for the scheduler',
        message: `the pod has not been bound after ${age} and the scheduler has reported no failure`,
        evidence: [
          'no PodScheduled=False condition and no FailedScheduling event',
          `the filters pass on node ${node.metadata?.name} in the snapshot`,
        ],
        fix: `check that kube-scheduler is running${pod.spec?.schedulerName && pod.spec.schedulerName !== 'default-scheduler' ? ` (the pod asks for scheduler "${pod.spec.schedulerName}")` : ''}`,
      },
    ],
    events,
  };
}
