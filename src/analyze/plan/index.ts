/**
 * `plan`: what applying a DaemonSet manifest does, node by node, before it reaches the cluster.
 * Pure: (index of the cluster now, the manifest's DaemonSet, now) → PlanReport. The controller's
 * placement of the new spec, the scheduler's filters for the new pod, the rolling update run to
 * where it settles, and the template diff that causes each effect. This file runs the stages in
 * order (applied.ts, nodes.ts, admission.ts, entries.ts, rollout-plan.ts, findings.ts) and adds the
 * groups, the summary and the notes.
 */
import type { DaemonSet, Node } from '../../model/k8s-types.js';
import { API_VERSION, type PlanGroup, type PlanNode, type PlanReport } from '../../model/results.js';
import { objectKey, type SnapshotIndex } from '../../model/snapshot-index.js';
import { semanticEqual } from '../../k8s/revision.js';
import { rollingBudget } from '../../k8s/rollingupdate.js';
import { compileDaemonPlacement } from '../../k8s/daemonpod.js';
import { diffTemplates } from '../template-diff.js';
import { daemonSetContext } from '../placement/index.js';
import { appliedDaemonSet, newRevisionHash, sortedKeys, storedTemplate } from './applied.js';
import { admissionOf } from './admission.js';
import { availableNow, decideNode, resolvePriority } from './nodes.js';
import { causesFor, nodeWork, type NodeSetting, type NodeWork } from './entries.js';
import { planRollout, settledStates } from './rollout-plan.js';
import { planFindings, type StrategyChange } from './findings.js';
import { compareText } from '../../model/order.js';

export { applyRefusal } from './validate.js';

/** Node labels that name a pool, in the order the default --group-by picks the first present. */
export const POOL_LABELS: readonly string[] = [
  'node.kubernetes.io/instance-type',
  'karpenter.sh/nodepool',
  'eks.amazonaws.com/nodegroup',
  'cloud.google.com/gke-nodepool',
  'kubernetes.azure.com/agentpool',
  'topology.kubernetes.io/zone',
];

export interface PlanOptions {
  /** The node label to group by; default: the first of POOL_LABELS some node carries. */
  groupBy?: string;
}

/** The default grouping label: the first pool label any node carries, or "". */
export function defaultGroupBy(nodes: Node[]): string {
  return POOL_LABELS.find((l) => nodes.some((n) => n.metadata?.labels?.[l] !== undefined)) ?? '';
}

/** The plan for applying `manifest` (a DaemonSet) to the cluster `index` describes. */
export function planDaemonSet(
  index: SnapshotIndex,
  manifest: DaemonSet,
  now: Date,
  options: PlanOptions = {},
): PlanReport {
  const namespace = manifest.metadata?.namespace ?? 'default';
  const name = manifest.metadata?.name ?? '';
  const current = index.daemonSetsByKey.get(objectKey({ metadata: { namespace, name } }));
  const applied = appliedDaemonSet({ ...manifest, metadata: { ...manifest.metadata, namespace } }, current);
  const newTemplate = applied.spec!.template!;
  const oldTemplate = current ? storedTemplate(current.spec?.template) : undefined;
  const templateChanged = !current || !semanticEqual(oldTemplate, newTemplate);
  const ctx = current ? daemonSetContext(index, current) : undefined;
  const reuse = newRevisionHash(index, current, newTemplate);
  // The hash pods of the new revision carry: unchanged template → the current one; a rollback → the old revision's.
  const newHash = !templateChanged ? (ctx?.revision.hash ?? '') : reuse.hash;
  const diff = current ? diffTemplates(sortedKeys(oldTemplate), sortedKeys(newTemplate)) : [];
  const strategy = applied.spec?.updateStrategy?.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate';
  const minReady = applied.spec?.minReadySeconds ?? 0;
  const groupBy = options.groupBy ?? defaultGroupBy(index.snapshot.nodes);
  const priority = resolvePriority(newTemplate.spec?.priorityClassName, index.snapshot.priorityClasses);
  const nodes = index.nodesInNameOrder;

  const decisions = nodes.map((node) => {
    const nodeName = node.metadata?.name ?? '';
    const pods = ctx?.byNode.get(nodeName) ?? [];
    return { node, name: nodeName, decision: decideNode(node, applied, pods, newHash, templateChanged) };
  });
  const desired = decisions.filter((d) => d.decision.sr.shouldRun).length;
  const budget = rollingBudget(applied, desired);
  const surge = strategy === 'RollingUpdate' && budget.maxSurge > 0;

  const admission = admissionOf(
    index,
    namespace,
    name,
    newTemplate,
    oldTemplate,
    decisions.map((d) => d.decision),
    surge,
  );
  const setting: NodeSetting = {
    index,
    applied,
    newHash,
    groupBy,
    priority,
    surge,
    refusal: admission.refusal,
    partial: admission.partial,
  };
  const work = decisions.map(({ node, name: nodeName, decision }) => nodeWork(setting, node, nodeName, decision));

  const rollout = planRollout(work, {
    strategy,
    templateChanged,
    surge,
    budget,
    minReady,
    now,
    replacedPods: ctx ? [...ctx.byNode.values()].flat() : [],
  });
  for (const w of work) {
    w.entry.settled = settledStates(w, rollout.outcome, strategy);
    const placementChanged =
      current !== undefined && compileDaemonPlacement(current).evaluate(w.node).shouldRun !== w.decision.sr.shouldRun;
    const causes = causesFor(w.entry.effect, w.pending, placementChanged, diff);
    if (causes.length) w.entry.causes = causes;
  }
  const planNodes = work.map((w) => w.entry);
  const pendingNodes = work.filter((w) => w.pending && w.entry.settled.includes('new-pending'));
  const summary = { gain: 0, lose: 0, keep: 0, replace: 0, none: 0, pending: pendingNodes.length };
  for (const n of planNodes) summary[n.effect]++;

  const report: PlanReport = {
    apiVersion: API_VERSION,
    kind: 'PlanReport',
    daemonSet: { namespace, name },
    change: current ? 'update' : 'create',
    groupBy,
    nodes: planNodes,
    groups: groupsOf(planNodes, new Set(pendingNodes.map((w) => w.name))),
    rollout: rollout.doc,
    templateDiff: diff,
    findings: [],
    summary,
  };
  const byUpdate = new Set(work.filter((w) => w.decision.loseByUpdate).map((w) => w.name));
  const strategyChange =
    current && !templateChanged ? strategyOnly(index, current, applied, report, work, now, options) : undefined;
  report.findings = planFindings(
    report,
    applied,
    index.snapshot.csiDrivers.map((d) => d.metadata?.name ?? ''),
    byUpdate,
    new Set(work.filter((w) => w.waitsForDeletion).map((w) => w.name)),
    work.some((w) => w.refused || w.maybeRefused) ? admission.refusal : undefined,
    strategyChange,
  );
  const notes = planNotes(index, current, ctx?.notes ?? [], templateChanged, reuse.reused);
  notes.push(...admission.notes);
  if (notes.length) report.notes = notes;
  return report;
}

/** The rollout fields of a spec, defaulted: what a change that keeps the template can still change. */
function rolloutSpec(ds: DaemonSet): string {
  const s = ds.spec?.updateStrategy;
  const type = s?.type || 'RollingUpdate';
  const ru =
    type === 'RollingUpdate'
      ? { maxUnavailable: s?.rollingUpdate?.maxUnavailable ?? 1, maxSurge: s?.rollingUpdate?.maxSurge ?? 0 }
      : undefined;
  return JSON.stringify({ type, ...(ru ? { rollingUpdate: ru } : {}), minReadySeconds: ds.spec?.minReadySeconds ?? 0 });
}

/** Nodes the settled rollout gives a pod of the current revision in place of an old one. */
function replacedNodes(report: PlanReport): string[] {
  return report.nodes
    .filter((n) => n.effect === 'replace' && n.settled.some((st) => st !== 'old-kept'))
    .map((n) => n.node);
}

/**
 * A change that keeps the template but changes the update strategy or minReadySeconds: no pod is
 * replaced for the change itself, but the rollout in progress goes on under the new rules. What
 * it gets to, against where the current spec leaves it (the same plan, of the current spec).
 */
function strategyOnly(
  index: SnapshotIndex,
  current: DaemonSet,
  applied: DaemonSet,
  report: PlanReport,
  work: NodeWork[],
  now: Date,
  options: PlanOptions,
): StrategyChange | undefined {
  const from = rolloutSpec(current);
  const to = rolloutSpec(applied);
  const pruned = work.flatMap((w) =>
    (w.decision.pruned ?? []).map((p) => ({ node: w.name, pod: p.metadata?.name ?? '' })),
  );
  if (from === to && !pruned.length) return undefined;
  const before = replacedNodes(planDaemonSet(index, current, now, options));
  const minReady = applied.spec?.minReadySeconds ?? 0;
  const failing = work
    .filter((w) => w.decision.currentPod?.spec?.nodeName && !availableNow(w.decision.currentPod, minReady, now))
    .map((w) => w.name);
  return { from, to, before, after: replacedNodes(report), pruned, failing };
}

function groupsOf(nodes: PlanNode[], pending: Set<string>): PlanGroup[] {
  const byGroup = new Map<string, PlanGroup>();
  for (const n of nodes) {
    let g = byGroup.get(n.group);
    if (!g) {
      g = { group: n.group, nodes: 0, effects: { gain: 0, lose: 0, keep: 0, replace: 0, none: 0 }, pending: 0 };
      byGroup.set(n.group, g);
    }
    g.nodes++;
    g.effects[n.effect]++;
    if (pending.has(n.node)) g.pending++;
  }
  return [...byGroup.values()].sort((a, b) => compareText(a.group, b.group));
}

function planNotes(
  index: SnapshotIndex,
  current: DaemonSet | undefined,
  ctxNotes: string[],
  templateChanged: boolean,
  reused: boolean,
): string[] {
  const notes = [...ctxNotes];
  if (!current) notes.push('no DaemonSet of this name exists in the input: the manifest creates it');
  if (current && templateChanged && reused)
    notes.push(
      'the new template equals an earlier ControllerRevision: the controller reuses it, so pods of that revision count as updated (a rollback)',
    );
  if (index.snapshot.missing.some((m) => m.kind === 'Pod'))
    notes.push('pods not in the input: fit and the pods each node runs now are not known');
  if (index.snapshot.missing.some((m) => m.kind === 'PriorityClass'))
    notes.push(
      "priority classes not in the input: the new pod's priority, and so preemption, is judged from the built-in classes only",
    );
  return notes;
}
