// Ported from pkg/controller/daemon/daemon_controller_test.go (TestNodeShouldRunDaemonPod,
// TestTaintedNodeDaemonDoesNotLaunchIntolerantPod, TestNotReadyNodeDaemonLaunchesPod,
// TestUnreachableNodeDaemonLaunchesPod, TestTaintPressureNodeDaemonLaunchesPod,
// TestNodeAffinityDaemonLaunchesPods, TestNetworkUnavailableNodeDaemonLaunchesPod) and
// pkg/controller/daemon/util/daemonset_util_test.go (TestAddOrUpdateDaemonPodTolerations),
// plus docs/semantics.md §1.9 (not-ready:NoSchedule is NOT covered by the automatic tolerations).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addOrUpdateToleration,
  compileDaemonPlacement,
  daemonPodTolerations,
  targetNodeName,
} from '../../../src/k8s/daemonpod.js';
import { daemonSet, node, pod } from '../../builders.js';

describe('NodeShouldRunDaemonPod table', () => {
  const cases: {
    name: string;
    node: ReturnType<typeof node>;
    ds: ReturnType<typeof daemonSet>;
    run: boolean;
    cont: boolean;
  }[] = [
    { name: 'plain node', node: node('n'), ds: daemonSet('d'), run: true, cont: true },
    {
      name: 'insufficient resources are ignored (InsufficientResourceError case)',
      node: node('n').allocatable({ cpu: '1m', memory: '1' }),
      ds: daemonSet('d').requests({ cpu: '2', memory: '1Gi' }),
      run: true,
      cont: true,
    },
    {
      name: 'template nodeName elsewhere',
      node: node('n'),
      ds: daemonSet('d').with((d) => {
        d.spec!.template!.spec!.nodeName = 'other';
      }),
      run: false,
      cont: false,
    },
    {
      name: 'template nodeName here',
      node: node('n'),
      ds: daemonSet('d').with((d) => {
        d.spec!.template!.spec!.nodeName = 'n';
      }),
      run: true,
      cont: true,
    },
    {
      name: 'nodeSelector mismatch',
      node: node('n'),
      ds: daemonSet('d').nodeSelector({ pool: 'gpu' }),
      run: false,
      cont: false,
    },
    {
      name: 'nodeSelector match',
      node: node('n').label('pool', 'gpu'),
      ds: daemonSet('d').nodeSelector({ pool: 'gpu' }),
      run: true,
      cont: true,
    },
    {
      name: 'affinity mismatch',
      node: node('n'),
      ds: daemonSet('d').affinity({
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['x'] }] }],
      }),
      run: false,
      cont: false,
    },
    {
      name: 'untolerated NoSchedule keeps existing pods',
      node: node('n').taint('dedicated', 'gpu', 'NoSchedule'),
      ds: daemonSet('d'),
      run: false,
      cont: true,
    },
    {
      name: 'untolerated NoExecute removes pods',
      node: node('n').taint('dedicated', 'gpu', 'NoExecute'),
      ds: daemonSet('d'),
      run: false,
      cont: false,
    },
    {
      name: 'PreferNoSchedule is ignored',
      node: node('n').taint('dedicated', 'gpu', 'PreferNoSchedule'),
      ds: daemonSet('d'),
      run: true,
      cont: true,
    },
    {
      name: 'tolerated with Equal',
      node: node('n').taint('dedicated', 'gpu', 'NoSchedule'),
      ds: daemonSet('d').tolerate({ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }),
      run: true,
      cont: true,
    },
    {
      name: 'Equal with other value does not tolerate',
      node: node('n').taint('dedicated', 'gpu', 'NoSchedule'),
      ds: daemonSet('d').tolerate({ key: 'dedicated', value: 'cpu' }),
      run: false,
      cont: true,
    },
    {
      name: 'empty key Exists tolerates everything',
      node: node('n').taint('a', 'b', 'NoExecute').taint('c', undefined, 'NoSchedule'),
      ds: daemonSet('d').tolerate({ operator: 'Exists' }),
      run: true,
      cont: true,
    },
    {
      name: 'empty effect tolerates both effects',
      node: node('n').taint('k', 'v', 'NoExecute'),
      ds: daemonSet('d').tolerate({ key: 'k', operator: 'Exists' }),
      run: true,
      cont: true,
    },
    {
      name: 'NoExecute only not-ready taint (TestNotReadyNodeDaemonLaunchesPod)',
      node: node('n').taint('node.kubernetes.io/not-ready', undefined, 'NoExecute'),
      ds: daemonSet('d'),
      run: true,
      cont: true,
    },
    {
      name: 'NoExecute only unreachable taint (TestUnreachableNodeDaemonLaunchesPod)',
      node: node('n').taint('node.kubernetes.io/unreachable', undefined, 'NoExecute'),
      ds: daemonSet('d'),
      run: true,
      cont: true,
    },
    {
      name: 'real NotReady node: not-ready NoSchedule is not auto-tolerated (§1.9)',
      node: node('n')
        .notReady()
        .taint('node.kubernetes.io/not-ready', undefined, 'NoSchedule')
        .taint('node.kubernetes.io/not-ready', undefined, 'NoExecute'),
      ds: daemonSet('d'),
      run: false,
      cont: true,
    },
    {
      name: 'unreachable NoSchedule is not auto-tolerated',
      node: node('n').taint('node.kubernetes.io/unreachable', undefined, 'NoSchedule'),
      ds: daemonSet('d'),
      run: false,
      cont: true,
    },
    {
      name: 'pressure taints are auto-tolerated (TestTaintPressureNodeDaemonLaunchesPod)',
      node: node('n')
        .taint('node.kubernetes.io/disk-pressure', undefined, 'NoSchedule')
        .taint('node.kubernetes.io/memory-pressure', undefined, 'NoSchedule')
        .taint('node.kubernetes.io/pid-pressure', undefined, 'NoSchedule'),
      ds: daemonSet('d'),
      run: true,
      cont: true,
    },
    {
      name: 'cordoned node still runs daemon pods',
      node: node('n').cordon(),
      ds: daemonSet('d'),
      run: true,
      cont: true,
    },
    {
      name: 'network-unavailable without hostNetwork',
      node: node('n').taint('node.kubernetes.io/network-unavailable', undefined, 'NoSchedule'),
      ds: daemonSet('d'),
      run: false,
      cont: true,
    },
    {
      name: 'network-unavailable with hostNetwork (TestNetworkUnavailableNodeDaemonLaunchesPod)',
      node: node('n').taint('node.kubernetes.io/network-unavailable', undefined, 'NoSchedule'),
      ds: daemonSet('d').hostNetwork(),
      run: true,
      cont: true,
    },
    {
      name: 'control-plane taint is not auto-tolerated',
      node: node('n').taint('node-role.kubernetes.io/control-plane', undefined, 'NoSchedule'),
      ds: daemonSet('d'),
      run: false,
      cont: true,
    },
    {
      name: 'affinity failure wins over tolerated taints',
      node: node('n').taint('a', 'b', 'NoSchedule'),
      ds: daemonSet('d').tolerate({ operator: 'Exists' }).nodeSelector({ x: 'y' }),
      run: false,
      cont: false,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const r = compileDaemonPlacement(c.ds.build()).evaluate(c.node.build());
      assert.deepEqual([r.shouldRun, r.shouldContinueRunning], [c.run, c.cont], c.name);
    });
  }
});

test('failures explain every predicate that fails', () => {
  const r = compileDaemonPlacement(daemonSet('d').nodeSelector({ pool: 'gpu' }).build()).evaluate(
    node('n').taint('dedicated', 'gpu', 'NoSchedule').build(),
  );
  assert.deepEqual(
    r.failures.map((f) => f.kind),
    ['NodeAffinity', 'Taint'],
  );
});

test('AddOrUpdateDaemonPodTolerations: defaults, hostNetwork, replacement of tolerationSeconds', () => {
  const plain = daemonPodTolerations({});
  assert.deepEqual(
    plain.map((t) => `${t.key}:${t.effect}`),
    [
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ],
  );
  assert.equal(daemonPodTolerations({ hostNetwork: true }).at(-1)?.key, 'node.kubernetes.io/network-unavailable');
  // A matching user toleration loses its tolerationSeconds (it becomes infinite).
  const merged = daemonPodTolerations({
    tolerations: [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ],
  });
  assert.equal(merged.filter((t) => t.key === 'node.kubernetes.io/not-ready').length, 1);
  assert.equal(merged[0]!.tolerationSeconds, undefined);
  // A different operator does not match: both are kept.
  const both = daemonPodTolerations({
    tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Equal', value: '', effect: 'NoExecute' }],
  });
  assert.equal(both.filter((t) => t.key === 'node.kubernetes.io/not-ready').length, 2);
  assert.deepEqual(
    addOrUpdateToleration([{ key: 'a', operator: 'Exists' }], { key: 'b', operator: 'Exists' }).map((t) => t.key),
    ['a', 'b'],
  );
});

test('GetTargetNodeName: nodeName, else the matchFields pin', () => {
  const ds = daemonSet('d').build();
  assert.equal(targetNodeName(pod('p').ofDaemonSet(ds, 'n1').build()), 'n1');
  assert.equal(targetNodeName(pod('p').ofDaemonSet(ds, 'n1').on('n2').build()), 'n2');
  assert.equal(targetNodeName(pod('p').build()), undefined);
});
