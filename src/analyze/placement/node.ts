/**
 * One DaemonSet × node: the controller's decision first, then the pod that decides the node
 * (scheduler or kubelet state), revision and surge hand-over facts, and whether it is stuck.
 */
import type { KubeEvent, Node, Pod } from '../../model/k8s-types.js';
import { type EventSummary, type NodeRow, type PodSummary, type Reason, type Verdict } from '../../model/results.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import { withShort } from '../../model/codes.js';
import { bySeverity } from '../../model/severity.js';
import { ageOf, formatDuration, parseRfc3339 } from '../../model/duration.js';
import { compareDaemonPodAge, isPodReady, isPodTerminal, podRestarts } from '../../k8s/podutil.js';
import { isPodUpdated, podRevisionHash, LABEL_TEMPLATE_GENERATION } from '../../k8s/revision.js';
import { boundPodReasons } from '../pod-health.js';
import { allowsSurge } from '../../k8s/rollingupdate.js';
import { updateStrategyType } from '../../k8s/defaults.js';
import { DEFAULT_STUCK_AFTER, isStuck } from '../stuck.js';
import type { DaemonSetContext, RawReason } from './context.js';
import { missingReasons, predicateReasons, selectingAllReason, selectsAll } from './controller.js';
import { pendingReasons } from './scheduler.js';

export function eventSummary(e: KubeEvent, object: string): EventSummary {
  return {
    type: e.type ?? 'Normal',
    reason: e.reason ?? '',
    message: (e.message ?? '').trim(),
    count: e.count ?? 1,
    ...(e.lastTimestamp ? { lastSeen: e.lastTimestamp } : {}),
    object,
  };
}

function podSummary(pod: Pod, ctx: DaemonSetContext, now: Date): PodSummary {
  const created = pod.metadata?.creationTimestamp;
  return {
    name: pod.metadata?.name ?? '',
    phase: pod.metadata?.deletionTimestamp ? 'Terminating' : (pod.status?.phase ?? 'Unknown'),
    ready: isPodReady(pod),
    revision:
      podRevisionHash(pod) ||
      (pod.metadata?.labels?.[LABEL_TEMPLATE_GENERATION]
        ? `gen ${pod.metadata.labels[LABEL_TEMPLATE_GENERATION]}`
        : ''),
    updated: isPodUpdated(pod, ctx.revision.hash, ctx.revision.generation),
    restarts: podRestarts(pod),
    ...(created ? { age: ageOf(created, now) } : {}),
  };
}
/**
 * The state of one existing pod of the DaemonSet on its target node: Pending (the scheduler's
 * filters re-run), or bound and Healthy / Unhealthy (the kubelet's and containers' state).
 */
export function diagnosePod(
  index: SnapshotIndex,
  ctx: DaemonSetContext,
  node: Node,
  pod: Pod,
  now: Date,
): { verdict: Verdict; reasons: Reason[]; events: EventSummary[] } {
  if (!pod.spec?.nodeName) {
    const p = pendingReasons(index, pod, node, now);
    return {
      verdict: 'Pending',
      reasons: p.reasons.map(withShort),
      events: p.events.slice(0, 3).map((e) => eventSummary(e, `pod/${pod.metadata?.name}`)),
    };
  }
  const podEvents = index.eventsFor('Pod', pod);
  const reasons = boundPodReasons(
    pod,
    node,
    {
      namespace: ctx.namespace,
      name: ctx.name,
      rollback: ctx.rollback,
      recreated: ctx.placement.evaluate(node).shouldRun,
    },
    podEvents,
    ctx.ds.spec?.minReadySeconds ?? 0,
    now,
  );
  const terminating = Boolean(pod.metadata?.deletionTimestamp);
  const events = podEvents
    .filter((x) => x.type === 'Warning')
    .sort((a, b) => parseRfc3339(b.lastTimestamp ?? '') - parseRfc3339(a.lastTimestamp ?? ''))
    .slice(0, 3)
    .map((e) => eventSummary(e, `pod/${pod.metadata?.name}`));
  return { verdict: isPodReady(pod) && !terminating && !isPodTerminal(pod) ? 'Healthy' : 'Unhealthy', reasons, events };
}

/** The pod that decides a node's verdict: the oldest live one, else the oldest. */
function decidingPod(pods: Pod[]): Pod | undefined {
  const sorted = [...pods].sort(compareDaemonPodAge);
  return sorted.find((p) => !p.metadata?.deletionTimestamp && !isPodTerminal(p)) ?? sorted[0];
}

export interface NodeVerdict extends NodeRow {
  events: EventSummary[];
  /** The node's problem will not resolve on its own (the judgement of stuck.ts); false when it has none. */
  stuck: boolean;
}

/** Diagnoses one DaemonSet × node. `stuckAfter` (seconds) bounds how long a transient state may last. */
export function diagnoseNode(
  index: SnapshotIndex,
  ctx: DaemonSetContext,
  node: Node,
  now: Date,
  stuckAfter = DEFAULT_STUCK_AFTER,
): NodeVerdict {
  const nodeName = node.metadata?.name ?? '';
  const decision = ctx.placement.evaluate(node);
  const pods = ctx.byNode.get(nodeName) ?? [];
  const pod = decidingPod(pods);
  const events: EventSummary[] = [];
  let verdict: Verdict;
  let reasons: RawReason[];

  if (!decision.shouldRun) {
    reasons = decision.failures.flatMap((f) => predicateReasons(f, node, pods.length > 0, ctx.networkAgent));
    // A selector or nodeName mismatch decides on its own (shouldRun and shouldContinueRunning are
    // both false); taints are then secondary facts.
    if (decision.failures.some((f) => f.kind !== 'Taint')) {
      reasons = reasons.map((r) => (r.code === 'UntoleratedTaint' ? { ...r, severity: 'info' as const } : r));
    }
    if (!pods.length) {
      verdict = 'Excluded';
    } else {
      verdict = 'Misscheduled';
      const fate = decision.shouldContinueRunning
        ? `pod ${pod?.metadata?.name} runs here although the controller would not create one now; it is left running (counted in numberMisscheduled)`
        : `pod ${pod?.metadata?.name} runs here although the node no longer matches; the controller deletes it`;
      reasons = reasons.map((r, i) => ({
        ...r,
        severity: 'warning' as const,
        ...(i === 0 ? { short: 'pod(s) running where the controller would not create one' } : {}),
        message: i === 0 ? `${r.message}: ${fate}` : r.message,
      }));
      // The pod is still a pod: its own health (a NotReady node, a crash) is explained too.
      if (pod?.spec?.nodeName) {
        const d = diagnosePod(index, ctx, node, pod, now);
        reasons.push(...d.reasons);
        events.push(...d.events);
      }
    }
  } else if (!pods.length) {
    verdict = 'Missing';
    reasons = missingReasons(ctx, node, now);
    for (const e of ctx.failedCreates.slice(0, 3)) events.push(eventSummary(e, `daemonset/${ctx.name}`));
  } else {
    const d = diagnosePod(index, ctx, node, pod!, now);
    verdict = d.verdict;
    reasons = d.reasons;
    events.push(...d.events);
  }

  if (
    pod &&
    (verdict === 'Healthy' || verdict === 'Unhealthy') &&
    !isPodUpdated(pod, ctx.revision.hash, ctx.revision.generation)
  ) {
    const strategy = updateStrategyType(ctx.ds);
    reasons.push({
      code: 'OutdatedRevision',
      severity: 'info',
      message: `pod ${pod.metadata?.name} runs an outdated revision (${podRevisionHash(pod) || 'unknown hash'}; current ${ctx.revision.hash || 'unknown'})`,
      evidence: [
        `pod labels controller-revision-hash=${podRevisionHash(pod) || '<none>'}, pod-template-generation=${pod.metadata?.labels?.[LABEL_TEMPLATE_GENERATION] ?? '<none>'}`,
        `current revision hash ${ctx.revision.hash || '<unknown>'}, template generation ${ctx.revision.generation === undefined ? '<unknown>' : `${ctx.revision.generation} (${ctx.revision.generationField})`}`,
      ],
      fix:
        strategy === 'OnDelete'
          ? `OnDelete: delete the pod to roll it: kubectl delete pod -n ${ctx.namespace} ${pod.metadata?.name}`
          : `the rolling update replaces it; see: ds-doctor rollout ${ctx.namespace}/${ctx.name}`,
    });
  }
  // Oldest first (as the controller ranks them), not in the order of the input or of the lists.
  const live = pods.filter((p) => !p.metadata?.deletionTimestamp && !isPodTerminal(p)).sort(compareDaemonPodAge);
  if (live.length > 1 && verdict !== 'Excluded')
    reasons.push(...handOverReasons(index, ctx, node, live, pod, now, stuckAfter));
  if (selectsAll(ctx.ds) && !reasons.some((r) => r.code === 'SelectingAll')) reasons.unshift(selectingAllReason());
  const sorted = bySeverity(reasons.map(withShort));
  const problem =
    verdict === 'Missing' ||
    verdict === 'Pending' ||
    verdict === 'Unhealthy' ||
    sorted.some((r) => r.severity === 'error');
  return {
    node: nodeName,
    verdict,
    reasons: sorted,
    ...(pod ? { pod: podSummary(pod, ctx, now) } : {}),
    events,
    stuck: problem && isStuck(sorted, pod, now, stuckAfter, ctx.ds.spec?.minReadySeconds ?? 0),
  };
}

/**
 * More than one live pod on a node. Surging, the new pod waits next to the old one until it is
 * available: weighed with the same stuck judgement as `rollout` (a surge pod Pending for want of
 * the old pod's host port never hands over). Otherwise the controller keeps the oldest.
 */
function handOverReasons(
  index: SnapshotIndex,
  ctx: DaemonSetContext,
  node: Node,
  live: Pod[],
  deciding: Pod | undefined,
  now: Date,
  stuckAfter: number,
): RawReason[] {
  const surge = allowsSurge(ctx.ds);
  const evidence = live.map(
    (p) =>
      `${p.metadata?.name}: ${p.spec?.nodeName ? 'bound' : 'unbound'}, Ready=${isPodReady(p)}, hash ${podRevisionHash(p) || '?'}`,
  );
  const names = live.map((p) => p.metadata?.name).join(', ');
  const minReady = ctx.ds.spec?.minReadySeconds ?? 0;
  const incoming = surge
    ? live.find((p) => p !== deciding && isPodUpdated(p, ctx.revision.hash, ctx.revision.generation))
    : undefined;
  if (!incoming) {
    return [
      {
        code: 'OutdatedRevision',
        severity: 'info',
        short: 'node(s) with more than one pod',
        message: `${live.length} pods of this DaemonSet target the node (${names}): ${surge ? 'a surge hand-over; the old pod goes once the new one is available' : 'the controller keeps the oldest and deletes the others'}`,
        evidence,
        fix: 'nothing to do unless it persists',
      },
    ];
  }
  const own = diagnosePod(index, ctx, node, incoming, now).reasons.filter((r) => r.code !== 'OutdatedRevision');
  const age = formatDuration(Math.max(0, now.getTime() - parseRfc3339(incoming.metadata?.creationTimestamp ?? '')));
  const main = own[0];
  if (!main) {
    return [
      {
        code: 'OutdatedRevision',
        severity: 'info',
        short: 'node(s) with more than one pod',
        message: `${live.length} pods of this DaemonSet target the node (${names}): a surge hand-over; the old pod goes now that the new one is available`,
        evidence,
        fix: 'nothing to do',
      },
    ];
  }
  const stuck = isStuck(own, incoming, now, stuckAfter, minReady);
  return [
    {
      ...main,
      severity: stuck ? 'error' : 'info',
      short: stuck ? `surge pod(s) stuck: ${main.short}` : 'surge hand-over in progress',
      message: stuck
        ? `the surge pod ${incoming.metadata?.name} of the new revision has not become available after ${age} (${main.message}): the old pod keeps serving, but the rollout cannot hand over on this node`
        : `a surge hand-over (${age} so far): the new pod ${incoming.metadata?.name} waits next to the old one: ${main.message}`,
      evidence: [...main.evidence, ...evidence],
      fix: stuck
        ? main.code === 'HostPortConflict'
          ? 'a surge pod can never take the host port the old pod holds: set spec.updateStrategy.rollingUpdate to {maxSurge: 0, maxUnavailable: 1}'
          : main.fix
        : `nothing to do unless it lasts past --stuck-after (${formatDuration(stuckAfter * 1000)}); see: ds-doctor rollout ${ctx.namespace}/${ctx.name}`,
    },
  ];
}
