// Status counters as updateDaemonSetStatus computes them (docs/semantics.md §3.8; upstream
// TestDaemonSetStatus* / TestUpdateNumberMisscheduled cases in daemon_controller_test.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recomputeStatus } from '../../../src/k8s/status.js';
import { claimDaemonPods, nodesToDaemonPods } from '../../../src/k8s/controller.js';
import { NOW, daemonSet, indexOf, node, pod } from '../../builders.js';

test('desired, current, ready, available, updated, misscheduled', () => {
  const ds = daemonSet('agent')
    .generation(2)
    .with((d) => {
      d.spec!.minReadySeconds = 30;
    })
    .build();
  const nodes = [
    node('a').build(),
    node('b').build(),
    node('c').build(),
    node('tainted').taint('maintenance', 'true', 'NoSchedule').build(),
    node('gone-label').build(),
  ];
  ds.spec!.template!.spec!.nodeSelector = undefined;
  const pods = [
    pod('agent-a').ofDaemonSet(ds, 'a', 'new', '2').on('a').ready(600).build(), // ready, available, updated
    pod('agent-b').ofDaemonSet(ds, 'b', 'old', '1').on('b').ready(10).build(), // ready, not yet available, outdated
    pod('agent-c').ofDaemonSet(ds, 'c', 'new', '2').build(), // pending (unbound) still counts as scheduled
    pod('agent-t').ofDaemonSet(ds, 'tainted', 'new', '2').on('tainted').ready(600).build(), // misscheduled
  ];
  const s = recomputeStatus(indexOf({ nodes, daemonSets: [ds], pods }), ds, 'new', 2, NOW);
  assert.deepEqual(s, { desired: 4, current: 3, ready: 2, available: 1, updated: 2, misscheduled: 1, unavailable: 3 });
});

test('the oldest pod decides; terminal deleted pods are skipped; pods on unknown nodes are not counted', () => {
  const ds = daemonSet('agent').build();
  const older = pod('agent-old')
    .ofDaemonSet(ds, 'a', 'h', '1')
    .on('a')
    .created(600)
    .waiting('CrashLoopBackOff')
    .build();
  const newer = pod('agent-new').ofDaemonSet(ds, 'a', 'h', '1').on('a').created(60).ready(30).build();
  const deletedFailed = pod('agent-dead')
    .ofDaemonSet(ds, 'b', 'h', '1')
    .on('b')
    .phase('Failed')
    .terminating(10)
    .build();
  const elsewhere = pod('agent-x').ofDaemonSet(ds, 'ghost', 'h', '1').on('ghost').ready().build();
  const index = indexOf({
    nodes: [node('a').build(), node('b').build()],
    daemonSets: [ds],
    pods: [older, newer, deletedFailed, elsewhere],
  });
  assert.equal(nodesToDaemonPods(index, ds).has('b'), false);
  assert.equal(nodesToDaemonPods(index, ds, true).has('b'), true);
  const s = recomputeStatus(index, ds, 'h', 1, NOW);
  assert.deepEqual([s.desired, s.current, s.ready], [2, 1, 0]);
});

test('ClaimPods: owned pods matching the selector, adoptable orphans, released pods, other owners ignored', () => {
  const ds = daemonSet('agent').build();
  const owned = pod('owned').ofDaemonSet(ds, 'a').on('a').build();
  const released = pod('released')
    .ofDaemonSet(ds, 'a')
    .on('a')
    .with((p) => {
      p.metadata!.labels = { app: 'other' };
    })
    .build();
  const orphan = pod('orphan').labels({ app: 'agent' }).on('b').build();
  const orphanDeleting = pod('orphan-deleting').labels({ app: 'agent' }).on('b').terminating(5).build();
  const foreign = pod('foreign')
    .labels({ app: 'agent' })
    .with((p) => {
      p.metadata!.ownerReferences = [{ kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true }];
    })
    .build();
  const c = claimDaemonPods(
    indexOf({ daemonSets: [ds], pods: [owned, released, orphan, orphanDeleting, foreign] }),
    ds,
  );
  assert.deepEqual(
    c.pods.map((p) => p.metadata!.name),
    ['owned', 'orphan'],
  );
  assert.deepEqual(
    c.adoptable.map((p) => p.metadata!.name),
    ['orphan'],
  );
  assert.deepEqual(
    c.released.map((p) => p.metadata!.name),
    ['released'],
  );
  const empty = daemonSet('all')
    .with((d) => {
      d.spec!.selector = {};
    })
    .build();
  assert.equal(
    claimDaemonPods(indexOf({ daemonSets: [empty], pods: [orphan] }), empty).pods.length,
    0,
    'an empty selector claims nothing (SelectingAll)',
  );
});
