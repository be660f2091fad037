/**
 * The placement engine: for a DaemonSet × node, what Kubernetes decides and why. First the
 * DaemonSet controller (shouldRun / shouldContinueRunning, the pods it owns for the node,
 * creation failures: controller.ts), then the scheduler's filters for an unbound pod
 * (scheduler.ts), then the kubelet and the pod's own state (node.ts). Pure: takes the index and
 * `now`, returns result documents. This file builds the commands' documents from the rows.
 */
import type { DaemonSet, Node } from '../../model/k8s-types.js';
import {
  API_VERSION,
  type DaemonSetDiagnosis,
  type DaemonSetNodes,
  type NodeDiagnosis,
  type NodeReport,
  type NodeRow,
  type Verdict,
  type VerdictSummary,
} from '../../model/results.js';
import { objectKey, type SnapshotIndex } from '../../model/snapshot-index.js';
import { isMissing } from '../../model/snapshot.js';
import { nodeReadyStatus } from '../../k8s/podhealth.js';
import { formatTaint } from '../../k8s/taints.js';
import { DEFAULT_STUCK_AFTER } from '../stuck.js';
import { daemonSetContext, type DaemonSetContext } from './context.js';
import { diagnoseNode, type NodeVerdict } from './node.js';

export { currentRevisionNote, daemonSetContext, type DaemonSetContext, type RawReason } from './context.js';
export { predicateReasons } from './controller.js';
export { filterReasons } from './scheduler.js';
export { diagnoseNode, diagnosePod, type NodeVerdict } from './node.js';

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
export function diagnoseAllNodes(
  index: SnapshotIndex,
  ds: DaemonSet,
  now: Date,
  stuckAfter = DEFAULT_STUCK_AFTER,
): NodeVerdict[] {
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
export function whyNode(
  index: SnapshotIndex,
  ds: DaemonSet,
  node: Node,
  now: Date,
  stuckAfter = DEFAULT_STUCK_AFTER,
): NodeDiagnosis {
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
export function whyDaemonSet(
  index: SnapshotIndex,
  ds: DaemonSet,
  now: Date,
  stuckAfter = DEFAULT_STUCK_AFTER,
): DaemonSetDiagnosis {
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
      .filter(
        (r) => (r.verdict !== 'Healthy' && r.verdict !== 'Excluded') || r.reasons.some((x) => x.severity === 'error'),
      )
      .map((r) => ({
        node: r.node,
        verdict: r.verdict,
        reasons: r.reasons,
        ...(r.pod ? { pod: r.pod } : {}),
        events: r.events,
      })),
    summary: summarize(rows),
    headline: headline(rows),
    ...(notes.length ? { notes } : {}),
  };
}

/** `nodes <ds>`: one row per node, optionally filtered by verdict and node labels. */
export function daemonSetNodes(
  index: SnapshotIndex,
  ds: DaemonSet,
  now: Date,
  filter?: { verdicts?: Verdict[]; nodes?: Set<string> },
): DaemonSetNodes {
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
export function nodeReport(
  index: SnapshotIndex,
  daemonSets: DaemonSet[],
  node: Node,
  now: Date,
  scope = 'all namespaces in the input',
  stuckAfter = DEFAULT_STUCK_AFTER,
): NodeReport {
  const entries = daemonSets.map((ds) => {
    const row = diagnoseNode(index, daemonSetContext(index, ds), node, now, stuckAfter);
    return { ...ref(ds), verdict: row.verdict, reasons: row.reasons, ...(row.pod ? { pod: row.pod } : {}) };
  });
  const notes: string[] = [...index.snapshot.warnings];
  if (isMissing(index.snapshot, 'Event'))
    notes.push('events not available: FailedCreate and FailedScheduling causes cannot be seen');
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
