/**
 * `scan`: every DaemonSet in scope with its status as reported and as recomputed from the
 * snapshot (docs/semantics.md §3.8), a health, and the problems seen on its nodes.
 */
import type { DaemonSet } from '../model/k8s-types.js';
import {
  API_VERSION,
  type RolloutDiagnosis,
  type ScanEntry,
  type ScanHealth,
  type ScanReport,
  type StatusCounts,
} from '../model/results.js';
import type { SnapshotIndex } from '../model/snapshot-index.js';
import { isMissing } from '../model/snapshot.js';
import { recomputeStatus, reportedStatus } from '../k8s/status.js';
import { statusDifferences, statusObserved } from './stale-status.js';
import { DEFAULT_STUCK_AFTER } from './stuck.js';
import { nodeReadyStatus } from '../k8s/podhealth.js';
import { daemonSetContext, diagnoseAllNodes, type NodeVerdict } from './placement/index.js';
import { cachedRollout } from './causes/context.js';
import { causesOf } from './causes/index.js';
import { detectRoles } from '../model/roles.js';
import { compareText } from '../model/order.js';

function mismatches(ds: DaemonSet, recomputed: StatusCounts, failingCreates: boolean): string[] {
  if (!ds.status) return ['the DaemonSet has no .status (a bare manifest, or never synced by the controller)'];
  const diffs = statusDifferences(ds, recomputed);
  if (!diffs.length) return [];
  return [
    `.status disagrees with the pods and nodes in the snapshot: ${diffs.join(', ')}; ${statusObserved(ds) ? 'the controller is behind, or the dump was taken while things changed' : failingCreates ? 'the controller has written no status since its pod creation started failing (FailedCreate; before v1.27 a failed create writes none)' : 'the controller has not observed the latest generation yet'}`,
  ];
}

/**
 * Excluded nodes with a reason `why` warns about (a custom taint, an invalid affinity term), grouped
 * by what the scheduler would print: the guide's pitfall of business taints on dedicated nodes.
 */
function coverageGaps(index: SnapshotIndex, rows: NodeVerdict[]): ScanEntry['coverageGaps'] {
  const groups = new Map<string, { code: string; nodes: string[]; message: string }>();
  for (const r of rows) {
    // A NotReady node keeps new pods off by its not-ready taint: a node problem, not a gap.
    if (r.verdict !== 'Excluded' || nodeReadyStatus(index.nodesByName.get(r.node)) !== 'True') continue;
    const gap = r.reasons.find((x) => x.severity === 'warning');
    if (!gap) continue;
    const g = groups.get(gap.short) ?? { code: gap.code, nodes: [], message: gap.short };
    g.nodes.push(r.node);
    groups.set(gap.short, g);
  }
  return [...groups.values()].map((g) => ({
    ...g,
    message: `${g.nodes.length} ${g.message}: the DaemonSet runs no pod there`,
  }));
}

/** A node with a problem: no healthy pod where one should run, or an error reason (a stuck surge pod, the CNI deadlock). */
function isProblemRow(r: NodeVerdict): boolean {
  return (r.verdict !== 'Healthy' && r.verdict !== 'Excluded') || r.reasons.some((x) => x.severity === 'error');
}

function problemCounts(rows: NodeVerdict[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of rows) {
    if (!isProblemRow(r)) continue;
    const codes = new Set<string>(
      r.reasons.filter((x) => x.severity !== 'info' || r.reasons.length === 1).map((x) => x.code),
    );
    if (r.verdict === 'Pending') codes.add('Pending');
    for (const c of codes) counts[c] = (counts[c] ?? 0) + 1;
  }
  return counts;
}

/**
 * Health from the placement verdicts and the rollout verdict: Failing when no desired node has a
 * healthy pod, Stuck / RollingOut from the rollout, Degraded when some node has a problem.
 */
function health(rows: NodeVerdict[], counts: StatusCounts, rollout: RolloutDiagnosis): ScanHealth {
  const healthy = rows.filter((r) => r.verdict === 'Healthy').length;
  const bad = rows.some(
    (r) =>
      r.verdict === 'Missing' ||
      r.verdict === 'Pending' ||
      r.verdict === 'Unhealthy' ||
      r.verdict === 'Misscheduled' ||
      (r.verdict === 'Excluded' && r.reasons.some((x) => x.severity === 'error')),
  );
  // No healthy pod anywhere is a failure only once something is stuck: pods still starting within
  // --stuck-after are a rollout in progress, as `rollout` judges them.
  if (counts.desired > 0 && healthy === 0 && rows.some((r) => r.stuck)) return 'Failing';
  // A rollout is under way only while pods remain on an old revision (or the spec is unobserved);
  // an unschedulable pod of the current revision is a degraded DaemonSet, not a stuck rollout.
  if (rollout.verdict === 'Stuck' && counts.updated < counts.desired) return 'Stuck';
  if (rollout.verdict === 'Progressing' || rollout.verdict === 'Pending') return 'RollingOut';
  return bad ? 'Degraded' : 'Healthy';
}

function topProblem(rows: NodeVerdict[]): string {
  const phrases = new Map<string, number>();
  for (const r of rows) {
    if (!isProblemRow(r)) continue;
    const main = r.reasons[0];
    const phrase = main ? main.short : r.verdict;
    phrases.set(phrase, (phrases.get(phrase) ?? 0) + 1);
  }
  const best = [...phrases.entries()].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))[0];
  return best ? `${best[1]} ${best[0]}` : '';
}

/**
 * Pods whose controller is a DaemonSet the input does not hold (a dump of pods without their
 * DaemonSets, or a DaemonSet deleted with --cascade=orphan), as one note naming the owners.
 */
export function podsOfAbsentDaemonSets(index: SnapshotIndex): string | undefined {
  // The DaemonSets of the input by namespace and name: a joined key would make `a/b` + `c` and
  // `a` + `b/c` one owner.
  const present = new Map<string, Set<string>>();
  for (const ds of index.snapshot.daemonSets) {
    const namespace = ds.metadata?.namespace ?? '';
    const names = present.get(namespace) ?? present.set(namespace, new Set()).get(namespace)!;
    names.add(ds.metadata?.name ?? '');
  }
  const owners = new Map<string, number>();
  for (const [namespace, counts] of index.daemonSetPodCounts) {
    for (const [name, n] of counts) {
      if (present.get(namespace)?.has(name)) continue;
      const key = `${namespace}/${name}`;
      owners.set(key, (owners.get(key) ?? 0) + n);
    }
  }
  if (!owners.size) return undefined;
  const total = [...owners.values()].reduce((a, b) => a + b, 0);
  const names = [...owners.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .slice(0, 10)
    .map(([k, n]) => `${k} (${n})`);
  const more = owners.size > 10 ? ` and ${owners.size - 10} more` : '';
  return `${total} pod(s) are owned by DaemonSets that are not in the input: ${names.join(', ')}${more}; add them (kubectl get daemonsets -A -o yaml) to diagnose them`;
}

/** Scans the given DaemonSets. */
export function scan(
  index: SnapshotIndex,
  daemonSets: DaemonSet[],
  now: Date,
  scope: string,
  stuckAfter = DEFAULT_STUCK_AFTER,
): ScanReport {
  const causes = causesOf(index, daemonSets, { now, stuckAfter });
  const csiDrivers = index.snapshot.csiDrivers.map((d) => d.metadata?.name ?? '');
  const entries: ScanEntry[] = daemonSets.map((ds) => {
    const ctx = daemonSetContext(index, ds);
    const rows = diagnoseAllNodes(index, ds, now, stuckAfter);
    const recomputed = recomputeStatus(index, ds, ctx.revision.hash, ctx.revision.generation, now);
    const reported = ds.status ? reportedStatus(ds) : recomputed;
    const rollout = cachedRollout(index, ds, now, stuckAfter);
    const counts = problemCounts(rows);
    // Rollout blockers can sit on nodes whose own verdict is fine (a surge pod next to a healthy old one).
    if (rollout.blockers.length) {
      const onRows = new Set(rows.flatMap((r) => r.reasons.map((x) => `${r.node}\0${x.code}`)));
      for (const b of rollout.blockers)
        if (!onRows.has(`${b.node}\0${b.code}`)) counts[b.code] = (counts[b.code] ?? 0) + 1;
    }
    const { unavailable: _u, ...recomputedCounts } = recomputed;
    const gaps = coverageGaps(index, rows);
    // A node agent that runs nowhere, or a network or storage agent missing from Ready nodes,
    // leaves those nodes without what every pod there needs: never Healthy.
    // An error-level root cause behind this DaemonSet (it selects no node, or its labeller does
    // not label its nodes) is a problem although every node is Excluded.
    const vitalCause = causes.find(
      (c) =>
        c.severity === 'error' &&
        c.affects.some((a) => a.namespace === ds.metadata?.namespace && a.name === ds.metadata?.name) &&
        (c.code === 'SelectsNoNode' || c.code === 'LabellerNotRunning'),
    );
    // A DaemonSet named as the root cause of another's failure (the cloud controller manager whose
    // absence keeps the network agent off) is not Healthy, whatever its own rows say.
    const isCause = causes.some(
      (c) =>
        c.severity === 'error' &&
        c.code === 'CloudProviderNotInitialized' &&
        c.cause.kind === 'DaemonSet' &&
        c.cause.namespace === ds.metadata?.namespace &&
        c.cause.name === ds.metadata?.name,
    );
    if (vitalCause) counts[vitalCause.code] = (counts[vitalCause.code] ?? 0) + 1;
    const vitalGap =
      gaps.length > 0 && detectRoles(ds, csiDrivers).some((r) => r.role === 'network' || r.role === 'storage');
    let judged = health(rows, recomputed, rollout);
    if (judged === 'Healthy' && (vitalCause || vitalGap || isCause)) judged = 'Degraded';
    return {
      namespace: ds.metadata?.namespace ?? '',
      name: ds.metadata?.name ?? '',
      health: judged,
      desired: reported.desired,
      current: reported.current,
      ready: reported.ready,
      updated: reported.updated,
      available: reported.available,
      misscheduled: reported.misscheduled,
      problems: Object.keys(counts).sort(),
      problemCounts: counts,
      recomputed: recomputedCounts,
      statusMismatch: mismatches(ds, recomputed, ctx.failedCreates.length > 0),
      topProblem:
        topProblem(rows) ||
        (rollout.blockers[0]
          ? `1 ${rollout.blockers[0].code} (rollout blocker on node ${rollout.blockers[0].node})`
          : '') ||
        (vitalCause ? vitalCause.summary : '') ||
        (vitalGap ? gaps[0]!.message : ''),
      coverageGaps: gaps,
    };
  });
  const notes: string[] = [...index.snapshot.warnings];
  if (isMissing(index.snapshot, 'Node'))
    notes.push('no Node objects in the input: placement and desired counts cannot be recomputed');
  if (isMissing(index.snapshot, 'Pod')) notes.push('no Pod objects in the input: pod health cannot be seen');
  if (isMissing(index.snapshot, 'Event'))
    notes.push('events not available: FailedCreate and FailedScheduling causes cannot be seen');
  if (!daemonSets.length) notes.push(`no DaemonSets found in ${scope}`);
  const orphans = podsOfAbsentDaemonSets(index);
  if (orphans) notes.push(orphans);
  return { apiVersion: API_VERSION, kind: 'ScanReport', scope, daemonSets: entries, causes, notes };
}

/**
 * The report with only the DaemonSets in these health states (`scan --health`), and the root
 * causes that concern them (a DaemonSet they affect, or one of them as the cause).
 */
export function filterScanHealth(report: ScanReport, keep: ReadonlySet<ScanHealth>): ScanReport {
  const daemonSets = report.daemonSets.filter((d) => keep.has(d.health));
  const kept = (ns: string | undefined, name: string) => daemonSets.some((d) => d.namespace === ns && d.name === name);
  const causes = report.causes.filter(
    (c) =>
      c.affects.some((a) => kept(a.namespace, a.name)) ||
      (c.cause.kind === 'DaemonSet' && kept(c.cause.namespace, c.cause.name)),
  );
  return { ...report, daemonSets, causes };
}
