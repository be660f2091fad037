/**
 * Plan mode. A settled base scenario is dumped and `ds-doctor plan -f change.yaml` is asked,
 * on the dump (`--cluster-dump`) and live, BEFORE the change; then the change is applied for
 * real and, in rounds, the controllers and scheduler settle and the simulated kubelets report
 * the new pods (Ready whenever bound, as `plan` assumes) until they have nothing left to report.
 * At that fixed point every node's state is compared with the prediction (plan-compare.ts):
 * the end state among `settled`, `shouldRun` against the controller's decision (probe), the
 * effect, `lose` nodes' pods deleted, the Pending count against `blockedAfter`, and whether the
 * template hash changed against `rollout.replaced`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import type { DaemonSet, KubeEvent, Pod } from '../../src/model/k8s-types.js';
import { paths } from './api.js';
import { Kubelets, scenarioScope } from './cluster.js';
import { doctorJson, dsDoctor } from './doctor.js';
import type { DoctorAnswers, Dump, RunContext } from './judge.js';
import { dumpKind, takeDump } from './judge.js';
import { checkNodeHealth, HarnessError, intendedReady, planOf, settleBase, settleOrThrow } from './placement-run.js';
import {
  comparePlan,
  comparePlanLiveFile,
  currentHash,
  planTruth,
  type PlanAnswer,
  type PlanCheck,
  type PlanNodeTruth,
} from './plan-compare.js';
import { runProbes } from './probes.js';
import { probeNamespace, type KubeletPlan, type PlanChange, type Scenario } from './scenario.js';

/** New pods: the kubelet reports them Ready as soon as they are bound. */
const NEW_PODS_READY: KubeletPlan = { default: 'ready', nodes: {} };

export interface PlanOutcome {
  truths: PlanNodeTruth[];
  checks: PlanCheck[];
  answers: DoctorAnswers<PlanAnswer>;
  rounds: number;
  dumps: { before: string; after: string };
}

function keyOf(ds: DaemonSet): string {
  return `${ds.metadata?.namespace}/${ds.metadata?.name}`;
}

/** The scenario with the DaemonSet the change creates, for cleaning up. */
export function withCreated(s: Scenario): Scenario {
  return s.change?.kind === 'create'
    ? { ...s, daemonSets: [...s.daemonSets, { object: s.change.manifest, kubelet: NEW_PODS_READY }] }
    : s;
}

/** `ds-doctor plan -f change.yaml -o json`, on the dump and live. */
async function askPlan(ctx: RunContext, changeFile: string, dump: Dump): Promise<DoctorAnswers<PlanAnswer>> {
  const file = doctorJson<PlanAnswer>(
    await dsDoctor(['plan', '-f', changeFile, '--cluster-dump', dump.file, '-o', 'json']),
  );
  const live = doctorJson<PlanAnswer>(
    await dsDoctor(['plan', '-f', changeFile, '-o', 'json', '--kubeconfig', ctx.cp.kubeconfig]),
  );
  return { live, file };
}

/** Applies the change as `kubectl apply` would: creates the DaemonSet, or replaces its template, strategy and metadata. */
async function applyPlanChange(ctx: RunContext, c: PlanChange): Promise<void> {
  const ns = c.manifest.metadata!.namespace!;
  if (c.kind === 'create') {
    await ctx.world.api.create(paths.daemonSets(ns), c.manifest);
    return;
  }
  const ops: { op: string; path: string; value: unknown }[] = [
    { op: 'replace', path: '/spec/template', value: c.manifest.spec!.template },
  ];
  if (c.manifest.spec?.updateStrategy)
    ops.push({ op: 'replace', path: '/spec/updateStrategy', value: c.manifest.spec.updateStrategy });
  if (c.manifest.metadata?.labels) ops.push({ op: 'add', path: '/metadata/labels', value: c.manifest.metadata.labels });
  if (c.manifest.metadata?.annotations)
    ops.push({ op: 'add', path: '/metadata/annotations', value: c.manifest.metadata.annotations });
  await ctx.world.api.patch(paths.daemonSet(ns, c.manifest.metadata!.name!), ops, 'json');
}

/**
 * The prelude of a change (a rollout left stuck): applied, then settled in rounds as after the
 * change, its new pods reported Ready when bound.
 */
async function applyPrelude(ctx: RunContext, s: Scenario, kubelets: Kubelets, prelude: DaemonSet): Promise<void> {
  const scope = scenarioScope(s);
  const ns = prelude.metadata!.namespace!;
  const name = prelude.metadata!.name!;
  const pre = new Set((await ctx.world.api.list<Pod>(paths.pods(ns))).map((p) => p.metadata?.uid));
  await applyPlanChange(ctx, { kind: 'strategy', text: 'prelude', manifest: prelude });
  const planFor = (p: Pod): KubeletPlan | undefined => {
    const owner = p.metadata?.ownerReferences?.find((r) => r.controller);
    if (p.metadata?.namespace === ns && owner?.name === name && !pre.has(p.metadata?.uid)) return NEW_PODS_READY;
    return planOf(s, p);
  };
  for (let rounds = 0; ; rounds++) {
    if (rounds > 20) throw new HarnessError('the prelude did not reach a fixed point in 20 rounds');
    await settleOrThrow(ctx.world, scope, `after the prelude, round ${rounds}`, { waitFailedCreate: true });
    if (!(await kubelets.step(scope, planFor))) break;
  }
}

export async function runPlan(ctx: RunContext, s: Scenario): Promise<PlanOutcome> {
  const change = s.change;
  if (!change) throw new Error(`${s.id} has no change`);
  const world = ctx.world;
  const scope = scenarioScope(s);
  const kubelets = new Kubelets(world);
  const ns = change.manifest.metadata!.namespace!;
  const name = change.manifest.metadata!.name!;
  const key = `${ns}/${name}`;

  await settleBase(world, s, kubelets);
  if (change.prelude) await applyPrelude(ctx, s, kubelets, change.prelude.manifest);
  const before = await takeDump(ctx, `${s.id}-before`);
  const changeFile = path.join(ctx.scratch, `${s.id}-change.yaml`);
  await fs.writeFile(changeFile, yaml.dump(change.manifest, { noRefs: true, lineWidth: -1 }));
  const answers = await askPlan(ctx, changeFile, before);
  for (const [source, a] of Object.entries(answers)) {
    if (a.kind !== 'PlanReport') throw new HarnessError(`ds-doctor plan (${source}) answered kind ${a.kind}`);
  }
  const beforeDs = dumpKind<DaemonSet>(before, 'DaemonSet', [ns]).find((d) => d.metadata?.name === name);
  const beforePods = dumpKind<Pod>(before, 'Pod', [ns]);
  const preUids = new Set(beforePods.map((p) => p.metadata?.uid));

  // Event times have whole seconds.
  const changedAt = Math.floor(Date.now() / 1000) * 1000;
  await applyPlanChange(ctx, change);
  const planFor = (p: Pod): KubeletPlan | undefined => {
    const owner = p.metadata?.ownerReferences?.find((r) => r.controller);
    if (p.metadata?.namespace === ns && owner?.name === name && !preUids.has(p.metadata?.uid)) return NEW_PODS_READY;
    return planOf(s, p);
  };
  let rounds = 0;
  for (; ; rounds++) {
    if (rounds > 20) throw new HarnessError('the change did not reach a fixed point in 20 rounds');
    await settleOrThrow(world, scope, `after the change, round ${rounds}`, { waitFailedCreate: true });
    if (!(await kubelets.step(scope, planFor))) break;
  }
  await checkNodeHealth(world, scope, intendedReady(s, s.changes.length));
  const after = await takeDump(ctx, `${s.id}-after`);
  const afterDs = dumpKind<DaemonSet>(after, 'DaemonSet', [ns]).find((d) => d.metadata?.name === name);
  if (!afterDs) throw new HarnessError(`daemonset ${key} not found after the change`);
  const probes = await runProbes(world, probeNamespace(s), [afterDs]);
  // The probes are only meaningful if no node changed health while they ran.
  await checkNodeHealth(world, scope, intendedReady(s, s.changes.length));

  const hash = currentHash(afterDs, after.objects);
  const refused = dumpKind<KubeEvent>(after, 'Event', [ns])
    .filter(
      (e) =>
        e.reason === 'FailedCreate' &&
        e.involvedObject?.uid === afterDs.metadata?.uid &&
        Date.parse(e.lastTimestamp ?? e.eventTime ?? '') >= changedAt,
    )
    .sort(
      (x, y) => Date.parse(y.lastTimestamp ?? y.eventTime ?? '') - Date.parse(x.lastTimestamp ?? x.eventTime ?? ''),
    )[0]
    ?.message?.trim();
  const truths = planTruth(
    scope.nodes,
    { ...(beforeDs ? { ds: beforeDs } : {}), pods: beforePods },
    { ds: afterDs, pods: dumpKind<Pod>(after, 'Pod', [ns]), hash, ...(refused ? { refused } : {}) },
    probes.get(keyOf(afterDs))?.full ?? new Set(),
  );
  const checks = [
    ...comparePlan(key, truths, answers.live, 'live'),
    ...comparePlan(key, truths, answers.file, 'file'),
    ...comparePlanLiveFile(key, answers.live, answers.file),
  ];
  return { truths, checks, answers, rounds, dumps: { before: before.text, after: after.text } };
}
