/**
 * What Kubernetes did, per DaemonSet × node, and how it is compared with ds-doctor's verdicts.
 *
 * The mapping (docs/design.md §4.1's verdicts, from observations only):
 *
 * | Kubernetes did | truth |
 * |---|---|
 * | no pod of the DaemonSet targets the node, and the controller creates none there (the probe copy gets none) | `Excluded` |
 * | no pod, but the controller wants one there (the probe copy gets one) | `Missing` (reason `FailedCreate` when the DaemonSet has FailedCreate events) |
 * | a pod targets the node, but the controller would not create one now (no probe pod) | `Misscheduled` |
 * | a pod targets the node and is not bound | `Pending`, reason from the scheduler's PodScheduled message for that node |
 * | a pod is bound and Ready (and neither terminating nor terminal) | `Healthy` |
 * | a pod is bound and not Ready | `Unhealthy` |
 *
 * Reasons of Excluded and Misscheduled nodes come from three more probe copies of the
 * DaemonSet, each keeping one placement input: nodeSelector only, required node affinity only,
 * tolerations (and hostNetwork) only. A node the selector-only copy skips must carry
 * `NodeSelectorMismatch`, and so on.
 *
 * The truth never calls ds-doctor's engine (`src/k8s`, `src/analyze`): the small helpers here
 * (ownership, readiness, the scheduler message's split) are kept apart on purpose, so that a
 * mistake in the engine cannot agree with itself. `selfcheck.ts` checks the split and the mapping.
 */
import type { DaemonSet, KubeEvent, Pod } from '../../src/model/k8s-types.js';
import type { DaemonSetNodes, NodeRow, ReasonCode, Verdict } from '../../src/model/results.js';

/** Nodes on which each probe DaemonSet got a pod. `sel`/`aff` are absent when the template has no nodeSelector/affinity. */
export interface ProbeResult {
  full: Set<string>;
  sel?: Set<string>;
  aff?: Set<string>;
  tol: Set<string>;
}

export interface NodeTruth {
  daemonSet: string;
  node: string;
  verdict: Verdict;
  /** The reason codes Kubernetes' behaviour implies; undefined when reasons are not compared. */
  codes?: ReasonCode[];
  /** Pending: the scheduler's reasons for the target node (e.g. "Insufficient cpu"). */
  scheduler?: string[];
  /** Missing: the admission step that refused the pod (newest FailedCreate event). */
  createError?: string;
  evidence: string[];
}

export interface Disagreement {
  daemonSet: string;
  node: string;
  source: 'live' | 'file';
  what: 'verdict' | 'reasons' | 'missing-row' | 'live-vs-file';
  kubernetes: string;
  dsDoctor: string;
}

/** Codes that only inform and are not compared. */
const INFO_CODES: ReadonlySet<string> = new Set(['OutdatedRevision']);

/** `spec.nodeName`, else the single `metadata.name In [x]` matchFields value the controller pins. */
export function targetNode(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? [])
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  }
  return undefined;
}

/** Pods controlled by the DaemonSet (by owner UID). */
export function podsOf(ds: DaemonSet, pods: Pod[]): Pod[] {
  const uid = ds.metadata?.uid;
  return pods.filter(
    (p) =>
      p.metadata?.namespace === ds.metadata?.namespace &&
      p.metadata?.ownerReferences?.some((r) => r.controller && r.uid === uid),
  );
}

export function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function terminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/**
 * The target node's reasons in a FailedScheduling message: the histogram without the other
 * nodes' `didn't satisfy plugin(s) [NodeAffinity]` entry and without the PostFilter suffixes
 * (`no new claims to deallocate, preemption: …`).
 */
export function schedulerReasons(message: string): string[] {
  const m = /^0\/\d+ nodes are available: (.*)$/s.exec(message.trim());
  if (!m) return [message.trim()];
  let body = m[1]!;
  const end = body.indexOf('. ');
  if (end >= 0) body = body.slice(0, end);
  body = body.replace(/\.$/, '');
  return body
    .split(/, (?=\d+ )/)
    .map((e) => /^(\d+) (.*)$/.exec(e)?.[2] ?? e)
    .filter((r) => !/didn't satisfy plugin\(s\) \[NodeAffinity\]/.test(r));
}

/** Our reason code for one scheduler filter reason (docs/semantics.md §4.2). */
export function codeForScheduler(reason: string): ReasonCode {
  if (reason === 'Too many pods') return 'TooManyPods';
  if (reason.startsWith('Insufficient ')) return 'InsufficientResource';
  if (reason === "node(s) didn't have free ports for the requested pod ports") return 'HostPortConflict';
  if (/untolerated taint/.test(reason) || reason === 'node(s) were unschedulable') return 'UntoleratedTaint';
  // The created pod's required affinity is replaced by the node pin: only nodeSelector is left to fail.
  if (reason === "node(s) didn't match Pod's node affinity/selector") return 'NodeSelectorMismatch';
  if (reason === "node(s) didn't match the requested node name") return 'NodeNameMismatch';
  if (reason.startsWith('waiting for scheduling gates') || reason === 'SchedulingGated') return 'SchedulingGated';
  return 'FailedScheduling';
}

/** The admission step named by a FailedCreate message. */
export function createErrorKind(message: string): string {
  if (/violates PodSecurity/.test(message)) return 'PodSecurity';
  if (/exceeded quota|must specify (limits|requests)|failed quota/.test(message)) return 'ResourceQuota';
  return 'other';
}

function oldestLive(pods: Pod[]): Pod | undefined {
  const live = pods.filter((p) => !p.metadata?.deletionTimestamp && !terminal(p));
  const pool = live.length ? live : pods;
  return [...pool].sort(
    (a, b) =>
      (a.spec?.nodeName ? 0 : 1) - (b.spec?.nodeName ? 0 : 1) ||
      Date.parse(a.metadata?.creationTimestamp ?? '') - Date.parse(b.metadata?.creationTimestamp ?? '') ||
      (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  )[0];
}

/** What Kubernetes did for every node of the scenario. */
export function kubernetesTruth(
  ds: DaemonSet,
  nodes: string[],
  pods: Pod[],
  events: KubeEvent[],
  probe: ProbeResult,
): NodeTruth[] {
  const name = `${ds.metadata?.namespace}/${ds.metadata?.name}`;
  const own = podsOf(ds, pods).filter((p) => !(terminal(p) && p.metadata?.deletionTimestamp));
  const failedCreates = events
    .filter((e) => e.reason === 'FailedCreate' && e.involvedObject?.uid === ds.metadata?.uid)
    .sort(
      (a, b) => Date.parse(b.lastTimestamp ?? b.eventTime ?? '') - Date.parse(a.lastTimestamp ?? a.eventTime ?? ''),
    );
  return nodes.map((node): NodeTruth => {
    const mine = own.filter((p) => targetNode(p) === node);
    const wanted = probe.full.has(node);
    const placementCodes = (): ReasonCode[] => {
      const codes: ReasonCode[] = [];
      if (probe.sel && !probe.sel.has(node)) codes.push('NodeSelectorMismatch');
      if (probe.aff && !probe.aff.has(node)) codes.push('NodeAffinityMismatch');
      if (!probe.tol.has(node)) codes.push('UntoleratedTaint');
      return codes;
    };
    if (!mine.length) {
      if (!wanted)
        return {
          daemonSet: name,
          node,
          verdict: 'Excluded',
          codes: placementCodes(),
          evidence: ['no pod; the controller creates none for this node (probe)'],
        };
      const newest = failedCreates[0];
      return {
        daemonSet: name,
        node,
        verdict: 'Missing',
        ...(newest
          ? { codes: ['FailedCreate'] as ReasonCode[], createError: createErrorKind(newest.message ?? '') }
          : {}),
        evidence: [
          'no pod; the controller wants one here (probe)',
          newest ? `FailedCreate: ${newest.message}` : 'no FailedCreate event',
        ],
      };
    }
    const pod = oldestLive(mine)!;
    const podText = `pod ${pod.metadata?.name} (${pod.spec?.nodeName ? 'bound' : 'unbound'}, Ready=${isReady(pod)}${pod.metadata?.deletionTimestamp ? ', terminating' : ''}, phase ${pod.status?.phase ?? '?'})`;
    if (!wanted)
      return {
        daemonSet: name,
        node,
        verdict: 'Misscheduled',
        codes: placementCodes(),
        evidence: [podText, 'the controller would not create a pod here now (probe)'],
      };
    if (!pod.spec?.nodeName) {
      const cond = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
      const scheduler =
        cond?.reason === 'SchedulingGated' ? ['SchedulingGated'] : cond?.message ? schedulerReasons(cond.message) : [];
      return {
        daemonSet: name,
        node,
        verdict: 'Pending',
        scheduler,
        codes: [...new Set(scheduler.map(codeForScheduler))],
        evidence: [podText, `PodScheduled=${cond?.status ?? '?'} ${cond?.reason ?? ''}: ${cond?.message ?? ''}`],
      };
    }
    const healthy = isReady(pod) && !pod.metadata?.deletionTimestamp && !terminal(pod);
    return { daemonSet: name, node, verdict: healthy ? 'Healthy' : 'Unhealthy', evidence: [podText] };
  });
}

/** The controller's placement predicates: what the probe decides for Excluded and Misscheduled rows. */
const PLACEMENT_CODES: ReadonlySet<string> = new Set([
  'NodeNameMismatch',
  'NodeSelectorMismatch',
  'NodeAffinityMismatch',
  'UntoleratedTaint',
]);

function codesOf(row: NodeRow): string[] {
  // A Misscheduled pod's own health (NodeNotReady, PodTerminating, …) is explained too; the probe
  // judges only why the controller would not create it now.
  const judged = (c: string) => !INFO_CODES.has(c) && (row.verdict !== 'Misscheduled' || PLACEMENT_CODES.has(c));
  return [...new Set(row.reasons.map((r) => r.code).filter(judged))].sort();
}

/** Compares ds-doctor's rows with the truth; returns every disagreement. */
export function compareNodes(truth: NodeTruth[], answer: DaemonSetNodes, source: 'live' | 'file'): Disagreement[] {
  const out: Disagreement[] = [];
  const rows = new Map(answer.nodes.map((r) => [r.node, r]));
  for (const t of truth) {
    const row = rows.get(t.node);
    const base = { daemonSet: t.daemonSet, node: t.node, source };
    if (!row) {
      out.push({ ...base, what: 'missing-row', kubernetes: t.verdict, dsDoctor: '(no row for the node)' });
      continue;
    }
    const answerText = `${row.verdict} [${codesOf(row).join(', ')}]${row.reasons.length ? `: ${row.reasons.map((r) => r.short).join('; ')}` : ''}`;
    const truthText = `${t.verdict}${t.codes ? ` [${[...t.codes].sort().join(', ')}]` : ''}${t.scheduler?.length ? `: ${t.scheduler.join('; ')}` : ''}${t.createError ? ` (${t.createError})` : ''}`;
    if (row.verdict !== t.verdict) {
      out.push({ ...base, what: 'verdict', kubernetes: truthText, dsDoctor: answerText });
      continue;
    }
    if (!t.codes) continue;
    const want = [...t.codes].sort();
    const have = codesOf(row);
    let same = want.length === have.length && want.every((c, i) => c === have[i]);
    if (same && t.scheduler) {
      const insufficient = (xs: string[]) =>
        xs
          .filter((x) => x.startsWith('Insufficient '))
          .sort()
          .join(',');
      same = insufficient(t.scheduler) === insufficient(row.reasons.map((r) => r.short));
    }
    if (same && t.createError && t.createError !== 'other')
      same = row.reasons.some((r) => r.code === 'FailedCreate' && r.short.includes(t.createError!));
    if (!same) out.push({ ...base, what: 'reasons', kubernetes: truthText, dsDoctor: answerText });
  }
  return out;
}

/** The live answer and the dump's must agree on every node (verdict and reason codes), Healthy and Unhealthy ones included. */
export function compareLiveFile(
  daemonSet: string,
  nodes: string[],
  live: DaemonSetNodes,
  file: DaemonSetNodes,
): Disagreement[] {
  const l = new Map(live.nodes.map((r) => [r.node, r]));
  const f = new Map(file.nodes.map((r) => [r.node, r]));
  const out: Disagreement[] = [];
  for (const node of nodes) {
    const a = l.get(node);
    const b = f.get(node);
    if (!a || !b) continue;
    const text = (r: NodeRow) => `${r.verdict} [${[...new Set(r.reasons.map((x) => x.code))].sort().join(', ')}]`;
    if (text(a) !== text(b))
      out.push({
        daemonSet,
        node,
        source: 'live',
        what: 'live-vs-file',
        kubernetes: `on the dump: ${text(b)}`,
        dsDoctor: `live: ${text(a)}`,
      });
  }
  return out;
}
