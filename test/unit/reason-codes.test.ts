// One builder-made case per reason code that no fixture dump produces (the list ONLY_IN_UNIT_TESTS
// of reason-coverage.test.ts): each test's name starts with the code it produces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DaemonSet, Node, Pod, Service } from '../../src/model/k8s-types.js';
import type { ClusterSnapshot } from '../../src/model/snapshot.js';
import { diagnoseAllNodes } from '../../src/analyze/placement/index.js';
import { diagnoseRollout } from '../../src/analyze/rollout/index.js';
import { analyzeImpact } from '../../src/analyze/impact/index.js';
import { NOW, daemonSet, event, indexOf, node, pod } from '../builders.js';

type Objects = Parameters<typeof indexOf>[0];

function placementCodes(ds: DaemonSet, nodes: Node[], objects: Objects = {}): string[] {
  return diagnoseAllNodes(indexOf({ daemonSets: [ds], nodes, ...objects }), ds, NOW).flatMap((v) =>
    v.reasons.map((r) => r.code),
  );
}

function rolloutOf(ds: DaemonSet, nodes: Node[], objects: Objects = {}) {
  return diagnoseRollout(indexOf({ daemonSets: [ds], nodes, ...objects }), ds, NOW);
}

function impactOf(ds: DaemonSet, objects: Objects) {
  return analyzeImpact(
    indexOf({ daemonSets: [ds], nodes: [node('n1').build(), node('n2').build()], ...objects }),
    ds,
    'background',
    NOW,
  );
}

/** The DaemonSet's pod on `n`, unbound and Pending (the controller created it, the scheduler has not bound it). */
function pendingPod(ds: DaemonSet, n: string): Pod {
  return pod(`${ds.metadata!.name}-${n}`, ds.metadata!.namespace).ofDaemonSet(ds, n).build();
}

/** A DaemonSet at template generation 2 (hash "new"), observed by the controller. */
function rolled(shape: (d: ReturnType<typeof daemonSet>) => void = () => {}): DaemonSet {
  const b = daemonSet('agent', 'ops').generation(2);
  shape(b);
  const ds = b.build();
  ds.status = { observedGeneration: 2 };
  return ds;
}
const oldPod = (ds: DaemonSet, n: string) => pod(`agent-old-${n}`, 'ops').ofDaemonSet(ds, n, 'old', '1').on(n);
const newPod = (ds: DaemonSet, n: string) => pod(`agent-new-${n}`, 'ops').ofDaemonSet(ds, n, 'new', '2').on(n);

const nodes = (...names: string[]) => names.map((n) => node(n).build());

// Placement: kubernetes v1.35.4 pkg/controller/daemon/daemon_controller_test.go#TestNodeShouldRunDaemonPod
// and the scheduler's FitError messages (pkg/scheduler/framework/types.go#FitError.Error).

test('NodeAffinityMismatch: a node outside the required node affinity is Excluded', () => {
  const ds = daemonSet('agent')
    .affinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] })
    .build();
  assert.deepEqual(placementCodes(ds, [node('n').label('zone', 'b').build()]), ['NodeAffinityMismatch']);
});

test('NodeNameMismatch: a template that names another node excludes this one', () => {
  const ds = daemonSet('agent')
    .with((d) => {
      d.spec!.template!.spec!.nodeName = 'elsewhere';
    })
    .build();
  assert.deepEqual(placementCodes(ds, nodes('n')), ['NodeNameMismatch']);
});

test('SchedulingGated: a pod with scheduling gates waits for them', () => {
  const ds = daemonSet('agent').build();
  const gated = pod('agent-n')
    .ofDaemonSet(ds, 'n')
    .with((p) => {
      p.spec!.schedulingGates = [{ name: 'example.com/wait' }];
    })
    .build();
  assert.deepEqual(placementCodes(ds, nodes('n'), { pods: [gated] }), ['SchedulingGated']);
});

test("VolumeConflict: the scheduler reports a volume node affinity conflict for the pod's node", () => {
  const ds = daemonSet('agent').build();
  const p = pod('agent-n')
    .ofDaemonSet(ds, 'n')
    .unschedulable(
      '0/1 nodes are available: 1 node(s) had volume node affinity conflict. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    )
    .build();
  assert.deepEqual(placementCodes(ds, nodes('n'), { pods: [p] }), ['VolumeConflict']);
});

test('FailedScheduling: an unbound pod with no failure reported is waiting for the scheduler', () => {
  const ds = daemonSet('agent').build();
  const codes = diagnoseAllNodes(
    indexOf({ daemonSets: [ds], nodes: nodes('n'), pods: [pendingPod(ds, 'n')] }),
    ds,
    NOW,
  ).flatMap((v) => v.reasons);
  assert.deepEqual(
    codes.map((r) => [r.code, r.severity]),
    [['FailedScheduling', 'warning']],
  );
});

test("FailedScheduling: a scheduler reason ds-doctor has no code for keeps the scheduler's words", () => {
  const ds = daemonSet('agent').build();
  const p = pod('agent-n')
    .ofDaemonSet(ds, 'n')
    .unschedulable(
      "0/1 nodes are available: 1 node(s) didn't match pod topology spread constraints. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
    )
    .build();
  const reasons = diagnoseAllNodes(indexOf({ daemonSets: [ds], nodes: nodes('n'), pods: [p] }), ds, NOW).flatMap(
    (v) => v.reasons,
  );
  assert.deepEqual(
    reasons.map((r) => [r.code, r.severity, r.short]),
    [['FailedScheduling', 'error', "node(s) didn't match pod topology spread constraints"]],
  );
});

// Rollout: kubernetes v1.35.4 pkg/controller/daemon/update.go#rollingUpdate and
// pkg/controller/daemon/update_test.go.

test('InvalidBudget: a maxUnavailable that is neither an integer nor a percentage stops the rollout', () => {
  const ds = rolled((b) =>
    b.with((d) => {
      d.spec!.updateStrategy = {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: 'half' as unknown as string },
      };
    }),
  );
  const r = rolloutOf(ds, nodes('n0'), { pods: [oldPod(ds, 'n0').ready().build()] });
  assert.equal(r.verdict, 'Stuck');
  const reason = r.reasons.find((x) => x.code === 'InvalidBudget');
  assert.equal(reason?.severity, 'error');
  assert.match(reason.message, /invalid value for MaxUnavailable: half/);
});

test('OldPodsUnavailable: an old pod that is not ready holds budget until replaced (TestDaemonSetUpdatesSomeOldPodsNotReady)', () => {
  const ds = rolled();
  const r = rolloutOf(ds, nodes('n0', 'n1'), {
    pods: [
      oldPod(ds, 'n0').waiting('CrashLoopBackOff', '', { restartCount: 5 }).build(),
      oldPod(ds, 'n1').ready().build(),
    ],
  });
  assert.ok(
    r.reasons.some((x) => x.code === 'OldPodsUnavailable' && x.severity === 'warning'),
    JSON.stringify(r.reasons.map((x) => x.code)),
  );
});

test('OldPodsTerminating: a node with an available new pod waits for its old pod to terminate (surge hand-over)', () => {
  const ds = rolled((b) =>
    b.with((d) => {
      d.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } };
    }),
  );
  // The deletionTimestamp lies 20 s ahead: the old pod is within its 30 s grace period.
  const pods = [
    newPod(ds, 'n0').created(60).ready(30).build(),
    oldPod(ds, 'n0').ready().terminating(-20, 30).build(),
    newPod(ds, 'n1').created(60).ready(30).build(),
  ];
  const r = rolloutOf(ds, nodes('n0', 'n1'), { pods });
  assert.deepEqual(
    r.reasons.filter((x) => x.code === 'OldPodsTerminating').map((x) => x.severity),
    ['info'],
  );
});

test('NodesWithoutPod: a node that should run a pod and has none counts against maxUnavailable', () => {
  const ds = rolled();
  const r = rolloutOf(ds, nodes('n0', 'n1'), { pods: [newPod(ds, 'n0').ready().build()] });
  const reason = r.reasons.find((x) => x.code === 'NodesWithoutPod');
  assert.ok(reason, JSON.stringify(r.reasons.map((x) => x.code)));
  assert.match(reason.message, /1 node\(s\) that should run a pod have none/);
});

test('FailedCreate: a refused create on a node without a pod stops the rolling update everywhere (daemon_controller.go#syncNodes)', () => {
  const ds = rolled();
  const refused = event(
    'DaemonSet',
    ds,
    'FailedCreate',
    'Error creating: pods "agent-" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2',
  );
  const r = rolloutOf(ds, nodes('n0', 'n1', 'n2'), {
    pods: [oldPod(ds, 'n0').ready().build(), oldPod(ds, 'n1').ready().build()],
    events: [refused],
  });
  const reason = r.reasons.find((x) => x.code === 'FailedCreate');
  assert.ok(reason, JSON.stringify(r.reasons.map((x) => x.code)));
  assert.equal(reason.severity, 'error');
  assert.match(reason.message, /no old pod is replaced on any node/);
});

// Impact: roles and Services (our own analysis over the deletion semantics of
// kubernetes v1.35.4 pkg/controller/garbagecollector/garbagecollector.go).

function agentPods(ds: DaemonSet, names: string[]): Pod[] {
  return names.map((n) =>
    pod(`${ds.metadata!.name}-${n}`, ds.metadata!.namespace).ofDaemonSet(ds, n).on(n).ready().build(),
  );
}

test('NodeDnsLost: deleting node-local-dns breaks lookups through its link-local address', () => {
  const ds = daemonSet('node-local-dns', 'kube-system')
    .hostNetwork()
    .container({
      name: 'node-cache',
      image: 'registry.k8s.io/dns/k8s-dns-node-cache:1.23.1',
      args: ['-localip', '169.254.20.10'],
    })
    .build();
  const d = impactOf(ds, { pods: [...agentPods(ds, ['n1', 'n2']), pod('app').on('n1').ready().build()] });
  const f = d.findings.find((x) => x.code === 'NodeDnsLost');
  assert.equal(f?.severity, 'error');
  assert.match(f.message, /the node-local DNS cache stops on 2 nodes/);
});

test('SecurityAgentGone: deleting a runtime security agent leaves its nodes unwatched', () => {
  const ds = daemonSet('falco', 'security').container({ name: 'falco', image: 'falcosecurity/falco:0.38.0' }).build();
  const d = impactOf(ds, { pods: agentPods(ds, ['n1', 'n2']) });
  const f = d.findings.find((x) => x.code === 'SecurityAgentGone');
  assert.equal(f?.severity, 'warning');
  assert.match(f.message, /runtime security is off on 2 nodes/);
});

test('PodsNotInInput: without Pod objects, while the status counts pods, the risk is judged by the role alone', () => {
  const ds = daemonSet('agent').build();
  ds.status = { ...ds.status, currentNumberScheduled: 2, desiredNumberScheduled: 2 };
  const missing: ClusterSnapshot['missing'] = [{ kind: 'Pod', reason: 'absent' }];
  const d = impactOf(ds, { missing });
  assert.deepEqual(
    d.findings.map((x) => [x.code, x.severity]),
    [['PodsNotInInput', 'info']],
  );
});

test('ServiceLosesLocalEndpoints: an externalTrafficPolicy: Local Service drops traffic on nodes only these pods served', () => {
  const ds = daemonSet('ingress', 'web').build();
  const other = pod('ingress-other', 'web').labels({ app: 'ingress' }).on('n1').ready().build();
  const svc: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'public', namespace: 'web' },
    spec: {
      selector: { app: 'ingress' },
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      clusterIP: '10.96.0.30',
    },
  };
  const d = impactOf(ds, { pods: [...agentPods(ds, ['n1', 'n2']), other], services: [svc] });
  const f = d.findings.find((x) => x.code === 'ServiceLosesLocalEndpoints');
  assert.equal(f?.severity, 'warning');
  assert.match(
    f.message,
    /externalTrafficPolicy: Local, so on 1 node where only these pods served it, external traffic to those nodes is dropped/,
  );
});
