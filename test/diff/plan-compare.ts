/**
 * What Kubernetes did with a changed DaemonSet, per node, and how it is compared with
 * `ds-doctor plan`'s prediction (made before the change was applied).
 *
 * | at the fixed point | the node's state |
 * |---|---|
 * | no live pod of the DaemonSet targets the node (a pod being deleted counts as gone) | `none` |
 * | the pod the node had before the change is still there | `old-kept` (and `new-bound` / `new-pending` too when that pod already has the new revision's hash: nothing needed replacing) |
 * | a pod created since the change, bound | `new-bound` |
 * | a pod created since the change, not bound | `new-pending` |
 *
 * A node with two live pods (a surge pod next to the old one) shows both pods' states.
 *
 * The effect follows from the node's pod before the change, the controller's decision after it
 * (the full probe) and whether that pod has the new revision's hash: `none`, `gain` (no pod,
 * wanted), `lose` (a pod, no longer wanted), `replace` (a pod of another revision, wanted),
 * `keep` (a pod of the new revision, wanted).
 *
 * Like compare.ts, nothing here calls ds-doctor's engine.
 */
import type { DaemonSet, KubeObject, Pod } from '../../src/model/k8s-types.js';
import type { PlanEffect, PlanReport, PlanSettledState } from '../../src/model/results.js';
import { isReady, podsOf, targetNode } from './compare.js';

type SettledState = PlanSettledState;
type Effect = PlanEffect;

/** The part of `ds-doctor plan -o json` the comparison reads. */
export type PlanAnswer = Pick<PlanReport, 'kind' | 'change' | 'nodes' | 'rollout'>;

interface PodFacts {
  name: string;
  uid: string;
  hash: string;
  bound: boolean;
  ready: boolean;
  terminating: boolean;
}

export interface PlanNodeTruth {
  node: string;
  before?: PodFacts;
  after?: PodFacts;
  shouldRun: boolean;
  effect: Effect;
  /** The plan states the node's end state is (one, or two for a pre-existing pod of the new revision). */
  states: SettledState[];
  /** The pod the node had before is gone or being deleted. */
  beforeDeleted: boolean;
  /** A wanted node left without a pod: the newest refusal of the DaemonSet's pods since the change (FailedCreate). */
  refused?: string;
}

export interface PlanCheck {
  daemonSet: string;
  node: string;
  source: 'live' | 'file';
  what:
    'missing-row' | 'shouldRun' | 'effect' | 'settled' | 'lose-deleted' | 'blockedAfter' | 'replaced' | 'live-vs-file';
  ok: boolean;
  kubernetes: string;
  dsDoctor: string;
}

const HASH = 'controller-revision-hash';

function facts(p: Pod): PodFacts {
  return {
    name: p.metadata?.name ?? '',
    uid: p.metadata?.uid ?? '',
    hash: p.metadata?.labels?.[HASH] ?? '',
    bound: Boolean(p.spec?.nodeName),
    ready: isReady(p),
    terminating: Boolean(p.metadata?.deletionTimestamp),
  };
}

function terminal(p: Pod): boolean {
  return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
}

/** The node's live daemon pods (not being deleted, not terminal): bound first, then the oldest. */
export function nodePods(ds: DaemonSet | undefined, pods: Pod[], node: string): PodFacts[] {
  if (!ds) return [];
  return podsOf(ds, pods)
    .filter((p) => targetNode(p) === node && !p.metadata?.deletionTimestamp && !terminal(p))
    .sort(
      (a, b) =>
        Number(Boolean(b.spec?.nodeName)) - Number(Boolean(a.spec?.nodeName)) ||
        Date.parse(a.metadata?.creationTimestamp ?? '') - Date.parse(b.metadata?.creationTimestamp ?? '') ||
        (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    )
    .map(facts);
}

/** The end states a node's live pods show (`before`: the pod it had before the change). */
function endStates(live: PodFacts[], before: PodFacts | undefined, hash: string): SettledState[] {
  if (!live.length) return ['none'];
  const out = new Set<SettledState>();
  for (const p of live) {
    const fresh: SettledState = p.bound ? 'new-bound' : 'new-pending';
    if (before && p.uid === before.uid) {
      out.add('old-kept');
      if (p.hash === hash) out.add(fresh);
    } else {
      out.add(fresh);
    }
  }
  return [...out];
}

/** The hash of the DaemonSet's newest ControllerRevision (the revision its pods are made from). */
export function currentHash(ds: DaemonSet | undefined, objects: KubeObject[]): string {
  if (!ds) return '';
  const revs = objects.filter(
    (o) =>
      o.kind === 'ControllerRevision' &&
      o.metadata?.namespace === ds.metadata?.namespace &&
      o.metadata?.ownerReferences?.some((r) => r.controller && r.uid === ds.metadata?.uid),
  ) as (KubeObject & { revision?: number })[];
  const newest = revs.sort((a, b) => (b.revision ?? 0) - (a.revision ?? 0))[0];
  return newest?.metadata?.labels?.[HASH] ?? '';
}

/**
 * What Kubernetes did on every node: `before` is the DaemonSet before the change (undefined when
 * it was created), `after` at the fixed point; `hash` is the new revision's hash.
 */
export function planTruth(
  nodes: string[],
  before: { ds?: DaemonSet; pods: Pod[] },
  after: { ds: DaemonSet; pods: Pod[]; hash: string; refused?: string },
  shouldRun: Set<string>,
): PlanNodeTruth[] {
  return nodes.map((node) => {
    const b = nodePods(before.ds, before.pods, node)[0];
    const live = nodePods(after.ds, after.pods, node);
    const a = live[0];
    const wanted = shouldRun.has(node);
    const effect: Effect = !b
      ? wanted
        ? 'gain'
        : 'none'
      : !wanted
        ? 'lose'
        : b.hash === after.hash
          ? 'keep'
          : 'replace';
    const states = endStates(live, b, after.hash);
    const stillThere = b ? after.pods.some((p) => p.metadata?.uid === b.uid && !p.metadata?.deletionTimestamp) : false;
    const refused = wanted && !a && after.refused ? { refused: after.refused } : {};
    return {
      node,
      ...(b ? { before: b } : {}),
      ...(a ? { after: a } : {}),
      shouldRun: wanted,
      effect,
      states,
      beforeDeleted: Boolean(b) && !stillThere,
      ...refused,
    };
  });
}

function podText(p: PodFacts | undefined): string {
  return p ? `${p.name} (${p.hash || 'no hash'}, ${p.bound ? 'bound' : 'not bound'})` : 'no pod';
}

/** Compares one answer (live or on the dump) with the truth. */
export function comparePlan(
  key: string,
  truths: PlanNodeTruth[],
  answer: PlanAnswer,
  source: 'live' | 'file',
): PlanCheck[] {
  const out: PlanCheck[] = [];
  const add = (node: string, what: PlanCheck['what'], ok: boolean, kubernetes: string, dsDoctor: string) =>
    out.push({ daemonSet: key, node, source, what, ok, kubernetes, dsDoctor });
  const rows = new Map(answer.nodes.map((n) => [n.node, n]));
  for (const t of truths) {
    const row = rows.get(t.node);
    if (!row) {
      add(t.node, 'missing-row', false, `${t.effect}, ends ${t.states.join(' or ')}`, 'no row for the node');
      continue;
    }
    add(
      t.node,
      'shouldRun',
      row.shouldRun === t.shouldRun,
      `the controller ${t.shouldRun ? 'wants' : 'does not want'} a pod (probe)`,
      `shouldRun ${row.shouldRun}${row.reason ? ` (${row.reason})` : ''}`,
    );
    add(t.node, 'effect', row.effect === t.effect, `${t.effect}: before ${podText(t.before)}`, row.effect);
    add(
      t.node,
      'settled',
      t.states.some((s) => row.settled.includes(s)),
      `ends ${t.states.join(' / ')}: ${podText(t.after)}${t.refused ? ` (the API refuses the pod: ${t.refused})` : ''}`,
      `settled ∈ {${row.settled.join(', ')}}`,
    );
    // A pod the rolling update would delete (an untolerated NoSchedule taint) may stay: plan says so with old-kept.
    if (row.effect === 'lose' && !row.settled.includes('old-kept')) {
      add(
        t.node,
        'lose-deleted',
        t.beforeDeleted,
        t.beforeDeleted ? `${t.before?.name} deleted by the controller` : `${podText(t.before)} kept`,
        'lose: the controller deletes the pod',
      );
    }
  }
  const blockedAfter = answer.rollout?.blockedAfter;
  if (blockedAfter !== undefined) {
    // Unavailable old pods are replaced outside the budget: only available ones count.
    const pending = truths
      .filter((t) => t.effect === 'replace' && t.before?.ready && t.before.bound && t.states.includes('new-pending'))
      .map((t) => t.node);
    add(
      '*',
      'blockedAfter',
      pending.length <= blockedAfter,
      `${pending.length} node(s) whose available pod was replaced left Pending${pending.length ? ` (${pending.join(', ')})` : ''}`,
      `blockedAfter ${blockedAfter}`,
    );
  }
  const replaced = truths.filter((t) => t.effect === 'replace').map((t) => t.node);
  add(
    '*',
    'replaced',
    answer.rollout?.replaced === replaced.length > 0,
    replaced.length
      ? `pods of another revision to replace on ${replaced.join(', ')}`
      : 'no pod of another revision to replace (the template hash is unchanged, or no wanted node has a pod)',
    `rollout.replaced ${answer.rollout?.replaced}`,
  );
  return out;
}

/** Live and on the dump must give the same rows (the same state, read two ways). */
export function comparePlanLiveFile(key: string, live: PlanAnswer, file: PlanAnswer): PlanCheck[] {
  const text = (a: PlanAnswer, node: string) => {
    const r = a.nodes.find((n) => n.node === node);
    return r ? `${r.effect} shouldRun=${r.shouldRun} settled=${[...r.settled].sort().join('|')}` : 'no row';
  };
  const nodes = [...new Set([...live.nodes, ...file.nodes].map((n) => n.node))].sort();
  return nodes
    .filter((n) => text(live, n) !== text(file, n))
    .map((n) => ({
      daemonSet: key,
      node: n,
      source: 'live' as const,
      what: 'live-vs-file' as const,
      ok: false,
      kubernetes: `live: ${text(live, n)}`,
      dsDoctor: `file: ${text(file, n)}`,
    }));
}
