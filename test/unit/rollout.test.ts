// Rolling update, ported from pkg/controller/daemon/update_test.go and util tests:
// TestGetUnavailableNumbers / GetScaledValueFromIntOrPercent rounding, TestDaemonSetUpdatesPodsWithMaxSurge,
// TestDaemonSetUpdatesAllOldNodesNotReady / TestDaemonSetUpdatesSomeOldPodsNotReady (1.31: unavailable
// old pods count against maxUnavailable and are always replaced), OnDelete, and desired = 0.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rollingBudget, scaledValue, allowsSurge, findUpdatedPodsOnNode } from '../../src/k8s/rollingupdate.js';
import { diagnoseRollout } from '../../src/analyze/rollout/index.js';
import { scan } from '../../src/analyze/scan.js';
import type { DaemonSet, Node, Pod } from '../../src/model/k8s-types.js';
import { NOW, daemonSet, indexOf, node, pod } from '../builders.js';
import { nodeBudget } from '../../src/analyze/rollout/budget.js';
import { daemonSetContext, diagnoseAllNodes } from '../../src/analyze/placement/index.js';

describe('GetScaledValueFromIntOrPercent rounds percentages up', () => {
  const cases: [number | string, number, number | undefined][] = [
    ['50%', 3, 2],
    ['20%', 5, 1],
    ['1%', 10, 1],
    ['30%', 0, 0],
    ['100%', 7, 7],
    [2, 5, 2],
    ['0%', 9, 0],
    ['5', 5, undefined],
    ['x%', 5, undefined],
  ];
  for (const [v, total, want] of cases) {
    test(`${v} of ${total}`, () => {
      assert.equal(scaledValue(v, total, true), want, `${v} of ${total}`);
    });
  }
});

test('updatedDesiredNodeCounts: both zero forces maxUnavailable 1; nil maxSurge is 0; OnDelete has none', () => {
  const ds = (ru: Record<string, unknown> | undefined, type = 'RollingUpdate') =>
    daemonSet('d')
      .with((d) => {
        d.spec!.updateStrategy = { type, ...(ru ? { rollingUpdate: ru } : {}) };
      })
      .build();
  assert.deepEqual(rollingBudget(ds({ maxUnavailable: 0, maxSurge: 0 }), 5), {
    maxUnavailable: 1,
    maxSurge: 0,
    forcedOne: true,
  });
  assert.deepEqual(rollingBudget(ds({ maxUnavailable: 0, maxSurge: 0 }), 0), {
    maxUnavailable: 0,
    maxSurge: 0,
    forcedOne: false,
  });
  assert.deepEqual(rollingBudget(ds({ maxUnavailable: '10%' }), 25), {
    maxUnavailable: 3,
    maxSurge: 0,
    forcedOne: false,
  });
  assert.deepEqual(rollingBudget(ds({ maxUnavailable: 0, maxSurge: '10%' }), 25), {
    maxUnavailable: 0,
    maxSurge: 3,
    forcedOne: false,
  });
  assert.deepEqual(rollingBudget(ds(undefined, 'OnDelete'), 5), { maxUnavailable: 0, maxSurge: 0, forcedOne: false });
  assert.match(rollingBudget(ds({ maxUnavailable: 'half' }), 5).error ?? '', /invalid value for MaxUnavailable/);
  assert.equal(allowsSurge(ds({ maxUnavailable: 0, maxSurge: '1%' })), true);
  assert.equal(allowsSurge(ds({ maxUnavailable: 1 })), false);
});

test('findUpdatedPodsOnNode ignores terminating pods and flags duplicates', () => {
  const d = daemonSet('d').build();
  const newPod = pod('n').ofDaemonSet(d, 'a', 'new', '2').on('a').build();
  const oldPod = pod('o').ofDaemonSet(d, 'a', 'old', '1').on('a').build();
  const dying = pod('x').ofDaemonSet(d, 'a', 'old', '1').on('a').terminating(5).build();
  assert.deepEqual(findUpdatedPodsOnNode([newPod, oldPod, dying], 'new', 2), { ok: true, newPod, oldPod });
  assert.equal(findUpdatedPodsOnNode([newPod, pod('n2').ofDaemonSet(d, 'a', 'new', '2').build()], 'new', 2).ok, false);
});

interface World {
  ds: DaemonSet;
  nodes: Node[];
  pods: Pod[];
}

/** A DaemonSet at template generation 2 (hash "new") over `n` nodes, each with a pod set up by `podFor`. */
function world(
  n: number,
  podFor: (ds: DaemonSet, node: string, i: number) => Pod | Pod[] | undefined,
  shape: (d: ReturnType<typeof daemonSet>) => void = () => {},
): World {
  const b = daemonSet('agent', 'ops').generation(2);
  shape(b);
  const ds = b.build();
  ds.status = { observedGeneration: 2 };
  const nodes = Array.from({ length: n }, (_, i) => node(`n${i}`).build());
  const pods = nodes.flatMap((nd, i) => [podFor(ds, nd.metadata!.name!, i) ?? []].flat());
  return { ds, nodes, pods };
}

const oldReady = (ds: DaemonSet, n: string) =>
  pod(`agent-old-${n}`, 'ops').ofDaemonSet(ds, n, 'old', '1').on(n).ready().build();
const newReady = (ds: DaemonSet, n: string) =>
  pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n).ready().build();
const newCrash = (ds: DaemonSet, n: string) =>
  pod(`agent-new-${n}`, 'ops')
    .ofDaemonSet(ds, n, 'new', '2')
    .on(n)
    .waiting('CrashLoopBackOff', '', { restartCount: 5, lastTerminated: { reason: 'Error', exitCode: 1 } })
    .build();

function run(w: World, stuckAfter = 600) {
  return diagnoseRollout(indexOf({ nodes: w.nodes, daemonSets: [w.ds], pods: w.pods }), w.ds, NOW, stuckAfter);
}

test('all updated and available → Complete (kubectl: successfully rolled out)', () => {
  const r = run(world(3, (ds, n) => newReady(ds, n)));
  assert.equal(r.verdict, 'Complete');
  assert.equal(r.budgetInUse.length, 0);
});

test('desired = 0 counts as rolled out', () => {
  const r = run(
    world(
      2,
      () => undefined,
      (b) => b.nodeSelector({ pool: 'none' }),
    ),
  );
  assert.deepEqual([r.verdict, r.desired], ['Complete', 0]);
});

test('old pods available with budget left → Progressing', () => {
  const r = run(world(5, (ds, n, i) => (i === 0 ? newReady(ds, n) : oldReady(ds, n))));
  assert.equal(r.verdict, 'Progressing');
  assert.equal(r.updated, 1);
  assert.match(r.estimate ?? '', /4 node\(s\) to go, 1 at a time/);
});

test('new pod crash-looping uses the whole budget → Stuck with the blocker named', () => {
  const r = run(world(6, (ds, n, i) => (i === 0 ? newCrash(ds, n) : oldReady(ds, n))));
  assert.equal(r.verdict, 'Stuck');
  assert.deepEqual(
    r.blockers.map((b) => [b.node, b.code]),
    [['n0', 'CrashLoopBackOff']],
  );
  assert.ok(r.reasons.some((x) => x.code === 'BudgetExhausted'));
  assert.match(r.nextSteps[0]!, /read the new pod's logs/);
});

test('the budget held by an unreachable node: BudgetExhausted does not say more budget only fails the same way (the fix differential raised it and the rollout went on)', () => {
  const w = world(4, (ds, n, i) =>
    i === 0 ? pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n).build() : oldReady(ds, n),
  );
  w.nodes[0] = node('n0').notReady('Unknown').build();
  const r = run(w, 1);
  assert.equal(r.verdict, 'Stuck');
  const exhausted = r.reasons.find((x) => x.code === 'BudgetExhausted')!;
  assert.doesNotMatch(exhausted.fix, /would only let more nodes fail/);
  assert.match(
    exhausted.fix,
    /held by nodes that are NotReady or unreachable.*raising maxUnavailable past them lets the rollout go on/,
  );
  // A crash-looping new pod is another matter: more budget spreads it.
  const crash = run(world(6, (ds, n, i) => (i === 0 ? newCrash(ds, n) : oldReady(ds, n))));
  assert.match(
    crash.reasons.find((x) => x.code === 'BudgetExhausted')!.fix,
    /would only let more nodes fail the same way/,
  );
});

test('an old pod stuck terminating on an unreachable node: force-deleting it helps only when the controller does not create another there (the fix differential: a new pod there never started)', () => {
  const unreachable = () =>
    node('n0')
      .notReady('Unknown')
      .taint('node.kubernetes.io/unreachable', undefined, 'NoSchedule')
      .taint('node.kubernetes.io/unreachable', undefined, 'NoExecute')
      .build();
  const stuckOld = (ds: DaemonSet, n: string) =>
    pod(`agent-old-${n}`, 'ops').ofDaemonSet(ds, n, 'old', '1').on(n).ready().terminating(300, 30).build();
  const rows = (w: World) =>
    diagnoseAllNodes(indexOf({ nodes: w.nodes, daemonSets: [w.ds], pods: w.pods }), w.ds, NOW, 1);
  // Tolerating every taint (kube-proxy, CNI agents): the Node object is what to delete.
  const everywhere = world(
    3,
    (ds, n, i) => (i === 0 ? stuckOld(ds, n) : newReady(ds, n)),
    (b) => b.tolerate({ operator: 'Exists' }),
  );
  everywhere.nodes[0] = unreachable();
  const step = run(everywhere, 1).nextSteps.find((x) => x.startsWith('node n0'))!;
  assert.match(
    step,
    /delete its Node object: kubectl delete node n0 \(its pods are garbage-collected; force-deleting the pod only moves the problem: no taint keeps the DaemonSet off the node/,
  );
  assert.doesNotMatch(step, /kubectl delete pod/);
  const reason = rows(everywhere)[0]!.reasons.find((x) => x.code === 'PodTerminating')!;
  assert.match(reason.fix, /delete its Node object: kubectl delete node n0 /);
  assert.doesNotMatch(reason.fix, /kubectl delete pod/);
  // Without the unreachable toleration the controller creates no pod there once it is gone.
  const plain = world(3, (ds, n, i) => (i === 0 ? stuckOld(ds, n) : newReady(ds, n)));
  plain.nodes[0] = unreachable();
  assert.match(
    run(plain, 1).nextSteps.find((x) => x.startsWith('node n0'))!,
    /force-delete the pod: kubectl delete pod -n ops agent-old-n0 --grace-period=0 --force/,
  );
  assert.match(
    rows(plain)[0]!.reasons.find((x) => x.code === 'PodTerminating')!.fix,
    /\(if it is gone for good\) kubectl delete pod -n ops agent-old-n0 --grace-period=0 --force/,
  );
});

test('a larger budget keeps going past one bad node (Progressing with a warning)', () => {
  const r = run(
    world(
      6,
      (ds, n, i) => (i === 0 ? newCrash(ds, n) : oldReady(ds, n)),
      (b) =>
        b.with((d) => {
          d.spec!.updateStrategy!.rollingUpdate = { maxUnavailable: '50%' };
        }),
    ),
  );
  assert.equal(r.maxUnavailable, 3);
  assert.equal(r.verdict, 'Progressing');
  assert.ok(r.reasons.some((x) => x.code === 'NewPodsUnavailable' && x.severity === 'error'));
});

test('1.31: an unavailable old pod counts against maxUnavailable but is always replaced (progress)', () => {
  const r = run(
    world(4, (ds, n, i) =>
      i === 0
        ? pod(`agent-old-${n}`, 'ops').ofDaemonSet(ds, n, 'old', '1').on(n).waiting('CrashLoopBackOff').build()
        : oldReady(ds, n),
    ),
  );
  assert.deepEqual(
    r.budgetInUse.map((u) => [u.node, u.state]),
    [['n0', 'old pod unavailable']],
  );
  assert.equal(r.verdict, 'Progressing');
  assert.ok(r.reasons.some((x) => x.code === 'OldPodsUnavailable'));
});

test('transient states are Progressing until --stuck-after', () => {
  const creating = (ds: DaemonSet, n: string) =>
    pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n).created(120).waiting('ContainerCreating').build();
  const w = world(3, (ds, n, i) => (i === 0 ? creating(ds, n) : oldReady(ds, n)));
  assert.equal(run(w, 600).verdict, 'Progressing');
  assert.equal(run(w, 60).verdict, 'Stuck');
});

test('surge: hand-over waits for the new pod; a host port held by the old pod can never surge', () => {
  const surge = (b: ReturnType<typeof daemonSet>) =>
    b.hostNetwork().with((d) => {
      d.spec!.updateStrategy!.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 };
      d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 9100, hostPort: 9100 }];
    });
  const pending = (ds: DaemonSet, n: string) => pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').build();
  const r = run(world(3, (ds, n, i) => (i === 0 ? [oldReady(ds, n), pending(ds, n)] : oldReady(ds, n)), surge));
  assert.equal(r.maxSurge, 1);
  assert.equal(r.verdict, 'Stuck');
  assert.deepEqual(
    r.blockers.map((b) => b.code),
    ['HostPortConflict'],
  );
  assert.ok(r.reasons.some((x) => x.code === 'SurgeHostPortConflict'));
  const starting = (ds: DaemonSet, n: string) =>
    pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n).created(30).waiting('ContainerCreating').build();
  const ok = run(
    world(
      3,
      (ds, n, i) => (i === 0 ? [oldReady(ds, n), starting(ds, n)] : oldReady(ds, n)),
      (b) =>
        b.with((d) => {
          d.spec!.updateStrategy!.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 };
        }),
    ),
  );
  assert.deepEqual([ok.verdict, ok.budgetInUse[0]?.state], ['Progressing', 'new pod surging next to the old one']);
});

test('OnDelete with outdated pods → Manual, with a canary first', () => {
  const r = run(
    world(
      3,
      (ds, n) => oldReady(ds, n),
      (b) =>
        b.with((d) => {
          d.spec!.updateStrategy = { type: 'OnDelete' };
        }),
    ),
  );
  assert.equal(r.verdict, 'Manual');
  assert.equal(r.kubectlStatus, 'error: rollout status is only available for RollingUpdate strategy type');
  assert.match(r.nextSteps[0]!, /^canary: kubectl delete pod -n ops agent-old-n0/);
});

test('spec not observed yet → Pending, and kubectl says so', () => {
  const w = world(2, (ds, n) => oldReady(ds, n));
  w.ds.metadata!.generation = 3;
  const r = run(w);
  assert.equal(r.verdict, 'Pending');
  assert.equal(r.kubectlStatus, 'Waiting for daemon set spec update to be observed...');
});

test('maxSurge 0: every unavailable old pod is replaced regardless of the budget, so no BudgetExhausted (kubernetes v1.35 pkg/controller/daemon/update_test.go#TestDaemonSetUpdatesAllOldPodsNotReady)', () => {
  const oldNotReady = (ds: DaemonSet, n: string) =>
    pod(`agent-old-${n}`, 'ops').ofDaemonSet(ds, n, 'old', '1').on(n).waiting('ContainerCreating').build();
  const r = run(
    world(
      5,
      (ds, n) => oldNotReady(ds, n),
      (b) =>
        b.with((d) => {
          d.spec!.updateStrategy!.rollingUpdate = { maxUnavailable: 3 };
        }),
    ),
  );
  assert.equal(r.budgetUsed, 5);
  assert.ok(r.reasons.some((x) => x.code === 'OldPodsUnavailable'));
  assert.ok(
    !r.reasons.some((x) => x.code === 'BudgetExhausted'),
    'no BudgetExhausted: no candidate waits for the budget',
  );
});

test('surge in use does not count a node whose only pod is terminating', () => {
  const surge = (b: ReturnType<typeof daemonSet>) =>
    b.with((d) => {
      d.spec!.updateStrategy!.rollingUpdate = { maxUnavailable: 0, maxSurge: 2 };
    });
  const starting = (ds: DaemonSet, n: string) =>
    pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n).created(30).waiting('ContainerCreating').build();
  const dying = (ds: DaemonSet, n: string) =>
    pod(`agent-old-${n}`, 'ops').ofDaemonSet(ds, n, 'old', '1').on(n).ready().terminating(-10).build();
  const r = run(
    world(
      3,
      (ds, n, i) => (i === 0 ? dying(ds, n) : i === 1 ? [oldReady(ds, n), starting(ds, n)] : oldReady(ds, n)),
      surge,
    ),
  );
  assert.equal(r.budgetInUse.length, 2, 'both nodes are listed');
  assert.equal(r.budgetUsed, 1, 'only the surging node uses maxSurge');
});

test('a crash-looping new image with no earlier revision: the fix never advises kubectl rollout undo', () => {
  const r = run(world(6, (ds, n, i) => (i === 0 ? newCrash(ds, n) : oldReady(ds, n))));
  assert.match(r.nextSteps[0]!, /no earlier revision to roll back to/);
  assert.ok(!r.reasons.some((x) => /kubectl rollout undo daemonset/.test(x.fix)));
});

test('one judgement of a young pod: rollout Progressing and scan RollingOut (not Failing) within --stuck-after; both Stuck/Failing past it', () => {
  const young = (ds: DaemonSet, n: string) =>
    pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n).created(40).waiting('ContainerCreating').build();
  const w = world(3, (ds, n) => young(ds, n));
  const index = indexOf({ nodes: w.nodes, daemonSets: [w.ds], pods: w.pods });
  assert.equal(diagnoseRollout(index, w.ds, NOW, 600).verdict, 'Progressing');
  assert.equal(scan(index, [w.ds], NOW, 'all namespaces', 600).daemonSets[0]!.health, 'RollingOut');
  assert.equal(diagnoseRollout(index, w.ds, NOW, 30).verdict, 'Stuck');
  assert.equal(scan(index, [w.ds], NOW, 'all namespaces', 30).daemonSets[0]!.health, 'Failing');
});

test('NotAvailableYet resolves by the clock: an old pod within minReadySeconds is not stuck', () => {
  const w = world(
    2,
    (ds, n, i) =>
      i === 0
        ? pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n).created(7200).ready(10).build()
        : newReady(ds, n),
    (b) =>
      b.with((d) => {
        d.spec!.minReadySeconds = 60;
      }),
  );
  assert.equal(run(w).verdict, 'Progressing');
});

test("stale .status: every pod available but numberAvailable lags → StaleStatus next to kubectl's Waiting (kubernetes#53023)", () => {
  const w = world(2, (ds, n) => newReady(ds, n));
  w.ds.status = {
    observedGeneration: 2,
    desiredNumberScheduled: 2,
    currentNumberScheduled: 2,
    numberReady: 2,
    updatedNumberScheduled: 2,
    numberAvailable: 1,
    numberUnavailable: 1,
    numberMisscheduled: 0,
  };
  const r = run(w);
  assert.equal(r.verdict, 'Complete');
  assert.match(r.kubectlStatus, /Waiting for daemon set "agent" rollout to finish: 1 of 2 updated pods are available/);
  const stale = r.reasons.find((x) => x.code === 'StaleStatus');
  assert.ok(stale, 'StaleStatus explains the disagreement');
  assert.match(stale.message, /numberAvailable 1 \(recomputed 2\)/);
  assert.match(stale.fix, /kubectl annotate daemonset\/agent -n ops/);
});

test('no StaleStatus while the controller has not observed the spec (that is ControllerNotObserved)', () => {
  const w = world(2, (ds, n) => newReady(ds, n));
  w.ds.status = { observedGeneration: 1, desiredNumberScheduled: 2, numberAvailable: 0 };
  assert.ok(!run(w).reasons.some((x) => x.code === 'StaleStatus'));
});

test('the rollout loop walks its node entries in name order, whatever the input order, a pod on a node the input lacks in its place', () => {
  const ds = daemonSet('agent', 'ops').generation(2).build();
  ds.status = { observedGeneration: 2 };
  const nodes = ['n2', 'n0', 'n1'].map((n) => node(n).build());
  // Old pods not ready everywhere: each node uses the budget; `gone` is no longer in the input.
  const oldNotReady = (n: string) => pod(`agent-old-${n}`, 'ops').ofDaemonSet(ds, n, 'old', '1').on(n).build();
  const pods = [...['n2', 'n0', 'n1'].map(oldNotReady), oldNotReady('gone'), oldNotReady('m')];
  const index = indexOf({ nodes: [...nodes, node('m').build()], daemonSets: [ds], pods });
  const ctx = daemonSetContext(index, ds);
  const budget = nodeBudget(index, {
    ctx,
    rows: diagnoseAllNodes(index, ds, NOW),
    now: NOW,
    stuckAfter: 600,
    surge: false,
    minReady: 0,
  });
  assert.deepEqual(
    budget.uses.map((u) => [u.node, u.slot]),
    [
      ['gone', 'old-unavailable'],
      ['m', 'old-unavailable'],
      ['n0', 'old-unavailable'],
      ['n1', 'old-unavailable'],
      ['n2', 'old-unavailable'],
    ],
  );
});

test('NodesNotReady says which pods hold budget: a pod still Ready on a NotReady node holds none (the demo kube-proxy on worker-5)', () => {
  const w = world(3, (ds, n, i) =>
    i === 2 ? pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n).build() : newReady(ds, n),
  );
  w.nodes[1] = node('n1').notReady('False').build();
  w.nodes[2] = node('n2').notReady('Unknown').build();
  const r = run(w);
  const reason = r.reasons.find((x) => x.code === 'NodesNotReady')!;
  assert.equal(reason.severity, 'warning');
  assert.equal(
    reason.message,
    '2 node(s) with pods of this DaemonSet are NotReady or unreachable: 1 has an unavailable pod that holds budget until the node recovers; 1 still has its pod Ready and available, holding no budget',
  );
  assert.deepEqual(reason.evidence, ['node n1: Ready=False, its pod still Ready', 'node n2: Ready=Unknown']);
  // Only the Ready pod's node: nothing holds budget, so it is information.
  const ready = world(2, (ds, n) => newReady(ds, n));
  ready.nodes[1] = node('n1').notReady('False').build();
  const only = run(ready).reasons.find((x) => x.code === 'NodesNotReady')!;
  assert.equal(only.severity, 'info');
  assert.doesNotMatch(only.message, /are unavailable|hold budget until/);
});

test('OnDelete: every pod updated, one not available → Complete with nothing in use (syncDaemonSet runs rollingUpdate only for RollingUpdate); a node without a pod still waits', () => {
  const onDelete = (b: ReturnType<typeof daemonSet>) => b.with((d) => (d.spec!.updateStrategy = { type: 'OnDelete' }));
  const w = world(
    3,
    (ds, n, i) =>
      i === 0 ? pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n).build() : newReady(ds, n),
    onDelete,
  );
  w.nodes[0] = node('n0').notReady('Unknown').build();
  const r = run(w);
  assert.deepEqual(
    [r.verdict, r.updated, r.available, r.budgetUsed, r.budgetInUse.length, r.blockers.length],
    ['Complete', 3, 2, 0, 0, 0],
  );
  const missing = run(
    world(3, (ds, n, i) => (i === 0 ? undefined : newReady(ds, n)), onDelete),
    0,
  );
  assert.notEqual(missing.verdict, 'Complete');
  assert.equal(missing.budgetUsed, 0);
});

test('DaemonSetDeleting: a DaemonSet being deleted rolls nothing (syncDaemonSet returns early when ds.DeletionTimestamp != nil); its frozen .status is not called stale', () => {
  const w = world(3, (ds, n, i) => (i === 0 ? newCrash(ds, n) : oldReady(ds, n)));
  w.ds.metadata!.deletionTimestamp = NOW.toISOString();
  w.ds.status = { ...w.ds.status, currentNumberScheduled: 3, desiredNumberScheduled: 3, numberReady: 3 };
  const r = run(w);
  assert.deepEqual(
    r.reasons.map((x) => x.code),
    ['DaemonSetDeleting'],
  );
  assert.deepEqual([r.verdict, r.budgetUsed, r.blockers.length], ['Stuck', 0, 0]);
  assert.match(r.reasons[0]!.message, /the controller does nothing for it/);
  assert.match(r.reasons[0]!.evidence.at(-1)!, /^3 pod\(s\) of it in the input/);
});
