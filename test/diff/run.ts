/**
 * The differential test runner: `npm run test:diff -- --seed N --count K`.
 *
 * Starts one real control plane (etcd, kube-apiserver with TaintNodesByCondition, and
 * kube-controller-manager with the DaemonSet, node lifecycle, resource quota, garbage collector
 * and namespace controllers, kube-scheduler), runs generated scenarios one after the other, and
 * compares ds-doctor's verdicts (live and on a dump) with what Kubernetes did. Prints the
 * agreement figure and `N passed, M failed`; exits 1 on any disagreement or harness error.
 * Every disagreement is written to test/diff/out/<scenario>/ as a reproduction.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { ensureBinaries, startControlPlane, type ControlPlane } from '../cluster/harness.js';
import { Api, paths } from './api.js';
import { removeScenario } from './apply.js';
import { Heartbeats, World } from './cluster.js';
import type { Disagreement } from './compare.js';
import { runFixMode } from './fix-mode.js';
import { generateScenario } from './generate.js';
import type { RunContext } from './judge.js';
import { HarnessError, runPlacement } from './placement-run.js';
import type { PlanCheck } from './plan-compare.js';
import { generatePlanScenario } from './plan-generate.js';
import { runPlan, withCreated } from './plan-run.js';
import { reduceScenario, renameScenario, scenarioYaml } from './repro.js';
import { runRollout, type RolloutCheck } from './rollout-run.js';
import { probeNamespace, type Scenario } from './scenario.js';
import { selfCheck } from './selfcheck.js';

type Kind = 'placement' | 'rollout' | 'plan' | 'fix';

/** The fixed CI set (test/diff/README.md gives its run time). */
const CI_RUNS: readonly { seed: number; count: number; kind?: Kind }[] = [
  { seed: 9001, count: 45, kind: 'placement' },
  { seed: 9002, count: 15, kind: 'rollout' },
];

/** The fixed CI set of plan mode (`--kind plan --ci`). */
const CI_PLAN_RUNS: readonly { seed: number; count: number; kind?: Kind }[] = [{ seed: 9003, count: 24, kind: 'plan' }];

/** The fixed CI set of fix mode (`--kind fix --ci`; test/diff/README.md gives its run time). */
const CI_FIX_RUNS: readonly { seed: number; count: number; kind?: Kind }[] = [{ seed: 9101, count: 10, kind: 'fix' }];

interface Args {
  runs: { seed: number; count: number; kind?: Kind }[];
  only?: number;
  keep: boolean;
  reduce: boolean;
  verbose: boolean;
  /** Write every scenario's artifacts to out/, not only disagreements. */
  save: boolean;
  /** Only check the harness's pure parts (no cluster). */
  selfCheckOnly: boolean;
  out: string;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** test/diff in the source tree (this file runs from dist/test/diff/). */
const SOURCE_DIR = path.resolve(HERE, '..', '..', '..', 'test', 'diff');

function usage(msg: string): never {
  process.stderr.write(
    `test:diff: ${msg}\nusage: npm run test:diff -- [--seed N] [--count K] [--kind placement|rollout|plan|fix|mixed] [--only INDEX] [--ci] [--keep] [--no-reduce] [--verbose] [--save] [--self-check] [--out DIR]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  let seed = 1;
  let count = 10;
  let kind: Kind | undefined;
  let ci = false;
  const a: Args = {
    runs: [],
    keep: false,
    reduce: true,
    verbose: false,
    save: false,
    selfCheckOnly: false,
    out: path.join(SOURCE_DIR, 'out'),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => argv[++i] ?? usage(`${arg} needs a value`);
    const integer = (min?: number) => {
      const v = value();
      const n = Number(v);
      return Number.isInteger(n) && (min === undefined || n >= min)
        ? n
        : usage(`${arg} must be an integer${min === undefined ? '' : ` of at least ${min}`} (got ${v})`);
    };
    switch (arg) {
      case '--seed':
        seed = integer();
        break;
      case '--count':
        count = integer(1);
        break;
      case '--only':
        a.only = integer(0);
        break;
      case '--kind': {
        const k = value();
        if (k !== 'placement' && k !== 'rollout' && k !== 'plan' && k !== 'fix' && k !== 'mixed')
          usage(`--kind must be placement, rollout, plan, fix or mixed (got ${k})`);
        kind = k === 'mixed' ? undefined : k;
        break;
      }
      case '--ci':
        ci = true;
        break;
      case '--keep':
        a.keep = true;
        break;
      case '--no-reduce':
        a.reduce = false;
        break;
      case '--verbose':
        a.verbose = true;
        break;
      case '--save':
        a.save = true;
        break;
      case '--self-check':
        a.selfCheckOnly = true;
        break;
      case '--out':
        a.out = path.resolve(value());
        break;
      default:
        usage(`unknown argument ${arg}`);
    }
  }
  a.runs = ci
    ? [...(kind === 'plan' ? CI_PLAN_RUNS : kind === 'fix' ? CI_FIX_RUNS : CI_RUNS)]
    : [{ seed, count, ...(kind ? { kind } : {}) }];
  return a;
}

interface Outcome {
  scenario: Scenario;
  ms: number;
  decisions: number;
  /** Kubernetes' verdicts over the node decisions. */
  verdicts: Record<string, number>;
  disagreements: Disagreement[];
  rolloutChecks: RolloutCheck[];
  planChecks: PlanCheck[];
  error?: string;
  retried: boolean;
}

function fmtS(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

type Once = Omit<Outcome, 'retried' | 'ms' | 'scenario'> & { artifacts: Record<string, string> };

function verdictCounts(truths: { verdict: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of truths) out[t.verdict] = (out[t.verdict] ?? 0) + 1;
  return out;
}

async function runOnce(ctx: RunContext, s: Scenario, keep: boolean): Promise<Once> {
  try {
    if (s.kind === 'plan') {
      const r = await runPlan(ctx, s);
      return {
        decisions: r.truths.length,
        verdicts: effectCounts(r.truths),
        disagreements: [],
        rolloutChecks: [],
        planChecks: r.checks,
        artifacts: {
          'truth.json': JSON.stringify({ nodes: r.truths, rounds: r.rounds }, null, 2),
          'ds-doctor.json': JSON.stringify(r.answers, null, 2),
          'dump.yaml': r.dumps.before,
          'dump-after.yaml': r.dumps.after,
          'change.yaml': yaml.dump(s.change?.manifest, { noRefs: true, lineWidth: -1 }),
        },
      };
    }
    if (s.kind === 'rollout') {
      const r = await runRollout(ctx, s);
      return {
        decisions: r.judgement.truths.length,
        verdicts: verdictCounts(r.judgement.truths),
        disagreements: r.judgement.disagreements,
        rolloutChecks: r.checks,
        planChecks: [],
        artifacts: {
          'truth.json': JSON.stringify(
            { nodes: r.judgement.truths, probes: r.judgement.probes, rollout: r.rounds },
            null,
            2,
          ),
          'ds-doctor.json': JSON.stringify({ nodes: r.judgement.answers, rollout: r.answers }, null, 2),
          'dump.yaml': r.dumpText,
        },
      };
    }
    const r = await runPlacement(ctx, s);
    return {
      decisions: r.judgement.truths.length,
      verdicts: verdictCounts(r.judgement.truths),
      disagreements: r.judgement.disagreements,
      rolloutChecks: [],
      planChecks: [],
      artifacts: {
        'truth.json': JSON.stringify({ nodes: r.judgement.truths, probes: r.judgement.probes }, null, 2),
        'ds-doctor.json': JSON.stringify(r.judgement.answers, null, 2),
        'dump.yaml': r.dumpText,
      },
    };
  } finally {
    if (!keep)
      await removeScenario(ctx.world, withCreated(s), [probeNamespace(s)]).catch((e: Error) =>
        ctx.log(`  cleanup of ${s.id} failed: ${e.message}`),
      );
  }
}

/** Kubernetes' effects of a plan scenario's change (`effect → end state`), counted like verdicts. */
function effectCounts(truths: { effect: string; states: string[] }[]): Record<string, number> {
  return verdictCounts(truths.map((t) => ({ verdict: `${t.effect}→${t.states[0]}` })));
}

function failedChecks(o: {
  disagreements: Disagreement[];
  rolloutChecks: RolloutCheck[];
  planChecks: PlanCheck[];
}): number {
  return (
    o.disagreements.length + o.rolloutChecks.filter((c) => !c.ok).length + o.planChecks.filter((c) => !c.ok).length
  );
}

function planCheckText(c: PlanCheck): string {
  return `plan ${c.daemonSet} on ${c.node} (${c.source}): ${c.what}: Kubernetes: ${c.kubernetes} | ds-doctor: ${c.dsDoctor}`;
}

function disagreementText(d: Disagreement): string {
  return `${d.daemonSet} on ${d.node} (${d.source}): Kubernetes: ${d.kubernetes} | ds-doctor: ${d.dsDoctor}`;
}

function checkText(c: RolloutCheck): string {
  return `rollout ${c.daemonSet} ${c.round}: ${c.what}: Kubernetes: ${c.kubernetes} | ds-doctor: ${c.dsDoctor}`;
}

async function writeRepro(dir: string, s: Scenario, o: Once, note: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'scenario.yaml'), scenarioYaml(s));
  for (const [name, text] of Object.entries(o.artifacts)) await fs.writeFile(path.join(dir, name), text);
  const lines = [
    note,
    ...o.disagreements.map(disagreementText),
    ...o.rolloutChecks.filter((c) => !c.ok).map(checkText),
    ...o.planChecks.filter((c) => !c.ok).map(planCheckText),
    ...(o.error ? [`error: ${o.error}`] : []),
  ];
  await fs.writeFile(path.join(dir, 'disagreements.txt'), `${lines.join('\n')}\n`);
}

/** Runs a scenario; on a disagreement tries to reproduce it on a cut-down copy and writes the reproduction. */
async function runScenario(ctx: RunContext, base: Scenario, args: Args): Promise<Outcome> {
  const t0 = Date.now();
  let s = base;
  let retried = false;
  let r: Once;
  for (let attempt = 0; ; attempt++) {
    try {
      r = await runOnce(ctx, s, args.keep);
      break;
    } catch (e) {
      if (e instanceof HarnessError && attempt === 0) {
        ctx.log(`  harness: ${e.message}; retrying`);
        retried = true;
        s = renameScenario(base, `${base.id}x`);
        continue;
      }
      return {
        scenario: s,
        ms: Date.now() - t0,
        decisions: 0,
        verdicts: {},
        disagreements: [],
        rolloutChecks: [],
        planChecks: [],
        error: (e as Error).stack ?? String(e),
        retried,
      };
    }
  }
  if (!failedChecks(r) && args.save)
    await writeRepro(path.join(args.out, s.id), s, r, `agreed; seed ${s.seed}, index ${s.index}`);
  if (failedChecks(r)) {
    let repro: Scenario = s;
    let reproResult = r;
    let note = 'the full scenario';
    const first = r.disagreements[0];
    if (args.reduce && first && s.kind === 'placement') {
      // The smallest cut that still disagrees: this DaemonSet on this node, else every DaemonSet on this node.
      for (const [dsKey, label] of [
        [first.daemonSet, 'one DaemonSet, one node'],
        [undefined, 'every DaemonSet, one node'],
      ] as const) {
        const small = reduceScenario(s, dsKey, [first.node], `${s.id}r${dsKey ? 1 : 2}`);
        try {
          const sr = await runOnce(ctx, small, false);
          if (sr.disagreements.some((d) => d.what === first.what)) {
            repro = small;
            reproResult = sr;
            note = `reduced to ${label} (the full scenario disagrees too)`;
            break;
          }
        } catch (e) {
          ctx.log(`  reduction failed: ${(e as Error).message}`);
        }
      }
    }
    const dir = path.join(args.out, s.id);
    await writeRepro(dir, repro, reproResult, `${note}; seed ${s.seed}, index ${s.index}`);
    process.stdout.write(`\n=== DISAGREEMENT in ${s.id} (${note}) — written to ${path.relative(process.cwd(), dir)}\n`);
    for (const d of r.disagreements) process.stdout.write(`  ${disagreementText(d)}\n`);
    for (const c of r.rolloutChecks.filter((x) => !x.ok)) process.stdout.write(`  ${checkText(c)}\n`);
    for (const c of r.planChecks.filter((x) => !x.ok)) process.stdout.write(`  ${planCheckText(c)}\n`);
    process.stdout.write(
      `--- reproduction (${path.relative(process.cwd(), path.join(dir, 'scenario.yaml'))}):\n${scenarioYaml(repro)}\n--- end of reproduction\n`,
    );
  }
  return {
    scenario: s,
    ms: Date.now() - t0,
    decisions: r.decisions,
    verdicts: r.verdicts,
    disagreements: r.disagreements,
    rolloutChecks: r.rolloutChecks,
    planChecks: r.planChecks,
    retried,
  };
}

function coverage(outcomes: Outcome[]): string[] {
  const counts = new Map<string, number>();
  for (const o of outcomes) for (const f of o.scenario.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const groups = new Map<string, string[]>();
  for (const [f, n] of [...counts.entries()].sort()) {
    const g = f.split(':')[0]!;
    groups.set(g, [...(groups.get(g) ?? []), `${f.slice(g.length + 1)} ${n}`]);
  }
  return [...groups.entries()].map(([g, items]) => `  ${g}: ${items.join(', ')}`);
}

/**
 * A cluster always has some pod (kube-system's at least); this one has none of its own. A dump of
 * a cluster without a single pod is a `kind: List` with no Pod in it, which ds-doctor's file
 * loader cannot tell from a dump that left pods out, and refuses. One gated, never-bound pod in
 * a namespace of its own stands in for the system pods; it takes nothing on any node.
 */
async function createSentinel(api: Api): Promise<void> {
  const namespace = 'ds-diff-system';
  await api.create(paths.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await api.create(paths.pods(namespace), {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'sentinel', namespace },
    spec: {
      schedulingGates: [{ name: 'ds-diff.test/never' }],
      terminationGracePeriodSeconds: 0,
      containers: [{ name: 'pause', image: 'registry.invalid/pause:1' }],
    },
  });
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  selfCheck();
  if (args.selfCheckOnly) {
    process.stdout.write('self-check passed\n');
    return 0;
  }
  const started = Date.now();
  const fixMode = args.runs.every((r) => r.kind === 'fix');
  const binDir = await ensureBinaries();
  const workDir = path.join(args.out, '.cluster');
  await fs.mkdir(path.join(args.out, '.scratch'), { recursive: true });
  const cp: ControlPlane = await startControlPlane({
    binDir,
    workDir,
    reset: true,
    // Fix mode deletes Node objects: the pod GC collects their pods, as in a real cluster.
    extraControllers: [
      'node-lifecycle-controller',
      'resourcequota-controller',
      ...(fixMode ? ['pod-garbage-collector-controller'] : []),
    ],
    enableAdmissionPlugins: ['TaintNodesByCondition'],
    controllerManagerArgs: [
      '--node-monitor-period=1s',
      '--node-monitor-grace-period=5s',
      '--node-startup-grace-period=5s',
    ],
  });
  const api = new Api(cp.server, cp.token, cp.ca);
  const heartbeats = new Heartbeats(api);
  heartbeats.start();
  const world = new World(api, heartbeats, {
    scheduler: cp.ports.scheduler,
    controllerManager: cp.ports.controllerManager,
  });
  const ctx: RunContext = {
    cp,
    world,
    scratch: path.join(args.out, '.scratch'),
    log: (l) => process.stdout.write(`${l}\n`),
  };
  await createSentinel(api);
  process.stdout.write(
    `control plane up in ${fmtS(cp.timings.totalMs)} (Kubernetes v1.35.4, node lifecycle controller with 5s grace)\n`,
  );

  if (fixMode) {
    try {
      return await runFixMode(ctx, {
        runs: args.runs,
        ...(args.only !== undefined ? { only: args.only } : {}),
        keep: args.keep,
        save: args.save,
        verbose: args.verbose,
        out: args.out,
      });
    } finally {
      heartbeats.stop();
      api.close();
      await cp.stop();
    }
  }
  const outcomes: Outcome[] = [];
  try {
    const total = args.runs.reduce((n, r) => n + (args.only !== undefined ? 1 : r.count), 0);
    for (const run of args.runs) {
      const indexes = args.only !== undefined ? [args.only] : Array.from({ length: run.count }, (_, i) => i);
      for (const index of indexes) {
        const s =
          run.kind === 'plan'
            ? generatePlanScenario(run.seed, index)
            : generateScenario(run.seed, index, run.kind === 'fix' ? undefined : run.kind);
        const o = await runScenario(ctx, s, args);
        outcomes.push(o);
        const what =
          s.kind === 'plan'
            ? `plan (${s.change?.kind}: ${s.change?.text}), ${s.nodes.length} nodes: ${o.decisions} node predictions, ${o.planChecks.length} plan checks`
            : s.kind === 'rollout'
              ? `rollout (${s.rollout?.change.split(',')[1]?.trim() ?? 'image'}), ${s.nodes.length} nodes: ${o.decisions} node decisions, ${o.rolloutChecks.length} rollout checks`
              : `${s.daemonSets.length} DaemonSet(s) × ${s.nodes.length} nodes: ${o.decisions} node decisions`;
        const verdicts = Object.entries(o.verdicts)
          .sort()
          .map(([v, n]) => `${v} ${n}`)
          .join(', ');
        const status = o.error
          ? `ERROR: ${o.error.split('\n')[0]}`
          : `${failedChecks(o)} disagreement(s) [${verdicts}]`;
        process.stdout.write(
          `[${outcomes.length}/${total}] ${s.id} ${what}; ${status}${o.retried ? ' (retried)' : ''} (${fmtS(o.ms)})\n`,
        );
        if (o.error && args.verbose) process.stdout.write(`${o.error}\n`);
      }
    }
  } finally {
    heartbeats.stop();
    api.close();
    await cp.stop();
  }

  const failed = outcomes.filter((o) => o.error || failedChecks(o) > 0);
  const decisions = outcomes.reduce((n, o) => n + o.decisions, 0);
  const checks = outcomes.reduce((n, o) => n + o.rolloutChecks.length, 0);
  const planChecks = outcomes.reduce((n, o) => n + o.planChecks.length, 0);
  const plans = outcomes.filter((o) => o.scenario.kind === 'plan');
  const disagreements = outcomes.reduce((n, o) => n + failedChecks(o), 0);
  const errors = outcomes.filter((o) => o.error).length;
  const allVerdicts: Record<string, number> = {};
  for (const o of outcomes) for (const [v, n] of Object.entries(o.verdicts)) allVerdicts[v] = (allVerdicts[v] ?? 0) + n;
  if (plans.length)
    process.stdout.write(
      `\nKubernetes' effects → end states over all plan nodes: ${Object.entries(allVerdicts)
        .filter(([v]) => v.includes('→'))
        .sort()
        .map(([v, n]) => `${v} ${n}`)
        .join(', ')}\n`,
    );
  const verdictText = Object.entries(allVerdicts)
    .filter(([v]) => !v.includes('→'))
    .sort()
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
  if (verdictText) process.stdout.write(`\nKubernetes' verdicts over all node decisions: ${verdictText}\n`);
  process.stdout.write('\ncoverage (scenarios with each feature):\n');
  process.stdout.write(`${coverage(outcomes).join('\n')}\n`);
  process.stdout.write(
    `\nagreement: ${outcomes.length} scenarios (${outcomes.filter((o) => o.scenario.kind === 'placement').length} placement, ${outcomes.filter((o) => o.scenario.kind === 'rollout').length} rollout${plans.length ? `, ${plans.length} plan` : ''}), ` +
      `${decisions} node decisions compared live and on the dump (${decisions * 2} comparisons), ${checks} rollout checks, ` +
      `${plans.length ? `${planChecks} plan checks, ` : ''}` +
      `${disagreements} disagreements${errors ? `, ${errors} harness errors` : ''}; ${fmtS(Date.now() - started)}\n`,
  );
  process.stdout.write(`${outcomes.length - failed.length} passed, ${failed.length} failed\n`);
  return failed.length ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: Error) => {
    process.stderr.write(`test:diff: ${e.stack ?? e.message}\n`);
    process.exitCode = 1;
  },
);
