/**
 * Fix mode: every printed fix is proved on the real control plane. A generated stuck or broken
 * scenario (fix-generate.ts) is brought up and settled; ds-doctor is asked live (`why`, `rollout`
 * and `scan`, -o json, `--stuck-after 1s`: the state is a fixed point) and every fix it prints is
 * collected — root causes first, then the rollout's reasons, the nodes' reasons, the next steps.
 * Each fix's mechanical part is read strictly (fix-extract.ts). One at a time, in that order:
 *
 * - a fix with no mechanical command is advice (not applied);
 * - one whose problem an earlier fix already removed is `resolved earlier` (not applied);
 * - otherwise its command (one of its alternatives, chosen by the scenario) is run with kubectl
 *   against the API server, or its field edit is made as a JSON patch of the DaemonSet; the
 *   controllers settle and the simulated kubelets play the pods by their image, until nothing
 *   changes; ds-doctor is asked again. The fix is proved when its problem is gone (its code is no
 *   longer reported at its severity or above for its DaemonSet and node; a next step's nodes are
 *   Healthy and updated; a rollout that was not Complete is Complete, when every node answers)
 *   and no error-level problem appeared that was not there before (the fix did not predict one).
 *   Later fixes that print the same command are judged by the same application.
 */
import type { DaemonSet, Pod } from '../../src/model/k8s-types.js';
import type {
  DaemonSetDiagnosis,
  DaemonSetNodes,
  RolloutDiagnosis,
  RootCause,
  ScanReport,
} from '../../src/model/results.js';
import { ApiError, paths } from './api.js';
import { applyDaemonSets, applyWorld, removeScenario } from './apply.js';
import { Kubelets, scenarioScope, sleep, type Scope } from './cluster.js';
import { doctorJson, dsDoctor } from './doctor.js';
import { commandArgs, extractFix, pointerOf, type FixAction } from './fix-extract.js';
import type { FixScenario } from './fix-generate.js';
import type { RunContext } from './judge.js';
import { HarnessError, settleOrThrow } from './placement-run.js';
import type { KubeletPlan } from './scenario.js';

export type FixSource = 'cause' | 'rollout' | 'node' | 'step';
export type FixResult = 'proved' | 'failed' | 'advice' | 'resolved-earlier';

/** One printed fix and what became of it. */
export interface FixRecord {
  source: FixSource;
  /** The reason or cause code (`NextStep` for a next step). */
  code: string;
  severity: string;
  daemonSet: string;
  node?: string;
  fix: string;
  result: FixResult;
  /** The action applied (proved or failed), or why not. */
  applied?: string;
  detail: string;
}

export interface FixOutcome {
  records: FixRecord[];
  rounds: number;
}

const RANK: Record<string, number> = { error: 3, warning: 2, info: 1 };

/** A problem ds-doctor reports: where, which code, how severe, and the fix it prints. */
interface Problem {
  source: FixSource;
  code: string;
  severity: string;
  daemonSet: string;
  node?: string;
  fix: string;
  /** For next steps: the nodes it names. */
  nodes?: string[];
}

/** What ds-doctor says about the scenario's DaemonSets at one moment. */
interface Observation {
  problems: Problem[];
  rollouts: Map<string, RolloutDiagnosis>;
  /** DaemonSet → node → verdict and whether its pod is updated. */
  rows: Map<string, Map<string, { verdict: string; updated: boolean }>>;
}

function causeProblems(causes: RootCause[] | undefined, fallback: string): Problem[] {
  return (causes ?? []).map((c) => ({
    source: 'cause' as const,
    code: c.code,
    severity: c.severity,
    daemonSet:
      c.cause.kind === 'DaemonSet'
        ? `${c.cause.namespace}/${c.cause.name}`
        : c.affects[0]
          ? `${c.affects[0].namespace}/${c.affects[0].name}`
          : fallback,
    fix: c.fix,
  }));
}

/** Node names a next step is about: "node n1 (pod p): …", "nodes n1, n2: …", "canary: … # node n1; …". */
export function stepNodes(step: string): string[] {
  const canary = /# node ([a-z0-9.-]+)/.exec(step);
  if (canary) return [canary[1]!];
  const head = /^nodes? ([a-z0-9.-]+(?:, [a-z0-9.-]+)*)(?: \(|:)/.exec(step);
  return head ? head[1]!.split(', ') : [];
}

async function observe(ctx: RunContext, daemonSets: string[]): Promise<Observation> {
  const live = ['-o', 'json', '--stuck-after', '1s', '--kubeconfig', ctx.cp.kubeconfig];
  const problems: Problem[] = [];
  const rollouts = new Map<string, RolloutDiagnosis>();
  const rows = new Map<string, Map<string, { verdict: string; updated: boolean }>>();
  for (const key of daemonSets) {
    const ns = key.split('/')[0]!;
    const why = doctorJson<DaemonSetDiagnosis>(await dsDoctor(['why', key, ...live]));
    if (why.kind !== 'DaemonSetDiagnosis')
      throw new HarnessError(`ds-doctor why ${key} answered kind ${String((why as { kind: unknown }).kind)}`);
    const rollout = doctorJson<RolloutDiagnosis>(await dsDoctor(['rollout', key, ...live]));
    if (rollout.kind !== 'RolloutDiagnosis')
      throw new HarnessError(`ds-doctor rollout ${key} answered kind ${String((rollout as { kind: unknown }).kind)}`);
    const scan = doctorJson<ScanReport>(await dsDoctor(['scan', '-n', ns, ...live]));
    // Every node's row (why lists the nodes with a problem; nodes lists them all).
    const all = doctorJson<DaemonSetNodes>(
      await dsDoctor(['nodes', key, '-o', 'json', '--kubeconfig', ctx.cp.kubeconfig]),
    );
    if (all.kind !== 'DaemonSetNodes')
      throw new HarnessError(`ds-doctor nodes ${key} answered kind ${String((all as { kind: unknown }).kind)}`);
    rollouts.set(key, rollout);
    rows.set(key, new Map(all.nodes.map((n) => [n.node, { verdict: n.verdict, updated: n.pod?.updated ?? false }])));
    problems.push(
      ...causeProblems(why.causes, key),
      ...causeProblems(rollout.causes, key),
      ...causeProblems(scan.causes, key).filter((p) => p.daemonSet === key),
    );
    problems.push(
      ...rollout.reasons.map((r) => ({
        source: 'rollout' as const,
        code: r.code,
        severity: r.severity,
        daemonSet: key,
        fix: r.fix,
      })),
    );
    for (const n of [...why.nodes, ...all.nodes])
      problems.push(
        ...n.reasons.map((r) => ({
          source: 'node' as const,
          code: r.code,
          severity: r.severity,
          daemonSet: key,
          node: n.node,
          fix: r.fix,
        })),
      );
    problems.push(
      ...rollout.nextSteps.map((s) => ({
        source: 'step' as const,
        code: 'NextStep',
        severity: 'info',
        daemonSet: key,
        fix: s,
        nodes: stepNodes(s),
      })),
    );
  }
  // The same cause from why, rollout and scan is one fix.
  const seen = new Set<string>();
  return {
    problems: problems.filter((p) => {
      const k = `${p.source}|${p.code}|${p.daemonSet}|${p.node ?? ''}|${p.fix}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    }),
    rollouts,
    rows,
  };
}

/** Whether the problem `p` is still reported in `o`; the words for what is still there. */
function stillThere(p: Problem, o: Observation): string | undefined {
  if (p.source === 'step') {
    const rows = o.rows.get(p.daemonSet);
    if (p.nodes?.length) {
      // A node that is gone (its Node deleted) has nothing left to fix.
      const bad = p.nodes.filter((n) => rows?.has(n) && !(rows.get(n)?.verdict === 'Healthy' && rows.get(n)?.updated));
      return bad.length
        ? `node(s) ${bad.join(', ')} not Healthy with an updated pod (${bad.map((n) => rows?.get(n)?.verdict).join(', ')})`
        : undefined;
    }
    const v = o.rollouts.get(p.daemonSet)?.verdict;
    return v === 'Complete' ? undefined : `rollout ${v}`;
  }
  const same = o.problems.find(
    (q) =>
      q.source === p.source &&
      q.code === p.code &&
      q.daemonSet === p.daemonSet &&
      q.node === p.node &&
      (RANK[q.severity] ?? 0) >= (RANK[p.severity] ?? 0),
  );
  return same ? `${same.code} (${same.severity}) still reported${same.node ? ` on ${same.node}` : ''}` : undefined;
}

function errorKeys(o: Observation): Map<string, Problem> {
  const out = new Map<string, Problem>();
  for (const p of o.problems)
    if (p.severity === 'error' && p.source !== 'step')
      out.set(`${p.source} ${p.daemonSet}${p.node ? ` on ${p.node}` : ''}: ${p.code}`, p);
  return out;
}

function actionKey(a: FixAction[]): string {
  return a.map((x) => x.text).join(' && ');
}

/** Runs one action against the API server. Returns an error text when it does not apply. */
async function apply(ctx: RunContext, a: FixAction, daemonSet: string): Promise<string | undefined> {
  if (a.kind === 'kubectl') {
    const r = await ctx.cp.kubectl(commandArgs(a), { timeoutMs: 30_000 });
    return r.code === 0 ? undefined : `kubectl exited ${r.code}: ${r.stderr.trim()}`;
  }
  const [ns, name] = daemonSet.split('/') as [string, string];
  const ds = await ctx.world.api.get<DaemonSet>(paths.daemonSet(ns, name));
  const ptr = pointerOf(a.path);
  let cur: unknown = ds;
  for (const part of a.path.split('.'))
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
  const ops =
    a.op === 'add-to'
      ? Array.isArray(cur)
        ? [{ op: 'add', path: `${ptr}/-`, value: a.value }]
        : [{ op: 'add', path: ptr, value: [a.value] }]
      : [{ op: 'add', path: ptr, value: a.value }];
  try {
    await ctx.world.api.patch(paths.daemonSet(ns, name), ops, 'json');
    return undefined;
  } catch (e) {
    return e instanceof ApiError ? `the API refused the edit: HTTP ${e.status}: ${e.body.slice(0, 300)}` : String(e);
  }
}

/** The kubelet plan of a pod: by its first container's image. */
function planByImage(fs: FixScenario): (p: Pod) => KubeletPlan | undefined {
  return (p) => {
    if (p.metadata?.ownerReferences?.find((r) => r.controller)?.kind !== 'DaemonSet') return undefined;
    return { default: fs.images[p.spec?.containers?.[0]?.image ?? ''] ?? 'ready', nodes: {} };
  };
}

/** Settles and lets the kubelets report until they have nothing left (a fixed point). */
async function settleRounds(
  ctx: RunContext,
  fs: FixScenario,
  scope: Scope,
  kubelets: Kubelets,
  what: string,
  expectUnknown: string[] = [],
): Promise<number> {
  const planFor = planByImage(fs);
  for (let round = 0; ; round++) {
    if (round > 25) throw new HarnessError(`${what}: no fixed point in 25 rounds`);
    await settleOrThrow(ctx.world, scope, `${what}, round ${round}`, {
      waitFailedCreate: true,
      ...(expectUnknown.length ? { expectUnknown, timeoutMs: 90_000 } : {}),
    });
    if (!(await kubelets.step(scope, planFor))) return round;
  }
}

/** Waits until no pod of the scope is bound to a node that no longer exists (the pod GC's work). */
async function waitOrphansCollected(ctx: RunContext, scope: Scope): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const nodes = new Set(
      (await ctx.world.api.list<{ metadata?: { name?: string } }>(paths.nodes)).map((n) => n.metadata?.name),
    );
    const pods = (
      await Promise.all(scope.namespaces.map((ns) => ctx.world.api.list<Pod>(paths.pods(ns)).catch(() => [] as Pod[])))
    ).flat();
    if (!pods.some((p) => p.spec?.nodeName && !nodes.has(p.spec.nodeName))) return;
    if (Date.now() - t0 > 150_000) throw new HarnessError('pods of deleted nodes were not garbage-collected in 150s');
    await sleep(1000);
  }
}

/** Which printed problem a fix is for. */
export interface ProblemId {
  source: FixSource;
  code: string;
  daemonSet: string;
  node?: string;
}

function sameProblem(a: ProblemId, b: ProblemId): boolean {
  return a.source === b.source && a.code === b.code && a.daemonSet === b.daemonSet && a.node === b.node;
}

/**
 * Runs a fix scenario and judges its printed fixes in order. With `target`, only the fixes whose
 * command is the one `target`'s fix prints are judged (the scenario again, for a fix whose problem
 * an earlier fix removed the first time).
 */
/**
 * Waits until the grace period of every pod deleted on a node whose kubelet is gone has passed
 * (nothing confirms those deletions; until then ds-doctor rightly says to wait), so that what is
 * asked is the state nothing will change.
 */
async function waitGracePeriods(ctx: RunContext, scope: Scope): Promise<void> {
  const pods = (
    await Promise.all(scope.namespaces.map((ns) => ctx.world.api.list<Pod>(paths.pods(ns)).catch(() => [] as Pod[])))
  ).flat();
  const ends = pods
    .filter((p) => p.metadata?.deletionTimestamp && p.spec?.nodeName && !ctx.world.heartbeats.isAlive(p.spec.nodeName))
    .map((p) => Date.parse(p.metadata!.deletionTimestamp!));
  const wait = Math.max(0, ...ends) + 1500 - Date.now();
  if (wait > 0) await sleep(Math.min(wait, 60_000));
}

export async function runFixScenario(ctx: RunContext, fs: FixScenario, target?: ProblemId): Promise<FixOutcome> {
  const s = fs.scenario;
  const world = ctx.world;
  const scope = scenarioScope(s);
  const kubelets = new Kubelets(world);
  const dsKeys = s.daemonSets.map((d) => `${d.object.metadata!.namespace}/${d.object.metadata!.name}`);
  let rounds = 0;

  await applyWorld(world, s);
  await applyDaemonSets(world, s);
  rounds += await settleRounds(ctx, fs, scope, kubelets, 'after creating the DaemonSets');
  if (fs.later.length) {
    for (const c of fs.later) await world.applyChange(c);
    const stale = fs.later.filter((c) => c.kind === 'stop-heartbeat').map((c) => c.node);
    rounds += await settleRounds(ctx, fs, scope, kubelets, 'after the node changes', stale);
  }
  if (fs.rollout) {
    const d = s.daemonSets[fs.rollout.daemonSet]!.object;
    await world.api.patch(
      paths.daemonSet(d.metadata!.namespace!, d.metadata!.name!),
      [{ op: 'replace', path: '/spec/template', value: fs.rollout.template }],
      'json',
    );
    rounds += await settleRounds(ctx, fs, scope, kubelets, 'after the template change');
  }
  if (await world.refreshPending(scope))
    rounds += await settleRounds(ctx, fs, scope, kubelets, 'after re-creating the pending pods');

  await waitGracePeriods(ctx, scope);
  let now = await observe(ctx, dsKeys);
  const order: FixSource[] = ['cause', 'rollout', 'node', 'step'];
  const printed = [...now.problems].sort((a, b) => order.indexOf(a.source) - order.indexOf(b.source));
  const records: FixRecord[] = [];
  /** Actions applied so far → the problems they were applied for. */
  const applied = new Map<string, string>();
  const chosenKey = (p: Problem): string | undefined => {
    const x = extractFix(p.fix);
    const chosen = x.alternatives[fs.pick % Math.max(1, x.alternatives.length)];
    return chosen && !x.unreadable.length ? actionKey([chosen, ...x.followUps]) : undefined;
  };
  const targetProblem = target ? printed.find((p) => sameProblem(p, target)) : undefined;
  const targetKey = targetProblem ? chosenKey(targetProblem) : undefined;
  if (target && !targetKey) return { records: [], rounds };
  const dead = new Set(fs.later.filter((c) => c.kind === 'stop-heartbeat').map((c) => c.node));
  const deleted = new Set<string>();
  for (const p of printed) {
    if (targetKey && chosenKey(p) !== targetKey) continue;
    const base = {
      source: p.source,
      code: p.code,
      severity: p.severity,
      daemonSet: p.daemonSet,
      ...(p.node ? { node: p.node } : {}),
      fix: p.fix,
    };
    const x = extractFix(p.fix);
    if (x.unreadable.length) {
      records.push({
        ...base,
        result: 'failed',
        detail: `the text reads like a command but is not one: ${x.unreadable.map((u) => `${u.text} (${u.why})`).join('; ')}`,
      });
      continue;
    }
    if (!x.alternatives.length) {
      records.push({
        ...base,
        result: 'advice',
        detail: x.templates.length ? `a command to fill in: ${x.templates.join('; ')}` : 'no command to run',
      });
      continue;
    }
    const chosen = x.alternatives[fs.pick % x.alternatives.length]!;
    const actions = [chosen, ...x.followUps];
    const key = actionKey(actions);
    const before = stillThere(p, now);
    const prior = applied.get(key);
    if (!before) {
      records.push(
        prior === 'proved'
          ? {
              ...base,
              result: 'proved',
              applied: key,
              detail: 'the same command, applied for an earlier fix, removed this problem too',
            }
          : {
              ...base,
              result: 'resolved-earlier',
              applied: key,
              detail: 'no longer reported when its turn came (an earlier fix removed it)',
            },
      );
      continue;
    }
    if (!prior) {
      const beforeErrors = errorKeys(now);
      const wasComplete = now.rollouts.get(p.daemonSet)?.verdict === 'Complete';
      let failure: string | undefined;
      for (const a of actions) {
        failure = await apply(ctx, a, p.daemonSet);
        if (failure) break;
      }
      if (failure) {
        records.push({ ...base, result: 'failed', applied: key, detail: `does not apply: ${failure}` });
        applied.set(key, `failed: ${failure}`);
        continue;
      }
      for (const a of actions)
        if (a.kind === 'kubectl' && a.args[0] === 'delete' && /^(node|nodes|no)$/.test(a.args[1] ?? ''))
          for (const n of a.args.slice(2)) deleted.add(n);
      if (deleted.size) await waitOrphansCollected(ctx, scope);
      rounds += await settleRounds(
        ctx,
        fs,
        { ...scope, nodes: scope.nodes.filter((n) => !deleted.has(n)) },
        kubelets,
        `after the fix ${key}`,
      );
      await waitGracePeriods(ctx, scope);
      now = await observe(ctx, dsKeys);
      const problems: string[] = [];
      const left = stillThere(p, now);
      if (left) problems.push(`its problem is still there: ${left}`);
      const everyNodeAnswers = [...dead].every((n) => deleted.has(n));
      const rollout = now.rollouts.get(p.daemonSet);
      if (
        p.source !== 'node' &&
        !wasComplete &&
        everyNodeAnswers &&
        rollout &&
        rollout.strategy === 'RollingUpdate' &&
        rollout.verdict !== 'Complete'
      ) {
        problems.push(
          `the rollout is ${rollout.verdict}, not Complete (${rollout.reasons.map((r) => r.code).join(', ') || 'no reason'})`,
        );
      }
      const fresh = [...errorKeys(now).entries()]
        .filter(([k, q]) => !beforeErrors.has(k) && !p.fix.includes(q.code))
        .map(([k]) => k);
      if (fresh.length) problems.push(`new error-level problems it did not predict: ${fresh.join('; ')}`);
      applied.set(key, problems.length ? `failed: ${problems.join('; ')}` : 'proved');
      records.push({
        ...base,
        result: problems.length ? 'failed' : 'proved',
        applied: key,
        detail: problems.join('; ') || 'its problem is gone, nothing new broke',
      });
      continue;
    }
    // The same command was applied for an earlier fix and it is still there.
    records.push({
      ...base,
      result: 'failed',
      applied: key,
      detail: `the same command was applied for an earlier fix (${prior}), and this problem is still there: ${before}`,
    });
  }
  return { records, rounds };
}

/** Removes the scenario's objects (nodes a fix deleted are already gone). */
export async function removeFixScenario(ctx: RunContext, fs: FixScenario): Promise<void> {
  await removeScenario(ctx.world, fs.scenario);
}
