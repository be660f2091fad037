/**
 * Which nodes use the rolling-update budget and whether each will resolve on its own: the
 * controller's node loop (`rollingUpdateNodes`, k8s/rollingupdate.ts) over every node entry
 * that has pods plus the desired nodes without, each node that holds budget classified with
 * the placement engine's reasons for the pod that holds it.
 */
import type { KubeEvent, Node, Pod } from '../../model/k8s-types.js';
import type { Reason } from '../../model/results.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import { parseRfc3339 } from '../../model/duration.js';
import {
  rollingUpdateNodes,
  findUpdatedPodsOnNode,
  type BudgetSlot,
  type NodeDaemonPods,
  type SlotUse,
  type UpdateTarget,
} from '../../k8s/rollingupdate.js';
import { compareDaemonPodAge, isPodAvailable } from '../../k8s/podutil.js';
import { isPodUpdated } from '../../k8s/revision.js';
import { nodeReadyStatus } from '../../k8s/podhealth.js';
import { diagnosePod, type DaemonSetContext, type NodeVerdict } from '../placement/index.js';
import { isPastStuckAfter, isStuck } from '../stuck.js';

/** Why a node counts against the budget (or, `old-terminating`, why it is not done yet). */
export type Slot = BudgetSlot | 'old-terminating';

export interface BudgetUse {
  node: string;
  slot: Slot;
  pod?: Pod;
  /** Will not resolve without someone acting. */
  hard: boolean;
  code: string;
  message: string;
}

export const SLOT_TEXT: Record<Slot, string> = {
  'no-pod': 'no live pod',
  duplicates: 'more than one pod of a revision',
  'old-and-new': 'old and new pod side by side',
  'new-unavailable': 'new pod not available',
  'old-unavailable': 'old pod unavailable',
  surging: 'new pod surging next to the old one',
  'old-terminating': 'old pod still terminating next to the available new one',
};

/** Whether the state of a node that uses the budget will resolve on its own. */
function classify(
  node: string,
  slot: Slot,
  pod: Pod | undefined,
  ownReasons: Reason[],
  now: Date,
  stuckAfter: number,
  minReady: number,
  nodeReady: string,
): BudgetUse {
  const reasons = ownReasons.filter(
    (r) => r.code !== 'OutdatedRevision' && (r.severity !== 'info' || r.code === 'NotAvailableYet'),
  );
  // A node whose only pods are being deleted waits for the deletion, whatever state the pod was
  // in (a crashing pod terminates like any other): it is stuck when the kubelet cannot confirm
  // it (past its grace period on a node that does not report) or it has lasted past stuckAfter.
  const terminating =
    slot === 'no-pod' && pod?.metadata?.deletionTimestamp
      ? reasons.find((r) => r.code === 'PodTerminating')
      : undefined;
  if (terminating) {
    const grace = pod!.metadata!.deletionGracePeriodSeconds ?? pod!.spec?.terminationGracePeriodSeconds ?? 30;
    // deletionTimestamp is the time of the delete call plus the grace period.
    const terminatingFor = (now.getTime() - parseRfc3339(pod!.metadata!.deletionTimestamp!)) / 1000 + grace;
    const hard =
      terminatingFor > stuckAfter || (terminating.severity === 'error' && nodeReady !== 'True' && nodeReady !== '');
    return { node, slot, hard, pod: pod!, code: 'PodTerminating', message: terminating.message };
  }
  const main = reasons[0];
  // The same judgement as the placement verdicts' (stuck.ts), so that why, scan and rollout agree.
  let hard = isStuck(reasons, pod, now, stuckAfter, minReady);
  // A pod terminating on a node that does not report will never finish on its own.
  if (reasons.some((r) => r.code === 'PodTerminating' && r.severity === 'error') && nodeReady !== 'True') hard = true;
  if (!main && slot === 'no-pod' && isPastStuckAfter(pod, now, stuckAfter, minReady)) hard = true;
  // An unavailable old pod is always replaced by the controller, whatever its trouble: that is
  // progress, unless its deletion cannot complete because the node does not report.
  if (slot === 'old-unavailable') hard = nodeReady !== 'True' && nodeReady !== '';
  return {
    node,
    slot,
    hard,
    ...(pod ? { pod } : {}),
    code: main?.code ?? (slot === 'no-pod' ? 'NotYetCreated' : 'NotAvailableYet'),
    message: main?.message ?? SLOT_TEXT[slot],
  };
}

/** What one DaemonSet's nodes do to the budget. */
export interface NodeBudget {
  uses: BudgetUse[];
  /**
   * Nodes whose new pod is available while the old pod is still terminating: the controller has
   * nothing left to do there (findUpdatedPodsOnNode skips terminating pods), but the status
   * looks at the oldest pod and counts the node as updated only once the old one is gone. They
   * hold no budget.
   */
  leaving: BudgetUse[];
  /** Nodes whose available old pod the controller replaces next, as far as the budget allows. */
  candidates: string[];
  numSurge: number;
  /** Nodes where the DaemonSet should run. */
  shouldRun: Set<string>;
}

/** Everything `nodeBudget` needs besides the snapshot. */
export interface BudgetInput {
  ctx: DaemonSetContext;
  rows: NodeVerdict[];
  now: Date;
  stuckAfter: number;
  surge: boolean;
  minReady: number;
}

/**
 * The node entries of the controller's loop: every node entry that has pods, plus desired nodes
 * without (`updatedDesiredNodeCounts` adds them), by name.
 */
function nodeEntries(index: SnapshotIndex, ctx: DaemonSetContext, shouldRun: Set<string>): NodeDaemonPods[] {
  const entry = (node: string): NodeDaemonPods => ({
    node,
    pods: ctx.byNode.get(node) ?? [],
    shouldRun: shouldRun.has(node),
  });
  // Desired nodes are nodes of the snapshot; pods can also target nodes it does not hold.
  const elsewhere = [...ctx.byNode.keys()].filter((n) => !index.nodesByName.has(n));
  const known = index.sortedNodeNames.filter((n) => ctx.byNode.has(n) || shouldRun.has(n));
  return (elsewhere.length ? [...known, ...elsewhere].sort() : known).map(entry);
}

/** The pod that holds the budget, classified by its own reasons (not necessarily the node's deciding pod's). */
function classifyUse(index: SnapshotIndex, input: BudgetInput, row: NodeVerdict | undefined, use: SlotUse): BudgetUse {
  const node = index.nodesByName.get(use.node);
  const own = use.pod && node ? diagnosePod(index, input.ctx, node, use.pod, input.now).reasons : (row?.reasons ?? []);
  return classify(use.node, use.slot, use.pod, own, input.now, input.stuckAfter, input.minReady, nodeReadyStatus(node));
}

/** The old pod still terminating behind an available new pod on a node, if any. */
function leavingOldPod(
  index: SnapshotIndex,
  input: BudgetInput,
  entry: NodeDaemonPods,
  target: UpdateTarget,
): BudgetUse | undefined {
  // It takes a new pod and a terminating old one.
  if (entry.pods.length < 2) return undefined;
  const node = index.nodesByName.get(entry.node);
  const { newPod, oldPod } = findUpdatedPodsOnNode(entry.pods, target.hash, target.generation);
  if (!newPod || oldPod || !entry.shouldRun || !node || !isPodAvailable(newPod, input.minReady, input.now))
    return undefined;
  const gone = entry.pods.find(
    (p) =>
      p.metadata?.deletionTimestamp &&
      !isPodUpdated(p, target.hash, target.generation) &&
      compareDaemonPodAge(p, newPod) < 0,
  );
  if (!gone) return undefined;
  const terminating = diagnosePod(index, input.ctx, node, gone, input.now).reasons.find(
    (r) => r.code === 'PodTerminating',
  );
  return {
    node: entry.node,
    slot: 'old-terminating',
    pod: gone,
    code: 'PodTerminating',
    // It goes when the kubelet confirms; past its grace period on a node that does not report, it will not.
    hard: terminating?.severity === 'error' && nodeReadyStatus(node) !== 'True',
    message: terminating?.message ?? SLOT_TEXT['old-terminating'],
  };
}

/** Runs the controller's node loop and classifies every node that holds the update back. */
export function nodeBudget(index: SnapshotIndex, input: BudgetInput): NodeBudget {
  const { ctx } = input;
  const shouldRun = new Set(
    index.snapshot.nodes.filter((n: Node) => ctx.placement.evaluate(n).shouldRun).map((n) => n.metadata?.name ?? ''),
  );
  const entries = nodeEntries(index, ctx, shouldRun);
  const target: UpdateTarget = {
    hash: ctx.revision.hash,
    generation: ctx.revision.generation,
    minReadySeconds: input.minReady,
    now: input.now,
  };
  const loop = rollingUpdateNodes(entries, target, input.surge);
  const rowByNode = new Map(input.rows.map((r) => [r.node, r]));
  return {
    uses: loop.uses.map((u) => classifyUse(index, input, rowByNode.get(u.node), u)),
    leaving: entries.flatMap((e) => leavingOldPod(index, input, e, target) ?? []),
    candidates: loop.candidates,
    numSurge: loop.numSurge,
    shouldRun,
  };
}

/**
 * Creations refused since the current revision (quota, admission). In surge mode every step
 * starts with a new pod next to the old one, so these stop it where nothing is deleted first.
 */
export function createFailuresSinceRevision(ctx: DaemonSetContext): KubeEvent[] {
  const revisionSince = parseRfc3339(ctx.revision.revision?.metadata?.creationTimestamp ?? '');
  return ctx.failedCreates.filter(
    (e) => Number.isNaN(revisionSince) || parseRfc3339(e.lastTimestamp ?? e.eventTime ?? '') >= revisionSince,
  );
}

/**
 * Refused creates keep unavailable old pods in place: surging, their replacement is a new pod
 * created next to them; a blocked manage() replaces none at all.
 */
export function holdBlockedReplacements(
  uses: BudgetUse[],
  shouldRun: Set<string>,
  manageBlocked: boolean,
  surgeBlocked: boolean,
): void {
  for (const u of uses) {
    if (u.slot === 'old-unavailable' && (manageBlocked || (surgeBlocked && shouldRun.has(u.node)))) u.hard = true;
  }
}

export function listNodes(nodes: string[]): string {
  return `${nodes.slice(0, 5).join(', ')}${nodes.length > 5 ? `, … (${nodes.length - 5} more)` : ''}`;
}

/**
 * Evidence lines for nodes that hold budget, one per distinct cause; a blocker's message is
 * already printed with the blockers, so it is referred to, not repeated.
 */
export function groupedEvidence(uses: BudgetUse[]): string[] {
  const groups = new Map<string, string[]>();
  for (const u of uses) {
    const key = u.hard ? `${u.code} (see the blockers)` : `${u.code}: ${u.message}`;
    groups.set(key, [...(groups.get(key) ?? []), u.node]);
  }
  return [...groups.entries()].map(
    ([key, nodes]) => `${nodes.length > 1 ? `nodes ${listNodes(nodes)}` : `node ${nodes[0]}`}: ${key}`,
  );
}
