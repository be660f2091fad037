/**
 * The nodes of a generated cluster: a few control-plane nodes, general / high-memory / GPU / spot
 * pools, some Windows, NotReady, cordoned and just-joined nodes, built by test/kube's makeNode.
 */
import type { Taint } from '../../src/model/k8s-types.js';
import { lifecycleTaints, makeNode, nodeCondition, unschedulableTaint } from '../../test/kube/api-node.js';
import { managedFieldsEntry } from '../../test/kube/api-meta.js';
import type { Json as KubeJson } from '../../test/kube/fields.js';
import { at, DAY, HOUR, MIN } from '../../test/kube/time.js';
import { type Gen, HEX, type Obj, type Random } from './random.js';

/** One node of the layout, with what the pods placed so far use of it. */
export interface NodeInfo {
  name: string;
  pool: 'control-plane' | 'general' | 'highmem' | 'gpu' | 'spot';
  os: 'linux' | 'windows';
  zone: string;
  cpuMilli: number;
  memKi: number;
  maxPods: number;
  notReady: boolean;
  cordoned: boolean;
  justJoined: boolean;
  /** A node whose CPU the workload pods fill: the node-exporter pod stays Pending there. */
  full: boolean;
  ip: string;
  podCidr: number;
  cpuUsed: number;
  podsUsed: number;
}

const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
const IMAGES = [
  'registry.k8s.io/kube-proxy:v1.34.2',
  'docker.io/calico/node:v3.28.1',
  'docker.io/calico/cni:v3.28.1',
  'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
  'cr.fluentbit.io/fluent/fluent-bit:3.2.2',
  'quay.io/prometheus/node-exporter:v1.8.2',
  'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.35.0',
  'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.12.0',
  'registry.k8s.io/sig-storage/livenessprobe:v2.14.0',
  'registry.k8s.io/pause:3.10',
  'nvcr.io/nvidia/k8s-device-plugin:v0.16.2',
  'ghcr.io/acme/checkout:2.14.1',
  'ghcr.io/acme/payments:5.2.0',
  'ghcr.io/acme/search:1.9.3',
  'ghcr.io/acme/catalog:3.0.7',
  'ghcr.io/acme/frontend:8.1.0',
  'ghcr.io/acme/worker:4.4.2',
  'docker.io/istio/proxyv2:1.23.2',
  'docker.io/library/redis:7.4.1',
  'docker.io/library/nginx:1.27.2',
  'ghcr.io/acme/batch:0.9.12',
  'registry.k8s.io/coredns/coredns:v1.11.3',
];

/** The node's pod network, 10.<podCidr / 256>.<podCidr % 256>.0/24. */
export function podNet(n: NodeInfo): string {
  return `10.${n.podCidr >> 8}.${n.podCidr & 255}`;
}

/** The layout of `count` nodes: pools, zones, sizes, and which are NotReady, cordoned, just joined or full. */
export function layoutNodes(count: number, r: Random): NodeInfo[] {
  const nodes: NodeInfo[] = [];
  for (let i = 0; i < count; i++) {
    const pool: NodeInfo['pool'] =
      i < 3
        ? 'control-plane'
        : r.chance(0.05)
          ? 'gpu'
          : r.chance(0.08)
            ? 'highmem'
            : r.chance(0.08)
              ? 'spot'
              : 'general';
    const zone = ZONES[i % ZONES.length]!;
    const windows = pool === 'general' && r.chance(0.01);
    const cpuMilli = pool === 'gpu' ? 95_690 : pool === 'highmem' ? 31_750 : 15_890;
    const memKi = pool === 'gpu' ? 1_120_000_000 : pool === 'highmem' ? 257_000_000 : 63_000_000;
    const octet = 10 + (i >> 16);
    nodes.push({
      name:
        pool === 'control-plane'
          ? `control-plane-${i + 1}`
          : `ip-10-${octet}-${(i >> 8) & 255}-${i & 255}.ec2.internal`,
      pool,
      os: windows ? 'windows' : 'linux',
      zone,
      cpuMilli,
      memKi,
      maxPods: pool === 'gpu' ? 250 : 110,
      notReady: i >= 3 && r.chance(0.002),
      cordoned: i >= 3 && r.chance(0.003),
      justJoined: i >= 3 && r.chance(0.001),
      full: false,
      ip: `10.${octet}.${(i >> 8) & 255}.${i & 255}`,
      podCidr: 256 + i,
      cpuUsed: 0,
      podsUsed: 0,
    });
  }
  for (const n of nodes)
    if (n.pool === 'general' && n.os === 'linux' && !n.notReady && !n.cordoned && !n.justJoined && r.chance(0.002))
      n.full = true;
  return nodes;
}

/** The labels and taints of a node's pool. */
function poolLabelsAndTaints(n: NodeInfo): { labels: Record<string, string>; taints: Taint[] } {
  const labels: Record<string, string> = { 'topology.ebs.csi.aws.com/zone': n.zone, 'node-pool': n.pool };
  const taints: Taint[] = [];
  if (n.pool === 'control-plane') {
    labels['node-role.kubernetes.io/control-plane'] = '';
    taints.push({ effect: 'NoSchedule', key: 'node-role.kubernetes.io/control-plane' });
  }
  if (n.pool === 'gpu') {
    labels['nvidia.com/gpu.present'] = 'true';
    labels['nvidia.com/gpu.product'] = 'NVIDIA-A100-SXM4-40GB';
    taints.push({ effect: 'NoSchedule', key: 'nvidia.com/gpu', value: 'present' });
  }
  if (n.pool === 'spot') {
    labels['node.kubernetes.io/lifecycle'] = 'spot';
    taints.push({ effect: 'NoSchedule', key: 'spot', value: 'true' });
  }
  if (n.notReady) taints.push(...lifecycleTaints('unreachable', 40 * MIN, 40 * MIN));
  if (n.cordoned) taints.push(unschedulableTaint(3 * HOUR));
  return { labels, taints };
}

/** The fields the kubelet and the node controller own, as the raw API lists them. */
function nodeManagedFields(
  n: NodeInfo,
  created: string,
  heartbeat: string,
  labels: string[],
  allocatable: string[],
): KubeJson[] {
  return [
    managedFieldsEntry('kubelet', created, {
      'f:metadata': {
        'f:annotations': {
          '.': {},
          'f:alpha.kubernetes.io/provided-node-ip': {},
          'f:volumes.kubernetes.io/controller-managed-attach-detach': {},
        },
        'f:labels': Object.fromEntries(labels.map((k) => [`f:${k}`, {}])),
      },
    }),
    managedFieldsEntry('kube-controller-manager', heartbeat, {
      'f:spec': { 'f:podCIDR': {}, 'f:podCIDRs': { '.': {}, [`v:"${podNet(n)}.0/24"`]: {} }, 'f:taints': {} },
    }),
    managedFieldsEntry('kubelet', heartbeat, {
      'f:status': {
        'f:allocatable': Object.fromEntries(allocatable.map((k) => [`f:${k}`, {}])),
        'f:conditions': Object.fromEntries(
          ['DiskPressure', 'MemoryPressure', 'PIDPressure', 'Ready'].map((t) => [
            `k:{"type":"${t}"}`,
            { 'f:lastHeartbeatTime': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {} },
          ]),
        ),
        'f:images': {},
        'f:nodeInfo': {
          'f:bootID': {},
          'f:containerRuntimeVersion': {},
          'f:kernelVersion': {},
          'f:kubeProxyVersion': {},
          'f:kubeletVersion': {},
        },
      },
    }),
  ];
}

/** A node of the layout as the API returns it: an EC2 instance with kubelet v1.34.2 on containerd 1.7. */
export function nodeObject(n: NodeInfo, g: Gen): Obj {
  const { r } = g;
  const joinedAgo = n.justJoined ? 30 : 30 * DAY + r.int(200 * DAY);
  const heartbeatAgo = r.int(40);
  const images: { names: string[]; sizeBytes: number }[] = [];
  const count = 12 + r.int(14);
  for (let i = 0; i < count; i++) {
    const img = IMAGES[(i * 7 + r.int(IMAGES.length)) % IMAGES.length]!;
    images.push({ names: [`${img.split(':')[0]}@${r.digest()}`, img], sizeBytes: 5_000_000 + r.int(900_000_000) });
  }
  const ebsNodeId = `i-0${r.chars(HEX, 16)}`;
  const resourceVersion = g.rv();
  const uid = r.uid();
  const providerID = `aws:///${n.zone}/i-0${r.chars(HEX, 16)}`;
  const bootID = r.uid();
  const machineID = r.chars(HEX, 32);
  const systemUUID = r.uid();

  const cond = (type: string, status: string, reason: string, message: string) =>
    nodeCondition(
      type,
      n.notReady ? 'Unknown' : status,
      reason,
      message,
      n.notReady ? 42 * MIN : heartbeatAgo,
      n.notReady && type === 'Ready' ? 40 * MIN : joinedAgo,
    );
  const conditions = [
    cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    n.notReady
      ? cond('Ready', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.')
      : cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
  ];
  const cap = (cpu: number, memKi: number): Record<string, string> => ({
    cpu: String(Math.ceil(cpu / 1000)),
    'ephemeral-storage': '203056560Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: `${memKi}Ki`,
    pods: String(n.maxPods),
    ...(n.pool === 'gpu' ? { 'nvidia.com/gpu': '8' } : {}),
  });
  const type = {
    instanceType: n.pool === 'gpu' ? 'p4d.24xlarge' : n.pool === 'highmem' ? 'r6i.8xlarge' : 'm6i.4xlarge',
    capacity: cap(n.cpuMilli + 100, n.memKi + 1_000_000),
    allocatable: { ...cap(n.cpuMilli, n.memKi), cpu: `${n.cpuMilli}m`, 'ephemeral-storage': '186063165924' },
  };
  const { labels, taints } = poolLabelsAndTaints(n);
  const node = makeNode({
    name: n.name,
    ip: n.ip,
    joinedAgo,
    conditions,
    type,
    podCIDR: `${podNet(n)}.0/24`,
    region: 'us-east-1',
    zone: n.zone,
    betaCloudLabels: false,
    labels,
    annotations: {
      'alpha.kubernetes.io/provided-node-ip': n.ip,
      'csi.volume.kubernetes.io/nodeid': JSON.stringify({ 'ebs.csi.aws.com': ebsNodeId }),
    },
    unschedulable: n.cordoned || undefined,
    taints,
    images,
    os: n.os,
    kernelVersion: n.os === 'windows' ? '10.0.20348.2762' : '6.1.112-124.190.amzn2023.x86_64',
    osImage: n.os === 'windows' ? 'Windows Server 2022 Datacenter' : 'Amazon Linux 2023.6.20241031',
    uid,
    resourceVersion,
    providerID,
    hostname: `ip-${n.ip.replace(/\./g, '-')}.ec2.internal`,
    nodeInfo: {
      bootID,
      machineID,
      systemUUID,
      containerRuntimeVersion: 'containerd://1.7.22',
      kubeProxyVersion: 'v1.34.2',
    },
    runtimeHandlers: false,
  });
  if (g.managedFields) {
    (node.metadata as KubeJson)['managedFields'] = nodeManagedFields(
      n,
      at(joinedAgo),
      at(heartbeatAgo),
      Object.keys(node.metadata.labels),
      Object.keys(type.allocatable),
    );
  }
  return node as unknown as Obj;
}
