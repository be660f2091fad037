// plan: what applying a DaemonSet manifest does per node. The placement of the new spec is
// NodeShouldRunDaemonPod (daemon_controller_test.go TestNodeShouldRunDaemonPod,
// TestSelectorDaemonDeletesUnselectedPods: pods on nodes the new selector drops are deleted);
// the rolling update follows update_test.go (TestDaemonSetUpdatesNoTemplateChanged,
// TestDaemonSetUpdatesAllOldPodsNotReady, TestDaemonSetUpdatesSomeOldPodsNotReady,
// TestDaemonSetUpdatesPodsWithMaxSurge); the fit is the scheduler's filters (noderesources,
// nodeports) and DefaultPreemption.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRefusal, planDaemonSet, defaultGroupBy } from '../../src/analyze/plan/index.js';
import { settleRollout } from '../../src/analyze/plan/rollout.js';
import type {
  ControllerRevision,
  DaemonSet,
  Namespace,
  Node,
  Pod,
  PriorityClass,
  ResourceQuota,
  LimitRange,
} from '../../src/model/k8s-types.js';
import type { PlanReport } from '../../src/model/results.js';
import { renderPlan } from '../../src/render/plan.js';
import { renderContext } from '../../src/render/context.js';
import { NOW, daemonSet, indexOf, node, pod } from '../builders.js';

/** A ControllerRevision of `ds` holding its current template under `hash`. */
function revision(ds: DaemonSet, hash: string, number: number, template = ds.spec!.template!): ControllerRevision {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${ds.metadata!.name}-${hash}`,
      namespace: ds.metadata!.namespace,
      labels: { 'controller-revision-hash': hash },
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
    revision: number,
    data: { spec: { template: structuredClone(template) } },
  };
}

interface World {
  ds: DaemonSet;
  nodes: Node[];
  pods: Pod[];
  revisions: ControllerRevision[];
  priorityClasses?: PriorityClass[];
}

/** An agent DaemonSet (hash "cur") with a Ready pod on each of `nodes`. */
function world(
  nodes: Node[],
  shape: (d: ReturnType<typeof daemonSet>) => void = () => {},
  podOn: (ds: DaemonSet, n: string) => Pod | undefined = (ds, n) =>
    pod(`agent-${n}`, 'ops').ofDaemonSet(ds, n, 'cur').on(n).ready().build(),
): World {
  const b = daemonSet('agent', 'ops');
  shape(b);
  const ds = b.build();
  const pods = nodes.flatMap((n): Pod[] => {
    const p = podOn(ds, n.metadata!.name!);
    return p ? [p] : [];
  });
  return { ds, nodes, pods, revisions: [revision(ds, 'cur', 1)] };
}

/** The manifest a user applies: the DaemonSet without server fields, changed by `edit`. */
function manifest(ds: DaemonSet, edit: (m: DaemonSet) => void = () => {}): DaemonSet {
  const m: DaemonSet = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: ds.metadata!.name!, namespace: ds.metadata!.namespace! },
    spec: structuredClone(ds.spec),
  };
  edit(m);
  return m;
}

function plan(w: World, m: DaemonSet, groupBy?: string): PlanReport {
  const index = indexOf({
    nodes: w.nodes,
    daemonSets: [w.ds],
    pods: w.pods,
    controllerRevisions: w.revisions,
    priorityClasses: w.priorityClasses ?? [],
  });
  return planDaemonSet(index, m, NOW, groupBy !== undefined ? { groupBy } : {});
}

const byNode = (r: PlanReport, n: string) => r.nodes.find((x) => x.node === n)!;
const codes = (r: PlanReport) => r.findings.map((f) => f.code);
const workers = (n: number, mem = '16Gi') =>
  Array.from({ length: n }, (_, i) => node(`w${i}`).allocatable({ memory: mem }).build());
const filler = (n: string, mem: string, prio = 0) =>
  pod(`app-${n}`, 'shop').on(n).requests({ memory: mem }).priority(prio).ready().build();
const image = (tag: string) => (m: DaemonSet) => {
  m.spec!.template!.spec!.containers![0]!.image = `example/agent:${tag}`;
};
const memory = (q: string) => (m: DaemonSet) => {
  m.spec!.template!.spec!.containers![0]!.resources = { requests: { memory: q } };
};

interface Case {
  name: string;
  run: () => void;
}

const cases: Case[] = [
  {
    name: 'a new DaemonSet gains a pod on every matching node (create)',
    run: () => {
      const w = world(
        workers(2),
        () => {},
        () => undefined,
      );
      const r = planDaemonSet(indexOf({ nodes: w.nodes }), manifest(w.ds), NOW);
      assert.equal(r.change, 'create');
      assert.deepEqual(
        r.nodes.map((n) => [n.node, n.effect, n.shouldRun, n.settled]),
        [
          ['w0', 'gain', true, ['new-bound']],
          ['w1', 'gain', true, ['new-bound']],
        ],
      );
      assert.equal(r.rollout.replaced, false);
    },
  },
  {
    name: 'NodesLost: a narrowed nodeSelector deletes the pods on the nodes it drops, at once (TestSelectorDaemonDeletesUnselectedPods)',
    run: () => {
      const nodes = [node('a').label('pool', 'cpu').build(), node('b').label('pool', 'gpu').build()];
      const w = world(nodes);
      const r = plan(
        w,
        manifest(w.ds, (m) => {
          m.spec!.template!.spec!.nodeSelector = { pool: 'cpu' };
        }),
      );
      assert.deepEqual(
        [byNode(r, 'b').effect, byNode(r, 'b').shouldRun, byNode(r, 'b').reason, byNode(r, 'b').settled],
        ['lose', false, 'NodeSelectorMismatch', ['none']],
      );
      assert.deepEqual(byNode(r, 'b').causes, ['spec.nodeSelector.pool: added cpu']);
      assert.equal(byNode(r, 'a').effect, 'replace');
      assert.ok(codes(r).includes('NodesLost'));
      assert.equal(r.findings[0]!.severity, 'error');
    },
  },
  {
    name: 'MetadataOnlyChange: a label on the DaemonSet alone keeps every pod (TestDaemonSetUpdatesNoTemplateChanged)',
    run: () => {
      const w = world(workers(3));
      const r = plan(
        w,
        manifest(w.ds, (m) => {
          m.metadata!.labels = { team: 'ops' };
        }),
      );
      assert.deepEqual(
        r.nodes.map((n) => [n.effect, n.settled[0]]),
        [
          ['keep', 'new-bound'],
          ['keep', 'new-bound'],
          ['keep', 'new-bound'],
        ],
      );
      assert.equal(r.rollout.replaced, false);
      assert.deepEqual(r.templateDiff, []);
      assert.deepEqual(codes(r), ['MetadataOnlyChange']);
    },
  },
  {
    name: 'a manifest without the API defaults equals the stored, defaulted template',
    run: () => {
      // The template as the API server stores it (kubectl get -o yaml), written out by hand.
      const stored = {
        metadata: { labels: { app: 'agent' } },
        spec: {
          containers: [
            {
              name: 'agent',
              image: 'example/agent:1.0',
              imagePullPolicy: 'IfNotPresent',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              ports: [{ containerPort: 8080, protocol: 'TCP' }],
              readinessProbe: {
                httpGet: { path: '/', port: 8080, scheme: 'HTTP' },
                timeoutSeconds: 1,
                periodSeconds: 10,
                successThreshold: 1,
                failureThreshold: 3,
              },
              env: [{ name: 'NODE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
            },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
          serviceAccount: 'agent',
          serviceAccountName: 'agent',
          volumes: [
            { name: 'cfg', configMap: { name: 'agent', defaultMode: 420 } },
            { name: 'logs', hostPath: { path: '/var/log', type: '' } },
          ],
        },
      };
      const w = world(workers(1), (b) =>
        b.with((d) => {
          d.spec!.template = stored;
        }),
      );
      const r = plan(
        w,
        manifest(w.ds, (m) => {
          m.spec!.template = {
            metadata: { labels: { app: 'agent' }, creationTimestamp: null } as never,
            spec: {
              serviceAccountName: 'agent',
              containers: [
                {
                  name: 'agent',
                  image: 'example/agent:1.0',
                  ports: [{ containerPort: 8080 }],
                  readinessProbe: { httpGet: { port: 8080 } },
                  env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
                },
              ],
              volumes: [
                { name: 'cfg', configMap: { name: 'agent' } },
                { name: 'logs', hostPath: { path: '/var/log' } },
              ],
            },
          };
        }),
      );
      assert.deepEqual(r.templateDiff, []);
      assert.equal(r.nodes[0]!.effect, 'keep');
    },
  },
  {
    name: 'an image change replaces every pod; the new pod fits where the old one is released',
    run: () => {
      const w = world(workers(3));
      const r = plan(w, manifest(w.ds, image('2.0')));
      assert.deepEqual(
        r.nodes.map((n) => [n.effect, n.fit?.fits, n.settled]),
        Array(3).fill(['replace', true, ['new-bound']]),
      );
      assert.deepEqual(
        [r.rollout.replaced, r.rollout.toReplace, r.rollout.batches, r.rollout.maxUnavailable],
        [true, 3, 3, 1],
      );
      assert.deepEqual(r.templateDiff, ['spec.containers[agent].image: example/agent:1.0 → example/agent:2.0']);
    },
  },
  {
    name: 'PodsWillBePending and RolloutWillStall: a memory request that no longer fits stops the rollout after maxUnavailable nodes',
    run: () => {
      const nodes = workers(4, '1Gi');
      const w = world(nodes, (b) => b.requests({ memory: '100Mi' }));
      w.pods.push(...['w0', 'w1'].map((n) => filler(n, '700Mi')));
      const r = plan(w, manifest(w.ds, memory('400Mi')));
      const w0 = byNode(r, 'w0');
      assert.equal(w0.fit?.fits, false);
      assert.deepEqual(
        w0.fit?.reasons.map((x) => [x.code, x.resource, x.requested, x.free, x.preemptionHelps]),
        [['InsufficientResource', 'memory', '400Mi', '324Mi', false]],
      );
      // Budget 1: whichever node is reached first decides; at most one node goes Pending.
      assert.equal(r.rollout.blockedAfter, 1);
      assert.deepEqual(w0.settled, ['new-pending', 'old-kept']);
      assert.deepEqual(byNode(r, 'w2').settled, ['new-bound', 'old-kept']);
      assert.deepEqual(codes(r), ['PodsWillBePending', 'RolloutWillStall']);
      assert.deepEqual(w0.causes, ['spec.containers[agent].resources.requests.memory: 100Mi → 400Mi']);
    },
  },
  {
    name: 'maxUnavailable 100%: every node is replaced at once, the ones that do not fit stay Pending',
    run: () => {
      const w = world(workers(3, '1Gi'), (b) =>
        b.with((d) => {
          d.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '100%' } };
        }),
      );
      w.pods.push(filler('w0', '900Mi'));
      const r = plan(w, manifest(w.ds, memory('200Mi')));
      assert.deepEqual(
        r.nodes.map((n) => n.settled),
        [['new-pending'], ['new-bound'], ['new-bound']],
      );
      assert.equal(r.rollout.blockedAfter, undefined);
      assert.equal(r.summary.pending, 1);
      assert.deepEqual(
        r.groups.map((g) => g.pending),
        [1],
      );
    },
  },
  {
    name: 'PreemptionMayHelp: a system-node-critical pod that does not fit evicts lower-priority pods and binds',
    run: () => {
      const w = world(workers(1, '1Gi'), (b) =>
        b.with((d) => {
          d.spec!.template!.spec!.priorityClassName = 'system-node-critical';
        }),
      );
      w.pods.push(filler('w0', '900Mi'));
      const r = plan(w, manifest(w.ds, memory('300Mi')));
      assert.equal(r.nodes[0]!.fit?.fits, false);
      assert.equal(r.nodes[0]!.fit?.reasons[0]!.preemptionHelps, true);
      assert.deepEqual(r.nodes[0]!.settled, ['new-bound']);
      assert.deepEqual(codes(r), ['PreemptionMayHelp']);
    },
  },
  {
    name: 'a priority class from the input decides preemption: priority 0 pods cannot preempt pods of the same priority',
    run: () => {
      const w = world(workers(1, '1Gi'), (b) =>
        b.with((d) => {
          d.spec!.template!.spec!.priorityClassName = 'agents';
        }),
      );
      w.priorityClasses = [
        { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'agents' }, value: 1000 },
      ];
      w.pods.push(filler('w0', '900Mi', 1000));
      const r = plan(w, manifest(w.ds, memory('300Mi')));
      assert.equal(r.nodes[0]!.fit?.reasons[0]!.preemptionHelps, false);
      assert.deepEqual(r.nodes[0]!.settled, ['new-pending', 'old-kept']);
    },
  },
  {
    name: "HostPortConflict: a new DaemonSet asking for a host port another DaemonSet's pod holds stays Pending",
    run: () => {
      const nodes = workers(1);
      const other = pod('exporter-w0', 'monitoring')
        .on('w0')
        .ready()
        .with((p) => {
          p.spec!.containers![0]!.ports = [{ containerPort: 9100, hostPort: 9100 }];
        })
        .build();
      const w = world(
        nodes,
        () => {},
        () => undefined,
      );
      const m = manifest(w.ds, (d) => {
        d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 9100, hostPort: 9100 }];
      });
      const r = planDaemonSet(indexOf({ nodes, pods: [other] }), m, NOW);
      assert.deepEqual([r.nodes[0]!.effect, r.nodes[0]!.settled], ['gain', ['new-pending']]);
      assert.deepEqual(
        r.nodes[0]!.fit?.reasons.map((x) => [x.code, x.free]),
        [['HostPortConflict', 'held by monitoring/exporter-w0']],
      );
    },
  },
  {
    name: 'TooManyPods: a node at its pod limit refuses the gained pod',
    run: () => {
      const nodes = [node('w0').allocatable({ pods: '1' }).build()];
      const w = world(
        nodes,
        () => {},
        () => undefined,
      );
      const r = planDaemonSet(indexOf({ nodes, pods: [filler('w0', '1Mi')] }), manifest(w.ds), NOW);
      assert.deepEqual(
        r.nodes[0]!.fit?.reasons.map((x) => [x.code, x.allocatable, x.free]),
        [['TooManyPods', '1', '0']],
      );
    },
  },
  {
    name: "SurgeHostPortStall: with maxSurge the new pod needs the old pod's host port and stays Pending beside it (TestDaemonSetUpdatesPodsWithMaxSurge, kubernetes#106417)",
    run: () => {
      const w = world(workers(3), (b) =>
        b.with((d) => {
          d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 9100, hostPort: 9100 }];
          d.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } };
        }),
      );
      const r = plan(w, manifest(w.ds, image('2.0')));
      assert.equal(byNode(r, 'w0').fit?.surge, true);
      assert.equal(byNode(r, 'w0').fit?.reasons[0]!.code, 'HostPortConflict');
      assert.equal(r.rollout.blockedAfter, 1);
      assert.ok(codes(r).includes('SurgeHostPortStall'));
    },
  },
  {
    name: 'surge: the new pod must fit beside the old one, both requests counted',
    run: () => {
      const w = world(workers(2, '1Gi'), (b) =>
        b.requests({ memory: '300Mi' }).with((d) => {
          d.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '100%' } };
        }),
      );
      w.pods.push(filler('w0', '500Mi'));
      const r = plan(
        w,
        manifest(w.ds, (m) => {
          memory('300Mi')(m);
          image('2.0')(m);
        }),
      );
      assert.deepEqual(byNode(r, 'w0').settled, ['new-pending']);
      assert.equal(byNode(r, 'w0').fit?.reasons[0]!.free, '224Mi');
      assert.deepEqual(byNode(r, 'w1').settled, ['new-bound']);
    },
  },
  {
    name: 'old pods that are unavailable are replaced first and regardless of the budget (TestDaemonSetUpdatesAllOldPodsNotReady)',
    run: () => {
      const w = world(
        workers(3),
        () => {},
        (ds, n) => pod(`agent-${n}`, 'ops').ofDaemonSet(ds, n, 'cur').on(n).waiting('CrashLoopBackOff').build(),
      );
      const r = plan(w, manifest(w.ds, image('2.0')));
      assert.deepEqual(
        r.nodes.map((n) => n.settled),
        [['new-bound'], ['new-bound'], ['new-bound']],
      );
      assert.deepEqual(
        r.nodes.map((n) => n.before?.state),
        ['Unavailable', 'Unavailable', 'Unavailable'],
      );
    },
  },
  {
    name: 'OnDeleteManual: with OnDelete every node keeps its old pod',
    run: () => {
      const w = world(workers(2), (b) =>
        b.with((d) => {
          d.spec!.updateStrategy = { type: 'OnDelete' };
        }),
      );
      const r = plan(w, manifest(w.ds, image('2.0')));
      assert.deepEqual(
        r.nodes.map((n) => [n.effect, n.settled]),
        [
          ['replace', ['old-kept']],
          ['replace', ['old-kept']],
        ],
      );
      assert.deepEqual([r.rollout.strategy, r.rollout.batches], ['OnDelete', 0]);
      assert.deepEqual(codes(r), ['OnDeleteManual']);
    },
  },
  {
    name: 'RoleOutageRisk: a CNI agent with maxUnavailable 100% can be down on every node at once',
    run: () => {
      const w = world(workers(4), (b) =>
        b.with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'docker.io/calico/node:v3.28.1';
          d.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '100%' } };
        }),
      );
      const r = plan(
        w,
        manifest(w.ds, (m) => {
          m.spec!.template!.spec!.containers![0]!.image = 'docker.io/calico/node:v3.29.0';
        }),
      );
      const f = r.findings.find((x) => x.code === 'RoleOutageRisk');
      assert.equal(f?.severity, 'error');
      const narrow = plan(
        w,
        manifest(w.ds, (m) => {
          m.spec!.template!.spec!.containers![0]!.image = 'docker.io/calico/node:v3.29.0';
          m.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } };
        }),
      );
      assert.ok(!codes(narrow).includes('RoleOutageRisk'));
    },
  },
  {
    name: 'a rollback to the template of an earlier revision keeps the pods already on it',
    run: () => {
      const w = world(
        workers(2),
        () => {},
        () => undefined,
      );
      const old = structuredClone(w.ds.spec!.template!);
      old.spec!.containers![0]!.image = 'example/agent:0.9';
      w.revisions.push(revision(w.ds, 'prev', 0, old));
      w.pods.push(pod('agent-w0', 'ops').ofDaemonSet(w.ds, 'w0', 'prev').on('w0').ready().build());
      w.pods.push(pod('agent-w1', 'ops').ofDaemonSet(w.ds, 'w1', 'cur').on('w1').ready().build());
      const r = plan(w, manifest(w.ds, image('0.9')));
      assert.deepEqual(
        r.nodes.map((n) => n.effect),
        ['keep', 'replace'],
      );
      assert.ok(r.notes?.some((n) => /earlier ControllerRevision/.test(n)));
    },
  },
  {
    name: 'an untolerated NoExecute taint loses the pod; an untolerated NoSchedule taint lets it continue',
    run: () => {
      const nodes = [
        node('a').taint('dedicated', 'x', 'NoExecute').build(),
        node('b').taint('dedicated', 'x', 'NoSchedule').build(),
      ];
      const w = world(nodes, (b) => b.tolerate({ key: 'dedicated', operator: 'Exists' }));
      const r = plan(
        w,
        manifest(w.ds, (m) => {
          m.spec!.template!.spec!.tolerations = [];
          m.metadata!.labels = { x: 'y' };
        }),
      );
      assert.deepEqual(
        r.nodes.map((n) => [n.node, n.effect, n.reason, n.settled]),
        [
          ['a', 'lose', 'UntoleratedTaint', ['none']],
          ['b', 'lose', 'UntoleratedTaint', ['none']],
        ],
      );
      const keep = plan(
        w,
        manifest(w.ds, (m) => {
          m.spec!.template!.spec!.tolerations = [{ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }];
        }),
      );
      assert.deepEqual(
        keep.nodes.map((n) => [n.node, n.effect]),
        [
          ['a', 'replace'],
          ['b', 'lose'],
        ],
      );
    },
  },
  {
    name: 'nodes are grouped by the first pool label present, or by --group-by',
    run: () => {
      const nodes = [
        node('a').label('topology.kubernetes.io/zone', 'z1').label('karpenter.sh/nodepool', 'general').build(),
        node('b').label('topology.kubernetes.io/zone', 'z2').build(),
      ];
      assert.equal(defaultGroupBy(nodes), 'karpenter.sh/nodepool');
      const w = world(nodes);
      const r = plan(w, manifest(w.ds, image('2.0')));
      assert.deepEqual(
        r.nodes.map((n) => n.group),
        ['general', ''],
      );
      const z = plan(w, manifest(w.ds, image('2.0')), 'topology.kubernetes.io/zone');
      assert.deepEqual(
        z.groups.map((g) => [g.group, g.nodes, g.effects.replace]),
        [
          ['z1', 1, 1],
          ['z2', 1, 1],
        ],
      );
    },
  },
];

for (const c of cases) test(c.name, c.run);

// The settled rolling update on its own: budget, nodes stuck elsewhere, surge.
const settle: {
  name: string;
  args: Parameters<typeof settleRollout>;
  replaced: string[];
  undecided: string[];
  blockedAfter?: number;
}[] = [
  {
    name: 'settle: everything fits, everything is replaced',
    args: [
      [
        { node: 'a', oldUnavailable: false, binds: true },
        { node: 'b', oldUnavailable: false, binds: true },
      ],
      1,
      0,
      false,
    ],
    replaced: ['a', 'b'],
    undecided: [],
  },
  {
    name: 'settle: fewer stuck nodes than the budget, everything is replaced',
    args: [
      [
        { node: 'a', oldUnavailable: false, binds: false },
        { node: 'b', oldUnavailable: false, binds: true },
      ],
      2,
      0,
      false,
    ],
    replaced: ['a', 'b'],
    undecided: [],
  },
  {
    name: 'settle: the budget runs out part way, the order decides',
    args: [
      [
        { node: 'a', oldUnavailable: false, binds: false },
        { node: 'b', oldUnavailable: false, binds: true },
      ],
      1,
      0,
      false,
    ],
    replaced: [],
    undecided: ['a', 'b'],
    blockedAfter: 1,
  },
  {
    name: 'settle: a gained pod that stays Pending already uses the budget',
    args: [[{ node: 'a', oldUnavailable: false, binds: true }], 1, 1, false],
    replaced: [],
    undecided: [],
    blockedAfter: 1,
  },
  {
    name: 'settle: surge ignores nodes unavailable elsewhere',
    args: [[{ node: 'a', oldUnavailable: false, binds: true }], 1, 1, true],
    replaced: ['a'],
    undecided: [],
  },
  {
    name: 'settle: unavailable old pods are replaced outside the budget and then hold it',
    args: [
      [
        { node: 'a', oldUnavailable: true, binds: false },
        { node: 'b', oldUnavailable: false, binds: true },
      ],
      1,
      0,
      false,
    ],
    replaced: ['a'],
    undecided: [],
    blockedAfter: 1,
  },
];

for (const c of settle) {
  test(c.name, () => {
    const out = settleRollout(...c.args);
    assert.deepEqual(
      [[...out.replaced].sort(), [...out.undecided].sort(), out.blockedAfter],
      [c.replaced, c.undecided, c.blockedAfter],
    );
  });
}

test('a kept pod of the new revision that is unavailable holds the budget: the rollout in progress stays stopped', () => {
  const nodes = workers(3);
  const w = world(
    nodes,
    () => {},
    (ds, n) =>
      n === 'w0'
        ? pod(`agent-${n}`, 'ops')
            .ofDaemonSet(ds, n, 'cur')
            .on(n)
            .waiting('CrashLoopBackOff', '', { restartCount: 5 })
            .build()
        : pod(`agent-${n}`, 'ops').ofDaemonSet(ds, n, 'old').on(n).ready().build(),
  );
  const r = plan(
    w,
    manifest(w.ds, (m) => {
      m.metadata!.labels = { team: 'ops' };
    }),
  );
  assert.deepEqual(
    r.nodes.map((n) => [n.effect, n.settled]),
    [
      ['keep', ['new-bound']],
      ['replace', ['old-kept']],
      ['replace', ['old-kept']],
    ],
  );
  assert.equal(r.rollout.blockedAfter, 1);
  assert.match(
    r.findings.find((f) => f.code === 'MetadataOnlyChange')!.message,
    /2 pod\(s\) of an older revision are still to be replaced/,
  );
});

test('NodesLost through the rolling update: an old pod on a node with a newly untolerated NoSchedule taint goes within the budget, and may stay when the rollout stops', () => {
  const nodes = [
    node('t').allocatable({ memory: '1Gi' }).taint('dedicated', 'x', 'NoSchedule').build(),
    ...workers(1, '1Gi'),
  ];
  const w = world(nodes, (b) => b.tolerate({ key: 'dedicated', operator: 'Exists' }).requests({ memory: '100Mi' }));
  w.pods.push(filler('w0', '800Mi'));
  const r = plan(
    w,
    manifest(w.ds, (m) => {
      m.spec!.template!.spec!.tolerations = [];
      memory('300Mi')(m);
    }),
  );
  assert.deepEqual(
    r.nodes.map((n) => [n.node, n.effect, n.settled]),
    [
      ['t', 'lose', ['none', 'old-kept']],
      ['w0', 'replace', ['new-pending', 'old-kept']],
    ],
  );
  assert.match(r.findings.find((f) => f.code === 'NodesLost')!.message, /the rolling update deletes these pods/);
  const fits = plan(
    w,
    manifest(w.ds, (m) => {
      m.spec!.template!.spec!.tolerations = [];
    }),
  );
  assert.deepEqual(
    fits.nodes.map((n) => n.settled),
    [['none'], ['new-bound']],
  );
});

test('surge over an old pod that is not Ready: manage() deletes it once the surge pod exists, so its requests are released', () => {
  const w = world(
    workers(1, '1Gi'),
    (b) =>
      b.requests({ memory: '400Mi' }).with((d) => {
        d.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } };
      }),
    (ds, n) => pod(`agent-${n}`, 'ops').ofDaemonSet(ds, n, 'cur').on(n).waiting('CrashLoopBackOff').build(),
  );
  w.pods[0]!.spec!.containers![0]!.resources = { requests: { memory: '400Mi' } };
  w.pods.push(filler('w0', '300Mi'));
  const r = plan(w, manifest(w.ds, image('2.0')));
  assert.deepEqual(
    [r.nodes[0]!.fit?.fits, r.nodes[0]!.fit?.surge, r.nodes[0]!.settled],
    [true, undefined, ['new-bound']],
  );
});

test("hostNetwork: the new pod's containerPorts are host ports (Pod defaulting), so another pod holding the port keeps it Pending", () => {
  const w = world(
    [node('w').build()],
    (b) =>
      b.with((d) => {
        d.spec!.template!.spec!.hostNetwork = true;
        d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 9100, protocol: 'TCP' }];
      }),
    () => undefined,
  );
  w.pods.push(
    pod('exporter', 'mon')
      .on('w')
      .with((p) => {
        p.spec!.containers![0]!.ports = [{ containerPort: 9100, hostPort: 9100, protocol: 'TCP' }];
      })
      .ready()
      .build(),
  );
  const r = plan(w, manifest(w.ds));
  assert.deepEqual([r.nodes[0]!.settled, r.nodes[0]!.fit?.reasons[0]?.code], [['new-pending'], 'HostPortConflict']);
});

// A pod deleted on a node whose kubelet has stopped reporting stays Terminating (CheckGracefulDelete);
// a node with a terminating pod gets no new pod without surge (TestDaemonSetRespectsTermination).
const unreachableNodes = () => [node('u').notReady('Unknown').build(), node('w').build()];
/** On node u a pod that is not Ready (with `grace` as its terminationGracePeriodSeconds), elsewhere a Ready one. */
const notReadyPod = (grace?: number) => (ds: DaemonSet, n: string) =>
  n !== 'u'
    ? pod(`agent-${n}`, 'ops').ofDaemonSet(ds, n, 'cur').on(n).ready().build()
    : pod(`agent-${n}`, 'ops')
        .ofDaemonSet(ds, n, 'cur')
        .on(n)
        .with((p) => {
          if (grace !== undefined) p.spec!.terminationGracePeriodSeconds = grace;
        })
        .build();
const withHostPort = (d: DaemonSet) => {
  d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 9100, hostPort: 9100, protocol: 'TCP' }];
};
const surgeBy1 = (d: DaemonSet) => {
  d.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } };
};
const UNREACHABLE: { name: string; world: () => World; settled: string[][]; finding: boolean }[] = [
  {
    name: 'unreachable node: the replaced old pod stays Terminating, so no new pod is made there and it holds maxUnavailable (DeletionNeverConfirmed)',
    world: () => world(unreachableNodes(), () => {}, notReadyPod()),
    settled: [['none'], ['old-kept']],
    finding: true,
  },
  {
    name: 'unreachable node: an old pod with terminationGracePeriodSeconds 0 is deleted at once and the new pod follows',
    world: () => world(unreachableNodes(), () => {}, notReadyPod(0)),
    settled: [['new-bound'], ['new-bound']],
    finding: false,
  },
  {
    name: 'reachable NotReady node: its kubelet confirms the deletion and the new pod follows',
    world: () => world([node('u').notReady('False').build(), node('w').build()], () => {}, notReadyPod()),
    settled: [['new-bound'], ['new-bound']],
    finding: false,
  },
  {
    name: 'unreachable node whose only pod is already terminating gains no pod (TestDaemonSetRespectsTermination)',
    world: () =>
      world(
        unreachableNodes(),
        () => {},
        (ds, n) =>
          n === 'u'
            ? pod('agent-u', 'ops').ofDaemonSet(ds, n, 'cur').on(n).terminating(600).build()
            : pod('agent-w', 'ops').ofDaemonSet(ds, n, 'cur').on(n).ready().build(),
      ),
    settled: [['none'], ['old-kept']],
    finding: true,
  },
  {
    name: 'unreachable node with surge: the new pod is made, but the Terminating old pod keeps its host port, so it stays Pending',
    world: () =>
      world([node('u').notReady('Unknown').build()], (b) => b.with(withHostPort).with(surgeBy1), notReadyPod()),
    settled: [['new-pending']],
    finding: false,
  },
  {
    name: 'reachable NotReady node with surge: the old pod that is not Ready is deleted and releases its host port',
    world: () =>
      world([node('u').notReady('False').build()], (b) => b.with(withHostPort).with(surgeBy1), notReadyPod()),
    settled: [['new-bound']],
    finding: false,
  },
];
for (const c of UNREACHABLE) {
  test(c.name, () => {
    const w = c.world();
    const r = plan(w, manifest(w.ds, image('2.0')));
    assert.deepEqual(
      r.nodes.map((n) => n.settled),
      c.settled,
    );
    assert.equal(codes(r).includes('DeletionNeverConfirmed'), c.finding);
  });
}

// Pod Security admission refuses the new pods (FailedCreate); manage() returns the create error
// before rollingUpdate() runs (daemon_controller.go#syncDaemonSet).
const enforcing = (level: string): Namespace => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'ops', labels: { 'pod-security.kubernetes.io/enforce': level } },
});
const hostNet = (m: DaemonSet) => {
  m.spec!.template!.spec!.hostNetwork = true;
};
function planIn(w: World, m: DaemonSet, level: string): PlanReport {
  return planDaemonSet(
    indexOf({
      nodes: w.nodes,
      daemonSets: [w.ds],
      pods: w.pods,
      controllerRevisions: w.revisions,
      namespaces: [enforcing(level)],
    }),
    m,
    NOW,
  );
}
const REFUSED: {
  name: string;
  world: () => World;
  edit: (m: DaemonSet) => void;
  level: string;
  settled: string[][];
  finding: boolean;
}[] = [
  {
    name: 'AdmissionRefused: a baseline namespace refuses a hostNetwork pod, so the nodes a new DaemonSet wants get none',
    world: () =>
      world(
        workers(2),
        () => {},
        () => undefined,
      ),
    edit: hostNet,
    level: 'baseline',
    settled: [['none'], ['none']],
    finding: true,
  },
  {
    name: 'a baseline namespace and a metadata-only change: no pod is created, so none is refused',
    world: () => world(workers(2), (b) => b.hostNetwork()),
    edit: (m) => {
      m.metadata!.labels = { team: 'ops' };
    },
    level: 'baseline',
    settled: [['new-bound'], ['new-bound']],
    finding: false,
  },
  {
    name: 'a privileged namespace admits the hostNetwork pod',
    world: () =>
      world(
        workers(2),
        () => {},
        () => undefined,
      ),
    edit: hostNet,
    level: 'privileged',
    settled: [['new-bound'], ['new-bound']],
    finding: false,
  },
  {
    name: 'AdmissionRefused with a node to gain: the create error stops the sync before the rolling update, so replaced nodes keep their old pod',
    world: () =>
      world(
        workers(3),
        () => {},
        (ds, n) => (n === 'w2' ? undefined : pod(`agent-${n}`, 'ops').ofDaemonSet(ds, n, 'cur').on(n).ready().build()),
      ),
    edit: (m) => {
      hostNet(m);
      image('2.0')(m);
    },
    level: 'baseline',
    settled: [['old-kept'], ['old-kept'], ['none']],
    finding: true,
  },
  {
    name: 'AdmissionRefused, replacements only: the first rolling update pass deletes up to maxUnavailable old pods, whose replacements are refused',
    world: () => world(workers(2)),
    edit: (m) => {
      hostNet(m);
      image('2.0')(m);
    },
    level: 'baseline',
    settled: [
      ['none', 'old-kept'],
      ['none', 'old-kept'],
    ],
    finding: true,
  },
  {
    name: 'AdmissionRefused with surge: the surge pods are refused and every old pod stays',
    world: () => world(workers(2), (b) => b.with(surgeBy1)),
    edit: (m) => {
      hostNet(m);
      image('2.0')(m);
    },
    level: 'baseline',
    settled: [['old-kept'], ['old-kept']],
    finding: true,
  },
];
for (const c of REFUSED) {
  test(c.name, () => {
    const w = c.world();
    const r = planIn(w, manifest(w.ds, c.edit), c.level);
    assert.deepEqual(
      r.nodes.map((n) => n.settled),
      c.settled,
    );
    assert.equal(codes(r).includes('AdmissionRefused'), c.finding);
    if (c.finding)
      assert.match(
        r.findings.find((f) => f.code === 'AdmissionRefused')!.message,
        /pods "agent-" is forbidden: violates PodSecurity "baseline:latest": host namespaces \(hostNetwork=true\)/,
      );
  });
}

// A ResourceQuota admits some, none or all of the new pods (resourcequota admission).
const podQuota = (hard: string, used: string): ResourceQuota => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'q', namespace: 'ops' },
  spec: { hard: { pods: hard } },
  status: { hard: { pods: hard }, used: { pods: used } },
});
const QUOTAS: { name: string; quota: ResourceQuota; settled: string[][] }[] = [
  {
    name: 'AdmissionRefused: a pods quota that is used up leaves every node without the new pod',
    quota: podQuota('2', '2'),
    settled: [['none'], ['none']],
  },
  {
    name: 'AdmissionRefused: a pods quota with room for one of two: either node may get it',
    quota: podQuota('3', '2'),
    settled: [
      ['new-bound', 'none'],
      ['new-bound', 'none'],
    ],
  },
  {
    name: 'a pods quota with room for every new pod refuses none',
    quota: podQuota('4', '2'),
    settled: [['new-bound'], ['new-bound']],
  },
];
for (const c of QUOTAS) {
  test(c.name, () => {
    const w = world(
      workers(2),
      () => {},
      () => undefined,
    );
    const r = planDaemonSet(indexOf({ nodes: w.nodes, resourceQuotas: [c.quota] }), manifest(w.ds), NOW);
    assert.deepEqual(
      r.nodes.map((n) => n.settled),
      c.settled,
    );
    assert.equal(codes(r).includes('AdmissionRefused'), c.settled[0]!.includes('none'));
  });
}

test('AdmissionRefused: a LimitRange whose default cpu limit is below the new request makes every new pod invalid', () => {
  const w = world(
    workers(2),
    (b) => b.requests({ cpu: '2' }),
    () => undefined,
  );
  const lr: LimitRange = {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'lr', namespace: 'ops' },
    spec: { limits: [{ type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '1' } }] },
  };
  const r = planDaemonSet(indexOf({ nodes: w.nodes, limitRanges: [lr] }), manifest(w.ds), NOW);
  assert.deepEqual(
    r.nodes.map((n) => n.settled),
    [['none'], ['none']],
  );
  assert.match(
    r.findings.find((f) => f.code === 'AdmissionRefused')!.message,
    /must be less than or equal to cpu limit of 1/,
  );
  assert.deepEqual(
    planDaemonSet(indexOf({ nodes: w.nodes }), manifest(w.ds), NOW).nodes.map((n) => n.settled),
    [['new-bound'], ['new-bound']],
  );
});

// ValidateDaemonSetSpec / ValidateDaemonSetUpdate (pkg/apis/apps/validation/validation.go).
const REFUSALS: { name: string; edit: (m: DaemonSet) => void; re: RegExp | undefined }[] = [
  {
    name: 'refusal: maxSurge 1 with the defaulted maxUnavailable 1',
    edit: (m) => {
      m.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } };
    },
    re: /^DaemonSet\.apps "agent" is invalid: spec\.updateStrategy\.rollingUpdate\.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero$/,
  },
  { name: 'refusal: an unchanged selector is accepted', edit: () => {}, re: undefined },
  {
    // apps/v1 has no selector default: over the existing DaemonSet the selector changes to nil,
    // and a nil selector matches nothing, so the labels are refused too (the API server's text).
    name: 'refusal: no selector',
    edit: (m) => {
      delete m.spec!.selector;
    },
    re: /^DaemonSet\.apps "agent" is invalid: \[spec\.selector: Invalid value: null: field is immutable, spec\.template\.metadata\.labels: Invalid value: \{"app":"agent"\}: `selector` does not match template `labels`\]/,
  },
  {
    name: 'refusal: an empty selector',
    edit: (m) => {
      m.spec!.selector = {};
    },
    re: /empty selector is invalid for daemonset/,
  },
  {
    name: 'refusal: a selector the template labels do not match',
    edit: (m) => {
      m.spec!.template!.metadata!.labels = { app: 'other' };
    },
    re: /does not match template `labels`/,
  },
  {
    name: 'refusal: extensions/v1beta1 defaults a missing selector to the template labels',
    edit: (m) => {
      m.apiVersion = 'extensions/v1beta1';
      delete m.spec!.selector;
    },
    re: undefined,
  },
  {
    name: 'refusal: a changed selector is immutable',
    edit: (m) => {
      m.spec!.selector = { matchLabels: { app: 'agent', tier: 'x' } };
      m.spec!.template!.metadata!.labels = { app: 'agent', tier: 'x' };
    },
    re: /field is immutable/,
  },
];

for (const c of REFUSALS) {
  test(c.name, () => {
    const ds = daemonSet('agent', 'ops').build();
    const refusal = applyRefusal(manifest(ds, c.edit), ds);
    if (c.re) assert.match(refusal ?? '', c.re);
    else assert.equal(refusal, undefined);
  });
}

test('the table lists at most 50 nodes, the lost and the Pending first; -o wide lists every node', () => {
  const nodes = [...workers(60, '1Gi'), node('z-lost').label('pool', 'old').build()];
  const w = world(nodes, (b) => b.nodeSelector({ 'kubernetes.io/os': 'linux' }).requests({ memory: '100Mi' }));
  w.pods.push(filler('w59', '900Mi'));
  const r = plan(
    w,
    manifest(w.ds, (m) => {
      m.spec!.template!.spec!.nodeSelector = { 'kubernetes.io/os': 'linux', pool: 'old' };
    }),
  );
  assert.equal(r.nodes.filter((n) => n.effect === 'lose').length, 60);
  const narrow = plan(
    w,
    manifest(w.ds, (m) => {
      memory('300Mi')(m);
    }),
  );
  const text = renderPlan(narrow, renderContext({ color: false }), false);
  const rows = text.split('\n').filter((l) => /^w\d+ /.test(l) || /^z-lost /.test(l));
  assert.equal(rows.length, 50);
  assert.match(rows[0]!, /^w59 .*new-pending/);
  assert.match(text, /11 more node\(s\) not listed \(the first 50 by effect: lose, Pending, gain, replace\)/);
  const wide = renderPlan(narrow, renderContext({ color: false, wide: true }), false);
  assert.equal(wide.split('\n').filter((l) => /^(w\d+|z-lost) /.test(l)).length, 61);
});

/** A rollout stuck on a crash-looping pod of the current revision (hash "cur") on w0, old pods elsewhere. */
function stuckRollout(n: number): World {
  return world(
    workers(n),
    () => {},
    (ds, nd) =>
      nd === 'w0'
        ? pod(`agent-${nd}`, 'ops')
            .ofDaemonSet(ds, nd, 'cur')
            .on(nd)
            .waiting('CrashLoopBackOff', '', { restartCount: 5 })
            .build()
        : pod(`agent-${nd}`, 'ops').ofDaemonSet(ds, nd, 'old').on(nd).ready().build(),
  );
}

test('StrategyOnlyChange: raising maxUnavailable on a stuck rollout unblocks replacements its table shows (not MetadataOnlyChange "nothing to do")', () => {
  const w = stuckRollout(10);
  const r = plan(
    w,
    manifest(w.ds, (m) => {
      m.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } };
    }),
  );
  assert.deepEqual(codes(r), ['StrategyOnlyChange']);
  const f = r.findings[0]!;
  assert.equal(f.severity, 'warning');
  assert.match(
    f.message,
    /^the pod template does not change, so no pod is replaced for this change itself, but the rollout in progress goes on under the new strategy \(maxUnavailable 5, maxSurge 0\): 9 of 9 pod\(s\) of an older revision get replaced, 9 of them blocked under the current spec$/,
  );
  assert.ok(f.evidence.some((e) => /1 pod\(s\) of the current revision are unavailable now \(w0\)/.test(e)));
  assert.doesNotMatch(f.fix, /nothing to do/);
  // The same DaemonSet with only a label added: nothing changes for the rollout.
  assert.deepEqual(
    codes(
      plan(
        w,
        manifest(w.ds, (m) => (m.metadata!.labels = { team: 'ops' })),
      ),
    ),
    ['RolloutWillStall', 'MetadataOnlyChange'],
  );
});

test('maxSurge to 0: the surge pod waiting next to its old pod is deleted (podsShouldBeOnNode keeps only the oldest pod without surge), and the node is replaced within maxUnavailable', () => {
  const nodes = workers(3);
  const surge = (b: ReturnType<typeof daemonSet>) =>
    b
      .with(
        (d) => (d.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }),
      )
      .container({
        name: 'agent',
        image: 'example/agent:2',
        ports: [{ containerPort: 9100, hostPort: 9100, protocol: 'TCP' }],
      });
  const w = world(nodes, surge, (ds, n) =>
    pod(`agent-old-${n}`, 'ops').ofDaemonSet(ds, n, 'old').on(n).created(3600).ready().build(),
  );
  w.pods.push(
    pod('agent-new-w0', 'ops')
      .ofDaemonSet(w.ds, 'w0', 'cur')
      .created(600)
      .unschedulable("0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports.")
      .build(),
  );
  // As it is: the surge pod on w0 stays Pending and holds maxSurge, so no other node starts.
  const same = plan(w, manifest(w.ds));
  assert.deepEqual(
    same.nodes.map((n) => [n.node, n.effect, n.settled]),
    [
      ['w0', 'keep', ['new-pending']],
      ['w1', 'replace', ['old-kept']],
      ['w2', 'replace', ['old-kept']],
    ],
  );
  const r = plan(
    w,
    manifest(w.ds, (m) => {
      m.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } };
    }),
  );
  assert.deepEqual(
    r.nodes.map((n) => [n.node, n.effect, n.before?.name, n.settled]),
    [
      ['w0', 'replace', 'agent-old-w0', ['new-bound']],
      ['w1', 'replace', 'agent-old-w1', ['new-bound']],
      ['w2', 'replace', 'agent-old-w2', ['new-bound']],
    ],
  );
  const f = r.findings.find((x) => x.code === 'StrategyOnlyChange')!;
  assert.match(
    f.message,
    /3 of 3 pod\(s\) of an older revision get replaced, 3 of them blocked under the current spec$/,
  );
  assert.ok(
    f.evidence.includes(
      'node w0: the surge pod agent-new-w0 waiting next to the old pod is deleted (without surge the controller keeps only the oldest pod on a node)',
    ),
    f.evidence.join('\n'),
  );
  assert.ok(!codes(r).includes('MetadataOnlyChange'));
});

test('StrategyOnlyChange: OnDelete on a rollout in progress holds back the replacements the current strategy would make', () => {
  const nodes = workers(3);
  const w = world(
    nodes,
    () => {},
    (ds, n) => pod(`agent-${n}`, 'ops').ofDaemonSet(ds, n, 'old').on(n).ready().build(),
  );
  const r = plan(
    w,
    manifest(w.ds, (m) => {
      m.spec!.updateStrategy = { type: 'OnDelete' };
    }),
  );
  const f = r.findings.find((x) => x.code === 'StrategyOnlyChange')!;
  assert.match(
    f.message,
    /\(OnDelete\): 0 of 3 pod\(s\) of an older revision get replaced, fewer than the 3 under the current spec: the change holds back part of the rollout in progress$/,
  );
  assert.match(f.fix, /under OnDelete, delete the old pods one node at a time$/);
});
