// The host port chain (src/analyze/causes/host-port.ts): a DaemonSet's pods stay Pending because a
// host port is taken, and the holder is a pod of another DaemonSet, which its controller keeps on
// the node. Upstream: the NodePorts filter (kubernetes v1.35.4
// pkg/scheduler/framework/plugins/nodeports/node_ports.go#Fits; node_ports_test.go TestNodePorts:
// "same port, different IP" fits, "same port, 0.0.0.0" does not; a hostNetwork pod's
// containerPorts are host ports by pkg/apis/core/v1/defaults.go#SetDefaults_Pod), and the
// DaemonSet controller recreating its pod on each node it selects
// (pkg/controller/daemon/daemon_controller.go#podsShouldBeOnNode). Shaped on
// sustainable-computing-io/kepler#71 (hostPort 9102 of ovnkube-master).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { causesOf, causesOnNode } from '../../src/analyze/causes/index.js';
import { diagnoseAllNodes } from '../../src/analyze/placement/index.js';
import type { ContainerPort, DaemonSet, Pod } from '../../src/model/k8s-types.js';
import { NOW, daemonSet, indexOf, node, pod } from '../builders.js';

const FREE_PORTS = "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports.";

const exporter = (port: ContainerPort) =>
  daemonSet('kepler-exporter', 'monitoring')
    .container({ name: 'exporter', image: 'example.com/kepler:1', ports: [port] })
    .build();

function holderDs(port: ContainerPort, hostNetwork = false): DaemonSet {
  return daemonSet('ovnkube-master', 'openshift-ovn-kubernetes')
    .hostNetwork(hostNetwork)
    .container({ name: 'ovnkube-master', image: 'example.com/ovn:1', ports: [port] })
    .build();
}

type Holder = 'daemonset' | 'daemonset-hostnetwork' | 'bare' | 'replicaset' | 'self-old' | 'other-ip';

function holderPod(kind: Holder, ds: DaemonSet, n: string): { pods: Pod[]; daemonSets: DaemonSet[] } {
  const p9102: ContainerPort = { containerPort: 9102, hostPort: 9102, protocol: 'TCP' };
  switch (kind) {
    case 'daemonset':
    case 'other-ip': {
      const h = holderDs(kind === 'other-ip' ? { ...p9102, hostIP: '10.0.0.1' } : p9102);
      return {
        pods: [pod(`ovnkube-master-${n}`, 'openshift-ovn-kubernetes').ofDaemonSet(h, n).on(n).ready().build()],
        daemonSets: [h],
      };
    }
    case 'daemonset-hostnetwork': {
      const h = holderDs({ containerPort: 9102, protocol: 'TCP' }, true);
      return {
        pods: [pod(`ovnkube-master-${n}`, 'openshift-ovn-kubernetes').ofDaemonSet(h, n).on(n).ready().build()],
        daemonSets: [h],
      };
    }
    case 'bare':
    case 'replicaset': {
      const p = pod(`debug-${n}`, 'default')
        .on(n)
        .ready()
        .with((x) => {
          x.spec!.containers = [{ name: 'debug', image: 'example.com/debug:1', ports: [p9102] }];
          if (kind === 'replicaset')
            x.metadata!.ownerReferences = [
              { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'debug-5d8f', uid: 'rs-1', controller: true },
            ];
        })
        .build();
      return { pods: [p], daemonSets: [] };
    }
    case 'self-old':
      return {
        pods: [pod(`kepler-exporter-old-${n}`, 'monitoring').ofDaemonSet(ds, n, 'hash0', '0').on(n).ready().build()],
        daemonSets: [],
      };
  }
}

const cases: { name: string; holder: Holder; want: boolean; wantPort?: string; exporterPort?: ContainerPort }[] = [
  {
    name: 'HostPortHeldByDaemonSet: another DaemonSet’s pods hold the port on every node: one cause naming it',
    holder: 'daemonset',
    want: true,
    wantPort: '0.0.0.0:9102/TCP',
  },
  {
    name: 'a hostNetwork DaemonSet holds it through its containerPort (defaulted hostPort)',
    holder: 'daemonset-hostnetwork',
    want: true,
  },
  { name: 'a bare pod holds it: the per-node reason says so, no DaemonSet to name', holder: 'bare', want: false },
  { name: 'a Deployment’s pod holds it: not a DaemonSet, it can move', holder: 'replicaset', want: false },
  {
    name: 'the DaemonSet’s own old pod holds it (surge): its own reason, not this chain',
    holder: 'self-old',
    want: false,
  },
  {
    name: 'same port on another host IP does not conflict (TestNodePorts "same port, different IP")',
    holder: 'other-ip',
    exporterPort: { containerPort: 9102, hostPort: 9102, hostIP: '10.0.0.2', protocol: 'TCP' },
    want: false,
  },
];

describe('host port chain', () => {
  for (const c of cases) {
    test(c.name, () => {
      const ds = exporter(c.exporterPort ?? { containerPort: 9102, hostPort: 9102, protocol: 'TCP' });
      const names = ['m0', 'm1'];
      const nodes = names.map((n) => node(n).build());
      const pods: Pod[] = [];
      const daemonSets: DaemonSet[] = [ds];
      for (const n of names) {
        const h = holderPod(c.holder, ds, n);
        pods.push(...h.pods);
        for (const d of h.daemonSets)
          if (!daemonSets.some((x) => x.metadata?.name === d.metadata?.name)) daemonSets.push(d);
        pods.push(
          pod(`kepler-exporter-${n}`, 'monitoring').ofDaemonSet(ds, n, 'hash1', '1').unschedulable(FREE_PORTS).build(),
        );
      }
      const index = indexOf({ nodes, daemonSets, pods });
      const found = causesOf(index, [ds], { now: NOW }).filter((x) => x.code === 'HostPortHeldByDaemonSet');
      if (!c.want) {
        assert.deepEqual(found, []);
        // A holder that is not a DaemonSet: the per-node answer still names the conflict.
        if (c.holder === 'bare' || c.holder === 'replicaset') {
          const conflicts = diagnoseAllNodes(index, ds, NOW, 600).filter((r) =>
            r.reasons.some((x) => x.code === 'HostPortConflict'),
          );
          assert.equal(conflicts.length, names.length);
        }
        return;
      }
      assert.equal(found.length, 1, JSON.stringify(found));
      const cause = found[0]!;
      assert.deepEqual(cause.nodes, names);
      assert.deepEqual(cause.cause, {
        kind: 'DaemonSet',
        namespace: 'openshift-ovn-kubernetes',
        name: 'ovnkube-master',
      });
      if (c.wantPort)
        assert.match(
          cause.summary,
          new RegExp(
            `host port ${c.wantPort.replace(/\./g, '\\.')} is held there by DaemonSet openshift-ovn-kubernetes/ovnkube-master`,
          ),
        );
      assert.match(cause.fix, /does not help: DaemonSet openshift-ovn-kubernetes\/ovnkube-master creates it again/);
      assert.equal(causesOnNode(index, [ds], 'm1', { now: NOW })[0]?.code, 'HostPortHeldByDaemonSet');
    });
  }
});
