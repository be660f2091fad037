/**
 * Populates a real control plane (test/cluster) for the live benchmark, through the API as the
 * admin user, with bounded concurrency: Nodes with a kubelet's status (capacity, allocatable,
 * conditions, addresses, images, some taints), workload pods bound with `spec.nodeName` and owned
 * by ReplicaSets, their status set Running/Ready through the status subresource as a kubelet
 * would, and DaemonSets whose pods the real DaemonSet controller creates and the real scheduler
 * binds (their status is then set Ready the same way). Grows: `addNodes(from, to)` adds nodes
 * and their pods to what is there.
 */
import https from 'node:https';
import type { ControlPlane } from '../test/cluster/harness.js';

type Obj = Record<string, unknown>;

/** Requests in flight while populating. */
export const IN_FLIGHT = 24;
const POOLS = [
  'general',
  'general',
  'general',
  'general',
  'general',
  'general',
  'highmem',
  'highmem',
  'gpu',
  'infra',
] as const;
const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
const TEAMS = ['payments', 'search', 'checkout', 'catalog', 'identity', 'ads', 'media', 'ml', 'data', 'web'];
/** ReplicaSets per team namespace; each owns an equal share of the workload pods. */
const REPLICASETS_PER_TEAM = 5;
export const PODS_PER_NODE = 30;
const AGENT = 'ds-doctor-bench-populate';

export const nodeName = (i: number): string => `live-node-${String(i).padStart(4, '0')}`;
const poolOf = (i: number) => POOLS[i % POOLS.length]!;
const NOW = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** A minimal admin client with a keep-alive pool: kubectl would start one process per object. */
export class Admin {
  private agent = new https.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  requests = 0;
  constructor(private readonly cp: ControlPlane) {}

  /**
   * One request; a keep-alive connection the server closed meanwhile is retried (twice), and a
   * retried create that finds its object made by the first attempt counts as done.
   */
  async send(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Obj> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(method, path, body, contentType);
      } catch (err) {
        const e = err as Error & { code?: string; status?: number };
        if (attempt > 0 && method === 'POST' && e.status === 409) return {};
        if (attempt >= 2 || !(e.code === 'ECONNRESET' || e.code === 'EPIPE' || /socket hang up/.test(e.message)))
          throw err;
      }
    }
  }

  private once(method: string, path: string, body: unknown, contentType: string): Promise<Obj> {
    this.requests++;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = https.request(
        `${this.cp.server}${path}`,
        {
          method,
          agent: this.agent,
          ca: this.cp.ca,
          headers: {
            Authorization: `Bearer ${this.cp.token}`,
            Accept: 'application/json',
            'User-Agent': AGENT,
            ...(payload ? { 'Content-Type': contentType } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status >= 300)
              reject(Object.assign(new Error(`${method} ${path}: HTTP ${status}: ${text.slice(0, 300)}`), { status }));
            else resolve(text ? (JSON.parse(text) as Obj) : {});
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Every item of a list, all pages. */
  async list(path: string, query: Record<string, string> = {}): Promise<Obj[]> {
    const items: Obj[] = [];
    let cont = '';
    do {
      const q = new URLSearchParams({ ...query, limit: '500', ...(cont ? { continue: cont } : {}) });
      const page = await this.send('GET', `${path}?${q.toString()}`);
      items.push(...((page['items'] as Obj[] | null) ?? []));
      const next = (page['metadata'] as Obj | undefined)?.['continue'];
      cont = typeof next === 'string' ? next : '';
    } while (cont);
    return items;
  }

  /** Drops the idle connections (before populating again after a pause: the server may have closed them). */
  fresh(): void {
    this.agent.destroy();
    this.agent = new https.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `work` on every item with at most IN_FLIGHT in flight. */
async function each<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, worker));
}

function nodeObject(i: number): Obj {
  const name = nodeName(i);
  const pool = poolOf(i);
  const zone = ZONES[i % ZONES.length]!;
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const now = NOW();
  const taints = [
    ...(pool === 'gpu' ? [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }] : []),
    ...(pool === 'infra' ? [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] : []),
  ];
  const cap = {
    cpu: pool === 'highmem' ? '32' : '16',
    memory: pool === 'highmem' ? '257561212Ki' : '64305484Ki',
    pods: '110',
    'ephemeral-storage': '203056560Ki',
    'hugepages-2Mi': '0',
  };
  const cond = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
  });
  const cidr = `10.${100 + (i >> 8)}.${i & 255}.0/24`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type':
          pool === 'highmem' ? 'r6i.8xlarge' : pool === 'gpu' ? 'p4d.24xlarge' : 'm6i.4xlarge',
        'topology.kubernetes.io/region': 'us-east-1',
        'topology.kubernetes.io/zone': zone,
        'node-pool': pool,
      },
      annotations: {
        'alpha.kubernetes.io/provided-node-ip': ip,
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      podCIDR: cidr,
      podCIDRs: [cidr],
      providerID: `aws:///${zone}/i-0${i.toString(16).padStart(16, '0')}`,
      ...(taints.length ? { taints } : {}),
    },
    status: {
      capacity: { ...cap, ...(pool === 'gpu' ? { 'nvidia.com/gpu': '8' } : {}) },
      allocatable: {
        ...cap,
        cpu: pool === 'highmem' ? '31850m' : '15890m',
        memory: pool === 'highmem' ? '254415484Ki' : '61159756Ki',
        ...(pool === 'gpu' ? { 'nvidia.com/gpu': '8' } : {}),
      },
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'Hostname', address: `ip-${ip.replace(/\./g, '-')}.ec2.internal` },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: 'amd64',
        bootID: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
        containerRuntimeVersion: 'containerd://1.7.22',
        kernelVersion: '6.1.112-124.190.amzn2023.x86_64',
        kubeProxyVersion: 'v1.35.4',
        kubeletVersion: 'v1.35.4',
        machineID: i.toString(16).padStart(32, '0'),
        operatingSystem: 'linux',
        osImage: 'Amazon Linux 2023.6.20241031',
        systemUUID: `ec2${i.toString(16).padStart(5, '0')}-0000-4000-8000-000000000000`,
      },
      images: Array.from({ length: 12 }, (_, k) => ({
        names: [
          `registry.example.com/team/app-${k}@sha256:${(k * 7919 + 13).toString(16).padStart(64, '0')}`,
          `registry.example.com/team/app-${k}:1.${k}.0`,
        ],
        sizeBytes: 20_000_000 + k * 7_000_000,
      })),
    },
  };
}

interface ReplicaSetRef {
  namespace: string;
  name: string;
  uid: string;
  hash: string;
  app: string;
}

function replicaSetObject(namespace: string, app: string, hash: string): Obj {
  const labels = { app, 'pod-template-hash': hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: `${app}-${hash}`, namespace, labels },
    spec: {
      replicas: 0,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: app, image: `registry.example.com/${namespace}/${app}:2.4.1` }] },
      },
    },
  };
}

function workloadPod(rs: ReplicaSetRef, index: number, node: string): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${rs.name}-${index.toString(36).padStart(5, '0')}`,
      namespace: rs.namespace,
      labels: { app: rs.app, 'pod-template-hash': rs.hash, team: rs.namespace },
      annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: rs.name,
          uid: rs.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      nodeName: node,
      terminationGracePeriodSeconds: 0,
      containers: [
        {
          name: rs.app,
          image: `registry.example.com/${rs.namespace}/${rs.app}:2.4.1`,
          ports: [
            { name: 'http', containerPort: 8080, protocol: 'TCP' },
            { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
          ],
          env: [
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'LOG_LEVEL', value: 'info' },
          ],
          resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '512Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
          volumeMounts: [{ name: 'cache', mountPath: '/var/cache/app' }],
        },
        ...(index % 3 === 0
          ? [
              {
                name: 'envoy',
                image: 'envoyproxy/envoy:v1.31.2',
                resources: { requests: { cpu: '50m', memory: '64Mi' } },
                ports: [{ containerPort: 15001, protocol: 'TCP' }],
              },
            ]
          : []),
      ],
      volumes: [{ name: 'cache', emptyDir: {} }],
    },
  };
}

/** A pod's status as a kubelet reports a running, ready pod. */
function readyStatus(pod: Obj, hostIP: string, podIP: string): Obj {
  const started = NOW();
  const containers = ((pod['spec'] as Obj)['containers'] as Obj[]).map((c) => ({
    name: c['name'],
    image: c['image'],
    imageID: '',
    containerID: `containerd://${'0'.repeat(64)}`,
    ready: true,
    started: true,
    restartCount: 0,
    state: { running: { startedAt: started } },
  }));
  const cond = (type: string) => ({ type, status: 'True', lastTransitionTime: started });
  return {
    status: {
      phase: 'Running',
      hostIP,
      hostIPs: [{ ip: hostIP }],
      podIP,
      podIPs: [{ ip: podIP }],
      startTime: started,
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(cond),
      containerStatuses: containers,
    },
  };
}

const nodeIP = (node: string) => {
  const i = Number(node.slice('live-node-'.length));
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
};

async function setReady(admin: Admin, pod: Obj, serial: number): Promise<void> {
  const meta = pod['metadata'] as Obj;
  const node = String((pod['spec'] as Obj)['nodeName']);
  const podIP = `10.200.${(serial >> 8) & 255}.${serial & 255}`;
  await admin.send(
    'PATCH',
    `/api/v1/namespaces/${String(meta['namespace'])}/pods/${String(meta['name'])}/status`,
    readyStatus(pod, nodeIP(node), podIP),
    'application/merge-patch+json',
  );
}

/** The DaemonSets: six on every node (tolerating everything), four on a pool each. */
export const DAEMONSETS: { namespace: string; name: string; pool?: string; toleration?: Obj; hostPort?: number }[] = [
  { namespace: 'kube-system', name: 'kube-proxy' },
  { namespace: 'kube-system', name: 'aws-node' },
  { namespace: 'kube-system', name: 'ebs-csi-node' },
  { namespace: 'logging', name: 'fluent-bit' },
  { namespace: 'monitoring', name: 'node-exporter', hostPort: 9100 },
  { namespace: 'security', name: 'falco' },
  {
    namespace: 'kube-system',
    name: 'nvidia-device-plugin',
    pool: 'gpu',
    toleration: { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
  },
  { namespace: 'kube-system', name: 'local-volume-provisioner', pool: 'highmem' },
  {
    namespace: 'monitoring',
    name: 'dcgm-exporter',
    pool: 'gpu',
    toleration: { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
  },
  {
    namespace: 'security',
    name: 'infra-audit',
    pool: 'infra',
    toleration: { key: 'dedicated', value: 'infra', operator: 'Equal', effect: 'NoSchedule' },
  },
];

function daemonSetObject(d: (typeof DAEMONSETS)[number]): Obj {
  const labels = { 'app.kubernetes.io/name': d.name };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: d.name, namespace: d.namespace, labels },
    spec: {
      selector: { matchLabels: labels },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 0,
          ...(d.pool ? { nodeSelector: { 'node-pool': d.pool } } : {}),
          tolerations: d.toleration ? [d.toleration] : [{ operator: 'Exists' }],
          containers: [
            {
              name: d.name,
              image: `registry.example.com/agents/${d.name}:1.8.3`,
              resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '256Mi' } },
              ...(d.hostPort ? { ports: [{ containerPort: d.hostPort, hostPort: d.hostPort, protocol: 'TCP' }] } : {}),
              volumeMounts: [{ name: 'host', mountPath: '/host', readOnly: true }],
            },
          ],
          volumes: [{ name: 'host', hostPath: { path: '/', type: 'Directory' } }],
        },
      },
    },
  };
}

/** How many of the nodes 1..n each DaemonSet selects. */
export function expectedDaemonPods(n: number): number {
  let total = 0;
  for (let i = 1; i <= n; i++) total += DAEMONSETS.filter((d) => !d.pool || d.pool === poolOf(i)).length;
  return total;
}

/** Namespaces, ReplicaSets and DaemonSets: made once, before the first nodes. */
export async function createBase(admin: Admin): Promise<ReplicaSetRef[]> {
  const namespaces = [...TEAMS, 'logging', 'monitoring', 'security'];
  await each(namespaces, (name) =>
    admin.send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
  );
  const refs: ReplicaSetRef[] = [];
  await each(
    TEAMS.flatMap((ns) =>
      Array.from({ length: REPLICASETS_PER_TEAM }, (_, k) => ({
        ns,
        app: `${ns}-svc-${k}`,
        hash: `7f${(ns.length * 31 + k).toString(16).padStart(3, '0')}c9d8`,
      })),
    ),
    async ({ ns, app, hash }) => {
      const made = await admin.send(
        'POST',
        `/apis/apps/v1/namespaces/${ns}/replicasets`,
        replicaSetObject(ns, app, hash),
      );
      refs.push({ namespace: ns, name: `${app}-${hash}`, uid: String((made['metadata'] as Obj)['uid']), hash, app });
    },
  );
  refs.sort((a, b) => (a.name < b.name ? -1 : 1));
  await each(DAEMONSETS, (d) =>
    admin.send('POST', `/apis/apps/v1/namespaces/${d.namespace}/daemonsets`, daemonSetObject(d)),
  );
  return refs;
}

export interface Timings {
  nodesMs: number;
  podsMs: number;
  daemonPodsMs: number;
  daemonPods: number;
}

/** Adds nodes from+1..to with their workload pods (Running/Ready), then waits for the daemon pods and sets them Ready. */
export async function addNodes(
  admin: Admin,
  refs: ReplicaSetRef[],
  from: number,
  to: number,
  log: (s: string) => void,
): Promise<Timings> {
  admin.fresh();
  const range = Array.from({ length: to - from }, (_, k) => from + 1 + k);
  let t = Date.now();
  await each(range, (i) => admin.send('POST', '/api/v1/nodes', nodeObject(i)));
  const nodesMs = Date.now() - t;
  log(`${range.length} nodes in ${(nodesMs / 1000).toFixed(1)} s`);

  t = Date.now();
  const pods = range.flatMap((i) =>
    Array.from({ length: PODS_PER_NODE }, (_, k) => ({ index: (i - 1) * PODS_PER_NODE + k, node: nodeName(i) })),
  );
  // Each pod is set Running/Ready right after it is made, as a kubelet would soon after.
  await each(pods, async ({ index, node }) => {
    const rs = refs[index % refs.length]!;
    const pod = workloadPod(rs, index, node);
    await admin.send('POST', `/api/v1/namespaces/${rs.namespace}/pods`, pod);
    await setReady(admin, pod, index);
  });
  const podsMs = Date.now() - t;
  log(`${pods.length} workload pods created and set Running/Ready in ${(podsMs / 1000).toFixed(1)} s`);

  t = Date.now();
  const daemonPods = await waitForDaemonPods(admin, expectedDaemonPods(to), log);
  const daemonPodsMs = Date.now() - t;
  log(
    `${daemonPods} daemon pods created by the DaemonSet controller, bound by the scheduler and set Ready in ${(daemonPodsMs / 1000).toFixed(1)} s`,
  );
  return { nodesMs, podsMs, daemonPodsMs, daemonPods };
}

/** Waits until every DaemonSet has its pods, all bound; sets each not yet Running Ready. Returns the count. */
async function waitForDaemonPods(admin: Admin, expected: number, log: (s: string) => void): Promise<number> {
  const started = Date.now();
  let lastLog = 0;
  let serial = 1_000_000;
  for (;;) {
    const pods: Obj[] = [];
    for (const d of DAEMONSETS)
      pods.push(
        ...(await admin.list(`/api/v1/namespaces/${d.namespace}/pods`, {
          labelSelector: `app.kubernetes.io/name=${d.name}`,
        })),
      );
    const bound = pods.filter((p) => (p['spec'] as Obj)['nodeName']);
    const pending = bound.filter((p) => (p['status'] as Obj | undefined)?.['phase'] !== 'Running');
    await each(pending, (p) => setReady(admin, p, serial++));
    if (bound.length >= expected && pods.length === bound.length) {
      const sets = await admin.list('/apis/apps/v1/daemonsets');
      const settled = sets.every((s) => {
        const st = (s['status'] ?? {}) as Obj;
        return (
          st['observedGeneration'] === (s['metadata'] as Obj)['generation'] &&
          st['numberReady'] === st['desiredNumberScheduled']
        );
      });
      if (settled) return bound.length;
    }
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(
        `daemon pods: ${pods.length} created, ${bound.length} bound, ${expected} expected (${Math.round((Date.now() - started) / 1000)} s)`,
      );
    }
    if (Date.now() - started > 30 * 60_000)
      throw new Error(
        `daemon pods did not settle in 30 minutes: ${pods.length} created, ${bound.length} bound of ${expected}`,
      );
    await new Promise((r) => setTimeout(r, 2000));
  }
}
