// The placement engine, table-driven: each case names the upstream behaviour it mirrors
// (pkg/controller/daemon NodeShouldRunDaemonPod and manage(), the scheduler's filters,
// kubelet container states) and the verdict and reason codes ds-doctor must give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { daemonSetContext, diagnoseNode, headline, whyDaemonSet, whyNode } from '../../src/analyze/placement/index.js';
import { diagnoseRollout } from '../../src/analyze/rollout/index.js';
import type { ControllerRevision, DaemonSet, KubeEvent, Node, Pod } from '../../src/model/k8s-types.js';
import { severitiesOf } from '../../src/cli/commands/verdicts.js';
import { NOW, ago, daemonSet, event, indexOf, node, pod } from '../builders.js';

interface Case {
  name: string;
  ds: DaemonSet;
  node: Node;
  pods?: Pod[];
  events?: KubeEvent[];
  verdict: string;
  codes: string[];
  revisions?: ControllerRevision[];
  /** Substrings expected in the reasons' messages, fixes or evidence. */
  says?: RegExp;
  /** Text the reasons must not contain. */
  never?: RegExp;
  /** Whether the row counts as an error for the exit code. */
  exitError?: boolean;
}

const ds = () => daemonSet('agent', 'ops');
const base = ds().build();
const dsPod = (d: DaemonSet, n: string, name = `agent-${n}`) => pod(name, 'ops').ofDaemonSet(d, n);
const probed = (p: Pod) => {
  p.spec!.containers![0]!.readinessProbe = { httpGet: { path: '/ready', port: 8080 } };
};
const notReadyYet = (p: Pod) => {
  p.status!.conditions![0]!.status = 'False';
  p.status!.containerStatuses![0]!.ready = false;
};
const terminated = (reason: string, exitCode: number) => (p: Pod) => {
  p.status = {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'False' }],
    containerStatuses: [{ name: 'agent', ready: false, restartCount: 1, state: { terminated: { reason, exitCode } } }],
  };
};
const revision = (d: DaemonSet, n: number): ControllerRevision => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: {
    name: `agent-rev${n}`,
    namespace: 'ops',
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: d.metadata!.uid!, controller: true },
    ],
  },
  revision: n,
  data: { spec: { template: d.spec!.template } },
});
const crashZero = (d: DaemonSet) =>
  dsPod(d, 'n')
    .on('n')
    .waiting('CrashLoopBackOff', 'back-off 5m0s restarting failed container', {
      restartCount: 7,
      lastTerminated: { reason: 'Completed', exitCode: 0 },
    })
    .build();
const notReadyNode = () =>
  node('n')
    .notReady('False', 'container runtime network not ready')
    .taint('node.kubernetes.io/not-ready', undefined, 'NoSchedule')
    .taint('node.kubernetes.io/not-ready', undefined, 'NoExecute')
    .build();

const cases: Case[] = [
  {
    name: 'nodeSelector mismatch → Excluded (TestNodeShouldRunDaemonPod)',
    ds: ds().nodeSelector({ pool: 'gpu' }).build(),
    node: node('n').build(),
    verdict: 'Excluded',
    codes: ['NodeSelectorMismatch'],
    says: /kubectl label node n pool=gpu/,
  },
  {
    name: 'required affinity mismatch → Excluded',
    ds: ds()
      .affinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] })
      .build(),
    node: node('n').label('zone', 'b').build(),
    verdict: 'Excluded',
    codes: ['NodeAffinityMismatch'],
  },
  {
    name: 'template nodeName elsewhere → Excluded',
    ds: ds()
      .with((d) => {
        d.spec!.template!.spec!.nodeName = 'x';
      })
      .build(),
    node: node('n').build(),
    verdict: 'Excluded',
    codes: ['NodeNameMismatch'],
  },
  {
    name: 'custom NoSchedule taint → Excluded with the toleration to add',
    ds: base,
    node: node('n').taint('dedicated', 'gpu', 'NoSchedule').build(),
    verdict: 'Excluded',
    codes: ['UntoleratedTaint'],
    says: /key: dedicated, operator: Equal, value: "gpu", effect: NoSchedule/,
  },
  {
    name: 'NotReady node: not-ready NoSchedule is not auto-tolerated (§1.9)',
    ds: base,
    node: node('n')
      .notReady()
      .taint('node.kubernetes.io/not-ready', undefined, 'NoSchedule')
      .taint('node.kubernetes.io/not-ready', undefined, 'NoExecute')
      .build(),
    verdict: 'Excluded',
    codes: ['UntoleratedTaint'],
    says: /only with effect NoExecute/,
  },
  {
    name: 'NoExecute-only not-ready taint: pod is created (TestNotReadyNodeDaemonLaunchesPod)',
    ds: base,
    node: node('n').taint('node.kubernetes.io/not-ready', undefined, 'NoExecute').build(),
    pods: [dsPod(base, 'n').on('n').ready().build()],
    verdict: 'Healthy',
    codes: [],
  },
  {
    name: 'cordoned node is not a problem',
    ds: base,
    node: node('n').cordon().build(),
    pods: [dsPod(base, 'n').on('n').ready().build()],
    verdict: 'Healthy',
    codes: [],
  },
  {
    name: 'NoSchedule taint added after the pod started → Misscheduled, pod kept',
    ds: base,
    node: node('n').taint('maintenance', 'true', 'NoSchedule').build(),
    pods: [dsPod(base, 'n').on('n').ready().build()],
    verdict: 'Misscheduled',
    codes: ['UntoleratedTaint'],
    says: /left running/,
  },
  {
    name: 'label removed → Misscheduled, the controller deletes the pod',
    ds: ds().nodeSelector({ role: 'ingress' }).build(),
    node: node('n').build(),
    pods: [
      dsPod(ds().nodeSelector({ role: 'ingress' }).build(), 'n')
        .on('n')
        .ready()
        .build(),
    ],
    verdict: 'Misscheduled',
    codes: ['NodeSelectorMismatch'],
    says: /deletes it/,
  },
  {
    name: 'no pod, PodSecurity FailedCreate → Missing',
    ds: base,
    node: node('n').build(),
    events: [
      event(
        'DaemonSet',
        base,
        'FailedCreate',
        'Error creating: pods "agent-" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)',
      ),
    ],
    verdict: 'Missing',
    codes: ['FailedCreate'],
    says: /pod-security.kubernetes.io\/enforce=privileged/,
  },
  {
    name: 'no pod, quota FailedCreate → Missing',
    ds: base,
    node: node('n').build(),
    events: [
      event(
        'DaemonSet',
        base,
        'FailedCreate',
        'Error creating: pods "agent-x" is forbidden: exceeded quota: compute, requested: requests.memory=200Mi, used: requests.memory=400Mi, limited: requests.memory=512Mi',
      ),
    ],
    verdict: 'Missing',
    codes: ['FailedCreate'],
    says: /ResourceQuota "compute"/,
  },
  {
    name: 'no pod, controller behind → ControllerNotObserved',
    ds: ds().generation(3).build(),
    node: node('n').build(),
    verdict: 'Missing',
    codes: ['ControllerNotObserved'],
  },
  {
    name: 'no pod on a node that joined seconds ago → NotYetCreated (info)',
    ds: base,
    node: node('n').created(20).build(),
    verdict: 'Missing',
    codes: ['NotYetCreated'],
    says: /joined 20s ago/,
  },
  {
    name: 'DaemonSet being deleted → DaemonSetDeleting',
    ds: ds()
      .with((d) => {
        d.metadata!.deletionTimestamp = ago(30);
      })
      .build(),
    node: node('n').build(),
    verdict: 'Missing',
    codes: ['DaemonSetDeleting'],
  },
  {
    name: 'empty selector → SelectingAll',
    ds: ds()
      .with((d) => {
        d.spec!.selector = {};
      })
      .build(),
    node: node('n').build(),
    verdict: 'Missing',
    codes: ['SelectingAll'],
  },
  {
    name: 'empty selector is reported first even where the nodeSelector excludes the node (kubernetes v1.35 pkg/controller/daemon/daemon_controller_test.go#TestPodIsNotDeletedByDaemonsetWithEmptyLabelSelector)',
    ds: ds()
      .with((d) => {
        d.spec!.selector = {};
      })
      .nodeSelector({ foo: 'bar' })
      .build(),
    node: node('node1').build(),
    pods: [pod('unowned', 'ops').labels({ bang: 'boom' }).on('node1').ready().build()],
    verdict: 'Excluded',
    codes: ['SelectingAll', 'NodeSelectorMismatch'],
    says: /creates and deletes no pod anywhere/,
    exitError: true,
  },
  {
    name: 'pending on cpu; terminal pods free resources (scheduler excludes Succeeded/Failed)',
    ds: ds().requests({ cpu: '500m' }).build(),
    node: node('n').allocatable({ cpu: '1' }).build(),
    pods: [
      dsPod(ds().requests({ cpu: '500m' }).build(), 'n').build(),
      pod('app', 'shop').on('n').requests({ cpu: '800m' }).ready().build(),
      pod('job', 'shop').on('n').requests({ cpu: '4' }).phase('Succeeded').build(),
    ],
    verdict: 'Pending',
    codes: ['InsufficientResource'],
    says: /requests 500m, 200m of 1 allocatable is free/,
  },
  {
    name: 'pending: preemption can help when lower-priority pods hold the room',
    ds: ds()
      .requests({ memory: '1Gi' })
      .with((d) => {
        d.spec!.template!.spec!.priority = 2000001000;
      })
      .build(),
    node: node('n').allocatable({ memory: '2Gi' }).build(),
    pods: [
      dsPod(
        ds()
          .requests({ memory: '1Gi' })
          .with((d) => {
            d.spec!.template!.spec!.priority = 2000001000;
          })
          .build(),
        'n',
      ).build(),
      pod('app', 'shop').on('n').requests({ memory: '1500Mi' }).priority(0).ready().build(),
    ],
    verdict: 'Pending',
    codes: ['InsufficientResource'],
    says: /preemption can make room/,
  },
  {
    name: 'pending: host port held by another pod (NodePorts)',
    ds: base,
    node: node('n').build(),
    pods: [
      dsPod(base, 'n')
        .with((p) => {
          p.spec!.containers![0]!.ports = [{ containerPort: 8080, hostPort: 8080 }];
        })
        .build(),
      pod('ingress', 'web')
        .on('n')
        .with((p) => {
          p.spec!.containers![0]!.ports = [{ containerPort: 80, hostPort: 8080 }];
        })
        .ready()
        .build(),
    ],
    verdict: 'Pending',
    codes: ['HostPortConflict'],
    says: /0\.0\.0\.0:8080\/TCP is already taken/,
  },
  {
    name: 'pending: too many pods',
    ds: base,
    node: node('n').allocatable({ pods: '1' }).build(),
    pods: [dsPod(base, 'n').build(), pod('app').on('n').ready().build()],
    verdict: 'Pending',
    codes: ['TooManyPods'],
  },
  {
    name: 'pending: the scheduler still enforces the pod nodeSelector (§2.2)',
    ds: base,
    node: node('n').build(),
    pods: [
      dsPod(base, 'n')
        .with((p) => {
          p.spec!.nodeSelector = { disk: 'ssd' };
        })
        .build(),
    ],
    verdict: 'Pending',
    codes: ['NodeSelectorMismatch'],
    says: /still enforces/,
  },
  {
    name: 'pending: scheduling gates',
    ds: base,
    node: node('n').build(),
    pods: [
      dsPod(base, 'n')
        .with((p) => {
          p.spec!.schedulingGates = [{ name: 'example.com/wait' }];
        })
        .build(),
    ],
    verdict: 'Pending',
    codes: ['SchedulingGated'],
  },
  {
    name: 'image pull back-off, one revision: no rollback advised',
    ds: base,
    node: node('n').build(),
    pods: [dsPod(base, 'n').on('n').waiting('ImagePullBackOff', 'Back-off pulling image "x:9"').build()],
    revisions: [revision(base, 1)],
    verdict: 'Unhealthy',
    codes: ['ImagePullBackOff'],
    says: /no earlier revision to roll back to/,
    never: /kubectl rollout undo daemonset/,
  },
  {
    name: 'image pull back-off, two revisions: roll back to the previous one (kubectl rollback.go#findHistory)',
    ds: base,
    node: node('n').build(),
    pods: [dsPod(base, 'n').on('n').waiting('ImagePullBackOff', 'Back-off pulling image "x:9"').build()],
    revisions: [revision(base, 3), revision(base, 4)],
    verdict: 'Unhealthy',
    codes: ['ImagePullBackOff'],
    says: /roll back to revision 3: kubectl rollout undo daemonset\/agent -n ops/,
  },
  {
    name: 'crash loop with exit code',
    ds: base,
    node: node('n').build(),
    pods: [
      dsPod(base, 'n')
        .on('n')
        .waiting('CrashLoopBackOff', '', { restartCount: 4, lastTerminated: { reason: 'Error', exitCode: 2 } })
        .build(),
    ],
    verdict: 'Unhealthy',
    codes: ['CrashLoopBackOff'],
    says: /exit code 2/,
  },
  {
    name: 'CrashLoopBackOff whose last termination was OOMKilled gets both codes; OOMKilled names the memory limit',
    ds: base,
    node: node('n').build(),
    pods: [
      dsPod(base, 'n')
        .on('n')
        .with((p) => {
          p.spec!.containers![0]!.resources = { limits: { memory: '50Mi' } };
        })
        .waiting('CrashLoopBackOff', '', { restartCount: 3, lastTerminated: { reason: 'OOMKilled', exitCode: 137 } })
        .build(),
    ],
    verdict: 'Unhealthy',
    codes: ['CrashLoopBackOff', 'OOMKilled'],
    says: /above 50Mi/,
  },
  {
    name: 'crash loop whose last exit was 0: it exits successfully and restartPolicy Always restarts it; no rollback without a revision',
    ds: base,
    node: node('n').build(),
    pods: [crashZero(base)],
    revisions: [revision(base, 1)],
    verdict: 'Unhealthy',
    codes: ['CrashLoopBackOff'],
    says: /exits successfully \(Completed, exit code 0\) and restartPolicy Always restarts it/,
    never: /rollout undo daemonset|fix the config or image/,
  },
  {
    name: 'a container that exited 0 (Completed) in an always-restarting pod is not ContainerCreating',
    ds: base,
    node: node('n').build(),
    pods: [
      dsPod(base, 'n')
        .on('n')
        .with((p) => {
          p.spec!.containers![0]!.name = 'agent';
        })
        .with(terminated('Completed', 0))
        .build(),
    ],
    verdict: 'Unhealthy',
    codes: ['CrashLoopBackOff'],
    says: /not meant to exit|meant to keep running/,
    never: /wait;/,
  },
  {
    name: 'missing ConfigMap',
    ds: base,
    node: node('n').build(),
    pods: [
      dsPod(base, 'n').on('n').waiting('CreateContainerConfigError', 'configmap "agent-config" not found').build(),
    ],
    verdict: 'Unhealthy',
    codes: ['CreateContainerConfigError'],
    says: /configmap "agent-config" not found/,
  },
  {
    name: 'readiness probe failing',
    ds: base,
    node: node('n').build(),
    pods: [dsPod(base, 'n').on('n').with(probed).ready().with(notReadyYet).build()],
    verdict: 'Unhealthy',
    codes: ['ReadinessProbeFailing'],
  },
  {
    name: 'running but not ready without a readiness probe: containers starting, not ReadinessProbeFailing',
    ds: base,
    node: node('n').build(),
    pods: [dsPod(base, 'n').on('n').ready(5).with(notReadyYet).build()],
    verdict: 'Unhealthy',
    codes: ['ContainerCreating'],
    says: /no readiness probe/,
    never: /readiness probe fails/,
  },
  {
    name: 'running, not ready, on a NotReady node: NodeNotReady, not ReadinessProbeFailing',
    ds: base,
    node: node('n').notReady('False', 'PLEG is not healthy').build(),
    pods: [dsPod(base, 'n').on('n').with(probed).ready().with(notReadyYet).build()],
    verdict: 'Unhealthy',
    codes: ['NodeNotReady'],
  },
  {
    name: 'running, not ready, terminating: PodTerminating, not ReadinessProbeFailing',
    ds: base,
    node: node('n').build(),
    pods: [dsPod(base, 'n').on('n').with(probed).ready().with(notReadyYet).terminating(-20).build()],
    verdict: 'Unhealthy',
    codes: ['PodTerminating'],
  },
  {
    name: 'Misscheduled pod on a node turned NotReady (not-ready:NoSchedule) still gets its health explained and counts in the exit code',
    ds: base,
    node: notReadyNode(),
    pods: [dsPod(base, 'n').on('n').with(probed).ready().with(notReadyYet).build()],
    verdict: 'Misscheduled',
    codes: ['NodeNotReady', 'UntoleratedTaint'],
    says: /so the pod cannot become Ready/,
    exitError: true,
  },
  {
    name: 'evicted (phase Failed)',
    ds: base,
    node: node('n').build(),
    pods: [
      dsPod(base, 'n')
        .on('n')
        .phase('Failed')
        .with((p) => {
          p.status!.reason = 'Evicted';
        })
        .build(),
    ],
    verdict: 'Unhealthy',
    codes: ['PodFailed'],
  },
  {
    // The lifecycle controller's unreachable taint keeps the controller from creating another pod there.
    name: 'terminating past its grace period on an unreachable node',
    ds: base,
    node: node('n').notReady('Unknown').taint('node.kubernetes.io/unreachable', undefined, 'NoSchedule').build(),
    pods: [dsPod(base, 'n').on('n').ready().terminating(2400).build()],
    verdict: 'Misscheduled',
    codes: ['PodTerminating', 'UntoleratedTaint'],
    says: /--grace-period=0 --force/,
  },
  {
    name: 'terminating past its grace period on an unreachable node whose taints the DaemonSet tolerates: delete the Node, not the pod (the fix differential)',
    ds: ds().tolerate({ operator: 'Exists' }).build(),
    node: node('n').notReady('Unknown').taint('node.kubernetes.io/unreachable', undefined, 'NoSchedule').build(),
    pods: [
      dsPod(ds().tolerate({ operator: 'Exists' }).build(), 'n')
        .on('n')
        .ready()
        .terminating(2400)
        .build(),
    ],
    verdict: 'Unhealthy',
    codes: ['PodTerminating'],
    says: /delete its Node object: kubectl delete node n \(its pods are garbage-collected; force-deleting this pod only moves the problem: no taint keeps the DaemonSet off the node/,
  },
  {
    name: 'node NotReady',
    ds: base,
    node: node('n').notReady('False', 'PLEG is not healthy').build(),
    pods: [dsPod(base, 'n').on('n').waiting('ContainerCreating').build()],
    verdict: 'Unhealthy',
    codes: ['NodeNotReady', 'ContainerCreating'],
  },
  {
    name: 'ready but within minReadySeconds → Healthy with NotAvailableYet',
    ds: ds()
      .with((d) => {
        d.spec!.minReadySeconds = 60;
      })
      .build(),
    node: node('n').build(),
    pods: [dsPod(base, 'n').on('n').ready(20).build()],
    verdict: 'Healthy',
    codes: ['NotAvailableYet'],
  },
  {
    name: 'healthy on an outdated revision → OutdatedRevision (IsPodUpdated)',
    ds: ds().generation(2).build(),
    node: node('n').build(),
    pods: [dsPod(base, 'n').on('n').ready().build()],
    verdict: 'Healthy',
    codes: ['OutdatedRevision'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const index = indexOf({
      nodes: [c.node],
      daemonSets: [c.ds],
      pods: c.pods ?? [],
      events: c.events ?? [],
      controllerRevisions: c.revisions ?? [],
    });
    const row = diagnoseNode(index, daemonSetContext(index, c.ds), c.node, NOW);
    assert.equal(row.verdict, c.verdict);
    assert.deepEqual(
      row.reasons.map((r) => r.code).filter((x, i, a) => a.indexOf(x) === i),
      c.codes,
    );
    for (const r of row.reasons) {
      assert.ok(r.message && r.fix && r.short, `reason ${r.code} has message, fix and short`);
    }
    const text = row.reasons.map((r) => `${r.message} ${r.fix} ${r.evidence.join(' ')}`).join(' ');
    if (c.says) assert.match(text, c.says);
    if (c.never) assert.doesNotMatch(text, c.never);
    if (c.exitError !== undefined)
      assert.equal(severitiesOf([row]).error, c.exitError, 'counts as an error for the exit code');
  });
}

test('network agent kept off a node NotReady for want of CNI is an error (the deadlock)', () => {
  const cni = daemonSet('calico-node', 'kube-system')
    .hostNetwork()
    .container({ name: 'calico-node', image: 'docker.io/calico/node:v3.28.1' })
    .build();
  const n = node('w5')
    .notReady(
      'False',
      'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
    )
    .taint('node.kubernetes.io/not-ready', undefined, 'NoSchedule')
    .build();
  const index = indexOf({ nodes: [n], daemonSets: [cni] });
  const row = diagnoseNode(index, daemonSetContext(index, cni), n, NOW);
  assert.equal(row.verdict, 'Excluded');
  assert.equal(row.reasons[0]!.severity, 'error');
  assert.match(row.reasons[0]!.message, /deadlock/);
  assert.equal(whyDaemonSet(index, cni, NOW).nodes.length, 1, 'why <ds> lists the deadlocked node');
});

test('headline groups nodes like the scheduler histogram (sorted as strings)', () => {
  const d = ds().build();
  const nodes = [
    node('a').build(),
    node('b').taint('dedicated', 'gpu', 'NoSchedule').build(),
    node('c').taint('dedicated', 'gpu', 'NoSchedule').build(),
  ];
  const index = indexOf({ nodes, daemonSets: [d], pods: [dsPod(d, 'a').on('a').ready().build()] });
  const rows = nodes.map((n) => diagnoseNode(index, daemonSetContext(index, d), n, NOW));
  assert.equal(headline(rows), '1/3 nodes healthy: 2 node(s) had untolerated taint {dedicated: gpu}');
});

/** A surge DaemonSet with a host port: the new pod (generation 2) waits unbound next to the old one. */
function surgeHostPort(newPodAge: number) {
  const d = daemonSet('agent', 'ops')
    .generation(2)
    .with((x) => {
      x.spec!.updateStrategy!.rollingUpdate = { maxUnavailable: 0, maxSurge: 2 };
      x.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 54323, hostPort: 54323 }];
      x.status = { observedGeneration: 2 };
    })
    .build();
  const n = node('n').build();
  const old = pod('agent-old', 'ops').ofDaemonSet(d, 'n', 'old', '1').on('n').created(86400).ready().build();
  const incoming = pod('agent-new', 'ops')
    .ofDaemonSet(d, 'n', 'new', '2')
    .created(newPodAge)
    .unschedulable("0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports.")
    .build();
  return { d, n, index: indexOf({ nodes: [n], daemonSets: [d], pods: [old, incoming] }) };
}

test("maxSurge with a hostPort: why weighs the Pending surge pod with the rollout's stuck judgement (kubernetes#106417)", () => {
  const { d, n, index } = surgeHostPort(14 * 60);
  const row = diagnoseNode(index, daemonSetContext(index, d), n, NOW);
  assert.equal(row.verdict, 'Healthy', 'the old pod still serves the node');
  assert.equal(row.reasons[0]!.code, 'HostPortConflict');
  assert.equal(row.reasons[0]!.severity, 'error');
  assert.match(row.reasons[0]!.message, /has not become available after 14m/);
  assert.match(row.reasons[0]!.fix, /maxSurge: 0, maxUnavailable: 1/);
  assert.doesNotMatch(row.reasons.map((r) => r.message).join(' '), /nothing to do/);
  const why = whyDaemonSet(index, d, NOW);
  assert.deepEqual(
    why.nodes.map((x) => x.node),
    ['n'],
    'why <ds> lists the node although its verdict is Healthy',
  );
  assert.equal(severitiesOf(why.nodes).error, true);
});

test('maxSurge with a hostPort, a minute in: already stuck, as rollout judges it (a host port conflict never resolves)', () => {
  const { d, n, index } = surgeHostPort(60);
  const row = diagnoseNode(index, daemonSetContext(index, d), n, NOW);
  assert.deepEqual([row.reasons[0]!.code, row.reasons[0]!.severity], ['HostPortConflict', 'error']);
  assert.equal(diagnoseRollout(index, d, NOW).verdict, 'Stuck');
});

test('a surge pod still starting is a hand-over in progress until --stuck-after', () => {
  const d = daemonSet('agent', 'ops')
    .generation(2)
    .with((x) => {
      x.spec!.updateStrategy!.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 };
      x.status = { observedGeneration: 2 };
    })
    .build();
  const n = node('n').build();
  const old = pod('agent-old', 'ops').ofDaemonSet(d, 'n', 'old', '1').on('n').created(86400).ready().build();
  const incoming = pod('agent-new', 'ops')
    .ofDaemonSet(d, 'n', 'new', '2')
    .on('n')
    .created(60)
    .waiting('ContainerCreating')
    .build();
  const index = indexOf({ nodes: [n], daemonSets: [d], pods: [old, incoming] });
  const young = diagnoseNode(index, daemonSetContext(index, d), n, NOW).reasons.find(
    (r) => r.code !== 'OutdatedRevision',
  )!;
  assert.deepEqual([young.code, young.severity], ['ContainerCreating', 'info']);
  assert.match(young.message, /a surge hand-over \(60s so far\)/);
  assert.equal(
    diagnoseNode(index, daemonSetContext(index, d), n, NOW, 30).reasons[0]!.severity,
    'error',
    '--stuck-after 30s makes it stuck',
  );
  assert.equal(diagnoseRollout(index, d, NOW, 30).verdict, 'Stuck', 'and rollout agrees');
});

test('FailedCreate: the fix says the controller retries after its back-off and how to re-queue it now', () => {
  const d = ds().build();
  const n = node('n').build();
  const index = indexOf({
    nodes: [n],
    daemonSets: [d],
    events: [
      event(
        'DaemonSet',
        d,
        'FailedCreate',
        'Error creating: pods "agent-" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)',
      ),
    ],
  });
  const fix = diagnoseNode(index, daemonSetContext(index, d), n, NOW).reasons[0]!.fix;
  assert.match(fix, /back-off/);
  assert.match(fix, /kubectl annotate daemonset\/agent -n ops ds-doctor\/retry-at=/);
});

test('orphans the controller will adopt: why <ds> counts all of them, why <ds> <node> those for its node', () => {
  const d = ds().build();
  const orphan = (name: string, on: string) =>
    pod(name, 'ops')
      .ofDaemonSet(d, on)
      .on(on)
      .ready()
      .with((p) => delete p.metadata!.ownerReferences)
      .build();
  const nodes = ['n1', 'n2', 'n3'].map((n) => node(n).build());
  const index = indexOf({
    daemonSets: [d],
    nodes,
    pods: [
      orphan('agent-a', 'n1'),
      orphan('agent-b', 'n2'),
      pod('agent-c', 'ops').ofDaemonSet(d, 'n3').on('n3').ready().build(),
    ],
  });
  assert.ok(
    whyDaemonSet(index, d, NOW).notes?.includes(
      '2 orphaned pod(s) match the selector and will be adopted on the next sync',
    ),
  );
  assert.deepEqual(whyNode(index, d, nodes[0]!, NOW).notes, [
    '1 orphaned pod(s) on node n1 match the selector and will be adopted on the next sync',
  ]);
  assert.equal(whyNode(index, d, nodes[2]!, NOW).notes, undefined, 'no orphan for n3: no note');
  assert.equal(whyNode(index, d, nodes[0]!, NOW).verdict, 'Healthy', 'the orphan counts as the node’s pod');
});
