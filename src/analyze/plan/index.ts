/**
 * `plan`: what applying a DaemonSet manifest does, node by node, before it reaches the cluster.
 * Pure: (index of the cluster now, the manifest's DaemonSet, now) → PlanReport. The controller's
 * placement of the new spec, the scheduler's filters for the new pod, the rolling update run to
 * where it settles, and the template diff that causes each effect.
 */
import type { DaemonSet, Node, Pod } from '../../model/k8s-types.js';
import {
  API_VERSION,
  type PlanEffect,
  type PlanGroup,
  type PlanNode,
  type PlanReport,
  type PlanRollout,
  type PlanSettledState,
} from '../../model/results.js';
import { objectKey, type SnapshotIndex } from '../../model/snapshot-index.js';
import { formatDuration } from '../../model/duration.js';
import { semanticEqual } from '../../k8s/revision.js';
import { rollingBudget, type Budget } from '../../k8s/rollingupdate.js';
import { compileDaemonPlacement } from '../../k8s/daemonpod.js';
import { diffTemplates } from '../template-diff.js';
import { daemonSetContext } from '../placement/index.js';
import { deletionWaitsForKubelet, isPodReady } from '../../k8s/podutil.js';
import { isNodeUnreachable } from '../../k8s/podhealth.js';
import { appliedDaemonSet, newRevisionHash, sortedKeys, storedTemplate } from './applied.js';
import { admissionOf } from './admission.js';
import {
  availableNow,
  decideNode,
  exclusion,
  fitOnNode,
  othersOnNode,
  plannedPod,
  podBefore,
  resolvePriority,
  type NodeDecision,
} from './nodes.js';
import { settleRollout, type ReplaceCandidate } from './rollout.js';
import { planFindings, type StrategyChange } from './findings.js';
import { readinessSeconds } from './pace.js';
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

/** Which template diff lines bear on an effect: placement fields for gain/lose, everything for replace. */
const PLACEMENT_FIELDS = /^spec\.(nodeSelector|affinity|tolerations|nodeName)\b/;
const FIT_FIELDS =
  /(^spec\.overhead|^spec\.resources|\.resources\.|\.ports|^spec\.(priorityClassName|hostNetwork|initContainers|containers\[[^\]]*\]$))/;

/** The diff lines behind a node's effect; `placementChanged`: the current spec decides this node otherwise. */
function causesFor(effect: PlanEffect, pending: boolean, placementChanged: boolean, diff: string[]): string[] {
  if (effect === 'replace') return pending ? diff.filter((l) => FIT_FIELDS.test(l)) : [];
  if (effect === 'gain' || effect === 'lose' || effect === 'none')
    return placementChanged ? diff.filter((l) => PLACEMENT_FIELDS.test(l)) : [];
  return [];
}

interface NodeWork {
  node: Node;
  name: string;
  decision: NodeDecision;
  entry: PlanNode;
  /** The new pod will stay Pending (not bound even with preemption). */
  pending: boolean;
  /**
   * Without surge, no new pod is ever created: the pod there is deleted (or being deleted) on an
   * unreachable node, so it stays Terminating and the controller waits for it.
   */
  waitsForDeletion: boolean;
  /** The API refuses the node's new pod (admission): no pod is created. */
  refused: boolean;
  /** A quota admits only some of the new pods: which nodes get one depends on the controller's order. */
  maybeRefused: boolean;
}

/** What every node's entry needs from the plan as a whole. */
interface NodeSetting {
  index: SnapshotIndex;
  applied: DaemonSet;
  newHash: string;
  groupBy: string;
  priority: number | undefined;
  surge: boolean;
  /** The API server's refusal of every new pod, when admission refuses them. */
  refusal: string | undefined;
  /** A quota admits fewer new pods than the nodes to gain one: some of them get none. */
  partial: boolean;
}

/** One node's entry: the pod there now, why the new spec wants none, and the new pod's fit. */
function nodeWork(set: NodeSetting, node: Node, nodeName: string, decision: NodeDecision): NodeWork {
  const group = set.groupBy ? (node.metadata?.labels?.[set.groupBy] ?? '') : '';
  const before = podBefore(
    decision.pods.filter((p) => !decision.pruned?.includes(p)),
    set.newHash,
  );
  const entry: PlanNode = {
    node: nodeName,
    group,
    effect: decision.effect,
    shouldRun: decision.sr.shouldRun,
    settled: [],
    ...(before ? { before } : {}),
  };
  if (!decision.sr.shouldRun) {
    const why = exclusion(decision.sr, node, decision.pods.length > 0);
    if (why) Object.assign(entry, why);
    if (decision.loseByUpdate && entry.message)
      entry.message += '; the rolling update deletes the old pod and no new one follows';
  }
  let pending = false;
  // Pods whose deletion an unreachable node's kubelet never confirms: they stay, holding their requests and ports.
  const lingers = (p: Pod) => isNodeUnreachable(node) && deletionWaitsForKubelet(p);
  const needsNewPod =
    decision.effect === 'gain' ||
    decision.effect === 'replace' ||
    (decision.effect === 'keep' &&
      decision.sr.shouldRun &&
      decision.currentPod !== undefined &&
      !decision.currentPod.spec?.nodeName);
  // A terminating pod still makes the node's pod "exist": without surge the controller creates none until it is gone (semantics §1.5).
  const waitsForDeletion = needsNewPod && !set.surge && decision.effect !== 'keep' && decision.pods.some(lingers);
  const refused = needsNewPod && !waitsForDeletion && set.refusal !== undefined && !set.partial;
  const maybeRefused = needsNewPod && !waitsForDeletion && set.partial && decision.effect === 'gain';
  if (needsNewPod && !waitsForDeletion && !refused) {
    // manage() deletes an old pod that is not Ready as soon as the surge pod exists (semantics §1.5).
    // A surge already in progress (a new pod not yet bound next to the old one) keeps the old pod as well.
    const beside =
      decision.effect === 'replace' ? decision.oldPod : decision.effect === 'keep' ? decision.surgeOld : undefined;
    const surging = set.surge && beside !== undefined && isPodReady(beside);
    // The old pod's resources and ports are released before the new pod is created, unless surging.
    const released = (surging ? decision.pods.filter((p) => p !== beside) : decision.pods).filter((p) => !lingers(p));
    const { bindsAfterPreemption, ...fit } = fitOnNode(
      plannedPod(set.applied, nodeName, set.priority),
      node,
      othersOnNode(set.index, nodeName, released),
      surging,
    );
    entry.fit = fit;
    pending = !fit.fits && !bindsAfterPreemption;
  }
  return { node, name: nodeName, decision, entry, pending, waitsForDeletion, refused, maybeRefused };
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

interface RolloutInput {
  strategy: 'RollingUpdate' | 'OnDelete';
  templateChanged: boolean;
  surge: boolean;
  budget: Budget;
  minReady: number;
  now: Date;
  replacedPods: Pod[];
}

function planRollout(
  work: NodeWork[],
  input: RolloutInput,
): { doc: PlanRollout; outcome: ReturnType<typeof settleRollout> } {
  const { strategy, surge, budget, minReady, now } = input;
  const replace = work.filter((w) => w.entry.effect === 'replace');
  const candidates: ReplaceCandidate[] = replace.map((w) => ({
    node: w.name,
    oldUnavailable: !availableNow(w.decision.oldPod, minReady, now),
    binds: !w.pending && !w.waitsForDeletion && !w.refused,
  }));
  // Old pods on nodes the new spec no longer wants but lets continue (an untolerated NoSchedule
  // taint): without surge the rolling update deletes them like any old pod, and no unavailability
  // remains once they are gone.
  const leaving = work.filter((w) => w.decision.loseByUpdate);
  if (!surge)
    candidates.push(
      ...leaving.map((w) => ({
        node: w.name,
        oldUnavailable: !availableNow(w.decision.oldPod, minReady, now),
        binds: true,
      })),
    );
  // Unavailable without a replacement: a gained or kept new pod that stays Pending, or a pod
  // already of the new revision that is bound but unavailable now (taken as it is).
  const stuckElsewhere = work.filter(
    (w) =>
      w.entry.effect !== 'replace' &&
      w.decision.sr.shouldRun &&
      (w.pending ||
        w.waitsForDeletion ||
        w.refused ||
        (w.decision.currentPod?.spec?.nodeName !== undefined && !availableNow(w.decision.currentPod, minReady, now))),
  ).length;
  // With surge only surge pods count (numSurge): one already waiting next to its old pod that will stay Pending.
  const surgingForGood = work.filter(
    (w) => w.entry.effect === 'keep' && w.decision.surgeOld !== undefined && w.pending,
  ).length;
  const outcome =
    strategy === 'OnDelete' || rollingUpdateNeverRuns(work, surge)
      ? { replaced: new Set<string>(), undecided: new Set<string>() }
      : settleRollout(
          candidates,
          surge ? budget.maxSurge : budget.maxUnavailable,
          stuckElsewhere,
          surge,
          surgingForGood,
        );
  const order = candidates
    .filter((c) => replace.some((w) => w.name === c.node))
    .sort((a, b) => Number(b.oldUnavailable) - Number(a.oldUnavailable) || compareText(a.node, b.node))
    .map((c) => c.node);
  const step = Math.max(1, surge ? budget.maxSurge : budget.maxUnavailable);
  const batches = strategy === 'OnDelete' ? 0 : Math.ceil(replace.length / step);
  const pace = readinessSeconds(input.replacedPods, minReady, now);
  const doc: PlanRollout = {
    replaced: replace.length > 0,
    strategy,
    maxUnavailable: budget.maxUnavailable,
    maxSurge: budget.maxSurge,
    toReplace: replace.length,
    batches,
    order,
    ...(outcome.blockedAfter !== undefined ? { blockedAfter: outcome.blockedAfter } : {}),
  };
  if (batches > 0 && pace !== undefined) {
    doc.batchSeconds = Math.round(pace);
    doc.estimateSeconds = Math.round(pace * batches);
    doc.estimate = `about ${formatDuration(doc.estimateSeconds * 1000)} (${batches} batch(es) of ${step}, each about ${formatDuration(doc.batchSeconds * 1000)}: minReadySeconds ${minReady} plus the time the current pods took to become Ready)`;
  }
  // With surge they go only while enough pods are available elsewhere: not while a new pod of
  // a node that should run one stays Pending.
  if (surge && strategy === 'RollingUpdate') {
    for (const w of leaving) (stuckElsewhere > 0 ? outcome.undecided : outcome.replaced).add(w.name);
  }
  return { doc, outcome };
}

/**
 * Whether the rolling update never deletes an old pod because creates are refused: manage()
 * returns the create error before rollingUpdate() runs (`kubernetes v1.35
 * pkg/controller/daemon/daemon_controller.go#syncDaemonSet`), so a node that needs a pod at once
 * (a gain) stops it from the start; with surge the surge pods themselves are refused and the old
 * pods stay.
 */
function rollingUpdateNeverRuns(work: NodeWork[], surge: boolean): boolean {
  if (work.some((w) => w.maybeRefused)) return true;
  if (!work.some((w) => w.refused)) return false;
  return surge || work.some((w) => w.refused && w.entry.effect !== 'replace');
}

/** The states a node can settle in. */
function settledStates(
  w: NodeWork,
  outcome: ReturnType<typeof settleRollout>,
  strategy: 'RollingUpdate' | 'OnDelete',
): PlanSettledState[] {
  const newPod: PlanSettledState = w.waitsForDeletion || w.refused ? 'none' : w.pending ? 'new-pending' : 'new-bound';
  switch (w.entry.effect) {
    case 'none':
      return ['none'];
    case 'lose':
      if (!w.decision.loseByUpdate) return ['none'];
      if (strategy === 'OnDelete') return ['old-kept'];
      if (outcome.replaced.has(w.name)) return ['none'];
      return outcome.undecided.has(w.name) ? ['none', 'old-kept'] : ['old-kept'];
    case 'gain':
      return w.maybeRefused ? [newPod, 'none'] : [newPod];
    case 'keep': {
      const pod = w.decision.currentPod ?? w.decision.oldPod;
      if (!pod) return ['none'];
      if (!w.decision.currentPod) return ['old-kept'];
      return pod.spec?.nodeName ? ['new-bound'] : [newPod];
    }
    case 'replace':
      if (strategy === 'OnDelete') return ['old-kept'];
      if (outcome.replaced.has(w.name)) return [newPod];
      if (outcome.undecided.has(w.name)) return [newPod, 'old-kept'];
      return ['old-kept'];
  }
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
