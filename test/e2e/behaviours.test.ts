// What the real DaemonSet controller, scheduler and garbage collector do, observed on the
// control plane, and ds-doctor's live verdicts checked against it: pods on Ready untainted
// nodes, none on a tainted node, a node that joins later, a plain delete, and
// `kubectl delete --cascade=orphan` leaving pods that a re-created DaemonSet adopts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { ControlPlane } from '../cluster/harness.js';
import type { DaemonSet, KubeObject, Pod } from '../../src/model/k8s-types.js';
import {
  create,
  daemonSetObject,
  dsJson,
  getJson,
  kubectl,
  namespaceObject,
  nodeObject,
  podsOf,
  setPodStates,
  startCluster,
  stopCluster,
  waitFor,
  waitForDaemonPods,
  waitForReady,
} from './cluster.js';

const NS = 'beh';
const TAINT = { key: 'dedicated', value: 'infra', effect: 'NoSchedule' };

interface NodeRow {
  node: string;
  verdict: string;
  reasons: { code: string; message: string }[];
  pod?: { name: string } | null;
}
interface Reason {
  code: string;
  message: string;
  evidence: string[];
}
interface Impact {
  cascade: string;
  pods: number;
  nodes: number;
  revisions?: number;
  findings: Reason[];
}

const podName = (p: Pod): string => p.metadata?.name ?? '';
const byNode = (pods: Pod[]): Map<string, string> => new Map(pods.map((p) => [p.spec?.nodeName ?? '', podName(p)]));

describe('real controller behaviours, and ds-doctor agreeing with them', () => {
  let cp: ControlPlane;

  before(async () => {
    cp = await startCluster('behaviours');
    await create(cp, [
      nodeObject('b-1'),
      nodeObject('b-2'),
      nodeObject('b-3'),
      nodeObject('b-tainted', { taints: [TAINT] }),
      namespaceObject(NS),
    ]);
  });

  after(() => stopCluster(cp));

  it('pods on Ready untainted nodes, none on the tainted node; ds-doctor verdicts agree node by node', async () => {
    await create(cp, [
      daemonSetObject(NS, 'agent'),
      daemonSetObject(NS, 'tolerant', {
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'infra', effect: 'NoSchedule' }],
      }),
    ]);
    const agentPods = await waitForDaemonPods(cp, NS, 'agent', 3);
    const tolerantPods = await waitForDaemonPods(cp, NS, 'tolerant', 4);
    assert.deepEqual(
      [...byNode(agentPods).keys()].sort(),
      ['b-1', 'b-2', 'b-3'],
      'the controller and scheduler put one pod on each untainted node',
    );
    assert.deepEqual([...byNode(tolerantPods).keys()].sort(), ['b-1', 'b-2', 'b-3', 'b-tainted']);

    // Before any (simulated) kubelet reports: bound, not ready.
    const pending = await dsJson<{ nodes: NodeRow[] }>(cp, ['nodes', `${NS}/agent`]);
    const pods = byNode(agentPods);
    for (const row of pending.nodes) {
      if (row.node === 'b-tainted') {
        assert.equal(row.verdict, 'Excluded');
        assert.equal(row.reasons[0]?.code, 'UntoleratedTaint');
        assert.equal(row.pod ?? null, null);
      } else {
        assert.equal(row.verdict, 'Unhealthy', row.node);
        assert.equal(row.pod?.name, pods.get(row.node), `${row.node}: ds-doctor names the pod the controller created`);
        assert.equal(row.reasons[0]?.code, 'ContainerCreating');
      }
    }

    await setPodStates(cp, [...agentPods, ...tolerantPods], 'ready');
    await waitForReady(cp, NS, 'agent', 3);
    await waitForReady(cp, NS, 'tolerant', 4);
    const ready = await dsJson<{ nodes: NodeRow[] }>(cp, ['nodes', `${NS}/agent`]);
    assert.deepEqual(ready.nodes.map((r) => [r.node, r.verdict]).sort(), [
      ['b-1', 'Healthy'],
      ['b-2', 'Healthy'],
      ['b-3', 'Healthy'],
      ['b-tainted', 'Excluded'],
    ]);
    const tolerant = await dsJson<{ nodes: NodeRow[] }>(cp, ['nodes', `${NS}/tolerant`]);
    assert.ok(
      tolerant.nodes.every((r) => r.verdict === 'Healthy'),
      JSON.stringify(tolerant.nodes.map((r) => [r.node, r.verdict])),
    );

    const why = await dsJson<{ verdict: string; reasons: Reason[] }>(cp, ['why', `${NS}/agent`, 'b-tainted'], [0]);
    assert.equal(why.verdict, 'Excluded');
    assert.equal(why.reasons[0]?.code, 'UntoleratedTaint');
    assert.match(why.reasons[0].message, /dedicated=infra:NoSchedule/);

    // ds-doctor's own count of the nodes that should run a pod equals the controller's.
    const scan = await dsJson<{
      daemonSets: { name: string; health: string; desired: number; recomputed: { desired: number } }[];
    }>(cp, ['scan', '-n', NS], [0]);
    for (const name of ['agent', 'tolerant']) {
      const d = await getJson<DaemonSet>(cp, ['daemonset', '-n', NS, name]);
      const entry = scan.daemonSets.find((e) => e.name === name)!;
      assert.equal(entry.recomputed.desired, d.status?.desiredNumberScheduled, `${name}: recomputed desired`);
      assert.equal(entry.health, 'Healthy');
    }
  });

  it('a node that joins later gets a pod, and ds-doctor sees the new pod as not yet ready', async () => {
    await create(cp, [nodeObject('b-late')]);
    const pods = await waitForDaemonPods(cp, NS, 'agent', 4);
    const late = pods.find((p) => p.spec?.nodeName === 'b-late');
    assert.ok(late, 'the controller created a pod for the new node');
    const why = await dsJson<{ verdict: string; reasons: Reason[]; pod?: { name: string } }>(
      cp,
      ['why', `${NS}/agent`, 'b-late'],
      [0, 1],
    );
    assert.equal(why.verdict, 'Unhealthy');
    assert.equal(why.pod?.name, podName(late));
    await setPodStates(cp, [late], 'ready');
    await waitForReady(cp, NS, 'agent', 4);
    const healthy = await dsJson<{ verdict: string }>(cp, ['why', `${NS}/agent`, 'b-late'], [0]);
    assert.equal(healthy.verdict, 'Healthy');
  });

  it('a plain delete: the garbage collector deletes the pods and revisions ds-doctor said would go', async () => {
    const pods = await podsOf(cp, NS, 'tolerant');
    const impact = await dsJson<Impact>(cp, ['impact', `${NS}/tolerant`]);
    assert.equal(impact.cascade, 'background');
    assert.equal(impact.pods, pods.length);
    assert.equal(impact.nodes, new Set(pods.map((p) => p.spec?.nodeName)).size);
    await kubectl(cp, ['delete', 'daemonset', '-n', NS, 'tolerant']);
    await waitFor('the garbage collector to delete the pods of tolerant', async () =>
      (await podsOf(cp, NS, 'tolerant')).length === 0 ? true : undefined,
    );
    const revisions = (
      await getJson<{ items: KubeObject[] }>(cp, ['controllerrevisions', '-n', NS, '-l', 'app=tolerant'])
    ).items;
    assert.equal(revisions.length, 0);
  });

  it('kubectl delete --cascade=orphan leaves the pods; ds-doctor sees them as adoptable, and the controller adopts them', async () => {
    await create(cp, [daemonSetObject(NS, 'legacy')]);
    const pods = await waitForDaemonPods(cp, NS, 'legacy', 4);
    await setPodStates(cp, pods, 'ready');
    await waitForReady(cp, NS, 'legacy', 4);
    const names = pods.map(podName).sort();

    // The prediction, read live before the delete.
    const impact = await dsJson<Impact>(cp, ['impact', `${NS}/legacy`, '--cascade=orphan']);
    assert.equal(impact.cascade, 'orphan');
    assert.equal(impact.pods, 0, 'no pod goes away');
    const codes = impact.findings.map((f) => f.code);
    assert.ok(codes.includes('PodsOrphaned') && codes.includes('DrainRefusesOrphans'), codes.join(', '));
    assert.match(
      impact.findings.find((f) => f.code === 'PodsOrphaned')!.message,
      /from 4 pods on 4 nodes and from 1 ControllerRevision/,
    );
    const drainEvidence = impact.findings.find((f) => f.code === 'DrainRefusesOrphans')!.evidence;

    const manifest = await getJson<DaemonSet>(cp, ['daemonset', '-n', NS, 'legacy']);
    await kubectl(cp, ['delete', 'daemonset', '-n', NS, 'legacy', '--cascade=orphan']);
    const orphans = await waitFor('the garbage collector to remove the ownerReferences', async () => {
      const gone = (await cp.kubectl(['get', 'daemonset', '-n', NS, 'legacy'])).code !== 0;
      const now = await podsOf(cp, NS, 'legacy');
      return gone && now.every((p) => !p.metadata?.ownerReferences?.length) ? now : undefined;
    });
    assert.deepEqual(orphans.map(podName).sort(), names, 'the same pods keep running');
    assert.ok(orphans.every((p) => !p.metadata?.deletionTimestamp));
    const revisions = (
      await getJson<{ items: KubeObject[] }>(cp, ['controllerrevisions', '-n', NS, '-l', 'app=legacy'])
    ).items;
    assert.equal(revisions.length, 1, 'the ControllerRevision is orphaned too, not deleted');
    assert.ok(!revisions[0]!.metadata?.ownerReferences?.length);

    // kubectl drain refuses exactly the orphans ds-doctor named for a node (its first drain line).
    const predicted = drainEvidence[0] ?? '';
    const node = /^kubectl drain (\S+) /.exec(predicted)?.[1];
    assert.ok(node, `ds-doctor names a drain command: ${drainEvidence.join(' | ')}`);
    const drain = await cp.kubectl(['drain', node, '--ignore-daemonsets', '--dry-run=client']);
    assert.notEqual(drain.code, 0);
    assert.match(drain.stderr, /Pods that declare no controller \(use --force to override\): /);
    const refused = (s: string) => [...s.matchAll(/\(use --force to override\): ([^,\n]+)/g)].map((m) => m[1]!.trim());
    assert.deepEqual([...new Set(refused(predicted))], [...new Set(refused(drain.stderr))]);
    assert.equal(refused(predicted).length > 0, true);

    // ds-doctor on the saved manifest and the cluster after the delete: the orphans are adoptable.
    const dir = path.join(cp.workDir, 'orphaned');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'legacy.json'), JSON.stringify(manifest));
    fs.writeFileSync(
      path.join(dir, 'cluster.yaml'),
      await kubectl(cp, ['get', 'nodes,pods,controllerrevisions,events', '-n', NS, '-o', 'yaml']),
    );
    const offline = await dsJson<{ notes: string[] }>(cp, ['why', `${NS}/legacy`, '-f', dir], [0]);
    assert.ok(
      (offline.notes ?? []).includes('4 orphaned pod(s) match the selector and will be adopted on the next sync'),
      offline.notes.join(' | '),
    );

    // Re-created from the saved manifest, the DaemonSet adopts them: no pod is replaced.
    const fresh: DaemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'legacy', namespace: NS, labels: manifest.metadata?.labels ?? {} },
      spec: manifest.spec!,
    };
    await create(cp, [fresh]);
    const uid = (await getJson<DaemonSet>(cp, ['daemonset', '-n', NS, 'legacy'])).metadata?.uid;
    const adopted = await waitFor('the controller to adopt the orphans', async () => {
      const now = await podsOf(cp, NS, 'legacy');
      return now.every((p) => p.metadata?.ownerReferences?.some((r) => r.controller && r.uid === uid))
        ? now
        : undefined;
    });
    assert.deepEqual(adopted.map(podName).sort(), names, 'adopted, not replaced');
    await waitForReady(cp, NS, 'legacy', 4);
    const scan = await dsJson<{ daemonSets: { name: string; health: string; ready: number; updated: number }[] }>(
      cp,
      ['scan', '-n', NS],
      [0],
    );
    const legacy = scan.daemonSets.find((d) => d.name === 'legacy');
    assert.deepEqual([legacy?.health, legacy?.ready, legacy?.updated], ['Healthy', 4, 4]);
    const live = await dsJson<{ notes?: string[] }>(cp, ['why', `${NS}/legacy`], [0]);
    assert.ok(!(live.notes ?? []).some((n) => /orphaned/.test(n)), (live.notes ?? []).join(' | '));
  });
});
