// The pod CIDR chain (src/analyze/causes/pod-cidr.ts): a network agent that fails by itself on the
// nodes whose Node object has no spec.podCIDR. Upstream behaviour it rests on: the node IPAM
// controller writes spec.podCIDR(s) when a Node is added, and only when kube-controller-manager runs
// with --allocate-node-cidrs (kubernetes v1.35.4 pkg/controller/nodeipam/ipam/range_allocator.go
// #AllocateOrOccupyCIDR, range_allocator_test.go TestAllocateOrOccupyCIDRSuccess); a node keeps
// none when it missed that (validation.go#ValidateNodeUpdate lets podCIDR go from "" to a range
// once, never change). Agents that take their range from the Node stop there with "pod cidr not
// assigned" (flannel-io/flannel#728, #1344; kubernetes/community#5339).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { causesOf, causesOnNode } from '../../src/analyze/causes/index.js';
import type { DaemonSet, Node, Pod } from '../../src/model/k8s-types.js';
import { NOW, daemonSet, indexOf, node, pod } from '../builders.js';

const flannel = daemonSet('kube-flannel-ds', 'kube-system')
  .hostNetwork()
  .container({
    name: 'kube-flannel',
    image: 'example.com/flannel:v1',
    args: ['--ip-masq', '--kube-subnet-mgr'],
    readinessProbe: { httpGet: { path: '/readyz', port: 8081 } },
  })
  .with((d) => {
    d.spec!.template!.spec!.volumes = [{ name: 'cni', hostPath: { path: '/etc/cni/net.d' } }];
  })
  .build();
const logger = daemonSet('log-agent', 'logging').container({ name: 'agent', image: 'example.com/log:1' }).build();

type State = 'ready' | 'crash' | 'pull' | 'readiness';

function agentPod(ds: DaemonSet, n: string, state: State): Pod {
  const b = pod(`${ds.metadata!.name}-${n}`, ds.metadata!.namespace).ofDaemonSet(ds, n).on(n);
  if (state === 'ready') return b.ready().build();
  if (state === 'pull') return b.waiting('ImagePullBackOff', 'Back-off pulling image').created(3600).build();
  if (state === 'readiness')
    return b
      .phase('Running')
      .created(3600)
      .with((p) => {
        p.status!.containerStatuses = [
          { name: 'kube-flannel', ready: false, restartCount: 0, image: '', state: { running: {} } },
        ];
        p.status!.conditions = [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }];
      })
      .build();
  return b
    .waiting('CrashLoopBackOff', 'back-off 5m0s', {
      restartCount: 12,
      lastTerminated: { reason: 'Error', exitCode: 1 },
    })
    .created(3600)
    .build();
}

function withCIDR(n: Node, cidr: string | undefined): Node {
  if (cidr) n.spec = { ...n.spec, podCIDR: cidr };
  return n;
}

interface Case {
  name: string;
  ds?: DaemonSet;
  /** node name → [its spec.podCIDR, the agent's state there] */
  nodes: Record<string, [string | undefined, State]>;
  want?: { severity: string; nodes: string[]; cause: string };
}

const cases: Case[] = [
  {
    name: 'NodeWithoutPodCIDR: the agent crashes on exactly the node without a pod CIDR (flannel#1344: 5 of 6 nodes got one)',
    nodes: { n1: ['10.244.0.0/24', 'ready'], n2: [undefined, 'crash'], n3: ['10.244.2.0/24', 'ready'] },
    want: { severity: 'error', nodes: ['n2'], cause: 'Node/n2' },
  },
  {
    name: 'no node has a pod CIDR and the agent crashes on all (kubeadm init without --pod-network-cidr)',
    nodes: { n1: [undefined, 'crash'], n2: [undefined, 'crash'] },
    want: { severity: 'warning', nodes: ['n1', 'n2'], cause: 'DaemonSet/kube-system/kube-flannel-ds' },
  },
  {
    name: 'an agent that stays unready where the range is missing (Cilium with Kubernetes IPAM waits for it)',
    nodes: { n1: ['10.0.1.0/24', 'ready'], n2: [undefined, 'readiness'] },
    want: { severity: 'error', nodes: ['n2'], cause: 'Node/n2' },
  },
  {
    name: 'the agent runs on another node without a pod CIDR: it does not need one',
    nodes: { n1: [undefined, 'ready'], n2: [undefined, 'crash'], n3: ['10.244.2.0/24', 'ready'] },
  },
  {
    name: 'the failing node has a pod CIDR: something else',
    nodes: { n1: ['10.244.0.0/24', 'ready'], n2: ['10.244.1.0/24', 'crash'] },
  },
  {
    name: 'an image pull failure is not the agent failing by itself',
    nodes: { n1: ['10.244.0.0/24', 'ready'], n2: [undefined, 'pull'] },
  },
  {
    name: 'failing everywhere on a one-node cluster proves nothing',
    nodes: { n1: [undefined, 'crash'] },
  },
  {
    name: 'failing everywhere while some node has a range is not the missing allocator',
    nodes: { n1: [undefined, 'crash'], n2: ['10.244.1.0/24', 'crash'] },
  },
  {
    name: 'a DaemonSet that is not a network agent is not linked to pod CIDRs',
    ds: logger,
    nodes: { n1: ['10.244.0.0/24', 'ready'], n2: [undefined, 'crash'] },
  },
];

describe('pod CIDR chain', () => {
  for (const c of cases) {
    test(c.name, () => {
      const ds = c.ds ?? flannel;
      const nodes = Object.entries(c.nodes).map(([n, [cidr]]) => withCIDR(node(n).build(), cidr));
      const pods = Object.entries(c.nodes).map(([n, [, state]]) => agentPod(ds, n, state));
      const index = indexOf({ nodes, daemonSets: [ds], pods });
      const found = causesOf(index, [ds], { now: NOW }).filter((x) => x.code === 'NodeWithoutPodCIDR');
      if (!c.want) {
        assert.deepEqual(found, []);
        return;
      }
      assert.equal(found.length, 1, JSON.stringify(found));
      const cause = found[0]!;
      assert.equal(cause.severity, c.want.severity);
      assert.deepEqual(cause.nodes, c.want.nodes);
      assert.equal([cause.cause.kind, cause.cause.namespace, cause.cause.name].filter(Boolean).join('/'), c.want.cause);
      assert.match(cause.fix, /kubectl patch node \S+ -p '\{"spec":\{"podCIDR":/);
      if (c.want.severity === 'warning') assert.match(cause.fix, /--allocate-node-cidrs=true/);
      // Asked about one failing node, the same cause comes first.
      const onNode = causesOnNode(index, [ds], c.want.nodes[0]!, { now: NOW });
      assert.equal(onNode[0]?.code, 'NodeWithoutPodCIDR');
    });
  }
});
