/**
 * Rollout mode. After the base scenario has settled (old pods reported Ready, or not, by the
 * simulated kubelets), the DaemonSet's template changes. Then, in rounds: let the controller and
 * scheduler settle, dump, ask `ds-doctor rollout` (live and on the dump), and let the kubelets
 * report the pods created since; stop when they have nothing left to report (a fixed point:
 * nothing will ever change again). What the controller did between two rounds — which pods it
 * deleted and created — is compared with ds-doctor's verdict and budget in each round:
 *
 * - verdict: at the fixed point `Complete` when every node that should run a pod has an updated,
 *   Ready one (OnDelete: an updated one, Ready or not), else `Stuck` (`Manual` for OnDelete with
 *   old pods); in an earlier round
 *   `Progressing` whenever the controller went on to delete or create a pod after the kubelets
 *   reported (if it did not, a new pod that is still starting cannot be judged, so either
 *   `Progressing` or `Stuck` is accepted);
 * - budget in use: in every settled round the controller has done all it can, so when it left an
 *   available old pod in place (a candidate) ds-doctor must count the budget as exhausted, and it
 *   must not list an unavailable old pod the controller would have replaced at once;
 * - maxUnavailable / maxSurge: the first wave after the change deletes (or surges) exactly
 *   min(candidates, budget) pods when every old pod was available, which pins the resolved
 *   budget when fewer than all candidates went;
 * - desired: the nodes where the controller wants a pod (probe) against ds-doctor's `desired`.
 */
import type { DaemonSet, KubeEvent, Pod } from '../../src/model/k8s-types.js';
import type { RolloutDiagnosis } from '../../src/model/results.js';
import { paths } from './api.js';
import { applyDaemonSets, applyWorld } from './apply.js';
import { Kubelets, scenarioScope, type Scope, type World } from './cluster.js';
import { isReady, podsOf, targetNode } from './compare.js';
import {
  askDoctor,
  dumpKind,
  judgeNodes,
  takeDump,
  type DoctorAnswers,
  type Dump,
  type NodeJudgement,
  type RunContext,
} from './judge.js';
import { checkNodeHealth, HarnessError, intendedReady, planOf, settleOrThrow } from './placement-run.js';
import { probeNamespace, type Scenario } from './scenario.js';

export interface RolloutCheck {
  daemonSet: string;
  round: string;
  source: 'live' | 'file';
  what:
    | 'verdict'
    | 'budget-exhausted'
    | 'old-unavailable-kept'
    | 'refused-create-shown'
    | 'maxUnavailable'
    | 'maxSurge'
    | 'desired';
  ok: boolean;
  kubernetes: string;
  dsDoctor: string;
}

interface PodView {
  uid: string;
  name: string;
  created: number;
  node: string;
  bound: boolean;
  ready: boolean;
  updated: boolean;
  terminating: boolean;
}

export interface RoundRecord {
  round: number;
  pods: PodView[];
  /** Pods the kubelets reported after this round. */
  reported: number;
  /** The API refused pods the controller created since the template change (FailedCreate events). */
  refused: string[];
  deleted: string[];
  created: string[];
}

function views(ds: DaemonSet, pods: Pod[], newImage: string): PodView[] {
  return podsOf(ds, pods)
    .filter(
      (p) => !((p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') && p.metadata?.deletionTimestamp),
    )
    .map((p) => ({
      uid: p.metadata?.uid ?? '',
      name: p.metadata?.name ?? '',
      created: Date.parse(p.metadata?.creationTimestamp ?? ''),
      node: targetNode(p) ?? '',
      bound: Boolean(p.spec?.nodeName),
      ready: isReady(p),
      updated: p.spec?.containers?.[0]?.image === newImage,
      terminating: Boolean(p.metadata?.deletionTimestamp),
    }))
    .sort((a, b) => a.node.localeCompare(b.node) || a.name.localeCompare(b.name));
}

function byNode(pods: PodView[]): Map<string, PodView[]> {
  const m = new Map<string, PodView[]>();
  for (const p of pods.filter((x) => !x.terminating)) m.set(p.node, [...(m.get(p.node) ?? []), p]);
  return m;
}

/**
 * `kubectl rollout status` would say done: on every node that should run a pod, the pod the
 * controller's status counts — the oldest, terminating ones included, bound ones first — is
 * updated and Ready (updatedNumberScheduled and numberAvailable reach desiredNumberScheduled).
 */
function complete(pods: PodView[], shouldRun: Set<string>): boolean {
  return [...shouldRun].every((n) => {
    const counted = pods
      .filter((p) => p.node === n)
      .sort((a, b) => Number(b.bound) - Number(a.bound) || a.created - b.created || a.name.localeCompare(b.name))[0];
    return counted !== undefined && counted.updated && counted.ready && counted.bound;
  });
}

const SURGE_STATES = new Set(['new pod surging next to the old one', 'more than one pod of a revision']);

export interface RolloutOutcome {
  judgement: NodeJudgement;
  checks: RolloutCheck[];
  rounds: RoundRecord[];
  answers: DoctorAnswers<RolloutDiagnosis>[];
  dumpText: string;
}

async function settleRound(world: World, scope: Scope, what: string): Promise<void> {
  await settleOrThrow(world, scope, what, { waitFailedCreate: true });
}

export async function runRollout(ctx: RunContext, s: Scenario): Promise<RolloutOutcome> {
  const world = ctx.world;
  const plan = s.rollout;
  if (!plan) throw new Error(`${s.id} has no rollout`);
  const dsPlan = s.daemonSets[plan.daemonSet]!;
  const ns = dsPlan.object.metadata!.namespace!;
  const name = dsPlan.object.metadata!.name!;
  const key = `${ns}/${name}`;
  const newImage = plan.template.spec?.containers?.[0]?.image ?? '';
  const scope = scenarioScope(s);
  const kubelets = new Kubelets(world);
  const strategy = dsPlan.object.spec?.updateStrategy;
  const surge = Boolean(strategy?.rollingUpdate?.maxSurge);
  const onDelete = strategy?.type === 'OnDelete';

  await applyWorld(world, s);
  await applyDaemonSets(world, s);
  await settleRound(world, scope, 'after creating the DaemonSet');
  for (let i = 0; i < 3 && (await kubelets.step(scope, (p) => planOf(s, p))); i++)
    await settleRound(world, scope, 'after the kubelets reported');
  await checkNodeHealth(world, scope, intendedReady(s, 0));
  const pre = await world.observe(scope);
  const preDs = pre.daemonSets.find((d) => d.metadata?.name === name && d.metadata?.namespace === ns);
  if (!preDs) throw new HarnessError(`daemonset ${key} not found`);
  const prePods = views(preDs, pre.pods, newImage);

  // The template change. Event times have whole seconds.
  const changedAt = Math.floor(Date.now() / 1000) * 1000;
  await world.api.patch(
    paths.daemonSet(ns, name),
    [{ op: 'replace', path: '/spec/template', value: plan.template }],
    'json',
  );

  const rounds: RoundRecord[] = [];
  const answers: DoctorAnswers<RolloutDiagnosis>[] = [];
  let dump: Dump | undefined;
  let fixedPointDs: DaemonSet | undefined;
  for (let round = 0; ; round++) {
    if (round > 20) throw new HarnessError('the rollout did not reach a fixed point in 20 rounds');
    await settleRound(world, scope, `rollout round ${round}`);
    dump = await takeDump(ctx, `${s.id}-r${round}`);
    const ds = dumpKind<DaemonSet>(dump, 'DaemonSet', [ns]).find((d) => d.metadata?.name === name)!;
    answers.push(await askDoctor<RolloutDiagnosis>(ctx, 'rollout', ds, dump));
    const pods = views(ds, dumpKind<Pod>(dump, 'Pod', [ns]), newImage);
    const refused = dumpKind<KubeEvent>(dump, 'Event', [ns])
      .filter(
        (e) =>
          e.reason === 'FailedCreate' &&
          e.involvedObject?.uid === ds.metadata?.uid &&
          Date.parse(e.lastTimestamp ?? e.eventTime ?? '') >= changedAt,
      )
      .map((e) => (e.message ?? '').trim());
    const reported = await kubelets.step(scope, (p) => planOf(s, p));
    rounds.push({ round, pods, reported, refused, deleted: [], created: [] });
    if (!reported) {
      fixedPointDs = ds;
      break;
    }
  }
  // At the fixed point nothing will change however long one waits: ask again with every
  // transient state already past its time.
  const settled = await askDoctor<RolloutDiagnosis>(ctx, 'rollout', fixedPointDs, dump, ['--stuck-after', '1s']);
  // Fill in what the controller did between rounds.
  const before = [prePods, ...rounds.map((r) => r.pods)];
  // A pod is deleted in the round where it is gone or has started terminating.
  const liveUids = (pods: PodView[]) => new Set(pods.filter((p) => !p.terminating).map((p) => p.uid));
  rounds.forEach((r, i) => {
    const prev = new Set(before[i]!.map((p) => p.uid));
    const now = liveUids(r.pods);
    r.deleted = before[i]!.filter((p) => !p.terminating && !now.has(p.uid)).map(
      (p) => `${p.name}@${p.node}${p.updated ? ' (new)' : ' (old)'}`,
    );
    r.created = r.pods.filter((p) => !prev.has(p.uid)).map((p) => `${p.name}@${p.node}`);
  });

  // The node verdicts at the fixed point, with the scheduler's view of pending pods refreshed.
  if (await world.refreshPending(scope)) {
    await settleRound(world, scope, 'after re-creating the pending pods');
    dump = await takeDump(ctx, `${s.id}-final`);
  }
  await checkNodeHealth(world, scope, intendedReady(s, 0));
  const judgement = await judgeNodes(ctx, scope, dump, [ns], probeNamespace(s));
  await checkNodeHealth(world, scope, intendedReady(s, 0));
  const shouldRun = new Set(judgement.probes[key]?.full ?? []);

  const checks: RolloutCheck[] = [];
  const add = (c: Omit<RolloutCheck, 'daemonSet'>) => checks.push({ daemonSet: key, ...c });
  const last = rounds.length - 1;
  const completedOnItsOwn = complete(rounds[last]!.pods, shouldRun);
  rounds.forEach((r, i) => {
    const label = i === last ? `round ${i} (fixed point)` : `round ${i}`;
    const done = complete(r.pods, shouldRun);
    const nodes = byNode(r.pods);
    const outdated = [...shouldRun].some((n) => (nodes.get(n) ?? []).some((p) => !p.updated));
    // A node that should run a pod has none at all (a terminating one stops the controller from
    // creating another) and the API refused creates since the change: manage() returns that
    // error before rollingUpdate() runs, so nothing is replaced anywhere. ds-doctor must name it.
    const refusedMissing =
      !onDelete && r.refused.length > 0 && [...shouldRun].some((n) => !r.pods.some((p) => p.node === n));
    // Available old pods alone on their node: what the controller would replace next.
    const candidates = [...nodes.entries()]
      .filter(
        ([n, list]) =>
          list.length === 1 && !list[0]!.updated && list[0]!.ready && list[0]!.bound && (!surge || shouldRun.has(n)),
      )
      .map(([n]) => n);
    const terminating = new Set(r.pods.filter((p) => p.terminating).map((p) => p.name));
    for (const source of ['live', 'file'] as const) {
      const a = answers[i]![source];
      // Verdict.
      let expected: string[];
      let why: string;
      if (onDelete && outdated) {
        expected = ['Manual'];
        why = 'OnDelete with old pods: nothing replaces them';
      } else if (done || (onDelete && [...shouldRun].every((n) => (nodes.get(n) ?? []).some((p) => p.updated)))) {
        expected = ['Complete'];
        why = done
          ? 'every node that should run a pod has an updated, Ready pod'
          : 'OnDelete, every node that should run a pod has an updated pod: OnDelete has no budget and nothing is left to roll';
      } else if (i === last) {
        // Young pods in states that may still resolve (a readiness probe failing) are ds-doctor's
        // to call Progressing until --stuck-after; the settled answer below is held to Stuck.
        expected = ['Stuck', 'Progressing'];
        why = 'fixed point, not complete';
        const st = settled[source];
        add({
          round: `${label}, --stuck-after 1s`,
          source,
          what: 'verdict',
          ok: st.verdict === 'Stuck',
          kubernetes:
            'Stuck (fixed point: the kubelets have nothing left to report and the controller does nothing more)',
          dsDoctor: st.verdict,
        });
      } else if (completedOnItsOwn) {
        expected = ['Progressing'];
        why = `the rollout went on to complete without anyone acting (next: deleted ${rounds[i + 1]!.deleted.join(', ') || 'none'}; created ${rounds[i + 1]!.created.join(', ') || 'none'})`;
      } else {
        expected = ['Progressing', 'Stuck'];
        why = 'the rollout ended stuck; whether that shows yet (new pods still starting) is not decided here';
      }
      add({
        round: label,
        source,
        what: 'verdict',
        ok: expected.includes(a.verdict),
        kubernetes: `${expected.join(' or ')} (${why})`,
        dsDoctor: a.verdict,
      });

      if (refusedMissing && !done) {
        const shown = [...a.reasons.map((x) => x.code), ...a.blockers.map((x) => x.code)].includes('FailedCreate');
        add({
          round: label,
          source,
          what: 'refused-create-shown',
          ok: shown,
          kubernetes: `the API refuses the pod of a node that has none (${r.refused[0]}): the rolling update does not run`,
          dsDoctor: `reasons ${a.reasons.map((x) => x.code).join(', ') || 'none'}; blockers ${a.blockers.map((x) => `${x.node}: ${x.code}`).join(', ') || 'none'}`,
        });
      }
      // Budget: the controller is settled, so it deletes nothing more — unless it tried to create
      // pods (surging: the new pods first) and the API refused them.
      if (!onDelete && !(surge && r.refused.length) && !refusedMissing) {
        const used = surge
          ? a.budgetInUse.filter((u) => SURGE_STATES.has(u.state)).length
          : a.budgetInUse.filter((u) => !SURGE_STATES.has(u.state)).length;
        const limit = surge ? a.maxSurge : a.maxUnavailable;
        if (candidates.length) {
          add({
            round: label,
            source,
            what: 'budget-exhausted',
            ok: used >= limit,
            kubernetes: `the controller left ${candidates.length} available old pod(s) (${candidates.join(', ')}) in place: its ${surge ? 'surge' : 'unavailability'} budget is used up`,
            dsDoctor: `${used} of ${surge ? 'maxSurge' : 'maxUnavailable'} ${limit} in use (${a.budgetInUse.map((u) => `${u.node}: ${u.state}`).join('; ') || 'none'})`,
          });
        }
        const keptOld = a.budgetInUse.filter((u) => u.state === 'old pod unavailable' && !terminating.has(u.pod));
        if (keptOld.length) {
          add({
            round: label,
            source,
            what: 'old-unavailable-kept',
            ok: false,
            kubernetes: `the controller keeps ${keptOld.map((u) => `${u.pod}@${u.node}`).join(', ')} (it would replace an unavailable old pod at once, so it must not count as one)`,
            dsDoctor: `listed as "old pod unavailable" (${keptOld.map((u) => u.code).join(', ')})`,
          });
        }
      }
      add({
        round: label,
        source,
        what: 'desired',
        ok: a.desired === shouldRun.size,
        kubernetes: `${shouldRun.size} node(s) where the controller wants a pod`,
        dsDoctor: `desired ${a.desired}`,
      });
    }
  });

  // The first wave pins the resolved budget when every old pod was available.
  const [firstRound] = rounds;
  if (!onDelete && firstRound) {
    const preNodes = byNode(prePods);
    const clean =
      prePods.every((p) => p.ready && p.bound && !p.terminating) &&
      [...shouldRun].every((n) => (preNodes.get(n)?.length ?? 0) === 1) &&
      [...preNodes.keys()].every((n) => shouldRun.has(n));
    if (clean && prePods.length) {
      const c0 = prePods.length;
      const wave = surge
        ? [...byNode(firstRound.pods).values()].filter(
            (list) => list.some((p) => p.updated) && list.some((p) => !p.updated),
          ).length
        : prePods.filter((p) => !liveUids(firstRound.pods).has(p.uid)).length;
      for (const source of ['live', 'file'] as const) {
        const a = answers[0]![source];
        const resolved = surge ? a.maxSurge : a.maxUnavailable;
        const ok = wave < c0 ? resolved === wave : resolved >= wave;
        add({
          round: 'round 0',
          source,
          what: surge ? 'maxSurge' : 'maxUnavailable',
          ok,
          kubernetes: `${wave} of ${c0} available old pod(s) ${surge ? 'got a surge pod' : 'deleted'} in the first wave: ${surge ? 'maxSurge' : 'maxUnavailable'} ${wave < c0 ? `= ${wave}` : `≥ ${wave}`}`,
          dsDoctor: `${surge ? 'maxSurge' : 'maxUnavailable'} ${resolved}`,
        });
      }
    }
  }
  return { judgement, checks, rounds, answers, dumpText: dump.text };
}
