// Lessons from the differential tests (test/diff): each case is a disagreement the generated
// scenarios found between ds-doctor and the real control plane (Kubernetes v1.35.4), reduced to
// the smallest input, with the upstream code that decided it. Named after what it taught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchNodeSelector } from '../../src/k8s/nodeaffinity.js';
import { compileDaemonPlacement } from '../../src/k8s/daemonpod.js';
import { parseFitError, preemptionVerdict, targetNodeEntries } from '../../src/k8s/schedmsg.js';
import { whyNode } from '../../src/analyze/placement/index.js';
import { diagnoseRollout } from '../../src/analyze/rollout/index.js';
import { planDaemonSet } from '../../src/analyze/plan/index.js';
import type { ControllerRevision, DaemonSet, DaemonSetSpec, KubeEvent, Node, Pod } from '../../src/model/k8s-types.js';
import { NOW, ago, daemonSet, event, indexOf, node, pod } from '../builders.js';

/** ops/agent at generation 2, observed by the controller, with this update strategy. */
function rolledDaemonSet(strategy: NonNullable<DaemonSetSpec['updateStrategy']>): DaemonSet {
  const ds = daemonSet('agent', 'ops')
    .generation(2)
    .with((d) => {
      d.spec!.updateStrategy = strategy;
    })
    .build();
  ds.status = { observedGeneration: 2 };
  return ds;
}

/** A rollout's snapshot: the nodes, the DaemonSet with its current revision, its pods and events. */
function rolloutIndex(ds: DaemonSet, nodes: Node[], pods: Pod[], events: KubeEvent[] = []): ReturnType<typeof indexOf> {
  return indexOf({ nodes, daemonSets: [ds], pods, events, controllerRevisions: [currentRevision(ds)] });
}

/** The ControllerRevision of the DaemonSet's template (hash "new", revision 2), created two minutes ago. */
function currentRevision(ds: DaemonSet): ControllerRevision {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    revision: 2,
    data: { spec: { template: ds.spec!.template! } },
    metadata: {
      name: `${ds.metadata!.name}-new`,
      namespace: ds.metadata!.namespace!,
      creationTimestamp: ago(120),
      labels: { 'controller-revision-hash': 'new' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: ds.metadata!.name!,
          uid: ds.metadata!.uid!,
          controller: true,
        },
      ],
    },
  };
}

test('Gt/Lt compare 64-bit integers: a value that overflows int64 is not a number, so the term never matches', () => {
  // d6-51: `rank Lt [9223372036854775808]` on a node with rank=2. labels.NewRequirement parses the
  // value with strconv.ParseInt(v, 10, 64), which fails past 2^63-1; the term is a parse error and
  // NodeShouldRunDaemonPod said shouldRun=false. ds-doctor compared arbitrary-size integers and
  // said the node matched.
  const rank2 = node('n').label('rank', '2').build();
  const term = (operator: string, value: string) => ({
    nodeSelectorTerms: [{ matchExpressions: [{ key: 'rank', operator, values: [value] }] }],
  });
  assert.equal(matchNodeSelector(term('Lt', '9223372036854775808'), rank2).matches, false);
  assert.equal(matchNodeSelector(term('Lt', '9223372036854775807'), rank2).matches, true);
  assert.equal(matchNodeSelector(term('Gt', '-9223372036854775809'), rank2).matches, false);
  // The node's label goes through the same ParseInt.
  const huge = node('h').label('rank', '9223372036854775808').build();
  assert.equal(matchNodeSelector(term('Gt', '5'), huge).matches, false);
  assert.equal(
    matchNodeSelector(term('Gt', '5'), node('m').label('rank', '9223372036854775807').build()).matches,
    true,
  );
  assert.match(
    matchNodeSelector(term('Lt', '9223372036854775808'), rank2).termMismatches[0]!.failures[0]!,
    /not a 64-bit integer/,
  );

  const ds = daemonSet('agent').affinity(term('Lt', '9223372036854775808')).build();
  assert.equal(compileDaemonPlacement(ds).evaluate(rank2).shouldRun, false);
});

test('the 1.35 FailedScheduling message puts DRA\'s PostFilter text before preemption\'s: the histogram ends at the first ". "', () => {
  // Every PodScheduled message the real scheduler wrote in the differential runs reads
  // "<histogram>. no new claims to deallocate, preemption: …": DynamicResources (on by default
  // since DRA went GA) runs as a PostFilter before DefaultPreemption, and RunPostFilterPlugins
  // joins their messages with ", ". When the target node's reason sorted last in the histogram,
  // ds-doctor lost it (and with it the reason code).
  const msg =
    "0/2 nodes are available: 1 node(s) didn't satisfy plugin(s) [NodeAffinity], 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";
  const parsed = parseFitError(msg)!;
  assert.deepEqual(targetNodeEntries(parsed), [{ count: 1, reason: 'node(s) had untolerated taint(s)' }]);
  assert.equal(parsed.preemption, '0/2 nodes are available: 2 Preemption is not helpful for scheduling.');
  assert.equal(preemptionVerdict(parsed.preemption), 'not-helpful');
  const never = parseFitError(
    "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.",
  )!;
  assert.deepEqual(
    never.entries.map((e) => e.reason),
    ['Insufficient cpu', "node(s) didn't satisfy plugin(s) [NodeAffinity]"],
  );
  assert.equal(preemptionVerdict(never.preemption), 'not-eligible');

  // When the snapshot no longer shows the cause, the scheduler's reason still gives the code.
  const ds = daemonSet('agent').build();
  const n = node('n1').build();
  const pending = pod('agent-x').ofDaemonSet(ds, 'n1').unschedulable(msg).build();
  const d = whyNode(indexOf({ nodes: [n, node('n2').build()], daemonSets: [ds], pods: [pending] }), ds, n, NOW);
  assert.equal(d.verdict, 'Pending');
  assert.equal(d.reasons[0]!.code, 'UntoleratedTaint');
  assert.equal(d.reasons[0]!.short, 'node(s) had untolerated taint(s)');
});

test('a surge rollout whose new pods the API refuses (a pod-count quota) is stuck, not progressing', () => {
  // d7-109, d7-118: maxSurge 1 with a ResourceQuota of one pod per node. The controller's surge
  // loop creates the new pod before it deletes the old one (update.go: candidateNewNodes,
  // allowedNewNodes → syncNodes creates); every create came back "exceeded quota" as a FailedCreate
  // event and nothing ever moved. ds-doctor saw budget left and candidates, and said Progressing.
  const ds = rolledDaemonSet({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
  const nodes = ['n0', 'n1', 'n2'].map((n) => node(n).build());
  const pods = nodes.map((n) =>
    pod(`agent-old-${n.metadata!.name}`, 'ops')
      .ofDaemonSet(ds, n.metadata!.name!, 'old', '1')
      .on(n.metadata!.name!)
      .ready()
      .build(),
  );
  const refused = event(
    'DaemonSet',
    ds,
    'FailedCreate',
    'Error creating: pods "agent-x7k2p" is forbidden: exceeded quota: quota, requested: pods=1, used: pods=3, limited: pods=3',
    'Warning',
    30,
  );
  const index = (events: KubeEvent[]) => rolloutIndex(ds, nodes, pods, events);

  const stuck = diagnoseRollout(index([refused]), ds, NOW);
  assert.equal(stuck.verdict, 'Stuck');
  const reason = stuck.reasons.find((r) => r.code === 'FailedCreate');
  assert.ok(reason, JSON.stringify(stuck.reasons));
  assert.match(reason.message, /exhausted/);
  assert.match(stuck.nextSteps[0]!, /kubectl edit resourcequota -n ops quota/);

  // A refusal from before the current revision says nothing about this rollout.
  const before = event('DaemonSet', ds, 'FailedCreate', refused.message!, 'Warning', 600);
  assert.equal(diagnoseRollout(index([before]), ds, NOW).verdict, 'Progressing');
  assert.equal(diagnoseRollout(index([]), ds, NOW).verdict, 'Progressing');

  // An old pod that is unavailable is replaced by creating the new pod first: refused, it stays.
  pods[0] = pod('agent-old-n0', 'ops').ofDaemonSet(ds, 'n0', 'old', '1').on('n0').waiting('CrashLoopBackOff').build();
  const crash = diagnoseRollout(index([refused]), ds, NOW);
  assert.equal(crash.verdict, 'Stuck');
  assert.deepEqual(
    crash.blockers.map((b) => b.node),
    ['n0'],
  );
});

test('an old pod still terminating next to an available new pod holds the status, not the budget: Progressing until it is gone', () => {
  // d8-71, d8-88: with a termination grace period the old pod lingers after the surge hand-over.
  // findUpdatedPodsOnNode skips terminating pods, so the controller has nothing left to do on the
  // node, but updateDaemonSetStatus counts the oldest pod, so the node is not "updated" until the
  // kubelet confirms the deletion; a moment later the rollout was complete. ds-doctor saw no budget
  // in use and no candidate and said Stuck.
  const ds = rolledDaemonSet({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
  const fresh = (n: string) =>
    pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n).created(60).ready(30).build();
  const leaving = (n: string, secondsAgo: number) =>
    pod(`agent-old-${n}`, 'ops')
      .ofDaemonSet(ds, n, 'old', '1')
      .on(n)
      .created(3600)
      .ready()
      .terminating(secondsAgo, 30)
      .build();
  const run = (nodes: ReturnType<typeof node>[], terminatingSince: number) => {
    const ns = nodes.map((b) => b.build());
    const pods = [...ns.map((n) => fresh(n.metadata!.name!)), leaving('n0', terminatingSince)];
    return diagnoseRollout(indexOf({ nodes: ns, daemonSets: [ds], pods }), ds, NOW);
  };

  const waiting = run([node('n0'), node('n1'), node('n2')], -20);
  assert.equal(waiting.updated, 2);
  assert.equal(waiting.verdict, 'Progressing');
  assert.deepEqual(waiting.budgetInUse, []);
  assert.equal(waiting.reasons.find((r) => r.code === 'OldPodsTerminating')?.severity, 'info');

  // Past its grace period on a node that does not report, the deletion will not complete.
  const lost = run([node('n0').notReady('Unknown'), node('n1'), node('n2')], 120);
  assert.equal(lost.verdict, 'Stuck');
  assert.deepEqual(
    lost.blockers.map((b) => [b.node, b.code]),
    [['n0', 'PodTerminating']],
  );
});

test('OnDelete waits for someone only where an old pod exists: nodes without a pod are not "Manual"', () => {
  // d200-195: OnDelete, and a quota that wants requests.cpu refused every pod, before and after
  // the template change. With no pod anywhere, ds-doctor said Manual — "4 node(s) keep the old
  // revision until their pod is deleted" — counting nodes without a pod as outdated. The
  // controller's manage() creates missing pods from the current template whatever the strategy;
  // here it cannot, so the rollout is stuck on the FailedCreate, as under RollingUpdate.
  const ds = rolledDaemonSet({ type: 'OnDelete' });
  const nodes = ['n0', 'n1'].map((n) => node(n).build());
  const refused = event(
    'DaemonSet',
    ds,
    'FailedCreate',
    'Error creating: pods "agent-x" is forbidden: failed quota: quota: must specify requests.cpu for: agent',
    'Warning',
    30,
  );
  const empty = diagnoseRollout(indexOf({ nodes, daemonSets: [ds], pods: [], events: [refused] }), ds, NOW, 1);
  assert.equal(empty.verdict, 'Stuck');
  assert.ok(!empty.reasons.some((r) => r.code === 'OnDeleteStrategy'));

  // An old pod is what makes it Manual.
  const old = pod('agent-old', 'ops').ofDaemonSet(ds, 'n0', 'old', '1').on('n0').ready().build();
  const manual = diagnoseRollout(indexOf({ nodes, daemonSets: [ds], pods: [old], events: [refused] }), ds, NOW, 1);
  assert.equal(manual.verdict, 'Manual');
  assert.match(
    manual.reasons.find((r) => r.code === 'OnDeleteStrategy')!.message,
    /: 1 node\(s\) keep the old revision/,
  );
});

test('a pod the API refuses on a node without one stops the whole rolling update, unavailable old pods included', () => {
  // d100-58: maxUnavailable 1 with a cpu ResourceQuota that refused the pod of one node, before
  // and after the template change, and two old pods unavailable on NotReady nodes. The controller
  // replaced nothing: updateDaemonSet (daemon_controller.go) returns manage()'s create error before
  // rollingUpdate() runs, on every sync. ds-doctor said the controller replaces unavailable old
  // pods "regardless of the budget", and with budget left it would have called it Progressing.
  const ds = rolledDaemonSet({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } });
  const nodes = ['n0', 'n1', 'n2', 'n3'].map((n) => node(n).build());
  const pods = [
    pod('agent-old-n0', 'ops').ofDaemonSet(ds, 'n0', 'old', '1').on('n0').waiting('CrashLoopBackOff').build(),
    pod('agent-old-n1', 'ops').ofDaemonSet(ds, 'n1', 'old', '1').on('n1').ready().build(),
    pod('agent-old-n2', 'ops').ofDaemonSet(ds, 'n2', 'old', '1').on('n2').ready().build(),
  ];
  const refused = event(
    'DaemonSet',
    ds,
    'FailedCreate',
    'Error creating: pods "agent-9ngt4" is forbidden: exceeded quota: quota, requested: requests.cpu=350m, used: requests.cpu=1750m, limited: requests.cpu=1800m',
    'Warning',
    5,
  );
  const index = (events: KubeEvent[]) => rolloutIndex(ds, nodes, pods, events);

  const stuck = diagnoseRollout(index([refused]), ds, NOW);
  assert.equal(stuck.verdict, 'Stuck');
  const reason = stuck.reasons.find((r) => r.code === 'FailedCreate');
  assert.ok(reason, JSON.stringify(stuck.reasons.map((r) => r.code)));
  assert.match(reason.message, /1 node\(s\) that have none .*no old pod is replaced on any node/);
  assert.match(
    stuck.reasons.find((r) => r.code === 'OldPodsUnavailable')!.message,
    /but not while it cannot create the missing pods/,
  );
  // The crashing old pod stays, and so does the budget left: the refusal, not the budget, holds it.
  assert.deepEqual(stuck.blockers.map((b) => [b.node, b.code]).sort(), [
    ['n0', 'CrashLoopBackOff'],
    ['n3', 'FailedCreate'],
  ]);
  assert.ok(!stuck.reasons.some((r) => r.code === 'BudgetExhausted'));
  assert.match(stuck.nextSteps.join('\n'), /kubectl edit resourcequota -n ops quota/);

  // The missing pod alone, without a refusal (the controller is creating it): the update goes on.
  const going = diagnoseRollout(index([]), ds, NOW);
  assert.equal(going.verdict, 'Progressing');
  assert.ok(!going.reasons.some((r) => r.code === 'FailedCreate'));
});

test('a node whose old pod is being deleted waits for the deletion, whatever state the pod was in', () => {
  // d3001-9: maxUnavailable 1, every old pod crashing. The controller deleted all five at once
  // (unavailable old pods are replaced regardless of the budget) and, once the kubelets confirmed
  // the deletions, created the new pods, which became Ready. In between, ds-doctor judged each
  // terminating pod by its CrashLoopBackOff, called all five nodes blockers and said Stuck.
  const ds = rolledDaemonSet({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } });
  const run = (nodes: ReturnType<typeof node>[], deletedSecondsAgo: number) => {
    const ns = nodes.map((b) => b.build());
    const pods = ns.map((n) =>
      pod(`agent-old-${n.metadata!.name}`, 'ops')
        .ofDaemonSet(ds, n.metadata!.name!, 'old', '1')
        .on(n.metadata!.name!)
        .created(120)
        .waiting('CrashLoopBackOff')
        .terminating(deletedSecondsAgo, 30)
        .build(),
    );
    return diagnoseRollout(rolloutIndex(ds, ns, pods), ds, NOW);
  };

  const waiting = run([node('n0'), node('n1'), node('n2')], 2);
  assert.equal(waiting.verdict, 'Progressing');
  assert.deepEqual(waiting.blockers, []);
  assert.deepEqual(
    waiting.budgetInUse.map((u) => [u.node, u.code, u.resolvesOnItsOwn]),
    [
      ['n0', 'PodTerminating', true],
      ['n1', 'PodTerminating', true],
      ['n2', 'PodTerminating', true],
    ],
  );

  // Past its grace period on a node that does not report, the kubelet cannot confirm it.
  const lost = run([node('n0').notReady('Unknown'), node('n1'), node('n2')], 120);
  assert.deepEqual(
    lost.blockers.map((b) => [b.node, b.code]),
    [['n0', 'PodTerminating']],
  );
  // Long overdue on a reporting node (a finalizer holds it): stuck too.
  const held = run([node('n0'), node('n1'), node('n2')], 3600);
  assert.equal(held.verdict, 'Stuck');
  assert.equal(held.blockers.length, 3);
  // d3001-96, d3002-95: within its grace period on a node that stopped reporting, the deletion
  // will never be confirmed either; past --stuck-after that is Stuck, not Progressing.
  const ns = [node('n0').notReady('Unknown').build()];
  const gone = pod('agent-old-n0', 'ops')
    .ofDaemonSet(ds, 'n0', 'old', '1')
    .on('n0')
    .created(120)
    .ready()
    .terminating(-25, 30)
    .build();
  const down = (stuckAfter: number) => diagnoseRollout(rolloutIndex(ds, ns, [gone]), ds, NOW, stuckAfter);
  assert.equal(down(600).verdict, 'Progressing');
  assert.equal(down(1).verdict, 'Stuck');
  assert.deepEqual(
    down(1).blockers.map((b) => [b.node, b.code]),
    [['n0', 'PodTerminating']],
  );
});

test('a template equal but for an empty toleration value is the same template: the API server stores it without the empty string (omitempty), so the hash does not change (plan d7-52)', () => {
  const ds = daemonSet('agent', 'ops')
    .tolerate({ key: 'ds-diff/special', operator: 'Equal', effect: 'NoExecute' })
    .build();
  ds.status = { observedGeneration: 1 };
  const manifest: DaemonSet = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'ops' },
    spec: structuredClone(ds.spec),
  };
  manifest.spec!.template!.spec!.tolerations = [
    { key: 'ds-diff/special', operator: 'Equal', value: '', effect: 'NoExecute' },
  ];
  (manifest.spec!.template!.spec! as Record<string, unknown>)['imagePullSecrets'] = [];
  const n = node('n1').build();
  const r = planDaemonSet(
    indexOf({
      nodes: [n],
      daemonSets: [ds],
      pods: [pod('agent-n1', 'ops').ofDaemonSet(ds, 'n1', 'cur').on('n1').ready().build()],
    }),
    manifest,
    NOW,
  );
  assert.deepEqual(r.templateDiff, []);
  assert.equal(r.rollout.replaced, false);
});
