// A DaemonSet being deleted, on the real control plane: foreground deletion with a finalizer of
// our own that holds the object after the garbage collector has deleted its pods. The controller
// does nothing for it (syncDaemonSet returns early when ds.DeletionTimestamp != nil), so its status
// still counts the pods that are gone. ds-doctor answers it, live and on a kubectl dump, instead of
// refusing the dump as a contradiction (no Pod objects while the status counts scheduled pods).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { ControlPlane } from '../cluster/harness.js';
import type { DaemonSet } from '../../src/model/k8s-types.js';
import {
  REPO,
  create,
  daemonSetObject,
  ds,
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

const NS = 'del';
const NAME = 'agent';
const HOLD = 'example.com/hold';

interface Rollout {
  verdict: string;
  budgetUsed: number;
  reasons: { code: string; message: string }[];
  notes?: string[];
}

describe('a DaemonSet being deleted is answered, not refused', () => {
  let cp: ControlPlane;
  let dump = '';

  before(async () => {
    cp = await startCluster('deleting');
    const held = daemonSetObject(NS, NAME);
    held.metadata = { ...held.metadata, finalizers: [HOLD] };
    await create(cp, [nodeObject('d-1'), nodeObject('d-2'), namespaceObject(NS), held]);
    await setPodStates(cp, await waitForDaemonPods(cp, NS, NAME, 2), 'ready');
    await waitForReady(cp, NS, NAME, 2);
    await kubectl(cp, ['delete', 'daemonset', '-n', NS, NAME, '--cascade=foreground', '--wait=false']);
    // The garbage collector deletes the pods, then drops foregroundDeletion; our finalizer keeps the object.
    await waitFor('the pods gone, the DaemonSet held by its finalizer', async () => {
      const d = await getJson<DaemonSet>(cp, ['daemonset', '-n', NS, NAME]);
      const pods = await podsOf(cp, NS, NAME);
      return d.metadata?.deletionTimestamp && !pods.length && !d.metadata.finalizers?.includes('foregroundDeletion')
        ? d
        : undefined;
    });
    dump = path.join(REPO, 'test', 'cluster', '.work', 'e2e-deleting', 'dump.yaml');
    fs.writeFileSync(dump, await kubectl(cp, ['get', 'nodes,daemonsets,pods', '-A', '-o', 'yaml']));
  });

  after(async () => {
    if (cp)
      await kubectl(cp, [
        'patch',
        'daemonset',
        '-n',
        NS,
        NAME,
        '--type=json',
        '-p',
        '[{"op":"remove","path":"/metadata/finalizers"}]',
      ]).catch(() => undefined);
    await stopCluster(cp);
  });

  it('the status still counts the pods: the controller does nothing for a DaemonSet being deleted', async () => {
    const d = await getJson<DaemonSet>(cp, ['daemonset', '-n', NS, NAME]);
    assert.equal(d.status?.currentNumberScheduled, 2);
    assert.deepEqual(await podsOf(cp, NS, NAME), []);
  });

  it('rollout, live and on the dump: DaemonSetDeleting, no budget in use', async () => {
    const live = await dsJson<Rollout>(cp, ['rollout', `${NS}/${NAME}`]);
    const file = await dsJson<Rollout>(cp, ['rollout', `${NS}/${NAME}`, '-f', dump]);
    for (const r of [live, file]) {
      assert.deepEqual(
        r.reasons.map((x) => x.code),
        ['DaemonSetDeleting'],
      );
      assert.deepEqual([r.verdict, r.budgetUsed], ['Stuck', 0]);
    }
  });

  it('why on the dump (no Pod objects, the status counts 2): answered with a note, not exit 2', async () => {
    const r = await ds(cp, ['why', `${NS}/${NAME}`, '-f', dump, '-o', 'json']);
    assert.notEqual(r.code, 2, r.stderr);
    const doc = JSON.parse(r.stdout) as { notes?: string[]; nodes: { reasons: { code: string }[] }[] };
    assert.ok(
      (doc.notes ?? []).some((n) => n.includes(`daemonset ${NS}/${NAME}`) && n.includes('is being deleted')),
      (doc.notes ?? []).join('\n'),
    );
    assert.ok(doc.nodes.every((n) => n.reasons.some((x) => x.code === 'DaemonSetDeleting')));
  });
});
