/**
 * Writes a synthetic but realistic cluster dump, deterministic from a seed: what
 * `kubectl get nodes,pods,ds,controllerrevisions,events -A -o json` prints (one `List`, keys
 * sorted, four-space indentation, the pods in the API server's order: by namespace, then name) and
 * the same objects as multi-document YAML.
 *
 *   node dist/bench/generate.js --nodes 5000 --pods 150000 --out bench/out/5k [--seed 1]
 *     [--formats json,yaml,yaml-list] [--managed-fields]
 *
 * The cluster: a few control-plane nodes, general / high-memory / GPU / spot pools, some
 * Windows, NotReady, cordoned and just-joined nodes; the usual DaemonSets (CNI, kube-proxy,
 * CSI node plugin, log collector mid-rollout, node-exporter with a host port, GPU device
 * plugin) with their ControllerRevisions; daemon pods with the controller's pinned node
 * affinity, hash labels and status blocks (a few crash-looping, pulling, pending on full
 * nodes); workload pods from Deployments and Jobs with requests spread over the nodes; events.
 * The evaluation instant is 2026-11-29T12:00:00Z (pass it as `--now`).
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { foldLikeKubectl } from './yaml-fold.js';
import { daemonPodTolerations } from '../src/k8s/daemonpod.js';
import type { StatusCounts } from '../src/model/results.js';
import { SAFE, fnv32a } from '../test/kube/ids.js';
import { DAY, HOUR, MIN, NOW_ISO, at } from '../test/kube/time.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

/** The instant every timestamp of the dump is relative to (test/kube's, shared with every fixture). */
export { NOW_ISO };

/**
 * The layouts a dump can be written in: `json` as kubectl writes it (a List, four spaces),
 * `json-2` (`JSON.stringify(…, null, 2)`), `json-compact` (one item per line, as `jq -c` tools
 * write), `json-line` (the whole List on one line), `json-concat` (one object per line, no List:
 * NDJSON), `yaml` (multi-document `---` stream) and `yaml-list` (`kubectl get -o yaml`).
 */
export type Format = 'json' | 'json-2' | 'json-compact' | 'json-line' | 'json-concat' | 'yaml' | 'yaml-list';

/** The file name of each layout in a dump's folder. */
export const FILE_NAMES: Record<Format, string> = {
  json: 'dump.json',
  'json-2': 'dump-2.json',
  'json-compact': 'dump-compact.json',
  'json-line': 'dump-line.json',
  'json-concat': 'dump-concat.json',
  yaml: 'dump.yaml',
  'yaml-list': 'dump-list.yaml',
};

/** Options of one generated dump. */
export interface GenerateOptions {
  nodes: number;
  /** Total pods, daemon pods included (the workload pods make up the rest). */
  pods: number;
  seed: number;
  out: string;
  formats: Format[];
  /** Include `metadata.managedFields`, as the raw API (or `--show-managed-fields`) returns them. */
  managedFields: boolean;
  /**
   * How many DaemonSets: the first ones of the built-in set, then agents on every Linux node
   * (default: the built-in set).
   */
  daemonSets?: number;
}

/** What was written. */
export interface GenerateResult {
  files: Record<string, string>;
  counts: Record<string, number>;
}

// mulberry32: small, fast and good enough for picking shapes; the same seed gives the same dump.
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The alphabet of k8s.io/apimachinery/pkg/util/rand (no vowels, no 0/1/3).
const HEX = '0123456789abcdef';

class Random {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  float(): number {
    return this.next();
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  chars(alphabet: string, n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
  suffix(n = 5): string {
    return this.chars(SAFE, n);
  }
  /** `prefix` + a random suffix not used before: the API server refuses a second pod of a name. */
  uniqueName(prefix: string, used: Set<string>): string {
    let name = `${prefix}${this.suffix()}`;
    while (used.has(name)) name = `${prefix}${this.suffix()}`;
    used.add(name);
    return name;
  }
  uid(): string {
    const h = this.chars(HEX, 32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(4)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** Keys sorted recursively, as kubectl prints unstructured objects. */
function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]!);
  return out;
}

let resourceVersion = 4_100_000;
function rv(): string {
  return String(resourceVersion++);
}

function managedFields(manager: string, time: string, fields: Obj): Json[] {
  return [{ apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: fields, manager, operation: 'Update', time }];
}

interface NodeInfo {
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

function sha256ish(r: Random): string {
  return `sha256:${r.chars(HEX, 64)}`;
}

function makeNode(n: NodeInfo, r: Random, withManaged: boolean): Obj {
  const created = n.justJoined ? at(30) : at(30 * DAY + r.int(200 * DAY));
  const labels: Obj = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': n.os,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': n.name,
    'kubernetes.io/os': n.os,
    'node.kubernetes.io/instance-type': n.pool === 'gpu' ? 'p4d.24xlarge' : n.pool === 'highmem' ? 'r6i.8xlarge' : 'm6i.4xlarge',
    'topology.kubernetes.io/region': 'us-east-1',
    'topology.kubernetes.io/zone': n.zone,
    'topology.ebs.csi.aws.com/zone': n.zone,
    'node-pool': n.pool,
  };
  const taints: Json[] = [];
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
  if (n.notReady) {
    taints.push({ effect: 'NoSchedule', key: 'node.kubernetes.io/unreachable', timeAdded: at(40 * MIN) });
    taints.push({ effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', timeAdded: at(40 * MIN) });
  }
  if (n.cordoned) taints.push({ effect: 'NoSchedule', key: 'node.kubernetes.io/unschedulable', timeAdded: at(3 * HOUR) });
  const heartbeat = at(r.int(40));
  const cond = (type: string, status: string, reason: string, message: string): Obj => ({
    lastHeartbeatTime: n.notReady ? at(42 * MIN) : heartbeat,
    lastTransitionTime: n.notReady && type === 'Ready' ? at(40 * MIN) : created,
    message,
    reason,
    status: n.notReady ? 'Unknown' : status,
    type,
  });
  const conditions = [
    cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    n.notReady
      ? { ...cond('Ready', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'), status: 'Unknown' }
      : cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
  ];
  const images: Json[] = [];
  const count = 12 + r.int(14);
  for (let i = 0; i < count; i++) {
    const img = IMAGES[(i * 7 + r.int(IMAGES.length)) % IMAGES.length]!;
    images.push({ names: [`${img.split(':')[0]}@${sha256ish(r)}`, img], sizeBytes: 5_000_000 + r.int(900_000_000) });
  }
  const cap = (cpu: number, memKi: number): Obj => ({
    cpu: String(Math.ceil(cpu / 1000)),
    'ephemeral-storage': '203056560Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: `${memKi}Ki`,
    pods: String(n.maxPods),
    ...(n.pool === 'gpu' ? { 'nvidia.com/gpu': '8' } : {}),
  });
  const capacity = cap(n.cpuMilli + 100, n.memKi + 1_000_000);
  const allocatable: Obj = { ...cap(n.cpuMilli, n.memKi), cpu: `${n.cpuMilli}m`, 'ephemeral-storage': '186063165924' };
  const metadata: Obj = {
    annotations: {
      'alpha.kubernetes.io/provided-node-ip': n.ip,
      'csi.volume.kubernetes.io/nodeid': JSON.stringify({ 'ebs.csi.aws.com': `i-0${r.chars(HEX, 16)}` }),
      'node.alpha.kubernetes.io/ttl': '0',
      'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    },
    creationTimestamp: created,
    labels,
    name: n.name,
    resourceVersion: rv(),
    uid: r.uid(),
  };
  if (withManaged) {
    metadata['managedFields'] = [
      ...managedFields('kubelet', created, {
        'f:metadata': {
          'f:annotations': { '.': {}, 'f:alpha.kubernetes.io/provided-node-ip': {}, 'f:volumes.kubernetes.io/controller-managed-attach-detach': {} },
          'f:labels': Object.fromEntries(Object.keys(labels).map((k) => [`f:${k}`, {}])),
        },
      }),
      ...managedFields('kube-controller-manager', heartbeat, { 'f:spec': { 'f:podCIDR': {}, 'f:podCIDRs': { '.': {}, [`v:"10.${n.podCidr >> 8}.${n.podCidr & 255}.0/24"`]: {} }, 'f:taints': {} } }),
      ...managedFields('kubelet', heartbeat, {
        'f:status': {
          'f:allocatable': Object.fromEntries(Object.keys(allocatable).map((k) => [`f:${k}`, {}])),
          'f:conditions': Object.fromEntries(
            ['DiskPressure', 'MemoryPressure', 'PIDPressure', 'Ready'].map((t) => [
              `k:{"type":"${t}"}`,
              { 'f:lastHeartbeatTime': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {} },
            ]),
          ),
          'f:images': {},
          'f:nodeInfo': { 'f:bootID': {}, 'f:containerRuntimeVersion': {}, 'f:kernelVersion': {}, 'f:kubeProxyVersion': {}, 'f:kubeletVersion': {} },
        },
      }),
    ];
  }
  const cidr = `10.${n.podCidr >> 8}.${n.podCidr & 255}.0/24`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata,
    spec: {
      podCIDR: cidr,
      podCIDRs: [cidr],
      providerID: `aws:///${n.zone}/i-0${r.chars(HEX, 16)}`,
      ...(taints.length ? { taints } : {}),
      ...(n.cordoned ? { unschedulable: true } : {}),
    },
    status: {
      addresses: [
        { address: n.ip, type: 'InternalIP' },
        { address: `ip-${n.ip.replace(/\./g, '-')}.ec2.internal`, type: 'InternalDNS' },
        { address: `ip-${n.ip.replace(/\./g, '-')}.ec2.internal`, type: 'Hostname' },
      ],
      allocatable,
      capacity,
      conditions,
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      images,
      nodeInfo: {
        architecture: 'amd64',
        bootID: r.uid(),
        containerRuntimeVersion: 'containerd://1.7.22',
        kernelVersion: n.os === 'windows' ? '10.0.20348.2762' : '6.1.112-124.190.amzn2023.x86_64',
        kubeProxyVersion: 'v1.34.2',
        kubeletVersion: 'v1.34.2',
        machineID: r.chars(HEX, 32),
        operatingSystem: n.os,
        osImage: n.os === 'windows' ? 'Windows Server 2022 Datacenter' : 'Amazon Linux 2023.6.20241031',
        systemUUID: r.uid(),
      },
    },
  };
}

/** The shape of one DaemonSet of the generated cluster. */
interface DsShape {
  namespace: string;
  name: string;
  labelKey: string;
  image: string;
  oldImage?: string;
  /** Fraction of pods already on the new revision (mid-rollout), 1 when none is going on. */
  updatedShare: number;
  hostNetwork: boolean;
  hostPort?: number;
  tolerations: Json[];
  nodeSelector: Obj;
  cpu: string;
  cpuMilli: number;
  memory: string;
  priorityClassName?: string;
  maxUnavailable: string | number;
  extraContainers: Obj[];
  /** Per-pod odds of a bad state on its node. */
  crashLoop: number;
  imagePull: number;
  runs(n: NodeInfo): boolean;
}

const tolerateAll: Json[] = [{ operator: 'Exists' }];

/** A toleration without a key that tolerates every NoSchedule taint. */
function isBlanket(t: Json): boolean {
  const o = t as Obj;
  return o['key'] === undefined && o['operator'] === 'Exists' && (o['effect'] === undefined || o['effect'] === 'NoSchedule');
}

const DAEMONSETS: DsShape[] = [
  {
    namespace: 'kube-system',
    name: 'calico-node',
    labelKey: 'k8s-app',
    image: 'docker.io/calico/node:v3.28.1',
    updatedShare: 1,
    hostNetwork: true,
    tolerations: [
      { effect: 'NoSchedule', operator: 'Exists' },
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
      { effect: 'NoExecute', operator: 'Exists' },
    ],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    cpu: '250m',
    cpuMilli: 250,
    memory: '128Mi',
    priorityClassName: 'system-node-critical',
    maxUnavailable: 1,
    extraContainers: [],
    crashLoop: 0,
    imagePull: 0,
    runs: (n) => n.os === 'linux',
  },
  {
    namespace: 'kube-system',
    name: 'kube-proxy',
    labelKey: 'k8s-app',
    image: 'registry.k8s.io/kube-proxy:v1.34.2',
    updatedShare: 1,
    hostNetwork: true,
    tolerations: tolerateAll,
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    cpu: '100m',
    cpuMilli: 100,
    memory: '64Mi',
    priorityClassName: 'system-node-critical',
    maxUnavailable: '10%',
    extraContainers: [],
    crashLoop: 0,
    imagePull: 0,
    runs: (n) => n.os === 'linux',
  },
  {
    namespace: 'kube-system',
    name: 'ebs-csi-node',
    labelKey: 'app',
    image: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.35.0',
    updatedShare: 1,
    hostNetwork: false,
    tolerations: tolerateAll,
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    cpu: '10m',
    cpuMilli: 30,
    memory: '40Mi',
    priorityClassName: 'system-node-critical',
    maxUnavailable: '10%',
    extraContainers: [
      {
        name: 'node-driver-registrar',
        image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.12.0',
        args: ['--csi-address=$(ADDRESS)', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--v=2'],
        resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
      },
      {
        name: 'liveness-probe',
        image: 'registry.k8s.io/sig-storage/livenessprobe:v2.14.0',
        args: ['--csi-address=/csi/csi.sock'],
        resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
      },
    ],
    crashLoop: 0,
    imagePull: 0,
    runs: (n) => n.os === 'linux',
  },
  {
    namespace: 'logging',
    name: 'fluent-bit',
    labelKey: 'app.kubernetes.io/name',
    image: 'cr.fluentbit.io/fluent/fluent-bit:3.2.2',
    oldImage: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
    updatedShare: 0.6,
    hostNetwork: false,
    tolerations: [{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    cpu: '100m',
    cpuMilli: 100,
    memory: '128Mi',
    maxUnavailable: '10%',
    extraContainers: [],
    crashLoop: 0.01,
    imagePull: 0,
    runs: (n) => n.os === 'linux' && n.pool !== 'gpu' && n.pool !== 'spot',
  },
  {
    namespace: 'monitoring',
    name: 'node-exporter',
    labelKey: 'app.kubernetes.io/name',
    image: 'quay.io/prometheus/node-exporter:v1.8.2',
    updatedShare: 1,
    hostNetwork: true,
    hostPort: 9100,
    tolerations: tolerateAll,
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    cpu: '100m',
    cpuMilli: 100,
    memory: '180Mi',
    maxUnavailable: 1,
    extraContainers: [],
    crashLoop: 0,
    imagePull: 0.002,
    runs: (n) => n.os === 'linux',
  },
  {
    namespace: 'gpu-operator',
    name: 'nvidia-device-plugin-daemonset',
    labelKey: 'name',
    image: 'nvcr.io/nvidia/k8s-device-plugin:v0.16.2',
    updatedShare: 1,
    hostNetwork: false,
    tolerations: [{ effect: 'NoSchedule', key: 'nvidia.com/gpu', operator: 'Exists' }],
    nodeSelector: { 'nvidia.com/gpu.present': 'true' },
    cpu: '50m',
    cpuMilli: 50,
    memory: '64Mi',
    priorityClassName: 'system-node-critical',
    maxUnavailable: 1,
    extraContainers: [],
    crashLoop: 0,
    imagePull: 0,
    runs: (n) => n.pool === 'gpu',
  },
];

/** The built-in DaemonSets, then `agent-N` copies of a plain one on every Linux node, to `count`. */
function daemonSetShapes(count = DAEMONSETS.length): DsShape[] {
  const agent = DAEMONSETS[1]!;
  const extra = Array.from({ length: Math.max(0, count - DAEMONSETS.length) }, (_, k): DsShape => ({
    ...agent,
    namespace: 'agents',
    name: `agent-${k + 1}`,
    labelKey: 'app',
    image: `registry.example.com/agent-${k + 1}:v1.0.${k}`,
    hostNetwork: false,
    priorityClassName: undefined,
  }));
  return [...DAEMONSETS.slice(0, count), ...extra];
}

function podTemplate(d: DsShape, image: string): Obj {
  const labels = { [d.labelKey]: d.name };
  const main: Obj = {
    name: d.name.replace(/-daemonset$/, ''),
    image,
    imagePullPolicy: 'IfNotPresent',
    env: [
      { name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
      { name: 'LOG_LEVEL', value: 'info' },
    ],
    resources: { limits: { memory: d.memory }, requests: { cpu: d.cpu, memory: d.memory } },
    ...(d.hostPort ? { ports: [{ containerPort: d.hostPort, hostPort: d.hostPort, name: 'metrics', protocol: 'TCP' }] } : {}),
    readinessProbe: { failureThreshold: 3, httpGet: { path: '/healthz', port: d.hostPort ?? 9099, scheme: 'HTTP' }, periodSeconds: 10, successThreshold: 1, timeoutSeconds: 1 },
    livenessProbe: { failureThreshold: 6, httpGet: { path: '/healthz', port: d.hostPort ?? 9099, scheme: 'HTTP' }, initialDelaySeconds: 10, periodSeconds: 10, successThreshold: 1, timeoutSeconds: 1 },
    securityContext: d.name === 'calico-node' || d.name === 'ebs-csi-node' ? { privileged: true } : { readOnlyRootFilesystem: true, runAsNonRoot: true, runAsUser: 65534 },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    volumeMounts: [
      { mountPath: '/host/sys', name: 'sys', readOnly: true },
      { mountPath: '/var/log', name: 'varlog' },
    ],
  };
  const extras = d.extraContainers.map((c): Obj => ({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', ...c }));
  return {
    metadata: { creationTimestamp: null, labels },
    spec: {
      containers: [main, ...extras],
      dnsPolicy: d.hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst',
      ...(d.hostNetwork ? { hostNetwork: true } : {}),
      nodeSelector: d.nodeSelector,
      ...(d.priorityClassName ? { priorityClassName: d.priorityClassName } : {}),
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      serviceAccount: d.name,
      serviceAccountName: d.name,
      terminationGracePeriodSeconds: 30,
      tolerations: d.tolerations,
      volumes: [
        { hostPath: { path: '/sys', type: '' }, name: 'sys' },
        { hostPath: { path: '/var/log', type: '' }, name: 'varlog' },
      ],
    },
  };
}

/** A controller-revision-hash-looking string (ten characters of the safe alphabet). */
function hashOf(text: string): string {
  return [...String(fnv32a(text)).padStart(10, '7')].map((c) => SAFE[c.charCodeAt(0) % SAFE.length]).join('');
}

interface DsState extends StatusCounts {
  shape: DsShape;
  uid: string;
  generation: number;
  template: Obj;
  oldTemplate?: Obj;
  hash: string;
  oldHash?: string;
  created: string;
}

function podConditions(created: number, ready: boolean, scheduled = true): Json[] {
  const t = at(created - 5);
  return [
    { lastProbeTime: null, lastTransitionTime: at(created - 3), status: scheduled ? 'True' : 'False', type: 'PodReadyToStartContainers' },
    { lastProbeTime: null, lastTransitionTime: at(created - 2), status: 'True', type: 'Initialized' },
    {
      lastProbeTime: null,
      lastTransitionTime: ready ? t : at(created - 20),
      status: ready ? 'True' : 'False',
      type: 'Ready',
      ...(ready ? {} : { message: 'containers with unready status: [main]', reason: 'ContainersNotReady' }),
    },
    {
      lastProbeTime: null,
      lastTransitionTime: ready ? t : at(created - 20),
      status: ready ? 'True' : 'False',
      type: 'ContainersReady',
      ...(ready ? {} : { message: 'containers with unready status: [main]', reason: 'ContainersNotReady' }),
    },
    { lastProbeTime: null, lastTransitionTime: at(created), status: 'True', type: 'PodScheduled' },
  ];
}

type PodState = 'running' | 'crashloop' | 'imagepull' | 'pending' | 'nodeDown';

function containerStatus(c: Obj, state: PodState, created: number, r: Random): Obj {
  const image = String(c['image']);
  const base: Obj = {
    containerID: `containerd://${r.chars(HEX, 64)}`,
    image,
    imageID: `${image.split(':')[0]}@${sha256ish(r)}`,
    name: String(c['name']),
    started: state === 'running',
    volumeMounts: [],
  };
  if (state === 'crashloop') {
    return {
      ...base,
      lastState: { terminated: { containerID: `containerd://${r.chars(HEX, 64)}`, exitCode: 1, finishedAt: at(90), reason: 'Error', startedAt: at(95) } },
      ready: false,
      restartCount: 14 + r.int(40),
      started: false,
      state: { waiting: { message: `back-off 5m0s restarting failed container=${String(c['name'])}`, reason: 'CrashLoopBackOff' } },
    };
  }
  if (state === 'imagepull') {
    return {
      image,
      imageID: '',
      name: String(c['name']),
      ready: false,
      restartCount: 0,
      started: false,
      state: { waiting: { message: `Back-off pulling image "${image}"`, reason: 'ImagePullBackOff' } },
      volumeMounts: [],
    };
  }
  if (state === 'nodeDown') return { ...base, ready: false, restartCount: r.int(3), started: true, state: { running: { startedAt: at(created - 10) } } };
  return { ...base, ready: true, restartCount: r.chance(0.1) ? 1 + r.int(3) : 0, state: { running: { startedAt: at(created - 4) } } };
}

function podStatus(containers: Obj[], state: PodState, created: number, node: NodeInfo | undefined, podIP: string, r: Random, qos: string): Obj {
  if (state === 'pending') {
    return {
      conditions: [
        {
          lastProbeTime: null,
          lastTransitionTime: at(created),
          message: '0/5000 nodes are available: 1 Insufficient cpu. preemption: 0/5000 nodes are available: 1 No preemption victims found for incoming pod.',
          reason: 'Unschedulable',
          status: 'False',
          type: 'PodScheduled',
        },
      ],
      phase: 'Pending',
      qosClass: qos,
    };
  }
  const ready = state === 'running';
  return {
    conditions: podConditions(created, ready),
    containerStatuses: containers.map((c) => containerStatus(c, state, created, r)),
    hostIP: node!.ip,
    hostIPs: [{ ip: node!.ip }],
    phase: state === 'imagepull' ? 'Pending' : 'Running',
    podIP,
    podIPs: [{ ip: podIP }],
    qosClass: qos,
    startTime: at(created - 1),
  };
}

const TEAMS = [
  'checkout',
  'payments',
  'search',
  'catalog',
  'frontend',
  'worker',
  'recommendations',
  'identity',
  'ledger',
  'notifications',
  'media',
  'analytics',
  'ads',
  'inventory',
  'shipping',
  'pricing',
];
const APP_IMAGES = [
  'ghcr.io/acme/checkout:2.14.1',
  'ghcr.io/acme/payments:5.2.0',
  'ghcr.io/acme/search:1.9.3',
  'ghcr.io/acme/catalog:3.0.7',
  'ghcr.io/acme/frontend:8.1.0',
  'ghcr.io/acme/worker:4.4.2',
  'docker.io/library/redis:7.4.1',
  'docker.io/library/nginx:1.27.2',
];

interface Deployment {
  namespace: string;
  name: string;
  rsHash: string;
  rsUid: string;
  image: string;
  cpuMilli: number;
  memMi: number;
  sidecar: boolean;
  job: boolean;
}

function workloadPod(dep: Deployment, node: NodeInfo | undefined, r: Random, withManaged: boolean, used: Set<string>): Obj {
  const name = r.uniqueName(dep.job ? `${dep.name}-` : `${dep.name}-${dep.rsHash}-`, used);
  const created = r.int(20 * DAY) + 600;
  const cpuMilli = dep.cpuMilli;
  const app: Obj = {
    name: 'app',
    image: dep.image,
    imagePullPolicy: 'IfNotPresent',
    env: [
      { name: 'SERVICE_NAME', value: dep.name },
      { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: 'http://otel-collector.observability:4317' },
      { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { key: 'password', name: `${dep.name}-db` } } },
    ],
    ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
    resources: { limits: { memory: `${dep.memMi * 2}Mi` }, requests: { cpu: `${cpuMilli}m`, memory: `${dep.memMi}Mi` } },
    readinessProbe: { failureThreshold: 3, httpGet: { path: '/ready', port: 'http', scheme: 'HTTP' }, periodSeconds: 5, successThreshold: 1, timeoutSeconds: 1 },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    volumeMounts: [{ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: `kube-api-access-${r.suffix()}`, readOnly: true }],
  };
  const containers: Obj[] = [app];
  if (dep.sidecar) {
    containers.push({
      name: 'istio-proxy',
      image: 'docker.io/istio/proxyv2:1.23.2',
      args: ['proxy', 'sidecar', '--domain', `${dep.namespace}.svc.cluster.local`, '--proxyLogLevel=warning'],
      ports: [{ containerPort: 15090, name: 'http-envoy-prom', protocol: 'TCP' }],
      resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '100m', memory: '128Mi' } },
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
  }
  const labels: Obj = dep.job ? { 'batch.kubernetes.io/job-name': dep.name, 'job-name': dep.name } : { app: dep.name, 'pod-template-hash': dep.rsHash, 'app.kubernetes.io/part-of': dep.namespace };
  const metadata: Obj = {
    creationTimestamp: at(created),
    generateName: dep.job ? `${dep.name}-` : `${dep.name}-${dep.rsHash}-`,
    labels,
    name,
    namespace: dep.namespace,
    ownerReferences: [
      {
        apiVersion: dep.job ? 'batch/v1' : 'apps/v1',
        blockOwnerDeletion: true,
        controller: true,
        kind: dep.job ? 'Job' : 'ReplicaSet',
        name: dep.job ? dep.name : `${dep.name}-${dep.rsHash}`,
        uid: dep.rsUid,
      },
    ],
    resourceVersion: rv(),
    uid: r.uid(),
  };
  if (withManaged) {
    metadata['managedFields'] = [
      ...managedFields('kube-controller-manager', at(created), {
        'f:metadata': { 'f:generateName': {}, 'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {} }, 'f:ownerReferences': { '.': {}, [`k:{"uid":"${dep.rsUid}"}`]: {} } },
        'f:spec': {
          'f:containers': {
            'k:{"name":"app"}': {
              '.': {},
              'f:env': {},
              'f:image': {},
              'f:imagePullPolicy': {},
              'f:name': {},
              'f:ports': {},
              'f:readinessProbe': {},
              'f:resources': {},
              'f:terminationMessagePath': {},
              'f:terminationMessagePolicy': {},
            },
          },
          'f:dnsPolicy': {},
          'f:enableServiceLinks': {},
          'f:restartPolicy': {},
          'f:schedulerName': {},
          'f:securityContext': {},
          'f:terminationGracePeriodSeconds': {},
        },
      }),
      ...managedFields('kubelet', at(created - 5), {
        'f:status': {
          'f:conditions': {
            'k:{"type":"ContainersReady"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
            'k:{"type":"Initialized"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
            'k:{"type":"Ready"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
          },
          'f:containerStatuses': {},
          'f:hostIP': {},
          'f:phase': {},
          'f:podIP': {},
          'f:startTime': {},
        },
      }),
    ];
  }
  const spec: Obj = {
    containers,
    dnsPolicy: 'ClusterFirst',
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
    priority: 0,
    restartPolicy: dep.job ? 'Never' : 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {},
    serviceAccount: 'default',
    serviceAccountName: 'default',
    terminationGracePeriodSeconds: 30,
    tolerations: [
      { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
      { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
    ],
    volumes: [
      {
        name: 'kube-api-access',
        projected: {
          defaultMode: 420,
          sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } }],
        },
      },
    ],
    ...(node ? { nodeName: node.name } : {}),
  };
  const qos = 'Burstable';
  let status: Obj;
  if (!node) {
    status = podStatus(containers, 'pending', created, undefined, '', r, qos);
  } else if (dep.job) {
    status = {
      conditions: podConditions(created, false),
      phase: 'Succeeded',
      hostIP: node.ip,
      podIP: '',
      qosClass: qos,
      startTime: at(created - 1),
      containerStatuses: containers.map((c) => ({
        containerID: `containerd://${r.chars(HEX, 64)}`,
        image: String(c['image']),
        imageID: '',
        name: String(c['name']),
        ready: false,
        restartCount: 0,
        started: false,
        state: { terminated: { containerID: `containerd://${r.chars(HEX, 64)}`, exitCode: 0, finishedAt: at(created - 120), reason: 'Completed', startedAt: at(created - 5) } },
      })),
    };
  } else {
    status = podStatus(containers, node.notReady ? 'nodeDown' : 'running', created, node, `10.${node.podCidr >> 8}.${node.podCidr & 255}.${2 + r.int(250)}`, r, qos);
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec, status };
}

/** One writer per output format, each fed item by item. */
interface Sink {
  item(obj: Obj, kind: string): void;
  close(): void;
}

class Out {
  private readonly fd: number;
  private parts: string[] = [];
  private size = 0;
  private pendingBytes = 0;
  bytes = 0;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  /** Bytes written so far, pending ones included: where the next write starts. */
  get position(): number {
    return this.bytes + this.pendingBytes;
  }
  write(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    this.pendingBytes += Buffer.byteLength(s);
    if (this.size > 4 << 20) this.flush();
  }
  flush(): void {
    if (!this.parts.length) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    this.bytes += buf.length;
    writeSync(this.fd, buf);
    this.parts = [];
    this.size = 0;
    this.pendingBytes = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

function jsonSink(path: string): Sink {
  const out = new Out(path);
  const spans: string[] = [];
  out.write('{\n    "apiVersion": "v1",\n    "items": [');
  let first = true;
  return {
    item(obj) {
      writeItem(out, spans, `${first ? '' : ','}\n        `, JSON.stringify(obj, null, 4).replace(/\n/g, '\n        '));
      first = false;
    },
    close() {
      out.write('\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n');
      out.close();
      writeFileSync(itemSpansFile(path), `${spans.join('\n')}\n`);
    },
  };
}

/** A List in another JSON layout: `indent` spaces per level, or compact with `lineBreaks` between items. */
function jsonLayoutSink(path: string, indent: number, lineBreaks: boolean): Sink {
  const out = new Out(path);
  const pad = ' '.repeat(indent);
  const spans: string[] = [];
  out.write(indent ? `{\n${pad}"apiVersion": "v1",\n${pad}"items": [` : '{"apiVersion":"v1","items":[');
  let first = true;
  return {
    item(obj) {
      const separator = `${first ? '' : ','}${indent ? `\n${pad}${pad}` : lineBreaks ? '\n' : ''}`;
      writeItem(out, spans, separator, indent ? JSON.stringify(obj, null, indent).replace(/\n/g, `\n${pad}${pad}`) : JSON.stringify(obj));
      first = false;
    },
    close() {
      out.write(
        indent
          ? `\n${pad}],\n${pad}"kind": "List",\n${pad}"metadata": {\n${pad}${pad}"resourceVersion": ""\n${pad}}\n}\n`
          : `${lineBreaks ? '\n' : ''}],"kind":"List","metadata":{"resourceVersion":""}}\n`,
      );
      out.close();
      writeFileSync(itemSpansFile(path), `${spans.join('\n')}\n`);
    },
  };
}

/** NDJSON: each object on its own line, no List around them. */
function jsonConcatSink(path: string): Sink {
  const out = new Out(path);
  const spans: string[] = [];
  return {
    item(obj) {
      writeItem(out, spans, '', JSON.stringify(obj));
      out.write('\n');
    },
    close() {
      out.close();
      writeFileSync(itemSpansFile(path), `${spans.join('\n')}\n`);
    },
  };
}

function sinkFor(f: Format, path: string): Sink {
  switch (f) {
    case 'json':
      return jsonSink(path);
    case 'json-2':
      return jsonLayoutSink(path, 2, true);
    case 'json-compact':
      return jsonLayoutSink(path, 0, true);
    case 'json-line':
      return jsonLayoutSink(path, 0, false);
    case 'json-concat':
      return jsonConcatSink(path);
    case 'yaml':
      return yamlSink(path);
    case 'yaml-list':
      return yamlListSink(path);
  }
}

/**
 * Where each item's JSON text lies in a JSON dump, as byte offsets `start end` one item a line in
 * `<file>.items`: the floor (bench/floor.ts) parses exactly those texts and does nothing else.
 */
export function itemSpansFile(path: string): string {
  return `${path}.items`;
}

/** Writes an item's text after its separator, noting the byte span of the text itself. */
function writeItem(out: Out, spans: string[], separator: string, text: string): void {
  out.write(separator);
  const start = out.position;
  out.write(text);
  spans.push(`${start} ${out.position}`);
}

function yamlSink(path: string): Sink {
  const out = new Out(path);
  return {
    item(obj) {
      out.write(`---\n${foldLikeKubectl(yaml.dump(obj, { lineWidth: -1, noRefs: true }))}`);
    },
    close() {
      out.close();
    },
  };
}

/** `kubectl get -o yaml` style: one `kind: List` document with items at column 0. */
function yamlListSink(path: string): Sink {
  const out = new Out(path);
  out.write('apiVersion: v1\nitems:\n');
  return {
    item(obj) {
      const text = foldLikeKubectl(yaml.dump([obj], { lineWidth: -1, noRefs: true }));
      out.write(text);
    },
    close() {
      out.write('kind: List\nmetadata:\n  resourceVersion: ""\n');
      out.close();
    },
  };
}

/** Generates the dump; returns the paths written and the object counts. */
export function generate(opts: GenerateOptions): GenerateResult {
  const r = new Random(opts.seed);
  resourceVersion = 4_100_000;
  mkdirSync(opts.out, { recursive: true });
  const files: Record<string, string> = {};
  const sinks: Sink[] = [];
  for (const f of opts.formats) {
    if (!(f in FILE_NAMES)) throw new Error(`unknown format ${f}; known: ${Object.keys(FILE_NAMES).join(', ')}`);
    const path = join(opts.out, FILE_NAMES[f]);
    files[f] = path;
    sinks.push(sinkFor(f, path));
  }
  const counts: Record<string, number> = { Node: 0, Pod: 0, DaemonSet: 0, ControllerRevision: 0, Event: 0 };
  /** Counts an object whose keys are sorted already and writes it to every sink. */
  const write = (sorted: Obj, kind: string) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
    for (const s of sinks) s.item(sorted, kind);
  };
  const emit = (obj: Obj, kind: string) => write(sortKeys(obj) as Obj, kind);
  // The pods are written in the order the API server lists them (by namespace, then name: the
  // order of their keys in etcd), as kubectl prints them, not in the order they are made here
  // (node by node). Each is kept as its JSON text until then: 300,000 pod objects would not fit.
  const pods: { key: string; text: string }[] = [];
  const emitPod = (obj: Obj) => {
    const md = obj['metadata'] as Obj;
    pods.push({ key: `${String(md['namespace'])}/${String(md['name'])}`, text: JSON.stringify(sortKeys(obj)) });
  };
  const flushPods = () => {
    pods.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (let i = 0; i < pods.length; i++) {
      const text = pods[i]!.text;
      pods[i] = { key: '', text: '' };
      write(JSON.parse(text) as Obj, 'Pod');
    }
    pods.length = 0;
  };

  // Nodes.
  const nodes: NodeInfo[] = [];
  for (let i = 0; i < opts.nodes; i++) {
    const pool: NodeInfo['pool'] = i < 3 ? 'control-plane' : r.chance(0.05) ? 'gpu' : r.chance(0.08) ? 'highmem' : r.chance(0.08) ? 'spot' : 'general';
    const zone = ZONES[i % ZONES.length]!;
    const windows = pool === 'general' && r.chance(0.01);
    const cpuMilli = pool === 'gpu' ? 95_690 : pool === 'highmem' ? 31_750 : 15_890;
    const memKi = pool === 'gpu' ? 1_120_000_000 : pool === 'highmem' ? 257_000_000 : 63_000_000;
    const octet = 10 + (i >> 16);
    nodes.push({
      name: pool === 'control-plane' ? `control-plane-${i + 1}` : `ip-10-${octet}-${(i >> 8) & 255}-${i & 255}.ec2.internal`,
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
  for (const n of nodes) if (n.pool === 'general' && n.os === 'linux' && !n.notReady && !n.cordoned && !n.justJoined && r.chance(0.002)) n.full = true;
  for (const n of nodes) emit(makeNode(n, r, opts.managedFields), 'Node');

  // DaemonSets: templates, revisions, hashes.
  const states: DsState[] = daemonSetShapes(opts.daemonSets).map((shape) => {
    const template = podTemplate(shape, shape.image);
    const oldTemplate = shape.oldImage ? podTemplate(shape, shape.oldImage) : undefined;
    const generation = shape.oldImage ? 3 : 1;
    return {
      shape,
      uid: r.uid(),
      generation,
      template,
      ...(oldTemplate ? { oldTemplate, oldHash: hashOf(JSON.stringify(oldTemplate)) } : {}),
      hash: hashOf(JSON.stringify(template)),
      created: at(400 * DAY + r.int(100 * DAY)),
      desired: 0,
      current: 0,
      ready: 0,
      updated: 0,
      available: 0,
      misscheduled: 0,
    };
  });

  // Pods: daemon pods per node, then workload pods spread over the schedulable nodes.
  const events: Obj[] = [];
  const event = (involved: Obj, reason: string, message: string, type: string, count: number, ago: number, source: string) => {
    events.push({
      apiVersion: 'v1',
      count,
      firstTimestamp: at(ago + 600 * Math.min(count, 6)),
      involvedObject: involved,
      kind: 'Event',
      lastTimestamp: at(ago),
      message,
      metadata: { creationTimestamp: at(ago + 600), name: `${String(involved['name'])}.${r.chars(HEX, 16)}`, namespace: String(involved['namespace']), resourceVersion: rv(), uid: r.uid() },
      reason,
      reportingComponent: source,
      reportingInstance: '',
      source: { component: source },
      type,
    });
  };
  let daemonPods = 0;
  const podNames = new Set<string>();
  for (const n of nodes) {
    for (const st of states) {
      const d = st.shape;
      if (!d.runs(n)) continue;
      // The unreachable:NoSchedule taint of a NotReady node keeps it out of the desired count of a
      // DaemonSet without a blanket toleration; its pod there counts as misscheduled.
      const excluded = n.notReady && !d.tolerations.some((t) => isBlanket(t));
      if (!excluded) st.desired++;
      // A node that joined seconds ago is desired already; the controller creates its pods next.
      if (n.justJoined) continue;
      const outdated = st.oldTemplate !== undefined && r.float() >= d.updatedShare;
      const template = outdated ? st.oldTemplate! : st.template;
      const hash = outdated ? st.oldHash! : st.hash;
      const name = r.uniqueName(`${d.name}-`, podNames);
      const created = outdated ? 90 * DAY + r.int(30 * DAY) : r.int(2 * HOUR) + 5 * MIN;
      let state: PodState = n.notReady ? 'nodeDown' : 'running';
      if (!outdated && r.chance(d.crashLoop)) state = 'crashloop';
      if (r.chance(d.imagePull)) state = 'imagepull';
      if (n.full && d.name === 'node-exporter') state = 'pending';
      const tspec = template['spec'] as Obj;
      const containers = (tspec['containers'] as Obj[]).map((c) => ({ ...c }));
      const spec: Obj = {
        ...tspec,
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [n.name] }] }] } } },
        containers,
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
        priority: d.priorityClassName ? 2000001000 : 0,
        // The controller's own merge (AddOrUpdateDaemonPodTolerations), as ds-doctor models it.
        tolerations: daemonPodTolerations(tspec) as unknown as Json[],
        ...(state === 'pending' ? {} : { nodeName: n.name }),
      };
      const podIP = d.hostNetwork ? n.ip : `10.${n.podCidr >> 8}.${n.podCidr & 255}.${2 + r.int(250)}`;
      const metadata: Obj = {
        creationTimestamp: at(created),
        generateName: `${d.name}-`,
        labels: { 'controller-revision-hash': hash, [d.labelKey]: d.name, 'pod-template-generation': String(outdated ? st.generation - 1 : st.generation) },
        name,
        namespace: d.namespace,
        ownerReferences: [{ apiVersion: 'apps/v1', blockOwnerDeletion: true, controller: true, kind: 'DaemonSet', name: d.name, uid: st.uid }],
        resourceVersion: rv(),
        uid: r.uid(),
      };
      if (opts.managedFields) {
        metadata['managedFields'] = [
          ...managedFields('kube-controller-manager', at(created), {
            'f:metadata': {
              'f:generateName': {},
              'f:labels': { '.': {}, 'f:controller-revision-hash': {}, 'f:pod-template-generation': {} },
              'f:ownerReferences': { '.': {}, [`k:{"uid":"${st.uid}"}`]: {} },
            },
            'f:spec': { 'f:affinity': { '.': {}, 'f:nodeAffinity': { '.': {}, 'f:requiredDuringSchedulingIgnoredDuringExecution': {} } }, 'f:containers': {}, 'f:tolerations': {} },
          }),
          ...managedFields('kubelet', at(created - 5), { 'f:status': { 'f:conditions': {}, 'f:containerStatuses': {}, 'f:hostIP': {}, 'f:phase': {}, 'f:podIP': {}, 'f:startTime': {} } }),
        ];
      }
      const pod: Obj = { apiVersion: 'v1', kind: 'Pod', metadata, spec, status: podStatus(containers, state, created, n, podIP, r, 'Burstable') };
      emitPod(pod);
      daemonPods++;
      const ref: Obj = { apiVersion: 'v1', kind: 'Pod', name, namespace: d.namespace, uid: String(metadata['uid']) };
      // The controller counts a pod by its target node, bound or not.
      if (excluded) {
        st.misscheduled++;
      } else {
        st.current++;
        if (!outdated) st.updated++;
      }
      if (state === 'pending') {
        event(
          { ...ref, resourceVersion: rv() },
          'FailedScheduling',
          `0/${opts.nodes} nodes are available: 1 Insufficient cpu, ${opts.nodes - 1} node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/${opts.nodes} nodes are available: 1 No preemption victims found for incoming pod, ${opts.nodes - 1} Preemption is not helpful for scheduling.`,
          'Warning',
          40,
          30,
          'default-scheduler',
        );
      } else {
        n.cpuUsed += d.cpuMilli;
        n.podsUsed++;
        if (state === 'running' && !excluded) {
          st.ready++;
          st.available++;
        }
      }
      if (state === 'crashloop')
        event({ ...ref, fieldPath: `spec.containers{${String(containers[0]!['name'])}}` }, 'BackOff', 'Back-off restarting failed container', 'Warning', 60 + r.int(200), 20, 'kubelet');
      if (state === 'imagepull')
        event(
          { ...ref, fieldPath: `spec.containers{${String(containers[0]!['name'])}}` },
          'Failed',
          `Failed to pull image "${String(containers[0]!['image'])}": rpc error: code = NotFound desc = failed to pull and unpack image: not found`,
          'Warning',
          12,
          40,
          'kubelet',
        );
    }
  }

  // Workload pods: Deployments (ReplicaSets) and Jobs, spread round-robin over schedulable nodes.
  const schedulable = nodes.filter((n) => n.os === 'linux' && !n.cordoned && !n.justJoined && n.pool !== 'control-plane' && n.pool !== 'gpu' && n.pool !== 'spot');
  const workload = Math.max(0, opts.pods - daemonPods);
  const deployments: Deployment[] = [];
  const namespaces = Math.max(4, Math.round(workload / 3000));
  for (let i = 0; deployments.length * 25 < workload; i++) {
    const team = TEAMS[i % TEAMS.length]!;
    deployments.push({
      namespace: `${team}-${Math.floor(i / TEAMS.length) % namespaces}`,
      name: `${team}-svc-${i}`,
      rsHash: r.chars(SAFE, 10),
      rsUid: r.uid(),
      image: r.pick(APP_IMAGES),
      cpuMilli: r.pick([50, 100, 200, 250, 500]),
      memMi: r.pick([128, 256, 512, 1024]),
      sidecar: r.chance(0.4),
      job: r.chance(0.04),
    });
  }
  let placed = 0;
  let cursor = 0;
  for (let w = 0; w < workload; w++) {
    const dep = deployments[w % deployments.length]!;
    let node: NodeInfo | undefined;
    if (!r.chance(0.01)) {
      for (let tries = 0; tries < schedulable.length; tries++) {
        const cand = schedulable[cursor++ % schedulable.length]!;
        const want = dep.cpuMilli + (dep.sidecar ? 100 : 0);
        if (!cand.full && cand.podsUsed < cand.maxPods - 8 && cand.cpuUsed + want <= cand.cpuMilli * 0.85) {
          node = cand;
          break;
        }
      }
    }
    const pod = workloadPod(dep, node, r, opts.managedFields, podNames);
    if (node) {
      node.cpuUsed += dep.cpuMilli + (dep.sidecar ? 100 : 0);
      node.podsUsed++;
      placed++;
    } else {
      const md = pod['metadata'] as Obj;
      event(
        { apiVersion: 'v1', kind: 'Pod', name: String(md['name']), namespace: dep.namespace, uid: String(md['uid']) },
        'FailedScheduling',
        `0/${opts.nodes} nodes are available: ${opts.nodes} Insufficient memory. preemption: 0/${opts.nodes} nodes are available: ${opts.nodes} No preemption victims found for incoming pod.`,
        'Warning',
        5,
        60,
        'default-scheduler',
      );
    }
    if (node && r.chance(0.03)) {
      // Normal events of a pod started within the last hour, as the event TTL keeps them.
      const md = pod['metadata'] as Obj;
      const ref: Obj = { apiVersion: 'v1', kind: 'Pod', name: String(md['name']), namespace: dep.namespace, uid: String(md['uid']) };
      const ago = r.int(HOUR);
      event(ref, 'Scheduled', `Successfully assigned ${dep.namespace}/${String(md['name'])} to ${node.name}`, 'Normal', 1, ago + 4, 'default-scheduler');
      event({ ...ref, fieldPath: 'spec.containers{app}' }, 'Pulled', `Container image "${dep.image}" already present on machine`, 'Normal', 1, ago + 2, 'kubelet');
      event({ ...ref, fieldPath: 'spec.containers{app}' }, 'Created', 'Created container: app', 'Normal', 1, ago + 1, 'kubelet');
      event({ ...ref, fieldPath: 'spec.containers{app}' }, 'Started', 'Started container app', 'Normal', 1, ago, 'kubelet');
    }
    emitPod(pod);
  }
  // Fill the "full" nodes' CPU so node-exporter's 100m no longer fits there.
  for (const n of nodes.filter((x) => x.full)) {
    const filler: Deployment = {
      namespace: 'batch',
      name: `render-${n.podCidr}`,
      rsHash: r.chars(SAFE, 10),
      rsUid: r.uid(),
      image: 'ghcr.io/acme/batch:0.9.12',
      cpuMilli: n.cpuMilli - n.cpuUsed - 50,
      memMi: 1024,
      sidecar: false,
      job: false,
    };
    emitPod(workloadPod(filler, n, r, opts.managedFields, podNames));
    n.cpuUsed = n.cpuMilli - 50;
  }
  flushPods();

  // DaemonSets with their status, then their ControllerRevisions.
  for (const st of states) {
    const d = st.shape;
    const metadata: Obj = {
      annotations: { 'deprecated.daemonset.template.generation': String(st.generation) },
      creationTimestamp: st.created,
      generation: st.generation,
      labels: { [d.labelKey]: d.name },
      name: d.name,
      namespace: d.namespace,
      resourceVersion: rv(),
      uid: st.uid,
    };
    emit(
      {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata,
        spec: {
          revisionHistoryLimit: 10,
          selector: { matchLabels: { [d.labelKey]: d.name } },
          template: st.template,
          updateStrategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: d.maxUnavailable }, type: 'RollingUpdate' },
        },
        status: {
          currentNumberScheduled: st.current,
          desiredNumberScheduled: st.desired,
          numberAvailable: st.available,
          numberMisscheduled: st.misscheduled,
          numberReady: st.ready,
          numberUnavailable: st.desired - st.available,
          observedGeneration: st.generation,
          updatedNumberScheduled: st.updated,
        },
      },
      'DaemonSet',
    );
  }
  for (const st of states) {
    const d = st.shape;
    const revs: [Obj, string, number][] = st.oldTemplate
      ? [
          [st.oldTemplate, st.oldHash!, st.generation - 1],
          [st.template, st.hash, st.generation],
        ]
      : [[st.template, st.hash, 1]];
    for (const [template, hash, revision] of revs) {
      emit(
        {
          apiVersion: 'apps/v1',
          kind: 'ControllerRevision',
          data: { spec: { template: { $patch: 'replace', ...template } } },
          metadata: {
            annotations: { 'deprecated.daemonset.template.generation': String(revision) },
            creationTimestamp: revision === st.generation && st.oldTemplate ? at(2 * HOUR + 10 * MIN) : st.created,
            labels: { 'controller-revision-hash': hash, [d.labelKey]: d.name },
            name: `${d.name}-${hash}`,
            namespace: d.namespace,
            ownerReferences: [{ apiVersion: 'apps/v1', blockOwnerDeletion: true, controller: true, kind: 'DaemonSet', name: d.name, uid: st.uid }],
            resourceVersion: rv(),
            uid: r.uid(),
          },
          revision,
        },
        'ControllerRevision',
      );
    }
  }

  // Normal events for a sample of nodes, then the warnings gathered above.
  for (const n of nodes) {
    if (!r.chance(0.2)) continue;
    event(
      { kind: 'Node', name: n.name, uid: n.name },
      n.notReady ? 'NodeNotReady' : 'RegisteredNode',
      n.notReady ? `Node ${n.name} status is now: NodeNotReady` : `Node ${n.name} event: Registered Node ${n.name} in Controller`,
      'Normal',
      1,
      r.int(3 * HOUR),
      n.notReady ? 'node-controller' : 'node-controller',
    );
  }
  for (const e of events) emit(e, 'Event');
  for (const s of sinks) s.close();
  return { files, counts: { ...counts, placed } };
}

function parseArgs(argv: string[]): GenerateOptions {
  const opts: GenerateOptions = { nodes: 1000, pods: 30000, seed: 1, out: 'bench/out/dump', formats: ['json', 'yaml'], managedFields: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--nodes') opts.nodes = Number(value());
    else if (a === '--pods') opts.pods = Number(value());
    else if (a === '--seed') opts.seed = Number(value());
    else if (a === '--out') opts.out = value();
    else if (a === '--formats') opts.formats = value().split(',') as GenerateOptions['formats'];
    else if (a === '--managed-fields') opts.managedFields = true;
    else if (a === '--daemonsets') opts.daemonSets = Number(value());
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(opts.nodes) || opts.nodes < 4) throw new Error('--nodes must be an integer of at least 4');
  if (!Number.isInteger(opts.pods) || opts.pods < 0) throw new Error('--pods must be a non-negative integer');
  return opts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const result = generate(opts);
  process.stdout.write(`${JSON.stringify({ ...result, seconds: (Date.now() - started) / 1000 })}\n`);
}
