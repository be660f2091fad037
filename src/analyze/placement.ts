/**
 * The placement engine: for a DaemonSet × node, what Kubernetes decides and why. First the
 * DaemonSet controller (shouldRun / shouldContinueRunning, the pods it owns for the node,
 * creation failures), then the scheduler's filters for an unbound pod, then the kubelet and the
 * pod's own state. Pure: takes the index and `now`, returns result documents.
 */
import type { DaemonSet, KubeEvent, Node, Pod, Taint } from '../model/k8s-types.js';
import {
  API_VERSION,
  type DaemonSetDiagnosis,
  type DaemonSetNodes,
  type EventSummary,
  type NodeDiagnosis,
  type NodeReport,
  type NodeRow,
  type PodSummary,
  type Reason,
  type ReasonCode,
  type Verdict,
  type VerdictSummary,
} from '../model/results.js';
import { objectKey, type SnapshotIndex } from '../model/snapshot-index.js';
import { isMissing } from '../model/snapshot.js';
import { withShort } from '../model/codes.js';
import { bySeverity } from '../model/severity.js';
import { ageOf, formatDuration, parseRfc3339 } from '../model/duration.js';
import { compileDaemonPlacement, targetNodeName, type DaemonPlacement, type PredicateFailure, TAINT_NOT_READY, TAINT_UNREACHABLE, SYSTEM_TAINT_KEYS } from '../k8s/daemonpod.js';
import { claimDaemonPods, nodesToDaemonPods } from '../k8s/controller.js';
import { compareDaemonPodAge, isPodReady, isPodTerminal, podCondition, podRestarts } from '../k8s/podutil.js';
import { currentRevision, isPodUpdated, podRevisionHash, LABEL_TEMPLATE_GENERATION, type CurrentRevision } from '../k8s/revision.js';
import { nodeReadyStatus } from '../k8s/podhealth.js';
import { boundPodReasons } from './pod-health.js';
import { runFilters, preemptionCouldHelp, type FilterOutcome } from '../k8s/scheduler.js';
import { podsUsingNode } from '../k8s/resources.js';
import { formatAmount } from '../k8s/quantity.js';
import { formatTaint, formatTaintBraces, formatToleration, tolerationFor } from '../k8s/taints.js';
import { formatHostPort } from '../k8s/hostports.js';
import { codeForSchedulerReason, parseFitError, preemptionVerdict, targetNodeEntries } from '../k8s/schedmsg.js';
import { detectRoles } from '../model/roles.js';
import { allowsSurge } from '../k8s/rollingupdate.js';
import { updateStrategyType } from '../k8s/defaults.js';
import { classifyCreateError, createRetryNote } from './create-errors.js';
import { rollbackTarget, type RollbackTarget } from '../k8s/rollback.js';
import { DEFAULT_STUCK_AFTER, isStuck } from './stuck.js';

export type RawReason = Omit<Reason, 'short'> & { short?: string };

/** " last seen 5m ago" for an event with a valid lastTimestamp, else nothing. */
function lastSeen(e: KubeEvent, now: Date): string {
  const t = parseRfc3339(e.lastTimestamp ?? '');
  return Number.isNaN(t) ? '' : ` last seen ${formatDuration(now.getTime() - t)} ago`;
}

/** Everything about one DaemonSet that does not depend on the node, computed once. */
export interface DaemonSetContext {
  ds: DaemonSet;
  namespace: string;
  name: string;
  placement: DaemonPlacement;
  byNode: Map<string, Pod[]>;
  revision: CurrentRevision;
  failedCreates: KubeEvent[];
  eventsAvailable: boolean;
  /** The DaemonSet looks like the cluster's network (CNI) agent. */
  networkAgent: boolean;
  /** What `kubectl rollout undo` would restore. */
  rollback: RollbackTarget;
  /** Notes on the whole DaemonSet. */
  notes: string[];
  /**
   * The notes for a question about one node: orphans are counted on that node (bound to it or
   * waiting for it), the ones the answer is about; elsewhere they do not change it.
   */
  nodeNotes: (node: string) => string[];
}

/** "3 orphaned pod(s) match the selector…": of the whole DaemonSet, or of the pods for one node. */
function adoptableNote(count: number, node?: string): string {
  return `${count} orphaned pod(s)${node === undefined ? '' : ` on node ${node}`} match the selector and will be adopted on the next sync`;
}

/** What decides whether a pod is updated, when the current revision's hash is not known. */
function generationText(revision: CurrentRevision): string {
  return revision.generation === undefined
    ? 'the DaemonSet records no template generation, so no pod can be judged updated'
    : `pods are judged by their pod-template-generation label against template generation ${revision.generation} (${revision.generationField})`;
}

/**
 * One note on how pods are judged updated when the current revision's hash is unknown: no
 * ControllerRevision in the input (cluster-info dumps hold none) and no pod at the template
 * generation to take it from, or no ControllerRevision matching the template. With the hash
 * taken from the pods, or no pod to judge, nothing is said.
 */
export function currentRevisionNote(revision: CurrentRevision, revisionsMissing: boolean, pods: number): string | undefined {
  if (revision.source !== 'unknown' || pods === 0) return undefined;
  const why = revisionsMissing
    ? 'no ControllerRevisions in the input (kubectl cluster-info dump does not collect them), and no pod at the current template generation'
    : 'no ControllerRevision matches the template';
  return `the current revision is unknown: ${why}; ${generationText(revision)}`;
}

/** Builds (once per index) the node-independent facts of a DaemonSet. */
export function daemonSetContext(index: SnapshotIndex, ds: DaemonSet): DaemonSetContext {
  return index.cached(`dsctx:${objectKey(ds)}`, () => {
    const claimed = claimDaemonPods(index, ds);
    const revisions = index.revisionsFor(ds);
    const revision = currentRevision(ds, revisions, claimed.pods);
    const eventsAvailable = !isMissing(index.snapshot, 'Event');
    const failedCreates = index
      .eventsFor('DaemonSet', ds)
      .filter((e) => e.reason === 'FailedCreate')
      .sort((a, b) => parseRfc3339(b.lastTimestamp ?? '') - parseRfc3339(a.lastTimestamp ?? ''));
    const revisionNote = currentRevisionNote(revision, isMissing(index.snapshot, 'ControllerRevision'), claimed.pods.length);
    const notesFor = (node?: string): string[] => {
      const adoptable = node === undefined ? claimed.adoptable.length : claimed.adoptable.filter((p) => targetNodeName(p) === node).length;
      const notes: string[] = [];
      if (!eventsAvailable) notes.push('events not available: FailedCreate and FailedScheduling causes cannot be seen');
      if (claimed.selectorError) notes.push(`the DaemonSet's selector is invalid (${claimed.selectorError}): no pod can be matched`);
      if (adoptable) notes.push(adoptableNote(adoptable, node));
      if (revisionNote) notes.push(revisionNote);
      return notes;
    };
    return {
      ds,
      namespace: ds.metadata?.namespace ?? '',
      name: ds.metadata?.name ?? '',
      placement: compileDaemonPlacement(ds),
      byNode: nodesToDaemonPods(index, ds),
      revision,
      failedCreates,
      eventsAvailable,
      networkAgent: detectRoles(
        ds,
        index.snapshot.csiDrivers.map((d) => d.metadata?.name ?? ''),
      ).some((r) => r.role === 'network'),
      rollback: rollbackTarget(revisions, !isMissing(index.snapshot, 'ControllerRevision')),
      notes: notesFor(),
      nodeNotes: notesFor,
    };
  });
}

/** The taints kubeadm and most distributions put on control-plane nodes. */
const CONTROL_PLANE_TAINT_KEYS: readonly string[] = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

const TOLERATION_YAML = (t: ReturnType<typeof tolerationFor>) => `add to spec.template.spec.tolerations: - ${formatToleration(t)}`;

function taintReason(taint: Taint, node: Node, hasPod: boolean, networkAgent = false): RawReason {
  const nodeName = node.metadata?.name ?? '';
  const t = formatTaint(taint);
  const short = `node(s) had untolerated taint ${formatTaintBraces(taint)}`;
  if ((taint.key === TAINT_NOT_READY || taint.key === TAINT_UNREACHABLE) && taint.effect === 'NoSchedule') {
    const state = taint.key === TAINT_NOT_READY ? 'NotReady' : 'unreachable';
    const cond = node.status?.conditions?.find((c) => c.type === 'Ready');
    // The network agent kept off a node that is NotReady for want of a network is the CNI deadlock.
    const deadlock = networkAgent && !hasPod && /network|cni/i.test(cond?.message ?? '');
    return {
      code: 'UntoleratedTaint',
      severity: deadlock ? 'error' : 'warning',
      short,
      message: `node ${nodeName} is ${state} and carries ${t}; the automatic DaemonSet tolerations cover ${taint.key} only with effect NoExecute, so the controller creates no new pod here${hasPod ? ' (the existing pod keeps running)' : ''}${deadlock ? '. The node is NotReady because its network is not ready, and this network agent cannot start there until it is: a deadlock' : ''}`,
      evidence: [
        `node taint ${t}${taint.timeAdded ? ` (added ${taint.timeAdded})` : ''}`,
        `node condition Ready=${cond?.status ?? 'missing'}${cond?.reason ? ` (${cond.reason})` : ''}${cond?.message ? `: ${cond.message}` : ''}`,
      ],
      fix: `if this agent must run before the node is Ready (CNI, CSI, kube-proxy), ${TOLERATION_YAML({ key: taint.key, operator: 'Exists', effect: 'NoSchedule' })} (CNI agents commonly use a blanket {operator: Exists}); otherwise nothing to do: the pod is created when the node becomes Ready`,
    };
  }
  const system = SYSTEM_TAINT_KEYS.includes(taint.key);
  // Staying off the control plane is the usual choice, not a gap, except for the network agent.
  const controlPlane = CONTROL_PLANE_TAINT_KEYS.includes(taint.key) && !networkAgent;
  const noExecute = taint.effect === 'NoExecute';
  return {
    code: 'UntoleratedTaint',
    severity: system || controlPlane ? 'info' : 'warning',
    short,
    message: `node ${nodeName} has taint ${t} that the DaemonSet does not tolerate${noExecute ? ' (NoExecute: an existing pod is deleted)' : ''}${controlPlane ? ': it stays off the control plane, as most DaemonSets do' : ''}`,
    evidence: [`node taint ${t}`],
    fix: `if the DaemonSet should run on this node, ${TOLERATION_YAML(tolerationFor(taint))}`,
  };
}

export function predicateReasons(f: PredicateFailure, node: Node, hasPod: boolean, networkAgent = false): RawReason[] {
  const nodeName = node.metadata?.name ?? '';
  switch (f.kind) {
    case 'NodeName':
      return [
        {
          code: 'NodeNameMismatch',
          severity: 'info',
          message: `the template pins spec.nodeName to ${f.want}`,
          evidence: [`spec.template.spec.nodeName: ${f.want}`],
          fix: 'remove spec.template.spec.nodeName: a DaemonSet places its pods itself',
        },
      ];
    case 'Taint':
      return f.taints.map((t) => taintReason(t, node, hasPod, networkAgent));
    case 'NodeAffinity': {
      const out: RawReason[] = [];
      for (const m of f.match.selectorMismatches) {
        out.push({
          code: 'NodeSelectorMismatch',
          severity: 'info',
          short: "node(s) didn't match Pod's node affinity/selector",
          message:
            m.have === undefined ? `node ${nodeName} has no label ${m.key} (nodeSelector wants ${m.key}=${m.want})` : `node ${nodeName} has ${m.key}=${m.have} (nodeSelector wants ${m.key}=${m.want})`,
          evidence: [`nodeSelector ${m.key}=${m.want}`, m.have === undefined ? `node label ${m.key}: absent` : `node label ${m.key}=${m.have}`],
          fix: `if the DaemonSet should run here: kubectl label node ${nodeName} ${m.key}=${m.want}${m.have !== undefined ? ' --overwrite' : ''}; otherwise nothing to do`,
        });
      }
      if (f.match.affinityFailed) {
        const failures = f.match.termMismatches.flatMap((t) => t.failures.map((x) => `term ${t.index}: ${x}`));
        out.push({
          code: 'NodeAffinityMismatch',
          severity: failures.some((x) => x.includes('invalid:')) ? 'warning' : 'info',
          short: "node(s) didn't match Pod's node affinity/selector",
          message: `node ${nodeName} matches none of the required node affinity terms`,
          evidence: failures.length ? failures : ['requiredDuringSchedulingIgnoredDuringExecution has no usable terms: nothing matches'],
          fix: 'if the DaemonSet should run here, label the node to satisfy one term, or relax spec.template.spec.affinity.nodeAffinity',
        });
      }
      return out;
    }
  }
}

function eventSummary(e: KubeEvent, object: string): EventSummary {
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
    revision: podRevisionHash(pod) || (pod.metadata?.labels?.[LABEL_TEMPLATE_GENERATION] ? `gen ${pod.metadata.labels[LABEL_TEMPLATE_GENERATION]}` : ''),
    updated: isPodUpdated(pod, ctx.revision.hash, ctx.revision.generation),
    restarts: podRestarts(pod),
    ...(created ? { age: ageOf(created, now) } : {}),
  };
}

/**
 * An empty selector: syncDaemonSet emits SelectingAll and returns before it looks at any node
 * (kubernetes v1.35 pkg/controller/daemon/daemon_controller.go#syncDaemonSet).
 */
function selectsAll(ds: DaemonSet): boolean {
  const sel = ds.spec?.selector;
  return Boolean(sel) && !Object.keys(sel?.matchLabels ?? {}).length && !(sel?.matchExpressions ?? []).length;
}

function selectingAllReason(): RawReason {
  return {
    code: 'SelectingAll',
    severity: 'error',
    message: 'This daemon set is selecting all pods. A non-empty selector is required.',
    evidence: ['spec.selector: {}', 'the controller stops before it looks at any node: it creates and deletes no pod anywhere'],
    fix: 'set spec.selector.matchLabels to the template labels (the selector is immutable: re-create the DaemonSet)',
  };
}

/** Why the controller has not created a pod on a node where one should run. */
function missingReasons(ctx: DaemonSetContext, node: Node, now: Date): RawReason[] {
  const ds = ctx.ds;
  const ref = `daemonset/${ctx.name} -n ${ctx.namespace}`;
  if (ds.metadata?.deletionTimestamp) {
    return [
      {
        code: 'DaemonSetDeleting',
        severity: 'error',
        message: `the DaemonSet is being deleted (since ${ds.metadata.deletionTimestamp}): the controller creates no pods`,
        evidence: [`metadata.deletionTimestamp: ${ds.metadata.deletionTimestamp}`, ...(ds.metadata.finalizers?.length ? [`finalizers: ${ds.metadata.finalizers.join(', ')}`] : [])],
        fix: 'wait for the deletion to finish, then re-create the DaemonSet',
      },
    ];
  }
  if (selectsAll(ds)) return [selectingAllReason()];
  const reasons: RawReason[] = [];
  const recent = ctx.failedCreates.slice(0, 3);
  const seen = new Set<string>();
  for (const e of recent) {
    const c = classifyCreateError(e.message ?? '', ctx.namespace);
    if (seen.has(c.kind)) continue;
    seen.add(c.kind);
    reasons.push({
      code: 'FailedCreate',
      severity: 'error',
      short: `pod creation failed: ${c.kind}`,
      message: `the controller cannot create the pod: ${c.summary}`,
      evidence: [`event FailedCreate${(e.count ?? 1) > 1 ? ` (x${e.count})` : ''}${lastSeen(e, now)}: ${(e.message ?? '').trim()}`],
      fix: `${c.fix}; ${createRetryNote(ctx.namespace, ctx.name)}`,
    });
  }
  const generation = ds.metadata?.generation ?? 0;
  const observed = ds.status?.observedGeneration ?? 0;
  if (observed < generation) {
    reasons.push({
      code: 'ControllerNotObserved',
      severity: 'warning',
      message: `the controller has not yet processed the latest spec (observedGeneration ${observed} < generation ${generation})`,
      evidence: [`metadata.generation: ${generation}`, `status.observedGeneration: ${observed}`],
      fix: 'wait a few seconds; if it persists, check that kube-controller-manager is running and healthy (its daemonset-controller logs)',
    });
  }
  if (reasons.length) return reasons;
  const nodeCreated = parseRfc3339(node.metadata?.creationTimestamp ?? '');
  const nodeAge = Number.isNaN(nodeCreated) ? undefined : now.getTime() - nodeCreated;
  if (nodeAge !== undefined && nodeAge < 60_000) {
    return [
      {
        code: 'NotYetCreated',
        severity: 'info',
        message: `node ${node.metadata?.name} joined ${formatDuration(nodeAge)} ago: the controller creates the pod on its next sync`,
        evidence: [`node creationTimestamp: ${node.metadata?.creationTimestamp}`],
        fix: 'nothing to do yet; check again in a minute',
      },
    ];
  }
  const evidence = [`no pod of ${ctx.namespace}/${ctx.name} targets node ${node.metadata?.name}`];
  if (!ctx.eventsAvailable) evidence.push('events not available in the input: a FailedCreate cause cannot be seen');
  else evidence.push('no FailedCreate event on the DaemonSet');
  return [
    {
      code: 'NotYetCreated',
      severity: 'error',
      message: `the controller should run a pod on node ${node.metadata?.name} but none exists`,
      evidence,
      fix: `check events (kubectl get events -n ${ctx.namespace} --field-selector involvedObject.name=${ctx.name}) and that kube-controller-manager runs the daemonset controller; kubectl describe ${ref}`,
    },
  ];
}

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
          fix: outcome.conflicts.some((c) => c.holder.split('/')[1]?.startsWith(`${pod.metadata?.generateName ?? '\u0000'}`))
            ? 'the old pod of this DaemonSet holds the port: surge cannot work with host ports; set maxSurge: 0 and maxUnavailable: 1'
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
          evidence: [`allocatable pods: ${outcome.fit.tooManyPods.allowed}`, `pods on the node: ${outcome.fit.tooManyPods.existing}`, preemptNote],
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
function pendingReasons(index: SnapshotIndex, pod: Pod, node: Node, now: Date): { reasons: RawReason[]; events: KubeEvent[] } {
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
        evidence: ['no PodScheduled=False condition and no FailedScheduling event', `the filters pass on node ${node.metadata?.name} in the snapshot`],
        fix: `check that kube-scheduler is running${pod.spec?.schedulerName && pod.spec.schedulerName !== 'default-scheduler' ? ` (the pod asks for scheduler "${pod.spec.schedulerName}")` : ''}`,
      },
    ],
    events,
  };
}

/**
 * The state of one existing pod of the DaemonSet on its target node: Pending (the scheduler's
 * filters re-run), or bound and Healthy / Unhealthy (the kubelet's and containers' state).
 */
export function diagnosePod(index: SnapshotIndex, ctx: DaemonSetContext, node: Node, pod: Pod, now: Date): { verdict: Verdict; reasons: Reason[]; events: EventSummary[] } {
  if (!pod.spec?.nodeName) {
    const p = pendingReasons(index, pod, node, now);
    return { verdict: 'Pending', reasons: p.reasons.map(withShort), events: p.events.slice(0, 3).map((e) => eventSummary(e, `pod/${pod.metadata?.name}`)) };
  }
  const podEvents = index.eventsFor('Pod', pod);
  const reasons = boundPodReasons(pod, node, { namespace: ctx.namespace, name: ctx.name, rollback: ctx.rollback }, podEvents, ctx.ds.spec?.minReadySeconds ?? 0, now);
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
export function diagnoseNode(index: SnapshotIndex, ctx: DaemonSetContext, node: Node, now: Date, stuckAfter = DEFAULT_STUCK_AFTER): NodeVerdict {
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

  if (pod && (verdict === 'Healthy' || verdict === 'Unhealthy') && !isPodUpdated(pod, ctx.revision.hash, ctx.revision.generation)) {
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
  if (live.length > 1 && verdict !== 'Excluded') reasons.push(...handOverReasons(index, ctx, node, live, pod, now, stuckAfter));
  if (selectsAll(ctx.ds) && !reasons.some((r) => r.code === 'SelectingAll')) reasons.unshift(selectingAllReason());
  const sorted = bySeverity(reasons.map(withShort));
  const problem = verdict === 'Missing' || verdict === 'Pending' || verdict === 'Unhealthy' || sorted.some((r) => r.severity === 'error');
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
function handOverReasons(index: SnapshotIndex, ctx: DaemonSetContext, node: Node, live: Pod[], deciding: Pod | undefined, now: Date, stuckAfter: number): RawReason[] {
  const surge = allowsSurge(ctx.ds);
  const evidence = live.map((p) => `${p.metadata?.name}: ${p.spec?.nodeName ? 'bound' : 'unbound'}, Ready=${isPodReady(p)}, hash ${podRevisionHash(p) || '?'}`);
  const names = live.map((p) => p.metadata?.name).join(', ');
  const minReady = ctx.ds.spec?.minReadySeconds ?? 0;
  const incoming = surge ? live.find((p) => p !== deciding && isPodUpdated(p, ctx.revision.hash, ctx.revision.generation)) : undefined;
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

function summarize(rows: NodeRow[]): VerdictSummary {
  const verdicts: VerdictSummary['verdicts'] = {};
  const reasons: VerdictSummary['reasons'] = {};
  for (const r of rows) {
    verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
    for (const code of new Set(r.reasons.map((x) => x.code))) reasons[code] = (reasons[code] ?? 0) + 1;
  }
  return { verdicts, reasons };
}

/** "7/9 nodes healthy: 2 node(s) had untolerated taint {…}, 1 Insufficient memory" (sorted as the scheduler sorts). */
export function headline(rows: NodeRow[]): string {
  const healthy = rows.filter((r) => r.verdict === 'Healthy').length;
  const counts = new Map<string, number>();
  for (const r of rows) {
    if (r.verdict === 'Healthy') continue;
    const main = r.reasons.find((x) => x.code !== 'OutdatedRevision') ?? r.reasons[0];
    const phrase = main?.short ?? r.verdict;
    counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  }
  const parts = [...counts.entries()].map(([p, n]) => `${n} ${p}`).sort();
  return `${healthy}/${rows.length} nodes healthy${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** Diagnoses a DaemonSet on every node of the snapshot, in node-name order. */
export function diagnoseAllNodes(index: SnapshotIndex, ds: DaemonSet, now: Date, stuckAfter = DEFAULT_STUCK_AFTER): NodeVerdict[] {
  return index.cached(`rows:${objectKey(ds)}:${now.getTime()}:${stuckAfter}`, () => {
    const ctx = daemonSetContext(index, ds);
    return index.nodesInNameOrder.map((n) => diagnoseNode(index, ctx, n, now, stuckAfter));
  });
}

function ref(ds: DaemonSet) {
  return { namespace: ds.metadata?.namespace ?? '', name: ds.metadata?.name ?? '' };
}

function snapshotNotes(index: SnapshotIndex, ctx: DaemonSetContext, notes = ctx.notes): string[] {
  notes = [...notes, ...index.snapshot.warnings];
  if (isMissing(index.snapshot, 'Node')) notes.push('no Node objects in the input: placement cannot be evaluated');
  return notes;
}

/** `why <ds> <node>`. */
export function whyNode(index: SnapshotIndex, ds: DaemonSet, node: Node, now: Date, stuckAfter = DEFAULT_STUCK_AFTER): NodeDiagnosis {
  const ctx = daemonSetContext(index, ds);
  const row = diagnoseNode(index, ctx, node, now, stuckAfter);
  const notes = snapshotNotes(index, ctx, ctx.nodeNotes(row.node));
  return {
    apiVersion: API_VERSION,
    kind: 'NodeDiagnosis',
    daemonSet: ref(ds),
    node: row.node,
    verdict: row.verdict,
    reasons: row.reasons,
    ...(row.pod ? { pod: row.pod } : {}),
    events: row.events,
    ...(notes.length ? { notes } : {}),
  };
}

/** `why <ds>`: every node whose verdict is neither Healthy nor Excluded, plus the summary over all. */
export function whyDaemonSet(index: SnapshotIndex, ds: DaemonSet, now: Date, stuckAfter = DEFAULT_STUCK_AFTER): DaemonSetDiagnosis {
  const ctx = daemonSetContext(index, ds);
  const rows = diagnoseAllNodes(index, ds, now, stuckAfter);
  const notes = snapshotNotes(index, ctx);
  return {
    apiVersion: API_VERSION,
    kind: 'DaemonSetDiagnosis',
    daemonSet: ref(ds),
    totalNodes: rows.length,
    // Healthy and Excluded nodes are listed too when something there is itself a problem (the CNI
    // deadlock, a surge pod that cannot start next to a healthy old one).
    nodes: rows
      .filter((r) => (r.verdict !== 'Healthy' && r.verdict !== 'Excluded') || r.reasons.some((x) => x.severity === 'error'))
      .map((r) => ({ node: r.node, verdict: r.verdict, reasons: r.reasons, ...(r.pod ? { pod: r.pod } : {}), events: r.events })),
    summary: summarize(rows),
    headline: headline(rows),
    ...(notes.length ? { notes } : {}),
  };
}

/** `nodes <ds>`: one row per node, optionally filtered by verdict and node labels. */
export function daemonSetNodes(index: SnapshotIndex, ds: DaemonSet, now: Date, filter?: { verdicts?: Verdict[]; nodes?: Set<string> }): DaemonSetNodes {
  const ctx = daemonSetContext(index, ds);
  const all = diagnoseAllNodes(index, ds, now);
  const rows = all
    .filter((r) => !filter?.verdicts?.length || filter.verdicts.includes(r.verdict))
    .filter((r) => !filter?.nodes || filter.nodes.has(r.node))
    .map(({ events: _events, stuck: _stuck, ...r }) => r);
  const notes = snapshotNotes(index, ctx);
  return {
    apiVersion: API_VERSION,
    kind: 'DaemonSetNodes',
    daemonSet: ref(ds),
    nodes: rows,
    summary: summarize(all),
    ...(notes.length ? { notes } : {}),
  };
}

/** `node <node>`: every DaemonSet in scope against one node. */
export function nodeReport(index: SnapshotIndex, daemonSets: DaemonSet[], node: Node, now: Date, scope = 'all namespaces in the input', stuckAfter = DEFAULT_STUCK_AFTER): NodeReport {
  const entries = daemonSets.map((ds) => {
    const row = diagnoseNode(index, daemonSetContext(index, ds), node, now, stuckAfter);
    return { ...ref(ds), verdict: row.verdict, reasons: row.reasons, ...(row.pod ? { pod: row.pod } : {}) };
  });
  const notes: string[] = [...index.snapshot.warnings];
  if (isMissing(index.snapshot, 'Event')) notes.push('events not available: FailedCreate and FailedScheduling causes cannot be seen');
  return {
    apiVersion: API_VERSION,
    kind: 'NodeReport',
    node: node.metadata?.name ?? '',
    scope,
    nodeStatus: {
      ready: nodeReadyStatus(node) || 'Unknown',
      unschedulable: node.spec?.unschedulable === true,
      taints: (node.spec?.taints ?? []).map(formatTaint),
    },
    daemonSets: entries,
    ...(notes.length ? { notes } : {}),
  };
}
