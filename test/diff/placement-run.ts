/**
 * A placement scenario on the real control plane: create the world and the DaemonSets, let the
 * controllers settle, let the simulated kubelets report, apply the node changes and settle
 * again, then judge every DaemonSet × node.
 */
import type { Pod } from '../../src/model/k8s-types.js';
import { applyDaemonSets, applyWorld } from './apply.js';
import { Kubelets, readyStatus, scenarioScope, type Scope, type World } from './cluster.js';
import { judgeNodes, takeDump, type NodeJudgement, type RunContext } from './judge.js';
import { probeNamespace, type KubeletPlan, type Scenario } from './scenario.js';

/** The kubelet plan of a daemon pod in a placement scenario, by its owner. */
export function planOf(s: Scenario, pod: Pod): KubeletPlan | undefined {
  const owner = pod.metadata?.ownerReferences?.find((r) => r.controller);
  const plan = s.daemonSets.find(
    (d) => d.object.metadata?.name === owner?.name && d.object.metadata?.namespace === pod.metadata?.namespace,
  );
  if (!plan) return undefined;
  if (
    s.rollout &&
    s.daemonSets[s.rollout.daemonSet] === plan &&
    pod.spec?.containers?.[0]?.image === s.rollout.template.spec?.containers?.[0]?.image
  ) {
    return s.rollout.kubelet;
  }
  return plan.kubelet;
}

/** Ready status every node should have now, from the plan and the changes applied so far. */
export function intendedReady(s: Scenario, changesApplied: number): Map<string, string> {
  const want = new Map<string, string>();
  for (const n of s.nodes)
    want.set(n.object.metadata!.name!, n.object.status!.conditions!.find((c) => c.type === 'Ready')!.status);
  for (const c of s.changes.slice(0, changesApplied)) {
    if (c.kind === 'stop-heartbeat') want.set(c.node, 'Unknown');
    if (c.kind === 'condition' && c.condition.type === 'Ready') want.set(c.node, c.condition.status);
  }
  return want;
}

/** Throws when a node's Ready status is not what the scenario intends (a missed heartbeat flips a node to Unknown). */
export async function checkNodeHealth(world: World, scope: Scope, want: Map<string, string>): Promise<void> {
  const state = await world.observe(scope);
  const wrong = state.nodes
    .filter((n) => want.get(n.metadata?.name ?? '') !== readyStatus(n))
    .map((n) => `${n.metadata?.name}: Ready=${readyStatus(n)}, intended ${want.get(n.metadata?.name ?? '')}`);
  if (wrong.length) throw new HarnessError(`node health drifted (missed heartbeats?): ${wrong.join('; ')}`);
}

/** A failure of the harness (not a disagreement): the scenario is retried. */
export class HarnessError extends Error {}

export async function settleOrThrow(
  world: World,
  scope: Scope,
  what: string,
  opts: Parameters<World['settle']>[1] = {},
): Promise<number> {
  const r = await world.settle(scope, opts);
  if (r.unsettled.length)
    throw new HarnessError(
      `${what}: the cluster did not settle in ${Math.round(r.ms / 1000)}s: ${r.unsettled.slice(0, 5).join('; ')}`,
    );
  return r.ms;
}

export interface PlacementOutcome {
  judgement: NodeJudgement;
  dumpText: string;
}

export async function runPlacement(ctx: RunContext, s: Scenario): Promise<PlacementOutcome> {
  const world = ctx.world;
  const scope = scenarioScope(s);
  await settleBase(world, s, new Kubelets(world));
  const dump = await takeDump(ctx, s.id);
  const dsNamespaces = [...new Set(s.daemonSets.map((d) => d.object.metadata!.namespace!))];
  const judgement = await judgeNodes(ctx, scope, dump, dsNamespaces, probeNamespace(s));
  // The probes are only meaningful if no node changed health while they ran.
  await checkNodeHealth(world, scope, intendedReady(s, s.changes.length));
  return { judgement, dumpText: dump.text };
}

/**
 * Brings a scenario up and lets it settle: the world and the DaemonSets, the kubelets' reports,
 * the node changes, the pending pods re-created so that their scheduler messages are fresh; then
 * checks every node's Ready status against the plan.
 */
export async function settleBase(world: World, s: Scenario, kubelets: Kubelets): Promise<void> {
  const scope = scenarioScope(s);
  await applyWorld(world, s);
  await applyDaemonSets(world, s);
  await settleOrThrow(world, scope, 'after creating the DaemonSets', { waitFailedCreate: true });
  for (let i = 0; i < 4 && (await kubelets.step(scope, (p) => planOf(s, p))); i++)
    await settleOrThrow(world, scope, 'after the kubelets reported', { waitFailedCreate: true });
  if (s.changes.length) {
    for (const c of s.changes) await world.applyChange(c);
    const stale = s.changes.filter((c) => c.kind === 'stop-heartbeat').map((c) => c.node);
    await settleOrThrow(world, scope, 'after the node changes', {
      expectUnknown: stale,
      waitFailedCreate: true,
      timeoutMs: 90_000,
    });
    for (let i = 0; i < 4 && (await kubelets.step(scope, (p) => planOf(s, p))); i++)
      await settleOrThrow(world, scope, 'after the kubelets reported again', { waitFailedCreate: true });
  }
  if (await world.refreshPending(scope))
    await settleOrThrow(world, scope, 'after re-creating the pending pods', { waitFailedCreate: true });
  await checkNodeHealth(world, scope, intendedReady(s, s.changes.length));
}
