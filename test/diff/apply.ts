/**
 * Creating a scenario on the cluster (namespaces and quotas, nodes with their Leases, the other
 * pods with the phase their kubelet reports, then the DaemonSets) and removing it again.
 */
import type { DaemonSet, Pod, ResourceQuota } from '../../src/model/k8s-types.js';
import { ApiError, paths } from './api.js';
import { isoTime, scenarioScope, sleep, type World } from './cluster.js';
import { stampConditions } from './generate.js';
import type { OtherPodPlan, Scenario } from './scenario.js';

function otherPodStatus(plan: OtherPodPlan): Pod['status'] | undefined {
  const now = isoTime();
  const containers = plan.object.spec?.containers ?? [];
  switch (plan.phase) {
    case 'Pending':
      return undefined;
    case 'Running':
      return {
        phase: 'Running',
        startTime: now,
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now, lastProbeTime: null }],
        containerStatuses: containers.map((c) => ({
          name: c.name,
          image: c.image ?? '',
          imageID: '',
          ready: true,
          started: true,
          restartCount: 0,
          state: { running: { startedAt: now } },
        })),
      };
    default: {
      const ok = plan.phase === 'Succeeded';
      return {
        phase: plan.phase,
        startTime: now,
        conditions: [
          { type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: now, lastProbeTime: null },
        ],
        containerStatuses: containers.map((c) => ({
          name: c.name,
          image: c.image ?? '',
          imageID: '',
          ready: false,
          started: false,
          restartCount: 0,
          state: {
            terminated: { reason: ok ? 'Completed' : 'Error', exitCode: ok ? 0 : 1, startedAt: now, finishedAt: now },
          },
        })),
      };
    }
  }
}

/** Creates everything but the DaemonSets, and waits until the node lifecycle controller has caught up. */
export async function applyWorld(world: World, s: Scenario): Promise<void> {
  const api = world.api;
  for (const ns of s.namespaces) await api.create(paths.namespaces, ns);
  for (const q of s.quotas) await api.create(paths.quotas(q.metadata!.namespace!), q);
  for (const l of s.limitRanges) await api.create(paths.limitRanges(l.metadata!.namespace!), l);
  for (const n of s.nodes) {
    await api.create(paths.nodes, stampConditions(n.object));
    if (n.heartbeat) await world.heartbeats.add(n.object.metadata!.name!);
  }
  // ResourceQuota admission refuses every pod until the quota controller has written status.hard.
  for (const q of s.quotas) {
    const t0 = Date.now();
    for (;;) {
      const got = await api.get<ResourceQuota>(`${paths.quotas(q.metadata!.namespace!)}/${q.metadata!.name}`);
      if (got.status?.hard && Object.keys(got.status.hard).length) break;
      if (Date.now() - t0 > 20_000) throw new Error(`quota ${q.metadata?.namespace}/${q.metadata?.name} has no status`);
      await sleep(100);
    }
  }
  for (const o of s.others) {
    const created = await api.create(paths.pods(o.object.metadata!.namespace), o.object);
    const status = otherPodStatus(o);
    if (status)
      await api.patch(paths.podStatus(created.metadata!.namespace!, created.metadata!.name!), { status }, 'strategic');
  }
  const settled = await world.settle(scenarioScope(s), { quietMs: 600, timeoutMs: 30_000 });
  if (settled.unsettled.length) throw new Error(`nodes did not settle: ${settled.unsettled.join('; ')}`);
}

/** Creates the DaemonSets. */
export async function applyDaemonSets(world: World, s: Scenario): Promise<void> {
  for (const d of s.daemonSets) await world.api.create(paths.daemonSets(d.object.metadata!.namespace!), d.object);
}

/** Removes a scenario: DaemonSets first (so nothing lands on the next scenario's nodes), then nodes and namespaces. */
export async function removeScenario(world: World, s: Scenario, extraNamespaces: string[] = []): Promise<void> {
  const api = world.api;
  for (const d of s.daemonSets) {
    await api.delete(paths.daemonSet(d.object.metadata!.namespace!, d.object.metadata!.name!), {
      propagationPolicy: 'Background',
    });
  }
  for (const n of s.nodes) {
    const name = n.object.metadata!.name!;
    world.heartbeats.remove(name);
    await api.delete(paths.lease(name));
    await api.delete(paths.node(name));
  }
  for (const ns of [...s.namespaces.map((n) => n.metadata!.name!), ...extraNamespaces]) {
    // Pods waiting for a kubelet that will never confirm their deletion would keep the namespace.
    try {
      for (const p of await api.list<Pod>(paths.pods(ns)))
        await api.delete(paths.pod(ns, p.metadata!.name!), { gracePeriodSeconds: 0 });
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
    await api.delete(paths.namespace(ns), { propagationPolicy: 'Background' });
  }
  // Node events live in "default"; drop them with the nodes.
  await api
    .request('DELETE', `${paths.events('default')}?fieldSelector=${encodeURIComponent('involvedObject.kind=Node')}`)
    .catch(() => undefined);
  // Nothing of this scenario may place pods on the next one's nodes.
  const t0 = Date.now();
  for (const d of s.daemonSets) {
    for (;;) {
      try {
        await api.get<DaemonSet>(paths.daemonSet(d.object.metadata!.namespace!, d.object.metadata!.name!));
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) break;
        throw e;
      }
      if (Date.now() - t0 > 30_000) throw new Error(`daemonset ${d.object.metadata?.name} is not going away`);
      await sleep(100);
    }
  }
}
