// A DaemonSet pod the kubelet's eviction manager failed (kubernetes v1.35.4 pkg/kubelet/eviction/
// helpers.go: Reason "Evicted", nodeConditionMessageFmt "The node had condition: %v. ",
// nodeLowMessageFmt "The node was low on resource: %v. "; eviction_manager.go#Admit). Under
// DiskPressure the kubelet refuses every pod but critical ones; under MemoryPressure alone only
// BestEffort pods that do not tolerate the memory-pressure taint (the cases of
// eviction_manager_test.go#TestAdmitUnderNodeConditions). The DaemonSet tolerates the pressure
// taints, so its pod is placed there again and refused again: the node is the cause
// (kubernetes#95457, "working as intended"; kubernetes#65240 for the back-off).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { admittedUnderPressure, kubeletEviction } from '../../src/k8s/eviction.js';
import { diagnoseAllNodes } from '../../src/analyze/placement/index.js';
import { causesOf } from '../../src/analyze/causes/index.js';
import type { Pod } from '../../src/model/k8s-types.js';
import { NOW, daemonSet, indexOf, node, pod } from '../builders.js';

describe("the eviction manager's status message, parsed", () => {
  const cases: { reason?: string; message: string; want: ReturnType<typeof kubeletEviction> }[] = [
    // the kubelet's rejectPod before v1.27 ("Pod " + message) and after ("Pod was rejected: ")
    {
      message: 'Pod The node had condition: [DiskPressure]. ',
      want: { kind: 'refused', conditions: ['DiskPressure'] },
    },
    {
      message: 'Pod was rejected: The node had condition: [MemoryPressure DiskPressure]. ',
      want: { kind: 'refused', conditions: ['MemoryPressure', 'DiskPressure'] },
    },
    {
      message:
        'The node was low on resource: ephemeral-storage. Threshold quantity: 2Gi, available: 1Mi. Container agent was using 5Gi, request is 0, has larger consumption of ephemeral-storage. ',
      want: { kind: 'evicted', resources: ['ephemeral-storage'] },
    },
    { message: 'The node was low on resource: memory. ', want: { kind: 'evicted', resources: ['memory'] } },
    { message: 'Pod ephemeral local storage usage exceeds the total limit of containers 1Gi. ', want: undefined },
    { reason: 'OutOfcpu', message: 'Pod The node had condition: [DiskPressure]. ', want: undefined },
  ];
  for (const c of cases)
    test(c.message, () => {
      assert.deepEqual(kubeletEviction(c.reason ?? 'Evicted', c.message), c.want);
    });
});

describe('eviction_manager.go#Admit under node conditions (TestAdmitUnderNodeConditions)', () => {
  const bestEffort = (): Pod => pod('be', 'ns').build();
  const burstable = (): Pod => pod('bu', 'ns').requests({ memory: '100Mi' }).build();
  const critical = (): Pod => pod('cr', 'ns').priority(2000001000).build();
  const tolerating = (): Pod => {
    const p = bestEffort();
    p.spec!.tolerations = [{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' }];
    return p;
  };
  const cases: { name: string; conditions: string[]; pod: () => Pod; admitted: boolean }[] = [
    { name: 'no condition: BestEffort admitted', conditions: [], pod: bestEffort, admitted: true },
    { name: 'MemoryPressure: BestEffort refused', conditions: ['MemoryPressure'], pod: bestEffort, admitted: false },
    { name: 'MemoryPressure: Burstable admitted', conditions: ['MemoryPressure'], pod: burstable, admitted: true },
    {
      name: 'MemoryPressure: BestEffort tolerating the memory-pressure taint admitted',
      conditions: ['MemoryPressure'],
      pod: tolerating,
      admitted: true,
    },
    { name: 'DiskPressure: Burstable refused', conditions: ['DiskPressure'], pod: burstable, admitted: false },
    {
      name: 'MemoryPressure and DiskPressure: the memory-pressure toleration does not help',
      conditions: ['MemoryPressure', 'DiskPressure'],
      pod: tolerating,
      admitted: false,
    },
    { name: 'DiskPressure: a critical pod admitted', conditions: ['DiskPressure'], pod: critical, admitted: true },
  ];
  for (const c of cases)
    test(c.name, () => {
      assert.equal(admittedUnderPressure(c.pod(), c.conditions), c.admitted);
    });
});

describe('a DaemonSet pod refused or evicted by the kubelet, on its node', () => {
  const pressure = (type: string) => ({
    type,
    status: 'True',
    reason: `KubeletHas${type}`,
    message: `kubelet has ${type === 'DiskPressure' ? 'disk' : 'memory'} pressure`,
    lastTransitionTime: '2020-10-10T05:20:09Z',
  });
  const cases: {
    name: string;
    message: string;
    conditions: string[];
    requests?: Record<string, string>;
    priorityClassName?: string;
    says: RegExp;
    evidence?: RegExp;
    fix: RegExp;
    not?: RegExp;
  }[] = [
    {
      name: 'refused under DiskPressure: the node is the cause, with its condition as evidence',
      message: 'Pod The node had condition: [DiskPressure]. ',
      conditions: ['DiskPressure'],
      requests: { cpu: '50m' },
      says: /the kubelet on node n1 refused to start it because the node has DiskPressure; the DaemonSet tolerates the pressure taints/,
      evidence:
        /node condition DiskPressure=True \(KubeletHasDiskPressure\): kubelet has disk pressure since 2020-10-10T05:20:09Z/,
      fix: /^free disk .* on node n1 .*starts once the pressure ends; the kubelet admits critical pods under pressure: priorityClassName: system-node-critical/,
      not: /requests\/limits/,
    },
    {
      name: 'refused under MemoryPressure alone, a BestEffort pod: give it requests',
      message: 'Pod The node had condition: [MemoryPressure]. ',
      conditions: ['MemoryPressure'],
      says: /because the node has MemoryPressure/,
      fix: /free memory on node n1 .*refuses only BestEffort pods: give the containers resource requests/,
    },
    {
      name: 'refused, the pressure since gone: said so',
      message: 'Pod The node had condition: [DiskPressure]. ',
      conditions: [],
      priorityClassName: 'system-node-critical',
      says: /refused to start it because the node has DiskPressure/,
      fix: /^\(the node no longer reports it: the next pod starts\) free disk/,
      not: /admits critical pods/,
    },
    {
      name: 'evicted while running for ephemeral-storage: free it, requests',
      message: 'The node was low on resource: ephemeral-storage. ',
      conditions: ['DiskPressure'],
      says: /is Failed \(Evicted\); the controller deletes it/,
      fix: /when node n1 ran low on ephemeral-storage: free ephemeral-storage there; pods using more than they request go first/,
    },
  ];
  for (const c of cases)
    test(c.name, () => {
      const d = daemonSet('node-agent', 'monitoring');
      if (c.requests) d.requests(c.requests);
      const ds = d.build();
      if (c.priorityClassName) ds.spec!.template!.spec!.priorityClassName = c.priorityClassName;
      const n1 = node('n1').build();
      n1.status!.conditions = [...(n1.status!.conditions ?? []), ...c.conditions.map(pressure)];
      const p = pod('node-agent-x', 'monitoring')
        .ofDaemonSet(ds, 'n1')
        .on('n1')
        .phase('Failed')
        .with((q) => {
          q.status!.reason = 'Evicted';
          q.status!.message = c.message;
        })
        .build();
      const index = indexOf({ nodes: [n1], daemonSets: [ds], pods: [p], events: [] });
      const reason = diagnoseAllNodes(index, ds, NOW, 600)[0]!.reasons.find((r) => r.code === 'PodFailed');
      assert.ok(reason);
      assert.match(reason.message, c.says);
      if (c.evidence)
        assert.ok(
          reason.evidence.some((e) => c.evidence!.test(e)),
          reason.evidence.join('\n'),
        );
      assert.match(reason.fix, c.fix);
      if (c.not) assert.doesNotMatch(reason.fix, c.not);
    });
});

describe('the root cause of pods refused under node pressure (eviction_manager.go#Admit)', () => {
  const diskPressure = {
    type: 'DiskPressure',
    status: 'True',
    reason: 'KubeletHasDiskPressure',
    message: 'kubelet has disk pressure',
    lastTransitionTime: '2020-10-10T05:20:09Z',
  };
  /** Two node agents, each with a pod the kubelet refused on n2 ("The node had condition"), healthy on n1. */
  function cluster(pressureNow: boolean) {
    const agents = ['node-exporter', 'fluent-bit'].map((n) => daemonSet(n, 'ops').build());
    const n1 = node('n1').build();
    const n2 = node('n2').build();
    if (pressureNow) n2.status!.conditions = [...(n2.status!.conditions ?? []), diskPressure];
    const pods = agents.flatMap((ds) => [
      pod(`${ds.metadata!.name}-a`, 'ops').ofDaemonSet(ds, 'n1').on('n1').ready().build(),
      pod(`${ds.metadata!.name}-b`, 'ops')
        .ofDaemonSet(ds, 'n2')
        .on('n2')
        .phase('Failed')
        .with((q) => {
          q.status!.reason = 'Evicted';
          q.status!.message = 'Pod The node had condition: [DiskPressure]. ';
        })
        .build(),
    ]);
    return { agents, index: indexOf({ nodes: [n1, n2], daemonSets: agents, pods, events: [] }) };
  }

  test('NodePressure: one cause, the node and its condition, shared by every DaemonSet refused there', () => {
    const { agents, index } = cluster(true);
    const causes = causesOf(index, agents, { now: NOW });
    assert.deepEqual(
      causes.map((c) => c.code),
      ['NodePressure'],
    );
    const [cause] = causes;
    assert.deepEqual(cause!.cause, { kind: 'Node', name: 'n2' });
    assert.deepEqual(cause!.nodes, ['n2']);
    assert.deepEqual(
      cause!.affects.map((a) => a.name),
      ['fluent-bit', 'node-exporter'],
    );
    assert.equal(
      cause!.summary,
      'n2: node reports DiskPressure → the kubelet refuses to start daemon pods there until it clears → affects node-exporter, fluent-bit',
    );
    assert.ok(
      cause!.evidence.includes(
        'node n2: DiskPressure=True (KubeletHasDiskPressure): kubelet has disk pressure since 2020-10-10T05:20:09Z',
      ),
    );
    assert.match(
      cause!.fix,
      /^on node n2, free disk on its root or image filesystem .*the kubelet admits the pods once the condition clears/,
    );
  });

  test('the node no longer reports the condition: no cause (the next pod starts), the per-node reason says so', () => {
    const { agents, index } = cluster(false);
    assert.deepEqual(causesOf(index, agents, { now: NOW }), []);
  });
});
