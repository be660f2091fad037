#!/usr/bin/env node
// Generates the scenario fixtures fixtures/scenarios/<name>/{dump.yaml,README.md}.
//
// Evaluation instant ("now") of every scenario: 2026-11-29T12:00:00Z. Every timestamp is
// computed relative to that instant, so run the tool with
//   ds-doctor ... --now 2026-11-29T12:00:00Z
//
// Each dump.yaml is what `kubectl get <kind> -A -o yaml` writes for namespaces, nodes,
// priorityclasses, daemonsets, controllerrevisions, pods, events (and resourcequotas where
// the story needs them), one `kind: List` document per kind, joined with `---`.
//
// The output is fully deterministic: uids, names, hashes, IPs and resourceVersions are
// derived from object names (sha256 / FNV-32a), never from the clock or Math.random.
// DaemonSet .status is computed from the nodes and pods written (reference §3.8), and
// scheduler messages are checked against the requests, allocatable and host ports of
// the objects written. Run with:   node scripts/make-scenarios.mjs

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = 'fixtures/scenarios';

// ---------------------------------------------------------------------------
// Time, identity and hashing helpers (same shapes as scripts/make-demo.mjs)
// ---------------------------------------------------------------------------

const NOW_ISO = '2026-11-29T12:00:00Z';
const NOW = Date.parse(NOW_ISO);
const MIN = 60;
const HOUR = 3600;
const DAY = 86400;

/** RFC 3339 timestamp `secondsAgo` seconds before NOW (negative: after NOW). */
function at(secondsAgo) {
  return new Date(NOW - Math.round(secondsAgo) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function ago(ts) {
  return (NOW - Date.parse(ts)) / 1000;
}

function sha(s) {
  return crypto.createHash('sha256').update(s).digest('hex');
}

/** A stable RFC 4122 v4-shaped uid derived from a key such as "Pod/ns/name". */
function uid(key) {
  const h = sha(`uid/${key}`);
  const variant = '89ab'[parseInt(h[16], 16) % 4];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

// The alphabet of k8s.io/apimachinery/pkg/util/rand (no vowels, no 0/1/3).
const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/** `n` random-looking lowercase characters, as generateName produces, derived from `key`. */
function suffix(key, n = 5) {
  const h = sha(`suffix/${key}`);
  let out = '';
  for (let i = 0; i < n; i++) out += SAFE[parseInt(h.slice(i * 2, i * 2 + 2), 16) % SAFE.length];
  return out;
}

function hex(key, n) {
  let out = '';
  for (let i = 0; out.length < n; i++) out += sha(`hex/${key}/${i}`);
  return out.slice(0, n);
}

function fnv32a(str) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(str, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Like controller.ComputeHash: FNV-32a of the template, decimal digits safe-encoded. */
function templateHash(template) {
  return [...String(fnv32a(JSON.stringify(template)))].map((c) => SAFE[c.charCodeAt(0) % SAFE.length]).join('');
}

function clone(v) {
  return JSON.parse(JSON.stringify(v));
}

/** Returns a copy of `obj` with the keys listed in `order` first (in that order), the rest after. */
function ordered(obj, order) {
  const out = {};
  for (const k of order) if (obj[k] !== undefined) out[k] = obj[k];
  for (const k of Object.keys(obj)) if (!(k in out) && obj[k] !== undefined) out[k] = obj[k];
  return out;
}

const POD_SPEC_ORDER = [
  'volumes', 'initContainers', 'containers', 'restartPolicy', 'terminationGracePeriodSeconds',
  'activeDeadlineSeconds', 'dnsPolicy', 'nodeSelector', 'serviceAccountName', 'serviceAccount',
  'automountServiceAccountToken', 'nodeName', 'hostNetwork', 'hostPID', 'hostIPC', 'securityContext',
  'imagePullSecrets', 'hostname', 'subdomain', 'affinity', 'schedulerName', 'tolerations', 'hostAliases',
  'priorityClassName', 'priority', 'dnsConfig', 'readinessGates', 'runtimeClassName', 'enableServiceLinks',
  'preemptionPolicy',
];
const CONTAINER_ORDER = [
  'name', 'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resources', 'volumeMounts',
  'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'terminationMessagePath',
  'terminationMessagePolicy', 'imagePullPolicy', 'securityContext',
];

/** Parses the quantities used in this file (m, Ki, Mi, Gi, plain) into cores / bytes / count. */
function quantity(q) {
  const m = /^([0-9.]+)(m|Ki|Mi|Gi)?$/.exec(String(q));
  if (!m) throw new Error(`bad quantity ${q}`);
  const v = Number(m[1]);
  switch (m[2]) {
    case 'm': return v / 1000;
    case 'Ki': return v * 1024;
    case 'Mi': return v * 1024 ** 2;
    case 'Gi': return v * 1024 ** 3;
    default: return v;
  }
}

/** Go's time.Duration.String() for whole seconds: 10s, 2m40s, 5m0s. */
function goDuration(s) {
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m${s % 60}s`;
}

// ---------------------------------------------------------------------------
// Output helpers
// ---------------------------------------------------------------------------

/** `kubectl get -o yaml` style: keys sorted, lists not indented, double quotes. */
function toYaml(obj) {
  return yaml.dump(clone(obj), { sortKeys: true, noArrayIndent: true, lineWidth: -1, noRefs: true, quotingType: '"' });
}

function kubectlList(items) {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

function writeFile(rel, text) {
  const full = path.join(ROOT, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

/** Sort as the API server lists: by namespace, then name. */
function byKey(a, b) {
  const ka = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
  const kb = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Hands out resourceVersions: every object is registered with the time of its last
 * write; versions then increase with that time, like etcd revisions do.
 */
class Versions {
  constructor(start) {
    this.start = start;
    this.entries = [];
  }

  add(obj, lastWriteAgo) {
    this.entries.push({ obj, lastWriteAgo });
    return obj;
  }

  assign() {
    const sorted = [...this.entries].sort((a, b) => b.lastWriteAgo - a.lastWriteAgo || byKey(a.obj, b.obj));
    let rv = this.start;
    for (const e of sorted) {
      rv += 1 + (parseInt(sha(`rv/${e.obj.kind}/${e.obj.metadata.namespace}/${e.obj.metadata.name}`).slice(0, 4), 16) % 97);
      e.obj.metadata.resourceVersion = String(rv);
    }
    return String(rv + 17);
  }
}

// ---------------------------------------------------------------------------
// Kubernetes semantics used to build consistent objects (reference §1.2, §2, §3.5, §3.8, §4)
// ---------------------------------------------------------------------------

/** Toleration.ToleratesTaint (reference §1.4). */
function tolerates(tol, taint) {
  if (tol.effect && tol.effect !== taint.effect) return false;
  if (tol.key && tol.key !== taint.key) return false;
  const op = tol.operator ?? 'Equal';
  if (op === 'Exists') return true;
  if (op === 'Equal') return (tol.value ?? '') === (taint.value ?? '');
  return false;
}

/** AddOrUpdateDaemonPodTolerations (reference §2.1). */
function daemonTolerations(templateSpec) {
  const add = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (templateSpec.hostNetwork) add.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  const out = clone(templateSpec.tolerations ?? []);
  for (const t of add) {
    const i = out.findIndex((o) => o.key === t.key && o.effect === t.effect && o.operator === t.operator && (o.value ?? '') === '');
    if (i >= 0) out[i] = t;
    else out.push(t);
  }
  return out;
}

/** NodeShouldRunDaemonPod for the selectors used here (nodeSelector + taints). */
function shouldRun(templateSpec, node) {
  if (templateSpec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution) throw new Error('node affinity not modelled');
  if (templateSpec.nodeName) throw new Error('nodeName not modelled');
  for (const [k, v] of Object.entries(templateSpec.nodeSelector ?? {})) {
    if (node.metadata.labels[k] !== v) return { shouldRun: false, shouldContinueRunning: false };
  }
  const tols = daemonTolerations(templateSpec);
  const untolerated = (node.spec.taints ?? []).filter(
    (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tols.some((tol) => tolerates(tol, t)),
  );
  if (untolerated.length === 0) return { shouldRun: true, shouldContinueRunning: true };
  return { shouldRun: false, shouldContinueRunning: !untolerated.some((t) => t.effect === 'NoExecute') };
}

function podReady(pod) {
  return (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** podutil.IsPodAvailable, 1.34+ (ready-since + minReadySeconds <= now). */
function podAvailable(pod, minReadySeconds) {
  const c = (pod.status.conditions ?? []).find((x) => x.type === 'Ready');
  if (!c || c.status !== 'True') return false;
  if (!minReadySeconds) return true;
  return Date.parse(c.lastTransitionTime) + minReadySeconds * 1000 <= NOW;
}

function isTerminal(pod) {
  return pod.status.phase === 'Succeeded' || pod.status.phase === 'Failed';
}

/** util.GetTargetNodeName. */
function targetNode(pod) {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const t of terms) for (const f of t.matchFields ?? []) if (f.key === 'metadata.name' && f.operator === 'In') return f.values[0];
  return undefined;
}

/** podByCreationTimestampAndPhase: bound first, then creationTimestamp, then name. */
function oldestFirst(a, b) {
  return (a.spec.nodeName ? 0 : 1) - (b.spec.nodeName ? 0 : 1)
    || Date.parse(a.metadata.creationTimestamp) - Date.parse(b.metadata.creationTimestamp)
    || (a.metadata.name < b.metadata.name ? -1 : 1);
}

/** The daemon pods of `ds` grouped by target node, as getNodesToDaemonPods(includeDeletedTerminal=false). */
function nodeToDaemonPods(ds, pods) {
  const map = new Map();
  for (const p of pods) {
    if (p.metadata.ownerReferences?.[0]?.uid !== ds.metadata.uid) continue;
    if (isTerminal(p) && p.metadata.deletionTimestamp) continue;
    const n = targetNode(p);
    if (!map.has(n)) map.set(n, []);
    map.get(n).push(p);
  }
  for (const list of map.values()) list.sort(oldestFirst);
  return map;
}

/**
 * updateDaemonSetStatus (reference §3.8). `hash`/`templateGeneration` are those of the
 * revision the controller last synced against (normally the current one).
 */
function daemonSetStatus(ds, nodes, pods, { hash, templateGeneration, observedGeneration }) {
  const byNode = nodeToDaemonPods(ds, pods);
  const minReady = ds.spec.minReadySeconds ?? 0;
  let desired = 0, current = 0, ready = 0, available = 0, updated = 0, misscheduled = 0;
  for (const node of nodes) {
    const mine = byNode.get(node.metadata.name) ?? [];
    if (shouldRun(ds.spec.template.spec, node).shouldRun) {
      desired++;
      if (mine.length > 0) {
        current++;
        const pod = mine[0];
        if (podReady(pod)) {
          ready++;
          if (podAvailable(pod, minReady)) available++;
        }
        const l = pod.metadata.labels;
        if (l['controller-revision-hash'] === hash || l['pod-template-generation'] === String(templateGeneration)) updated++;
      }
    } else if (mine.length > 0) {
      misscheduled++;
    }
  }
  // Field order and omitempty as the API serializes DaemonSetStatus.
  const status = {
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    desiredNumberScheduled: desired,
    numberReady: ready,
    observedGeneration,
  };
  if (updated) status.updatedNumberScheduled = updated;
  if (available) status.numberAvailable = available;
  if (desired - available) status.numberUnavailable = desired - available;
  return status;
}

/** computePodResourceRequest for plain containers (no init containers, no overhead here). */
function podRequest(pod, resource) {
  if (pod.spec.initContainers?.length) throw new Error('init containers not modelled');
  return pod.spec.containers.reduce((sum, c) => sum + quantity(c.resources?.requests?.[resource] ?? 0), 0);
}

function hostPorts(pod) {
  return pod.spec.containers.flatMap((c) => (c.ports ?? []).filter((p) => p.hostPort > 0)
    .map((p) => ({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort })));
}

/**
 * The reasons the scheduler's NodePorts and NodeResourcesFit filters give for `pod` on
 * `node` (reference §4.5, §4.6), counting every non-terminal pod bound to the node.
 */
function filterReasons(pod, node, pods) {
  const onNode = pods.filter((p) => p !== pod && p.spec.nodeName === node.metadata.name && !isTerminal(p));
  const wanted = hostPorts(pod);
  const used = onNode.flatMap(hostPorts);
  const clash = wanted.some((w) => used.some((u) => u.protocol === w.protocol && u.port === w.port
    && (w.ip === '0.0.0.0' || u.ip === '0.0.0.0' || u.ip === w.ip)));
  if (clash) return ["node(s) didn't have free ports for the requested pod ports"];
  const reasons = [];
  if (onNode.length + 1 > Number(node.status.allocatable.pods)) reasons.push('Too many pods');
  for (const r of ['cpu', 'memory']) {
    const req = podRequest(pod, r);
    if (req === 0) continue;
    const free = quantity(node.status.allocatable[r]) - onNode.reduce((s, p) => s + podRequest(p, r), 0);
    if (req > free) reasons.push(`Insufficient ${r}`);
  }
  return reasons;
}

/** The FailedScheduling message of a daemon pod whose target node fails one filter with `reason` (1.32+). */
function failedSchedulingMessage(nodeCount, reason) {
  const others = nodeCount - 1;
  return `0/${nodeCount} nodes are available: 1 ${reason}, ${others} node(s) didn't satisfy plugin(s) [NodeAffinity]. `
    + `preemption: 0/${nodeCount} nodes are available: 1 No preemption victims found for incoming pod, ${others} Preemption is not helpful for scheduling.`;
}

// ---------------------------------------------------------------------------
// Object builders
// ---------------------------------------------------------------------------

const PRIORITIES = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };
const CLUSTER_AGE = 120 * DAY;
const REGION = 'us-east-1';
const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];

const M5 = {
  instanceType: 'm5.xlarge',
  capacity: { cpu: '4', 'ephemeral-storage': '101430960Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '16114092Ki', pods: '110' },
  allocatable: { cpu: '3920m', 'ephemeral-storage': '93478772582', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '15491072Ki', pods: '110' },
};
const M5_16X = {
  instanceType: 'm5.16xlarge',
  capacity: { cpu: '64', 'ephemeral-storage': '101430960Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '261196992Ki', pods: '737' },
  allocatable: { cpu: '63770m', 'ephemeral-storage': '93478772582', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '255212224Ki', pods: '737' },
};
// EKS t3.micro: 2 ENIs x 2 IPs -> max pods 4; kube-reserved 70m cpu and 11*4+255 = 299Mi
// memory, eviction threshold 100Mi: 980068Ki - 408576Ki = 571492Ki (558Mi) allocatable.
const T3_MICRO = {
  instanceType: 't3.micro',
  capacity: { cpu: '2', 'ephemeral-storage': '20959212Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '980068Ki', pods: '4' },
  allocatable: { cpu: '1930m', 'ephemeral-storage': '18242267924', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '571492Ki', pods: '4' },
};

function imageRef(image) {
  const first = image.split('/')[0];
  if (image.split('/').length === 1) return `docker.io/library/${image}`;
  if (!first.includes('.') && !first.includes(':')) return `docker.io/${image}`;
  return image;
}

function imageId(image) {
  const ref = imageRef(image);
  return `${ref.replace(/:[^:/]+$/, '')}@sha256:${hex(`image/${ref}`, 64)}`;
}

function imageSize(image) {
  return 8_000_000 + (parseInt(sha(`size/${image}`).slice(0, 6), 16) % 90_000_000);
}

function nodeCondition(type, status, reason, message, heartbeatAgo, sinceAgo) {
  return { type, status, lastHeartbeatTime: at(heartbeatAgo), lastTransitionTime: at(sinceAgo), reason, message };
}

/**
 * A Node. `n`: name, ip, zone, type, joinedAgo, heartbeatAgo, labels, annotations, taints,
 * unschedulable, and `health`: 'Ready' (default), 'NotReady' (never ready: notReadyMessage),
 * 'Unknown' (kubelet stopped posting since unknownSince, last heartbeat lastHeartbeatAgo),
 * plus memoryPressureSince for MemoryPressure=True.
 */
function makeNode(n) {
  const type = n.type ?? M5;
  const labels = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/instance-type': type.instanceType,
    'beta.kubernetes.io/os': 'linux',
    'failure-domain.beta.kubernetes.io/region': REGION,
    'failure-domain.beta.kubernetes.io/zone': n.zone,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': n.name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': type.instanceType,
    'topology.kubernetes.io/region': REGION,
    'topology.kubernetes.io/zone': n.zone,
    ...n.labels,
  };
  const instanceId = `i-0${hex(`instance/${n.name}`, 16)}`;
  const annotations = {
    'alpha.kubernetes.io/provided-node-ip': n.ip,
    'node.alpha.kubernetes.io/ttl': '0',
    'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    ...n.annotations,
  };
  const joined = n.joinedAgo;
  const hb = n.heartbeatAgo;
  let conditions;
  if (n.health === 'Unknown') {
    const unknown = (type) => nodeCondition(type, 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.', n.lastHeartbeatAgo, n.unknownSince);
    conditions = ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map(unknown);
  } else {
    conditions = [
      n.memoryPressureSince
        ? nodeCondition('MemoryPressure', 'True', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available', hb, n.memoryPressureSince)
        : nodeCondition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', hb, joined - 2),
      nodeCondition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', hb, joined - 2),
      nodeCondition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', hb, joined - 2),
      n.health === 'NotReady'
        ? nodeCondition('Ready', 'False', 'KubeletNotReady', n.notReadyMessage, hb, joined - 2)
        : nodeCondition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', hb, n.readySinceAgo ?? joined - 40),
    ];
  }
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: {
      name: n.name,
      uid: uid(`Node/${n.name}`),
      resourceVersion: '',
      creationTimestamp: at(joined),
      labels,
      annotations,
    },
    spec: ordered({
      podCIDR: n.podCIDR,
      podCIDRs: [n.podCIDR],
      providerID: `aws:///${n.zone}/${instanceId}`,
      unschedulable: n.unschedulable,
      taints: n.taints?.length ? n.taints : undefined,
    }, ['podCIDR', 'podCIDRs', 'providerID', 'unschedulable', 'taints']),
    status: {
      capacity: type.capacity,
      allocatable: type.allocatable,
      conditions,
      addresses: [
        { type: 'InternalIP', address: n.ip },
        { type: 'InternalDNS', address: `ip-${n.ip.replaceAll('.', '-')}.ec2.internal` },
        { type: 'Hostname', address: n.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: hex(`machine/${n.name}`, 32),
        systemUUID: uid(`system/${n.name}`).toUpperCase(),
        bootID: uid(`boot/${n.name}`),
        kernelVersion: '6.8.0-1019-aws',
        osImage: 'Ubuntu 24.04.1 LTS',
        containerRuntimeVersion: 'containerd://2.1.4',
        kubeletVersion: 'v1.34.2',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images: [],
      runtimeHandlers: [
        { name: 'runc', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
        { name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
      ],
      features: { supplementalGroupsPolicy: true },
    },
  };
}

function apiAccessVolume(name) {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  };
}

function qosClass(spec) {
  const cs = [...(spec.initContainers ?? []), ...spec.containers];
  const any = cs.some((c) => Object.keys(c.resources?.requests ?? {}).length || Object.keys(c.resources?.limits ?? {}).length);
  if (!any) return 'BestEffort';
  const guaranteed = spec.containers.every((c) => {
    const r = c.resources ?? {};
    return ['cpu', 'memory'].every((k) => r.limits?.[k] && (!r.requests?.[k] || r.requests[k] === r.limits[k]));
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/**
 * A pod spec as the API server stores it after admission: the service-account token
 * volume, pod-only defaults (hostPort for hostNetwork ports), priority.
 */
function admitPodSpec(templateSpec, podKey) {
  const spec = clone(templateSpec);
  if (spec.automountServiceAccountToken !== false) {
    const vol = `kube-api-access-${suffix(`kube-api-access/${podKey}`)}`;
    spec.volumes = [...(spec.volumes ?? []), apiAccessVolume(vol)];
    for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
      c.volumeMounts = [...(c.volumeMounts ?? []), { name: vol, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }];
    }
  }
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    if (spec.hostNetwork) for (const p of c.ports ?? []) if (!p.hostPort) p.hostPort = p.containerPort;
    if (c.ports) c.ports = c.ports.map((p) => ordered(p, ['name', 'hostPort', 'containerPort', 'protocol']));
  }
  spec.priority = PRIORITIES[spec.priorityClassName] ?? 0;
  spec.enableServiceLinks = true;
  spec.preemptionPolicy = 'PreemptLowerPriority';
  return spec;
}

function finishPodSpec(spec) {
  for (const key of ['initContainers', 'containers']) {
    if (spec[key]) spec[key] = spec[key].map((c) => ordered(c, CONTAINER_ORDER));
  }
  return ordered(spec, POD_SPEC_ORDER);
}

function finishTemplate(tmpl) {
  return { metadata: tmpl.metadata, spec: finishPodSpec(tmpl.spec) };
}

function podCond(type, status, since, reason, message, observedGeneration = 1) {
  return ordered({ type, observedGeneration, status, lastProbeTime: null, lastTransitionTime: at(since), reason, message },
    ['type', 'observedGeneration', 'status', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message']);
}

function containerResourcesStatus(c) {
  const r = c.resources ?? {};
  if (!r.requests && !r.limits) return undefined;
  return clone(r);
}

/**
 * Pod status for a given state. `t` holds the timeline in seconds-ago: created,
 * scheduled, sandbox (default: started), started (containers start 1 s later), ready. State kinds:
 *   Running                      all containers running and Ready
 *   NotReady                     running, readiness probe failing (since t.started)
 *   NodeLost                     Running as last reported, Ready=False set by the node lifecycle controller at state.markedAgo
 *   CrashLoopBackOff             waiting CrashLoopBackOff, lastState terminated {state.exitCode, state.reason}
 *   CreateContainerConfigError   waiting with state.message
 *   ImagePullBackOff             waiting ImagePullBackOff
 *   ContainerCreating            bound, sandbox not ready
 *   Unschedulable                unbound, PodScheduled=False
 *   Evicted                      phase Failed, reason Evicted, state.message, at state.evictedAgo
 */
function podStatus(pod, state, t, node, podIP) {
  const spec = pod.spec;
  const og = state.observedGeneration ?? 1;
  const c = (type, status, since, reason, message) => podCond(type, status, since, reason, message, og);
  const s = { observedGeneration: og };
  const cid = (name, n = 0) => `containerd://${hex(`cid/${pod.metadata.name}/${name}/${n}`, 64)}`;
  const hostIP = node?.status.addresses.find((a) => a.type === 'InternalIP').address;
  const ips = (ip) => (ip ? [{ ip }] : undefined);
  const names = (cs) => cs.map((x) => x.name).join(' ');
  const bound = () => {
    s.hostIP = hostIP;
    s.hostIPs = ips(hostIP);
    if (podIP) {
      s.podIP = podIP;
      s.podIPs = ips(podIP);
    }
    s.startTime = at(t.scheduled - 1);
  };
  const running = (x, ready, n = 0, startedAgo = t.started - 1) => ({
    name: x.name,
    state: { running: { startedAt: at(startedAgo) } },
    lastState: {},
    ready,
    restartCount: n,
    image: imageRef(x.image),
    imageID: imageId(x.image),
    containerID: cid(x.name, n),
    started: true,
    resources: containerResourcesStatus(x),
  });
  if (spec.initContainers?.length) throw new Error('init containers not modelled');

  switch (state.kind) {
    case 'Unschedulable':
      s.phase = 'Pending';
      s.conditions = [c('PodScheduled', 'False', t.scheduled, 'Unschedulable', state.message)];
      s.qosClass = qosClass(spec);
      return s;

    case 'Running':
    case 'NodeLost':
      s.phase = 'Running';
      s.conditions = [
        c('PodReadyToStartContainers', 'True', t.sandbox ?? t.started),
        c('Initialized', 'True', t.scheduled - 1),
        state.kind === 'NodeLost' ? c('Ready', 'False', state.markedAgo) : c('Ready', 'True', t.ready),
        c('ContainersReady', 'True', t.ready),
        c('PodScheduled', 'True', t.scheduled),
      ];
      bound();
      s.containerStatuses = spec.containers.map((x) => running(x, true));
      s.qosClass = qosClass(spec);
      return s;

    case 'NotReady': {
      const bad = spec.containers.filter((x) => x.readinessProbe);
      s.phase = 'Running';
      s.conditions = [
        c('PodReadyToStartContainers', 'True', t.sandbox ?? t.started),
        c('Initialized', 'True', t.scheduled - 1),
        c('Ready', 'False', t.scheduled - 1, 'ContainersNotReady', `containers with unready status: [${names(bad)}]`),
        c('ContainersReady', 'False', t.scheduled - 1, 'ContainersNotReady', `containers with unready status: [${names(bad)}]`),
        c('PodScheduled', 'True', t.scheduled),
      ];
      bound();
      s.containerStatuses = spec.containers.map((x) => running(x, !bad.includes(x)));
      s.qosClass = qosClass(spec);
      return s;
    }

    case 'CrashLoopBackOff': {
      const c0 = spec.containers[0];
      s.phase = 'Running';
      s.conditions = [
        c('PodReadyToStartContainers', 'True', t.sandbox ?? t.started),
        c('Initialized', 'True', t.scheduled - 1),
        c('Ready', 'False', t.scheduled - 1, 'ContainersNotReady', `containers with unready status: [${c0.name}]`),
        c('ContainersReady', 'False', t.scheduled - 1, 'ContainersNotReady', `containers with unready status: [${c0.name}]`),
        c('PodScheduled', 'True', t.scheduled),
      ];
      bound();
      const n = state.restarts;
      s.containerStatuses = spec.containers.map((x) => (x !== c0 ? running(x, true) : {
        name: c0.name,
        state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${state.backoff} restarting failed container=${c0.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})` } },
        lastState: { terminated: { exitCode: state.exitCode, reason: state.reason, startedAt: at(state.lastStartedAgo), finishedAt: at(state.lastFinishedAgo), containerID: cid(c0.name, n) } },
        ready: false,
        restartCount: n,
        image: imageRef(c0.image),
        imageID: imageId(c0.image),
        containerID: cid(c0.name, n),
        started: false,
        resources: containerResourcesStatus(c0),
      }));
      s.qosClass = qosClass(spec);
      return s;
    }

    case 'CreateContainerConfigError':
    case 'ImagePullBackOff': {
      const c0 = spec.containers[0];
      s.phase = 'Pending';
      s.conditions = [
        c('PodReadyToStartContainers', 'True', t.sandbox ?? t.started),
        c('Initialized', 'True', t.scheduled - 1),
        c('Ready', 'False', t.scheduled - 1, 'ContainersNotReady', `containers with unready status: [${c0.name}]`),
        c('ContainersReady', 'False', t.scheduled - 1, 'ContainersNotReady', `containers with unready status: [${c0.name}]`),
        c('PodScheduled', 'True', t.scheduled),
      ];
      bound();
      const message = state.kind === 'ImagePullBackOff' ? `Back-off pulling image "${c0.image}"` : state.message;
      s.containerStatuses = [{
        name: c0.name,
        state: { waiting: { reason: state.kind, message } },
        lastState: {},
        ready: false,
        restartCount: 0,
        image: c0.image,
        imageID: '',
        started: false,
        resources: containerResourcesStatus(c0),
      }];
      s.qosClass = qosClass(spec);
      return s;
    }

    case 'Evicted': {
      s.phase = 'Failed';
      s.conditions = [
        c('DisruptionTarget', 'True', state.evictedAgo, 'TerminationByKubelet', state.message),
        c('PodReadyToStartContainers', 'False', state.evictedAgo - 1),
        c('Initialized', 'True', t.scheduled - 1),
        c('Ready', 'False', state.evictedAgo - 1, 'PodFailed'),
        c('ContainersReady', 'False', state.evictedAgo - 1, 'PodFailed'),
        c('PodScheduled', 'True', t.scheduled),
      ];
      s.message = state.message;
      s.reason = 'Evicted';
      bound();
      s.containerStatuses = spec.containers.map((x) => ({
        name: x.name,
        state: { terminated: { exitCode: 137, reason: 'Error', startedAt: at(t.started - 1), finishedAt: at(state.evictedAgo - 1), containerID: cid(x.name) } },
        lastState: {},
        ready: false,
        restartCount: 0,
        image: imageRef(x.image),
        imageID: imageId(x.image),
        containerID: cid(x.name),
        started: false,
        resources: containerResourcesStatus(x),
      }));
      s.qosClass = qosClass(spec);
      return s;
    }
    default:
      throw new Error(`unknown pod state ${state.kind}`);
  }
}

/**
 * A crash loop: the container starts `firstStartAgo`, runs `run` seconds, exits, and is
 * restarted after the kubelet's back-off (10s doubling to 5m). Returns the starts (seconds
 * ago) up to NOW, which falls inside a back-off wait.
 */
function crashLoop(firstStartAgo, run) {
  const backoffs = [10, 20, 40, 80, 160, 300];
  const starts = [];
  let waited = 0;
  let tAgo = firstStartAgo;
  for (let i = 0; ; i++) {
    starts.push(tAgo);
    const finish = tAgo - run;
    const b = backoffs[Math.min(i, backoffs.length - 1)];
    if (finish - b <= 0) {
      if (finish <= 0) throw new Error('crash loop: container still running at NOW');
      waited += finish;
      return { starts, run, restarts: starts.length - 1, lastStartedAgo: tAgo, lastFinishedAgo: finish, backoff: goDuration(b), waited };
    }
    waited += b;
    tAgo = finish - b;
  }
}

// ---------------------------------------------------------------------------
// A scenario cluster
// ---------------------------------------------------------------------------

class Cluster {
  constructor(name, rvStart) {
    this.name = name;
    this.versions = new Versions(rvStart);
    this.namespaces = [];
    this.nodes = [];
    this.nodesByName = {};
    this.nodeDefs = {};
    this.dss = [];
    this.crs = [];
    this.pods = [];
    this.events = [];
    this.quotas = [];
    this.extraImages = {};
    this.podIPs = new Map();
    this.pulls = new Map();
    for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) this.namespace(ns, CLUSTER_AGE);
  }

  namespace(name, createdAgo, labels = {}) {
    this.namespaces.push(this.versions.add({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        uid: uid(`Namespace/${this.name}/${name}`),
        resourceVersion: '',
        creationTimestamp: at(createdAgo),
        labels: { 'kubernetes.io/metadata.name': name, ...labels },
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    }, createdAgo));
  }

  /** Adds nodes; each def gets ip/zone/podCIDR from its index unless given. */
  node(def) {
    const i = this.nodes.length;
    const n = {
      zone: ZONES[i % 3],
      ip: `10.0.${(i % 3) + 1}.${21 + i}`,
      podNet: 100 + i,
      joinedAgo: CLUSTER_AGE - 6 * MIN - i * 61,
      heartbeatAgo: 15 + ((i * 37) % 40),
      ...def,
    };
    n.podCIDR = `192.168.${n.podNet}.0/24`;
    const node = makeNode(n);
    this.nodeDefs[n.name] = n;
    this.nodes.push(node);
    this.nodesByName[n.name] = node;
    this.versions.add(node, n.health === 'Unknown' ? n.unknownSince : n.heartbeatAgo);
    return node;
  }

  ipFor(nodeName, key) {
    const n = this.nodeDefs[nodeName];
    const used = this.podIPs.get(nodeName) ?? 0;
    this.podIPs.set(nodeName, used + 1);
    return `192.168.${n.podNet}.${3 + used * 7 + (parseInt(sha(key).slice(0, 2), 16) % 7)}`;
  }

  /** A DaemonSet and its ControllerRevisions. `revs` = [{generation, template, createdAgo}] oldest first. */
  daemonSet(d) {
    const key = `DaemonSet/${d.namespace}/${d.name}`;
    const cur = d.revs[d.revs.length - 1];
    const generation = d.generation ?? cur.generation;
    const ds = {
      kind: 'DaemonSet',
      apiVersion: 'apps/v1',
      metadata: ordered({
        name: d.name,
        namespace: d.namespace,
        uid: uid(`${this.name}/${key}`),
        resourceVersion: '',
        generation,
        creationTimestamp: at(d.createdAgo),
        labels: d.labels,
        annotations: { 'deprecated.daemonset.template.generation': String(cur.generation), ...(d.annotations ?? {}) },
      }, []),
      spec: ordered({
        selector: { matchLabels: d.selector },
        template: cur.template,
        updateStrategy: d.updateStrategy,
        minReadySeconds: d.minReadySeconds,
        revisionHistoryLimit: 10,
      }, []),
      status: {},
    };
    const revs = d.revs.map((r) => ({ ...r, hash: templateHash(r.template) }));
    // Revisions the controller has created: all of them, unless it has not yet observed the newest spec.
    const stored = d.unobservedRevisions ? revs.slice(0, revs.length - d.unobservedRevisions) : revs;
    stored.forEach((r, i) => {
      const name = `${d.name}-${r.hash}`;
      const cr = {
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: {
          name,
          namespace: d.namespace,
          uid: uid(`${this.name}/ControllerRevision/${d.namespace}/${name}`),
          resourceVersion: '',
          creationTimestamp: at(r.createdAgo),
          labels: { ...r.template.metadata.labels, 'controller-revision-hash': r.hash },
          annotations: { 'deprecated.daemonset.template.generation': String(r.generation), ...(d.annotations ?? {}) },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: d.name, uid: ds.metadata.uid, controller: true, blockOwnerDeletion: true }],
        },
        data: { spec: { template: { $patch: 'replace', ...clone(r.template) } } },
        revision: i + 1,
      };
      this.versions.add(cr, r.createdAgo);
      this.crs.push(cr);
    });
    const b = { ds, def: d, revs, lastWrite: d.statusWrittenAgo ?? 60, podsOf: {} };
    this.dss.push(b);
    return b;
  }

  /**
   * A pod created by the DaemonSet controller for `nodeName` from revision `revIdx`
   * (reference §1.6, §2.1–2.3). `p`: state, created (ago), optional timeline overrides,
   * deletedAgo + grace (graceful deletion requested `deletedAgo` seconds ago).
   */
  daemonPod(b, revIdx, nodeName, p) {
    const ds = b.ds;
    const rev = b.revs[revIdx];
    const name = `${ds.metadata.name}-${suffix(`${this.name}/pod/${ds.metadata.namespace}/${ds.metadata.name}/${nodeName}/${rev.hash}/${p.created}`)}`;
    const key = `${this.name}/Pod/${ds.metadata.namespace}/${name}`;
    const tmpl = rev.template;
    const spec = admitPodSpec(tmpl.spec, key);
    spec.tolerations = daemonTolerations(tmpl.spec);
    spec.affinity = {
      ...(spec.affinity ?? {}),
      nodeAffinity: {
        ...(spec.affinity?.nodeAffinity ?? {}),
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
        },
      },
    };
    if (p.state.kind !== 'Unschedulable') spec.nodeName = nodeName;
    const deleting = p.deletedAgo !== undefined;
    const pod = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: ordered({
        name,
        generateName: `${ds.metadata.name}-`,
        namespace: ds.metadata.namespace,
        uid: uid(key),
        resourceVersion: '',
        generation: deleting ? 2 : 1,
        creationTimestamp: at(p.created),
        deletionTimestamp: deleting ? at(p.deletedAgo - p.grace) : undefined,
        deletionGracePeriodSeconds: deleting ? p.grace : undefined,
        labels: { ...tmpl.metadata.labels, 'controller-revision-hash': rev.hash, 'pod-template-generation': String(rev.generation) },
        annotations: tmpl.metadata.annotations,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name, uid: ds.metadata.uid, controller: true, blockOwnerDeletion: true }],
      }, []),
      spec: finishPodSpec(spec),
    };
    // `pull`: seconds the image pull took on this node (delays the start; see startEvents).
    const pull = p.pull ? Math.ceil(p.pull) : 0;
    if (p.pull) this.pulls.set(pod, p.pull);
    const t = { created: p.created, scheduled: p.created - 1, started: p.created - 4 - pull, ready: p.created - 12 - pull, ...p.t };
    t.sandbox ??= pull ? p.created - 2 : t.started;
    const node = this.nodesByName[nodeName];
    const unbound = p.state.kind === 'Unschedulable';
    const noIP = unbound || p.state.kind === 'ContainerCreating';
    const podIP = noIP ? undefined : tmpl.spec.hostNetwork ? this.nodeDefs[nodeName].ip : this.ipFor(nodeName, key);
    pod.status = podStatus(pod, p.state, t, unbound ? undefined : node, podIP);
    this.versions.add(pod, p.lastWrite ?? (deleting ? p.deletedAgo : Math.max(0, t.ready)));
    this.pods.push(pod);
    (b.podsOf[nodeName] ??= []).push(pod);
    return pod;
  }

  /** A pod owned by a ReplicaSet (a Deployment's pod), bound to `p.node`, Running and Ready. */
  deploymentPod(p) {
    const podTemplateHash = templateHash({ app: p.app, image: p.image, ns: p.namespace });
    const rsName = `${p.app}-${podTemplateHash}`;
    const name = `${rsName}-${suffix(`${this.name}/deploy/${p.namespace}/${p.app}/${p.node}/${p.index ?? 0}`)}`;
    const key = `${this.name}/Pod/${p.namespace}/${name}`;
    const spec = admitPodSpec(ordered({
      containers: [ordered({
        name: p.container ?? p.app,
        image: p.image,
        args: p.args,
        ports: p.ports,
        resources: p.resources,
        readinessProbe: p.readinessProbe,
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
        securityContext: p.containerSecurityContext,
      }, CONTAINER_ORDER)],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: p.dnsPolicy ?? 'ClusterFirst',
      nodeSelector: p.nodeSelector,
      serviceAccountName: p.serviceAccount ?? 'default',
      serviceAccount: p.serviceAccount ?? 'default',
      nodeName: p.node,
      securityContext: {},
      affinity: p.affinity,
      schedulerName: 'default-scheduler',
      tolerations: [
        ...(p.tolerations ?? []),
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      priorityClassName: p.priorityClassName,
    }, POD_SPEC_ORDER), key);
    const pod = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        name,
        generateName: `${rsName}-`,
        namespace: p.namespace,
        uid: uid(key),
        resourceVersion: '',
        generation: 1,
        creationTimestamp: at(p.created),
        labels: { ...p.labels, 'pod-template-hash': podTemplateHash },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rsName, uid: uid(`${this.name}/ReplicaSet/${p.namespace}/${rsName}`), controller: true, blockOwnerDeletion: true }],
      },
      spec: finishPodSpec(spec),
    };
    const t = { created: p.created, scheduled: p.created - 1, started: p.created - 3, ready: p.created - 20 };
    pod.status = podStatus(pod, { kind: 'Running' }, t, this.nodesByName[p.node], this.ipFor(p.node, key));
    this.versions.add(pod, t.ready);
    this.pods.push(pod);
    return pod;
  }

  /** Two CoreDNS replicas (kube-system), Running and Ready on the given nodes. */
  coredns(nodes, createdAgo = CLUSTER_AGE - 10 * MIN) {
    return nodes.map((n, i) => this.deploymentPod({
      namespace: 'kube-system', app: 'coredns', container: 'coredns', index: i, node: n, created: createdAgo - 2 * i,
      labels: { 'k8s-app': 'kube-dns' },
      image: 'registry.k8s.io/coredns/coredns:v1.12.1',
      args: ['-conf', '/etc/coredns/Corefile'],
      ports: [
        { name: 'dns', containerPort: 53, protocol: 'UDP' },
        { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
        { name: 'metrics', containerPort: 9153, protocol: 'TCP' },
      ],
      resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
      readinessProbe: { httpGet: { path: '/ready', port: 8181, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
      containerSecurityContext: { capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] }, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
      dnsPolicy: 'Default',
      serviceAccount: 'coredns',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [
        { key: 'CriticalAddonsOnly', operator: 'Exists' },
        { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
      ],
      priorityClassName: 'system-cluster-critical',
    }));
  }

  /** A core/v1 Event written through the classic recorder (source, count, first/lastTimestamp). */
  event(e) {
    const inv = e.object;
    const ns = inv.metadata.namespace ?? 'default';
    const firstMs = BigInt(NOW - Math.round(e.firstAgo) * 1000);
    const nanos = firstMs * 1000000n + BigInt(parseInt(sha(`evt/${this.name}/${inv.metadata.name}/${e.reason}/${e.message}`).slice(0, 5), 16) % 1000000);
    const name = `${inv.metadata.name}.${nanos.toString(16)}`;
    const involvedObject = ordered({
      kind: inv.kind,
      namespace: inv.metadata.namespace,
      name: inv.metadata.name,
      uid: inv.kind === 'Node' && e.component === 'kubelet' ? inv.metadata.name : inv.metadata.uid,
      apiVersion: inv.apiVersion,
      resourceVersion: e.involvedResourceVersion,
      fieldPath: e.fieldPath,
    }, []);
    const ev = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name,
        namespace: ns,
        uid: uid(`${this.name}/Event/${ns}/${name}`),
        resourceVersion: '',
        creationTimestamp: at(e.firstAgo),
      },
      involvedObject,
      reason: e.reason,
      message: e.message,
      source: e.host ? { component: e.component, host: e.host } : { component: e.component },
      firstTimestamp: at(e.firstAgo),
      lastTimestamp: at(e.lastAgo ?? e.firstAgo),
      count: e.count ?? 1,
      type: e.type ?? 'Normal',
      eventTime: null,
      reportingComponent: e.component,
      reportingInstance: e.host ?? '',
    };
    if ((e.lastAgo ?? e.firstAgo) > HOUR) throw new Error(`${this.name}: event ${e.reason} older than the 1h event TTL`);
    this.versions.add(ev, e.lastAgo ?? e.firstAgo);
    ev._involved = inv;
    this.events.push(ev);
    return ev;
  }

  /** Kubelet events on a container of `pod` on its node. */
  kubeletEvent(pod, container, e) {
    return this.event({ object: pod, component: 'kubelet', host: pod.spec.nodeName, fieldPath: container ? `spec.containers{${container}}` : undefined, ...e });
  }

  /** The events of a pod created, scheduled and started normally (image pulled if the pod was built with `pull`). */
  startEvents(pod) {
    const created = ago(pod.metadata.creationTimestamp);
    const pulled = this.pulls.get(pod);
    this.event({ object: pod, reason: 'Scheduled', message: `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${pod.spec.nodeName}`, component: 'default-scheduler', firstAgo: created - 1 });
    for (const c of pod.spec.containers) {
      const startedAgo = ago(pod.status.containerStatuses.find((s) => s.name === c.name).state.running.startedAt);
      if (pulled) {
        this.kubeletEvent(pod, c.name, { reason: 'Pulling', message: `Pulling image "${c.image}"`, firstAgo: created - 3 });
        this.kubeletEvent(pod, c.name, { reason: 'Pulled', message: `Successfully pulled image "${c.image}" in ${pulled}s (${pulled}s including waiting). Image size: ${imageSize(c.image)} bytes.`, firstAgo: created - 3 - Math.ceil(pulled) });
      } else {
        this.kubeletEvent(pod, c.name, { reason: 'Pulled', message: `Container image "${c.image}" already present on machine`, firstAgo: startedAgo + 2 });
      }
      if (pulled && created - 3 - Math.ceil(pulled) < startedAgo + 1) throw new Error(`${this.name}: ${pod.metadata.name} starts before its image is pulled`);
      this.kubeletEvent(pod, c.name, { reason: 'Created', message: `Created container: ${c.name}`, firstAgo: startedAgo + 1 });
      this.kubeletEvent(pod, c.name, { reason: 'Started', message: `Started container ${c.name}`, firstAgo: startedAgo });
    }
  }

  dsEvent(b, reason, message, firstAgo, extra = {}) {
    return this.event({ object: b.ds, reason, message, component: 'daemonset-controller', firstAgo, type: reason.startsWith('Failed') ? 'Warning' : 'Normal', ...extra });
  }

  resourceQuota(q) {
    this.quotas.push(this.versions.add({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: {
        name: q.name,
        namespace: q.namespace,
        uid: uid(`${this.name}/ResourceQuota/${q.namespace}/${q.name}`),
        resourceVersion: '',
        creationTimestamp: at(q.createdAgo),
      },
      spec: { hard: q.hard },
      status: { hard: q.hard, used: q.used },
    }, q.usedSinceAgo));
  }

  /** An image pulled on a node earlier (e.g. the previous revision's image). */
  nodeImage(nodeName, image) {
    (this.extraImages[nodeName] ??= new Set()).add(image);
  }

  /** Statuses, node images, resourceVersions; then writes dump.yaml and README.md. */
  write(readme, { statusNodes } = {}) {
    for (const b of this.dss) {
      const cur = b.revs[b.revs.length - 1];
      const synced = b.def.unobservedRevisions ? b.revs[b.revs.length - 1 - b.def.unobservedRevisions] : cur;
      b.ds.status = daemonSetStatus(b.ds, statusNodes ?? this.nodes, this.pods, {
        hash: synced.hash,
        templateGeneration: synced.generation,
        observedGeneration: b.def.observedGeneration ?? b.ds.metadata.generation,
      });
      this.versions.add(b.ds, b.lastWrite);
    }
    for (const node of this.nodes) {
      const images = new Set(['registry.k8s.io/pause:3.10', ...(this.extraImages[node.metadata.name] ?? [])]);
      for (const p of this.pods) {
        if (p.spec.nodeName !== node.metadata.name) continue;
        for (const cs of p.status.containerStatuses ?? []) if (cs.imageID) images.add(p.spec.containers.find((c) => c.name === cs.name).image);
      }
      node.status.images = [...images].map((i) => ({ names: [imageId(i), imageRef(i)], sizeBytes: imageSize(i) }))
        .sort((a, b) => b.sizeBytes - a.sizeBytes);
    }
    this.versions.assign();
    for (const ev of this.events) {
      const inv = ev._involved;
      if (!ev.involvedObject.resourceVersion && inv.metadata.resourceVersion && inv.kind !== 'Node') {
        ev.involvedObject = ordered({ ...ev.involvedObject, resourceVersion: inv.metadata.resourceVersion },
          ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']);
      }
      delete ev._involved;
    }
    const lists = [
      ['namespaces', this.namespaces],
      ['nodes', this.nodes],
      ['priorityclasses', priorityClasses()],
      ['daemonsets', this.dss.map((b) => b.ds)],
      ['controllerrevisions', this.crs],
      ['pods', this.pods],
      ['events', this.events],
      ['resourcequotas', this.quotas],
    ].filter(([kind, items]) => items.length || kind !== 'resourcequotas');
    const header = `# Scenario ${this.name}: \`kubectl get <kind> -A -o yaml\` for ${lists.map(([k]) => k).join(', ')}.\n`
      + `# Generated by scripts/make-scenarios.mjs. Evaluation instant: ${NOW_ISO}.\n`;
    const docs = lists.map(([, items]) => toYaml(kubectlList([...items].sort(byKey))));
    writeFile(`${OUT}/${this.name}/dump.yaml`, `${header}---\n${docs.join('---\n')}`);
    const text = typeof readme === 'function' ? readme() : readme;
    writeFile(`${OUT}/${this.name}/README.md`, `${text.trim()}\n`);
    return this;
  }
}

function priorityClasses() {
  return [
    {
      apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass',
      description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
      metadata: { creationTimestamp: at(CLUSTER_AGE + 30), generation: 1, name: 'system-cluster-critical', resourceVersion: '74', uid: uid('PriorityClass/system-cluster-critical') },
      preemptionPolicy: 'PreemptLowerPriority', value: 2000000000,
    },
    {
      apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass',
      description: 'Used for system critical pods that must not be moved from their current node.',
      metadata: { creationTimestamp: at(CLUSTER_AGE + 30), generation: 1, name: 'system-node-critical', resourceVersion: '75', uid: uid('PriorityClass/system-node-critical') },
      preemptionPolicy: 'PreemptLowerPriority', value: 2000001000,
    },
  ];
}

// ---------------------------------------------------------------------------
// DaemonSet templates
// ---------------------------------------------------------------------------

const hostPath = (name, p, type) => ({ name, hostPath: { path: p, type: type ?? '' } });
const FILE = { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' };
const httpProbe = (p, port, extra = {}) => ({ httpGet: { path: p, port, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, ...extra });
const rolling = (maxUnavailable, maxSurge = 0) => ({ type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } });

const NODE_EXPORTER_SELECTOR = { 'app.kubernetes.io/component': 'exporter', 'app.kubernetes.io/name': 'node-exporter', 'app.kubernetes.io/part-of': 'kube-prometheus' };
const nodeExporterLabels = (version) => ({ ...NODE_EXPORTER_SELECTOR, 'app.kubernetes.io/version': version.replace(/^v/, '') });

/** prometheus node-exporter as kube-prometheus ships it (hostNetwork, hostPID, hostPort 9100). */
function nodeExporterTemplate({ version = 'v1.8.2', memoryLimit = '60Mi', extraArgs = [], explicitHostPort = true, priorityClassName } = {}) {
  return finishTemplate({
    metadata: { creationTimestamp: null, labels: nodeExporterLabels(version) },
    spec: {
      volumes: [hostPath('proc', '/proc'), hostPath('sys', '/sys'), hostPath('root', '/')],
      containers: [{
        name: 'node-exporter',
        image: `quay.io/prometheus/node-exporter:${version}`,
        args: [
          '--web.listen-address=:9100',
          '--path.procfs=/host/proc',
          '--path.sysfs=/host/sys',
          '--path.rootfs=/host/root',
          '--no-collector.wifi',
          '--collector.filesystem.mount-points-exclude=^/(dev|proc|sys|run/k3s/containerd/.+|var/lib/docker/.+|var/lib/kubelet/pods/.+)($|/)',
          ...extraArgs,
        ],
        ports: [explicitHostPort
          ? { name: 'metrics', hostPort: 9100, containerPort: 9100, protocol: 'TCP' }
          : { name: 'metrics', containerPort: 9100, protocol: 'TCP' }],
        resources: { limits: { memory: memoryLimit }, requests: { cpu: '50m', memory: '30Mi' } },
        volumeMounts: [
          { name: 'proc', readOnly: true, mountPath: '/host/proc' },
          { name: 'sys', readOnly: true, mountPath: '/host/sys' },
          { name: 'root', readOnly: true, mountPath: '/host/root', mountPropagation: 'HostToContainer' },
        ],
        readinessProbe: httpProbe('/', 9100),
        ...FILE,
        securityContext: { capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirstWithHostNet',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'node-exporter',
      serviceAccount: 'node-exporter',
      automountServiceAccountToken: false,
      hostNetwork: true,
      hostPID: true,
      securityContext: { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true },
      schedulerName: 'default-scheduler',
      tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName,
    },
  });
}

const FLUENT_BIT_SELECTOR = { 'app.kubernetes.io/instance': 'fluent-bit', 'app.kubernetes.io/name': 'fluent-bit' };

/** fluent-bit as the Helm chart ships it. */
function fluentBitTemplate({ version = '3.1', envFrom, priorityClassName = 'system-node-critical' } = {}) {
  return finishTemplate({
    metadata: { creationTimestamp: null, labels: { ...FLUENT_BIT_SELECTOR } },
    spec: {
      volumes: [
        { name: 'config', configMap: { name: 'fluent-bit', defaultMode: 420 } },
        hostPath('varlog', '/var/log'),
        hostPath('varlibdockercontainers', '/var/lib/docker/containers'),
        hostPath('etcmachineid', '/etc/machine-id', 'File'),
      ],
      containers: [{
        name: 'fluent-bit',
        image: `cr.fluentbit.io/fluent/fluent-bit:${version}`,
        args: ['--workdir=/fluent-bit/etc', '--config=/fluent-bit/etc/conf/fluent-bit.conf'],
        ports: [{ name: 'http', containerPort: 2020, protocol: 'TCP' }],
        envFrom,
        resources: { limits: { memory: '200Mi' }, requests: { cpu: '100m', memory: '100Mi' } },
        volumeMounts: [
          { name: 'config', mountPath: '/fluent-bit/etc/conf' },
          { name: 'varlog', mountPath: '/var/log' },
          { name: 'varlibdockercontainers', readOnly: true, mountPath: '/var/lib/docker/containers' },
          { name: 'etcmachineid', readOnly: true, mountPath: '/etc/machine-id' },
        ],
        livenessProbe: httpProbe('/', 'http'),
        readinessProbe: httpProbe('/api/v1/health', 'http'),
        ...FILE,
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'fluent-bit',
      serviceAccount: 'fluent-bit',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName,
    },
  });
}

/** kube-proxy as kubeadm deploys it: hostNetwork, privileged, blanket toleration. */
function kubeProxyTemplate(version) {
  return finishTemplate({
    metadata: { creationTimestamp: null, labels: { 'k8s-app': 'kube-proxy' } },
    spec: {
      volumes: [
        { name: 'kube-proxy', configMap: { name: 'kube-proxy', defaultMode: 420 } },
        hostPath('xtables-lock', '/run/xtables.lock', 'FileOrCreate'),
        hostPath('lib-modules', '/lib/modules'),
      ],
      containers: [{
        name: 'kube-proxy',
        image: `registry.k8s.io/kube-proxy:${version}`,
        command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
        env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
        resources: {},
        volumeMounts: [
          { name: 'kube-proxy', mountPath: '/var/lib/kube-proxy' },
          { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
          { name: 'lib-modules', readOnly: true, mountPath: '/lib/modules' },
        ],
        ...FILE,
        securityContext: { privileged: true },
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'kube-proxy',
      serviceAccount: 'kube-proxy',
      hostNetwork: true,
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [{ operator: 'Exists' }],
      priorityClassName: 'system-node-critical',
    },
  });
}

/** Grafana promtail (Helm chart): readiness on /ready, port http-metrics 3101. */
function promtailTemplate(version) {
  return finishTemplate({
    metadata: { creationTimestamp: null, labels: { 'app.kubernetes.io/instance': 'promtail', 'app.kubernetes.io/name': 'promtail' } },
    spec: {
      volumes: [
        { name: 'config', secret: { secretName: 'promtail', defaultMode: 420 } },
        hostPath('run', '/run/promtail'),
        hostPath('containers', '/var/lib/docker/containers'),
        hostPath('pods', '/var/log/pods'),
      ],
      containers: [{
        name: 'promtail',
        image: `docker.io/grafana/promtail:${version}`,
        args: ['-config.file=/etc/promtail/promtail.yaml'],
        ports: [{ name: 'http-metrics', containerPort: 3101, protocol: 'TCP' }],
        env: [{ name: 'HOSTNAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
        resources: {},
        volumeMounts: [
          { name: 'config', mountPath: '/etc/promtail' },
          { name: 'run', mountPath: '/run/promtail' },
          { name: 'containers', readOnly: true, mountPath: '/var/lib/docker/containers' },
          { name: 'pods', readOnly: true, mountPath: '/var/log/pods' },
        ],
        readinessProbe: httpProbe('/ready', 'http-metrics', { initialDelaySeconds: 10, timeoutSeconds: 1, periodSeconds: 10, failureThreshold: 5 }),
        ...FILE,
        securityContext: { capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'promtail',
      serviceAccount: 'promtail',
      securityContext: { runAsUser: 0, runAsGroup: 0 },
      schedulerName: 'default-scheduler',
      tolerations: [
        { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
      ],
    },
  });
}

// ---------------------------------------------------------------------------
// Scenario helpers
// ---------------------------------------------------------------------------

const READY = { kind: 'Running' };

/** `n` ordinary m5.xlarge workers worker-1..n, all Ready. */
function workers(c, n, overrides = {}) {
  for (let i = 1; i <= n; i++) c.node({ name: `worker-${i}`, ...(overrides[`worker-${i}`] ?? {}) });
}

/** Creation time of a daemon pod created with its DaemonSet (staggered by node). */
function stagger(base, i) {
  return base - 1 - (i % 3);
}

function assertFilter(c, pod, expected) {
  const got = filterReasons(pod, c.nodesByName[targetNode(pod)], c.pods);
  if (JSON.stringify(got) !== JSON.stringify(expected)) {
    throw new Error(`${c.name}: filters on ${targetNode(pod)} give ${JSON.stringify(got)}, story says ${JSON.stringify(expected)}`);
  }
}

/** A pod Pending on its target node with a FailedScheduling event (re-checked against the filters). */
function unschedulable(reason, nodeCount) {
  return { kind: 'Unschedulable', message: failedSchedulingMessage(nodeCount, reason) };
}

function failedSchedulingEvent(c, pod, count, lastAgo = 45) {
  c.event({
    object: pod, reason: 'FailedScheduling', type: 'Warning', component: 'default-scheduler',
    message: pod.status.conditions[0].message, firstAgo: ago(pod.metadata.creationTimestamp) - 1, lastAgo, count,
  });
}

function crashEvents(c, pod, container, loop, { pulledFresh = false } = {}) {
  const image = pod.spec.containers.find((x) => x.name === container).image;
  const first = loop.starts[0];
  const n = loop.starts.length;
  const last = loop.lastStartedAgo;
  c.kubeletEvent(pod, container, { reason: 'Created', message: `Created container: ${container}`, firstAgo: first + 1, lastAgo: last + 1, count: n });
  c.kubeletEvent(pod, container, { reason: 'Started', message: `Started container ${container}`, firstAgo: first, lastAgo: last, count: n });
  const already = pulledFresh ? loop.starts.slice(1) : loop.starts;
  if (already.length) {
    c.kubeletEvent(pod, container, { reason: 'Pulled', message: `Container image "${image}" already present on machine`, firstAgo: already[0] + 2, lastAgo: last + 2, count: already.length });
  }
  // The kubelet records BackOff on pod syncs that hit the back-off (about every 20 s).
  c.kubeletEvent(pod, container, {
    reason: 'BackOff', type: 'Warning', message: `Back-off restarting failed container ${container} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
    firstAgo: first - loop.run - 1, lastAgo: Math.min(6, loop.lastFinishedAgo - 1), count: Math.max(1, Math.round(loop.waited / 20)),
  });
}

/** `kubectl get ds`-style summary of a computed status. */
function statusText(b) {
  const s = b.ds.status;
  return `desired ${s.desiredNumberScheduled}, current ${s.currentNumberScheduled}, ready ${s.numberReady}, `
    + `up-to-date ${s.updatedNumberScheduled ?? 0}, available ${s.numberAvailable ?? 0}, unavailable ${s.numberUnavailable ?? 0}, `
    + `misscheduled ${s.numberMisscheduled}; generation ${b.ds.metadata.generation}, observedGeneration ${s.observedGeneration}`;
}

/**
 * The README of a scenario: title, story (two or three sentences), expected diagnosis.
 * `expect.nodes` maps node -> verdict text; `expect.rollout` is the rollout verdict, if any.
 */
function readme(c, b, story, expect) {
  const ref = `${b.ds.metadata.namespace}/${b.ds.metadata.name}`;
  const lines = [
    `# ${c.name}`,
    '',
    story.replace(/\s+/g, ' ').trim(),
    '',
    `Expected diagnosis of DaemonSet \`${ref}\` (evaluate with \`--now ${NOW_ISO}\`):`,
    '',
    ...Object.entries(expect.nodes).map(([n, v]) => `- ${n}: ${v}`),
  ];
  if (expect.rollout) lines.push(`- rollout: ${expect.rollout}`);
  lines.push('', `Status as written in the dump: ${statusText(b)}.`);
  if (expect.note) lines.push('', expect.note.replace(/\s+/g, ' ').trim());
  SUMMARY.push({ name: c.name, ds: ref, nodes: expect.nodes, rollout: expect.rollout });
  return lines.join('\n');
}

const SUMMARY = [];

// ---------------------------------------------------------------------------
// Placement scenarios
// ---------------------------------------------------------------------------

function oomKilled() {
  const c = new Cluster('oom-killed', 2_310_000);
  const JOINED = 50 * MIN;
  c.namespace('monitoring', 60 * DAY + 60);
  c.node({ name: 'worker-1' });
  c.node({ name: 'worker-2', type: M5_16X, joinedAgo: JOINED, readySinceAgo: JOINED - 35, labels: { 'node-pool': 'compute-xl' } });
  c.node({ name: 'worker-3' });
  const CREATED = 60 * DAY;
  const b = c.daemonSet({
    namespace: 'monitoring', name: 'node-exporter', createdAgo: CREATED, labels: nodeExporterLabels('v1.8.2'),
    selector: NODE_EXPORTER_SELECTOR, updateStrategy: rolling(1), statusWrittenAgo: 150,
    revs: [{ generation: 1, template: nodeExporterTemplate({ memoryLimit: '50Mi' }), createdAgo: CREATED }],
  });
  c.daemonPod(b, 0, 'worker-1', { state: READY, created: CREATED - 2 });
  c.daemonPod(b, 0, 'worker-3', { state: READY, created: CREATED - 3 });
  const created = JOINED - 8;
  const loop = crashLoop(created - 9, 9);
  const pod = c.daemonPod(b, 0, 'worker-2', {
    created, lastWrite: loop.lastFinishedAgo - 1,
    state: { kind: 'CrashLoopBackOff', exitCode: 137, reason: 'OOMKilled', restarts: loop.restarts, backoff: loop.backoff, lastStartedAgo: loop.lastStartedAgo, lastFinishedAgo: loop.lastFinishedAgo },
  });
  c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, created);
  const image = pod.spec.containers[0].image;
  c.event({ object: pod, reason: 'Scheduled', message: `Successfully assigned monitoring/${pod.metadata.name} to worker-2`, component: 'default-scheduler', firstAgo: created - 1 });
  c.kubeletEvent(pod, 'node-exporter', { reason: 'Pulling', message: `Pulling image "${image}"`, firstAgo: created - 4 });
  c.kubeletEvent(pod, 'node-exporter', { reason: 'Pulled', message: `Successfully pulled image "${image}" in 3.412s (3.412s including waiting). Image size: ${imageSize(image)} bytes.`, firstAgo: created - 8 });
  crashEvents(c, pod, 'node-exporter', loop, { pulledFresh: true });
  return c.write(() => readme(c, b, `
    monitoring/node-exporter (kube-prometheus, memory limit 50Mi, request 30Mi) runs on three workers.
    worker-2 is a new m5.16xlarge (64 vCPUs) that joined 50 minutes ago; there node-exporter needs more
    than 50Mi, so its pod ${pod.metadata.name} is killed at start-up (lastState terminated reason OOMKilled,
    exit code 137, ${loop.restarts} restarts) and waits in CrashLoopBackOff.`, {
    nodes: { 'worker-1': 'Healthy', 'worker-2': 'Unhealthy — OOMKilled (container in CrashLoopBackOff; raise the 50Mi memory limit)', 'worker-3': 'Healthy' },
  }));
}

function configError() {
  const c = new Cluster('config-error', 3_120_000);
  const JOINED = 25 * MIN;
  c.namespace('logging', 90 * DAY + 120);
  c.node({ name: 'worker-1' });
  c.node({ name: 'worker-2' });
  c.node({ name: 'worker-3', joinedAgo: JOINED, readySinceAgo: JOINED - 38 });
  const CREATED = 90 * DAY;
  const envFrom = [{ configMapRef: { name: 'fluent-bit-config' } }];
  const b = c.daemonSet({
    namespace: 'logging', name: 'fluent-bit', createdAgo: CREATED, labels: { ...FLUENT_BIT_SELECTOR, 'app.kubernetes.io/version': '3.1.9' },
    selector: FLUENT_BIT_SELECTOR, updateStrategy: rolling(1), statusWrittenAgo: JOINED - 60,
    revs: [{ generation: 1, template: fluentBitTemplate({ version: '3.1.9', envFrom }), createdAgo: CREATED }],
  });
  c.daemonPod(b, 0, 'worker-1', { state: READY, created: 9 * DAY });
  c.daemonPod(b, 0, 'worker-2', { state: READY, created: 9 * DAY - 40 });
  const created = JOINED - 41;
  const message = 'configmap "fluent-bit-config" not found';
  const pod = c.daemonPod(b, 0, 'worker-3', { created, lastWrite: created - 12, state: { kind: 'CreateContainerConfigError', message } });
  const image = pod.spec.containers[0].image;
  c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, created);
  c.event({ object: pod, reason: 'Scheduled', message: `Successfully assigned logging/${pod.metadata.name} to worker-3`, component: 'default-scheduler', firstAgo: created - 1 });
  c.kubeletEvent(pod, 'fluent-bit', { reason: 'Pulling', message: `Pulling image "${image}"`, firstAgo: created - 4 });
  c.kubeletEvent(pod, 'fluent-bit', { reason: 'Pulled', message: `Successfully pulled image "${image}" in 5.118s (5.118s including waiting). Image size: ${imageSize(image)} bytes.`, firstAgo: created - 10 });
  c.kubeletEvent(pod, 'fluent-bit', { reason: 'Failed', type: 'Warning', message: `Error: ${message}`, firstAgo: created - 10, lastAgo: 9, count: 17 });
  c.kubeletEvent(pod, 'fluent-bit', { reason: 'Pulled', message: `Container image "${image}" already present on machine`, firstAgo: created - 22, lastAgo: 9, count: 16 });
  return c.write(() => readme(c, b, `
    logging/fluent-bit takes its output settings from the ConfigMap fluent-bit-config through envFrom; that
    ConfigMap has been deleted. The pods on worker-1 and worker-2 started before and keep running, but
    ${pod.metadata.name} on worker-3 (joined 25 minutes ago) cannot create its container: waiting
    CreateContainerConfigError, \`${message}\`, with kubelet \`Failed\` events \`Error: ${message}\`.`, {
    nodes: { 'worker-1': 'Healthy', 'worker-2': 'Healthy', 'worker-3': 'Unhealthy — CreateContainerConfigError (ConfigMap fluent-bit-config missing)' },
  }));
}

function podSecurityFailedCreate() {
  const c = new Cluster('podsecurity-failedcreate', 1_905_000);
  const CREATED = 3 * HOUR;
  c.namespace('agents', CREATED + 5 * MIN, { 'pod-security.kubernetes.io/enforce': 'baseline' });
  workers(c, 3);
  c.coredns(['worker-1', 'worker-2']);
  const labels = { 'app.kubernetes.io/name': 'node-agent' };
  const template = finishTemplate({
    metadata: { creationTimestamp: null, labels },
    spec: {
      volumes: [hostPath('proc', '/proc'), hostPath('sys', '/sys')],
      containers: [{
        name: 'node-agent',
        image: 'ghcr.io/acme-platform/node-agent:1.12.0',
        args: ['--procfs=/host/proc', '--sysfs=/host/sys', '--listen=127.0.0.1:9810'],
        env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
        resources: { limits: { memory: '128Mi' }, requests: { cpu: '50m', memory: '64Mi' } },
        volumeMounts: [
          { name: 'proc', readOnly: true, mountPath: '/host/proc' },
          { name: 'sys', readOnly: true, mountPath: '/host/sys' },
        ],
        ...FILE,
        securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirstWithHostNet',
      serviceAccountName: 'node-agent',
      serviceAccount: 'node-agent',
      hostNetwork: true,
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName: 'system-node-critical',
    },
  });
  const b = c.daemonSet({
    namespace: 'agents', name: 'node-agent', createdAgo: CREATED, labels, selector: labels,
    updateStrategy: rolling(1), statusWrittenAgo: CREATED - 1,
    revs: [{ generation: 1, template, createdAgo: CREATED }],
  });
  const message = 'Error creating: pods "node-agent-" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), hostPath volumes (volumes "proc", "sys")';
  c.dsEvent(b, 'FailedCreate', message, CREATED - 1, { lastAgo: 4 * MIN + 12, count: 30 });
  return c.write(() => readme(c, b, `
    agents/node-agent is a hostNetwork agent with hostPath volumes proc and sys, created three hours ago in
    the namespace agents, which is labelled pod-security.kubernetes.io/enforce: baseline. PodSecurity
    admission rejects every pod the controller tries to create, so there are no pods at all and the
    DaemonSet carries a FailedCreate Warning (x30): \`${message}\`.`, {
    nodes: { 'worker-1': 'Missing — FailedCreate (PodSecurity baseline)', 'worker-2': 'Missing — FailedCreate (PodSecurity baseline)', 'worker-3': 'Missing — FailedCreate (PodSecurity baseline)' },
  }));
}

function quotaFailedCreate() {
  const c = new Cluster('quota-failedcreate', 2_640_000);
  const JOINED = 2 * HOUR;
  c.namespace('logging', 40 * DAY + 300);
  c.node({ name: 'worker-1' });
  c.node({ name: 'worker-2' });
  c.node({ name: 'worker-3', joinedAgo: JOINED, readySinceAgo: JOINED - 36 });
  const labels = { 'app.kubernetes.io/instance': 'log-agent', 'app.kubernetes.io/name': 'vector' };
  const template = finishTemplate({
    metadata: { creationTimestamp: null, labels: { ...labels, 'app.kubernetes.io/component': 'Agent' } },
    spec: {
      volumes: [
        { name: 'config', configMap: { name: 'log-agent', defaultMode: 420 } },
        hostPath('data', '/var/lib/vector'),
        hostPath('var-log', '/var/log'),
        hostPath('var-lib', '/var/lib'),
      ],
      containers: [{
        name: 'vector',
        image: 'docker.io/timberio/vector:0.42.0-distroless-libc',
        args: ['--config-dir', '/etc/vector/'],
        ports: [{ name: 'prom-exporter', containerPort: 9090, protocol: 'TCP' }],
        env: [
          { name: 'VECTOR_SELF_NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
          { name: 'VECTOR_SELF_POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
          { name: 'VECTOR_SELF_POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
        ],
        resources: { limits: { memory: '400Mi' }, requests: { cpu: '100m', memory: '200Mi' } },
        volumeMounts: [
          { name: 'config', readOnly: true, mountPath: '/etc/vector/' },
          { name: 'data', mountPath: '/vector-data-dir' },
          { name: 'var-log', readOnly: true, mountPath: '/var/log/' },
          { name: 'var-lib', readOnly: true, mountPath: '/var/lib' },
        ],
        ...FILE,
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 60,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'log-agent',
      serviceAccount: 'log-agent',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  });
  const CREATED = 30 * DAY;
  const b = c.daemonSet({
    namespace: 'logging', name: 'log-agent', createdAgo: CREATED, labels, selector: labels,
    updateStrategy: rolling(1), statusWrittenAgo: 4 * MIN,
    revs: [{ generation: 1, template, createdAgo: CREATED }],
  });
  c.daemonPod(b, 0, 'worker-1', { state: READY, created: CREATED - 1 });
  c.daemonPod(b, 0, 'worker-2', { state: READY, created: CREATED - 2 });
  c.resourceQuota({
    namespace: 'logging', name: 'compute-quota', createdAgo: 10 * DAY, usedSinceAgo: 10 * DAY - 5,
    hard: { pods: '10', 'requests.cpu': '1', 'requests.memory': '512Mi' },
    used: { pods: '2', 'requests.cpu': '200m', 'requests.memory': '400Mi' },
  });
  // The DaemonSet is requeued with exponential back-off (capped at 1000 s) after each failed
  // create; every attempt generates a new pod name, so each is its own Event (1 h TTL).
  const quotaMsg = (name) => `Error creating: pods "${name}" is forbidden: exceeded quota: compute-quota, requested: requests.memory=200Mi, used: requests.memory=400Mi, limited: requests.memory=512Mi`;
  const names = ['log-agent-m9wzq', 'log-agent-5hbtl', 'log-agent-qf8rd', 'log-agent-x7k2p'];
  names.forEach((n, i) => c.dsEvent(b, 'FailedCreate', quotaMsg(n), 54 * MIN + 40 - i * 1000));
  // Self-check of the quota arithmetic: used = the namespace's non-terminal pods.
  const used = c.pods.filter((p) => p.metadata.namespace === 'logging' && !isTerminal(p)).reduce((s, p) => s + podRequest(p, 'memory'), 0);
  if (used !== quantity('400Mi') || used + quantity('200Mi') <= quantity('512Mi')) throw new Error('quota story broken');
  return c.write(() => readme(c, b, `
    The namespace logging has a ResourceQuota compute-quota with requests.memory 512Mi, sized for two nodes:
    logging/log-agent (vector, requests 200Mi) uses 400Mi with its pods on worker-1 and worker-2. worker-3
    joined two hours ago and every create for it is rejected, most recently
    \`${quotaMsg('log-agent-x7k2p')}\`.`, {
    nodes: { 'worker-1': 'Healthy', 'worker-2': 'Healthy', 'worker-3': 'Missing — FailedCreate (exceeded quota compute-quota, requests.memory)' },
  }));
}

function hostPortConflict() {
  const c = new Cluster('hostport-conflict', 2_870_000);
  const CREATED = 30 * MIN;
  c.namespace('edge', 31 * MIN);
  workers(c, 3);
  c.deploymentPod({
    namespace: 'default', app: 'legacy-api', node: 'worker-2', created: 12 * DAY, labels: { app: 'legacy-api' },
    image: 'ghcr.io/acme-shop/legacy-api:0.9.4',
    ports: [{ name: 'http', containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
    resources: { limits: { memory: '256Mi' }, requests: { cpu: '200m', memory: '256Mi' } },
    readinessProbe: httpProbe('/healthz', 'http'),
  });
  const labels = { 'app.kubernetes.io/name': 'envoy', 'app.kubernetes.io/component': 'edge-proxy' };
  const template = finishTemplate({
    metadata: { creationTimestamp: null, labels },
    spec: {
      volumes: [{ name: 'config', configMap: { name: 'envoy-config', defaultMode: 420 } }],
      containers: [{
        name: 'envoy',
        image: 'docker.io/envoyproxy/envoy:v1.31.2',
        args: ['-c', '/etc/envoy/envoy.yaml', '--service-cluster', 'edge', '--log-level', 'info'],
        ports: [
          { name: 'http', hostPort: 8080, containerPort: 8080, protocol: 'TCP' },
          { name: 'admin', containerPort: 9901, protocol: 'TCP' },
        ],
        resources: { limits: { memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
        volumeMounts: [{ name: 'config', readOnly: true, mountPath: '/etc/envoy' }],
        readinessProbe: httpProbe('/ready', 'admin'),
        ...FILE,
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'envoy',
      serviceAccount: 'envoy',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  });
  const b = c.daemonSet({
    namespace: 'edge', name: 'envoy', createdAgo: CREATED, labels, selector: labels,
    updateStrategy: rolling(1), statusWrittenAgo: CREATED - 20,
    revs: [{ generation: 1, template, createdAgo: CREATED }],
  });
  const p1 = c.daemonPod(b, 0, 'worker-1', { state: READY, created: CREATED - 1, pull: 2.874 });
  const reason = "node(s) didn't have free ports for the requested pod ports";
  const p2 = c.daemonPod(b, 0, 'worker-2', { state: unschedulable(reason, 3), created: CREATED - 1, lastWrite: CREATED - 2 });
  const p3 = c.daemonPod(b, 0, 'worker-3', { state: READY, created: CREATED - 2, pull: 3.06 });
  assertFilter(c, p2, [reason]);
  for (const p of [p1, p2, p3]) c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${p.metadata.name}`, ago(p.metadata.creationTimestamp));
  c.startEvents(p1);
  c.startEvents(p3);
  failedSchedulingEvent(c, p2, 8, 2 * MIN + 30);
  return c.write(() => readme(c, b, `
    edge/envoy (created 30 minutes ago) listens on hostPort 8080. On worker-2 the Deployment pod
    default/legacy-api already holds hostPort 8080, so ${p2.metadata.name} stays Pending, unbound, with
    PodScheduled=False reason Unschedulable and a FailedScheduling event: \`${p2.status.conditions[0].message}\`.`, {
    nodes: { 'worker-1': 'Healthy', 'worker-2': 'Pending — HostPortConflict (port 8080/TCP held by default/legacy-api)', 'worker-3': 'Healthy' },
  }));
}

function tooManyPods() {
  const c = new Cluster('too-many-pods', 3_404_000);
  const CREATED = 35 * MIN;
  c.namespace('observability', 36 * MIN);
  c.node({ name: 'worker-1' });
  c.node({ name: 'worker-2' });
  c.node({ name: 'worker-3', type: T3_MICRO, joinedAgo: 6 * DAY, labels: { 'node-pool': 'small' } });
  c.coredns(['worker-3', 'worker-3'], 6 * DAY - 120);
  for (let i = 0; i < 2; i++) {
    c.deploymentPod({
      namespace: 'default', app: 'web', index: i, node: 'worker-3', created: 5 * DAY - 30 * i, labels: { app: 'web' },
      image: 'docker.io/library/nginx:1.27.2',
      ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
      resources: { limits: { memory: '64Mi' }, requests: { cpu: '50m', memory: '64Mi' } },
      readinessProbe: httpProbe('/', 'http'),
    });
  }
  const labels = { 'app.kubernetes.io/name': 'opentelemetry-collector', 'app.kubernetes.io/instance': 'otel-agent' };
  const template = finishTemplate({
    metadata: { creationTimestamp: null, labels: { ...labels, component: 'agent-collector' } },
    spec: {
      volumes: [{ name: 'opentelemetry-collector-configmap', configMap: { name: 'otel-agent', items: [{ key: 'relay', path: 'relay.yaml' }], defaultMode: 420 } }],
      containers: [{
        name: 'opentelemetry-collector',
        image: 'docker.io/otel/opentelemetry-collector-contrib:0.112.0',
        args: ['--config=/conf/relay.yaml'],
        ports: [
          { name: 'otlp', containerPort: 4317, protocol: 'TCP' },
          { name: 'otlp-http', containerPort: 4318, protocol: 'TCP' },
        ],
        env: [{ name: 'MY_POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } }],
        resources: { limits: { memory: '256Mi' }, requests: { cpu: '50m', memory: '64Mi' } },
        volumeMounts: [{ name: 'opentelemetry-collector-configmap', mountPath: '/conf' }],
        livenessProbe: httpProbe('/', 13133),
        readinessProbe: httpProbe('/', 13133),
        ...FILE,
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'otel-agent',
      serviceAccount: 'otel-agent',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  });
  const b = c.daemonSet({
    namespace: 'observability', name: 'otel-agent', createdAgo: CREATED, labels, selector: labels,
    updateStrategy: rolling(1), statusWrittenAgo: CREATED - 18,
    revs: [{ generation: 1, template, createdAgo: CREATED }],
  });
  const p1 = c.daemonPod(b, 0, 'worker-1', { state: READY, created: CREATED - 1, pull: 7.52 });
  const p2 = c.daemonPod(b, 0, 'worker-2', { state: READY, created: CREATED - 2, pull: 6.981 });
  const p3 = c.daemonPod(b, 0, 'worker-3', { state: unschedulable('Too many pods', 3), created: CREATED - 1, lastWrite: CREATED - 2 });
  assertFilter(c, p3, ['Too many pods']);
  for (const p of [p1, p2, p3]) c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${p.metadata.name}`, ago(p.metadata.creationTimestamp));
  c.startEvents(p1);
  c.startEvents(p2);
  failedSchedulingEvent(c, p3, 9, 4 * MIN);
  return c.write(() => readme(c, b, `
    worker-3 is a t3.micro whose allocatable pods is "4", and it already runs four pods (two coredns, two
    default/web). observability/otel-agent (created 35 minutes ago) has no priority class, so at priority 0 it
    finds no lower-priority pod to preempt; its cpu and memory requests fit on worker-3 but the pod count does not: ${p3.metadata.name} is Pending with
    \`${p3.status.conditions[0].message}\`.`, {
    nodes: { 'worker-1': 'Healthy', 'worker-2': 'Healthy', 'worker-3': 'Pending — TooManyPods (4 of 4 pod slots used)' },
  }));
}

function misscheduledLabelRemoved() {
  const c = new Cluster('misscheduled-label-removed', 4_050_000);
  const CREATED = 20 * DAY;
  const LABEL_REMOVED = 90;
  const TAINTED = 2 * HOUR;
  c.namespace('ingress-nginx', 20 * DAY + 300);
  c.node({ name: 'ingress-1', labels: { role: 'ingress' } });
  c.node({ name: 'ingress-2' });
  c.node({ name: 'ingress-3', labels: { role: 'ingress' }, taints: [{ key: 'maintenance', value: 'true', effect: 'NoSchedule' }] });
  c.node({ name: 'worker-1' });
  const selector = { 'app.kubernetes.io/component': 'controller', 'app.kubernetes.io/instance': 'ingress-nginx', 'app.kubernetes.io/name': 'ingress-nginx' };
  const template = finishTemplate({
    metadata: { creationTimestamp: null, labels: { ...selector, 'app.kubernetes.io/part-of': 'ingress-nginx', 'app.kubernetes.io/version': '1.11.3' } },
    spec: {
      volumes: [{ name: 'webhook-cert', secret: { secretName: 'ingress-nginx-admission', defaultMode: 420 } }],
      containers: [{
        name: 'controller',
        image: 'registry.k8s.io/ingress-nginx/controller:v1.11.3',
        args: [
          '/nginx-ingress-controller',
          '--publish-service=$(POD_NAMESPACE)/ingress-nginx-controller',
          '--election-id=ingress-nginx-leader',
          '--controller-class=k8s.io/ingress-nginx',
          '--ingress-class=nginx',
          '--configmap=$(POD_NAMESPACE)/ingress-nginx-controller',
          '--validating-webhook=:8443',
          '--validating-webhook-certificate=/usr/local/certificates/cert',
          '--validating-webhook-key=/usr/local/certificates/key',
        ],
        ports: [
          { name: 'http', hostPort: 80, containerPort: 80, protocol: 'TCP' },
          { name: 'https', hostPort: 443, containerPort: 443, protocol: 'TCP' },
          { name: 'webhook', containerPort: 8443, protocol: 'TCP' },
        ],
        env: [
          { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
          { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
          { name: 'LD_PRELOAD', value: '/usr/local/lib/libmimalloc.so' },
        ],
        resources: { requests: { cpu: '100m', memory: '90Mi' } },
        volumeMounts: [{ name: 'webhook-cert', readOnly: true, mountPath: '/usr/local/certificates/' }],
        livenessProbe: httpProbe('/healthz', 10254, { initialDelaySeconds: 10, failureThreshold: 5 }),
        readinessProbe: httpProbe('/healthz', 10254, { initialDelaySeconds: 10 }),
        lifecycle: { preStop: { exec: { command: ['/wait-shutdown'] } } },
        ...FILE,
        securityContext: {
          capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
          runAsUser: 101, runAsNonRoot: true, readOnlyRootFilesystem: false, allowPrivilegeEscalation: false, seccompProfile: { type: 'RuntimeDefault' },
        },
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 300,
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'kubernetes.io/os': 'linux', role: 'ingress' },
      serviceAccountName: 'ingress-nginx',
      serviceAccount: 'ingress-nginx',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  });
  const b = c.daemonSet({
    namespace: 'ingress-nginx', name: 'ingress-nginx-controller', createdAgo: CREATED,
    labels: { ...selector, 'app.kubernetes.io/part-of': 'ingress-nginx', 'app.kubernetes.io/version': '1.11.3' }, selector,
    updateStrategy: rolling(1), statusWrittenAgo: LABEL_REMOVED - 1,
    revs: [{ generation: 1, template, createdAgo: CREATED }],
  });
  c.daemonPod(b, 0, 'ingress-1', { state: READY, created: CREATED - 1 });
  const gone = c.daemonPod(b, 0, 'ingress-2', { state: { ...READY, observedGeneration: 2 }, created: CREATED - 2, deletedAgo: LABEL_REMOVED, grace: 300 });
  const kept = c.daemonPod(b, 0, 'ingress-3', { state: READY, created: CREATED - 1 });
  c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${gone.metadata.name}`, LABEL_REMOVED);
  c.kubeletEvent(gone, 'controller', { reason: 'Killing', message: 'Stopping container controller', firstAgo: LABEL_REMOVED - 1 });
  for (const [n, run] of [['ingress-2', { shouldRun: false, shouldContinueRunning: false }], ['ingress-3', { shouldRun: false, shouldContinueRunning: true }]]) {
    if (JSON.stringify(shouldRun(template.spec, c.nodesByName[n])) !== JSON.stringify(run)) throw new Error(`${c.name}: ${n} placement story broken`);
  }
  void TAINTED;
  return c.write(() => readme(c, b, `
    ingress-nginx/ingress-nginx-controller runs on nodes labelled role=ingress. ingress-2 lost that label
    90 seconds ago, so the controller deleted its pod ${gone.metadata.name} (shouldContinueRunning=false);
    it is still Terminating within its 300 s grace period. ingress-3 got the taint
    maintenance=true:NoSchedule after its pod ${kept.metadata.name} started: no new pod would be created
    there, but a NoSchedule taint does not evict, so the pod keeps running; both count in numberMisscheduled.`, {
    nodes: {
      'ingress-1': 'Healthy',
      'ingress-2': 'Misscheduled — NodeSelectorMismatch (role=ingress removed; the controller deletes the pod, already Terminating)',
      'ingress-3': 'Misscheduled — UntoleratedTaint (maintenance=true:NoSchedule; pod left running)',
      'worker-1': 'Excluded — NodeSelectorMismatch (no role=ingress label; not a problem)',
    },
  }));
}

function cordonedNode() {
  const c = new Cluster('cordoned-node', 2_215_000);
  const CORDONED = 40 * MIN;
  c.namespace('monitoring', 60 * DAY + 60);
  workers(c, 3, {
    'worker-2': { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: at(CORDONED) }] },
  });
  const CREATED = 60 * DAY;
  const b = c.daemonSet({
    namespace: 'monitoring', name: 'node-exporter', createdAgo: CREATED, labels: nodeExporterLabels('v1.8.2'),
    selector: NODE_EXPORTER_SELECTOR, updateStrategy: rolling(1), statusWrittenAgo: 12 * DAY,
    revs: [{ generation: 1, template: nodeExporterTemplate(), createdAgo: CREATED }],
  });
  for (let i = 1; i <= 3; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const w2 = c.nodesByName['worker-2'];
  c.event({ object: w2, reason: 'NodeNotSchedulable', message: 'Node worker-2 status is now: NodeNotSchedulable', component: 'kubelet', host: 'worker-2', firstAgo: CORDONED - 1 });
  return c.write(() => readme(c, b, `
    worker-2 was cordoned 40 minutes ago (spec.unschedulable: true and the taint
    node.kubernetes.io/unschedulable:NoSchedule). Every daemon pod tolerates that taint, so
    monitoring/node-exporter still counts worker-2 as desired and its pod there is Running and Ready:
    a cordon is not a DaemonSet problem.`, {
    nodes: { 'worker-1': 'Healthy', 'worker-2': 'Healthy (cordoned; nothing to fix)', 'worker-3': 'Healthy' },
  }));
}

function newNode() {
  const c = new Cluster('new-node', 5_502_000);
  const JOINED = 20;
  const NOT_READY_MSG = 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
  c.node({ name: 'worker-1' });
  c.node({ name: 'worker-2' });
  c.node({
    name: 'worker-3', joinedAgo: JOINED, heartbeatAgo: 9, health: 'NotReady', notReadyMessage: NOT_READY_MSG,
    taints: [
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: at(JOINED - 1) },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: at(JOINED - 5) },
    ],
  });
  const CREATED = CLUSTER_AGE - 40;
  const b = c.daemonSet({
    namespace: 'kube-system', name: 'kube-proxy', createdAgo: CREATED, labels: { 'k8s-app': 'kube-proxy' },
    selector: { 'k8s-app': 'kube-proxy' }, updateStrategy: rolling(1), statusWrittenAgo: 9 * DAY,
    revs: [{ generation: 1, template: kubeProxyTemplate('v1.34.2'), createdAgo: CREATED }],
  });
  for (const n of ['worker-1', 'worker-2']) c.daemonPod(b, 0, n, { state: READY, created: c.nodeDefs[n].joinedAgo - 9 });
  c.coredns(['worker-1', 'worker-2']);
  const w3 = c.nodesByName['worker-3'];
  const nodeEv = (reason, message, dt, extra = {}) => c.event({ object: w3, reason, message, component: 'kubelet', host: 'worker-3', firstAgo: JOINED + dt, ...extra });
  nodeEv('Starting', 'Starting kubelet.', 3);
  nodeEv('NodeHasSufficientMemory', 'Node worker-3 status is now: NodeHasSufficientMemory', 2, { count: 2, lastAgo: JOINED });
  nodeEv('NodeHasNoDiskPressure', 'Node worker-3 status is now: NodeHasNoDiskPressure', 2, { count: 2, lastAgo: JOINED });
  nodeEv('NodeHasSufficientPID', 'Node worker-3 status is now: NodeHasSufficientPID', 2, { count: 2, lastAgo: JOINED });
  nodeEv('NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', 1);
  c.event({ object: w3, reason: 'RegisteredNode', message: 'Node worker-3 event: Registered Node worker-3 in Controller', component: 'node-controller', firstAgo: JOINED - 4 });
  // The controller has not synced since the node was added: its last status was written over
  // worker-1 and worker-2 only (a sync that counted worker-3 would also have created its pod).
  const known = c.nodes.filter((n) => n.metadata.name !== 'worker-3');
  const result = c.write(() => readme(c, b, `
    worker-3 registered 20 seconds ago (still NotReady: cni plugin not initialized, with the not-ready
    taints). kube-system/kube-proxy tolerates every taint, so the controller should run a pod there,
    but none exists yet: the controller has not synced since the node was added.`, {
    nodes: { 'worker-1': 'Healthy', 'worker-2': 'Healthy', 'worker-3': 'Missing — NotYetCreated (info: the node is 20 s old; the node is also NotReady, which does not stop kube-proxy)' },
    note: `The DaemonSet status is the one the controller wrote before worker-3 appeared
      (desired 2): a sync that counted worker-3 would also have created its pod. Computing it from
      the dumped nodes gives desired 3, current 2, unavailable 1.`,
  }), { statusNodes: known });
  return result;
}

function readinessFailing() {
  const c = new Cluster('readiness-failing', 3_777_000);
  const JOINED = 35 * MIN;
  c.namespace('logging', 45 * DAY + 200);
  c.node({ name: 'worker-1' });
  c.node({ name: 'worker-2' });
  c.node({ name: 'worker-3', joinedAgo: JOINED, readySinceAgo: JOINED - 40, labels: { 'node-pool': 'data' } });
  const CREATED = 45 * DAY;
  const selector = { 'app.kubernetes.io/instance': 'promtail', 'app.kubernetes.io/name': 'promtail' };
  const b = c.daemonSet({
    namespace: 'logging', name: 'promtail', createdAgo: CREATED, labels: { ...selector, 'app.kubernetes.io/version': '3.2.1' },
    selector, updateStrategy: rolling(1), statusWrittenAgo: JOINED - 60,
    revs: [{ generation: 1, template: promtailTemplate('3.2.1'), createdAgo: CREATED }],
  });
  c.daemonPod(b, 0, 'worker-1', { state: READY, created: CREATED - 3 });
  c.daemonPod(b, 0, 'worker-2', { state: READY, created: CREATED - 4 });
  const created = JOINED - 45;
  const pod = c.daemonPod(b, 0, 'worker-3', { state: { kind: 'NotReady' }, created, lastWrite: created - 10, pull: 4.407 });
  c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, created);
  c.startEvents(pod);
  const started = ago(pod.status.containerStatuses[0].state.running.startedAt);
  c.kubeletEvent(pod, 'promtail', {
    reason: 'Unhealthy', type: 'Warning', message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
    firstAgo: started - 10, lastAgo: 4, count: Math.floor((started - 14) / 10),
  });
  return c.write(() => readme(c, b, `
    worker-3 joined 35 minutes ago with its kubelet configured to write pod logs under /data/log/pods
    (podLogsDir) instead of /var/log/pods, so logging/promtail there finds nothing to tail and its /ready
    endpoint answers 503. The container of ${pod.metadata.name} is running (no restarts) but Ready=False,
    with Unhealthy events \`Readiness probe failed: HTTP probe failed with statuscode: 503\`.`, {
    nodes: { 'worker-1': 'Healthy', 'worker-2': 'Healthy', 'worker-3': 'Unhealthy — ReadinessProbeFailing (HTTP 503 on /ready)' },
  }));
}

function evictedPod() {
  const c = new Cluster('evicted-pod', 2_999_000);
  const PRESSURE = 3 * MIN;
  const EVICTED = 6;
  const message = 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 85Mi.';
  c.namespace('logging', 90 * DAY + 120);
  c.namespace('batch', 30 * DAY);
  workers(c, 3, {
    'worker-2': { memoryPressureSince: PRESSURE, taints: [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule', timeAdded: at(PRESSURE - 2) }] },
  });
  c.deploymentPod({
    namespace: 'batch', app: 'report-builder', node: 'worker-2', created: 50 * MIN, labels: { app: 'report-builder' },
    image: 'ghcr.io/acme-shop/report-builder:2.3.0',
    resources: { requests: { cpu: '500m', memory: '1Gi' } },
  });
  const CREATED = 90 * DAY;
  const b = c.daemonSet({
    namespace: 'logging', name: 'fluent-bit', createdAgo: CREATED, labels: { ...FLUENT_BIT_SELECTOR, 'app.kubernetes.io/version': '3.1.9' },
    selector: FLUENT_BIT_SELECTOR, updateStrategy: rolling(1), statusWrittenAgo: EVICTED - 1,
    revs: [{ generation: 1, template: fluentBitTemplate({ version: '3.1.9', priorityClassName: undefined }), createdAgo: CREATED }],
  });
  c.daemonPod(b, 0, 'worker-1', { state: READY, created: 9 * DAY });
  const pod = c.daemonPod(b, 0, 'worker-2', { state: { kind: 'Evicted', message, evictedAgo: EVICTED }, created: 9 * DAY - 40, lastWrite: EVICTED - 2 });
  c.daemonPod(b, 0, 'worker-3', { state: READY, created: 9 * DAY - 80 });
  const w2 = c.nodesByName['worker-2'];
  c.event({ object: w2, reason: 'NodeHasInsufficientMemory', message: 'Node worker-2 status is now: NodeHasInsufficientMemory', component: 'kubelet', host: 'worker-2', firstAgo: PRESSURE });
  c.event({ object: w2, reason: 'EvictionThresholdMet', type: 'Warning', message: 'Attempting to reclaim memory', component: 'kubelet', host: 'worker-2', firstAgo: PRESSURE - 1, lastAgo: EVICTED + 1, count: 4 });
  c.kubeletEvent(pod, undefined, { reason: 'Evicted', type: 'Warning', message, firstAgo: EVICTED });
  c.kubeletEvent(pod, 'fluent-bit', { reason: 'Killing', message: 'Stopping container fluent-bit', firstAgo: EVICTED });
  return c.write(() => readme(c, b, `
    worker-2 has been under memory pressure for three minutes (a batch pod without a memory limit).
    Six seconds before the dump the kubelet evicted logging/fluent-bit's pod ${pod.metadata.name}
    (no priority class, so not protected as critical): phase Failed, reason Evicted, \`${message}\`. The
    controller will delete the failed pod and create a replacement (daemon pods tolerate the
    memory-pressure taint).`, {
    nodes: { 'worker-1': 'Healthy', 'worker-2': 'Unhealthy — PodFailed (Evicted: node low on memory)', 'worker-3': 'Healthy' },
    note: `The status counts the failed pod as current and not ready (reference §3.8). The controller
      deletes a Failed daemon pod (FailedDaemonPod event, subject to the failed-pod back-off of §1.7)
      and creates the replacement on a later sync.`,
  }));
}

// ---------------------------------------------------------------------------
// Rollout scenarios
// ---------------------------------------------------------------------------

/** Name of a pod that was deleted before the dump (it appears only in events). */
function deletedPodName(c, dsName, nodeName) {
  return `${dsName}-${suffix(`${c.name}/deleted/${dsName}/${nodeName}`)}`;
}

function pullEvents(c, pod, container, image, attempts, lastWaitStart) {
  const first = attempts.starts[0];
  const last = attempts.lastStartedAgo;
  const n = attempts.starts.length;
  const err = `rpc error: code = NotFound desc = failed to pull and unpack image "${imageRef(image)}": failed to resolve reference "${imageRef(image)}": ${imageRef(image)}: not found`;
  c.kubeletEvent(pod, container, { reason: 'Pulling', message: `Pulling image "${image}"`, firstAgo: first, lastAgo: last, count: n });
  c.kubeletEvent(pod, container, { reason: 'Failed', type: 'Warning', message: `Failed to pull image "${image}": ${err}`, firstAgo: first - 1, lastAgo: last - 1, count: n });
  c.kubeletEvent(pod, container, { reason: 'Failed', type: 'Warning', message: 'Error: ErrImagePull', firstAgo: first - 1, lastAgo: last - 1, count: n });
  const backoffs = Math.max(1, Math.round(attempts.waited / 20));
  c.kubeletEvent(pod, container, { reason: 'BackOff', message: `Back-off pulling image "${image}"`, firstAgo: first - 2, lastAgo: lastWaitStart, count: backoffs });
  c.kubeletEvent(pod, container, { reason: 'Failed', type: 'Warning', message: 'Error: ImagePullBackOff', firstAgo: first - 2, lastAgo: lastWaitStart, count: backoffs });
  return err;
}

function rolloutCrashloop() {
  const c = new Cluster('rollout-crashloop', 6_120_000);
  const CREATED = 60 * DAY;
  const ROLLOUT = 25 * MIN;
  c.namespace('monitoring', CREATED + 60);
  workers(c, 6);
  const b = c.daemonSet({
    namespace: 'monitoring', name: 'node-exporter', createdAgo: CREATED, labels: nodeExporterLabels('v1.9.0'),
    selector: NODE_EXPORTER_SELECTOR, updateStrategy: rolling(1), statusWrittenAgo: ROLLOUT - 5,
    revs: [
      { generation: 1, template: nodeExporterTemplate({ version: 'v1.8.2' }), createdAgo: CREATED },
      { generation: 2, template: nodeExporterTemplate({ version: 'v1.9.0' }), createdAgo: ROLLOUT },
    ],
  });
  for (let i = 2; i <= 6; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const created = ROLLOUT - 3;
  const loop = crashLoop(created - 9, 1);
  const pod = c.daemonPod(b, 1, 'worker-1', {
    created, pull: 3.927, lastWrite: loop.lastFinishedAgo - 1,
    state: { kind: 'CrashLoopBackOff', exitCode: 1, reason: 'Error', restarts: loop.restarts, backoff: loop.backoff, lastStartedAgo: loop.lastStartedAgo, lastFinishedAgo: loop.lastFinishedAgo },
  });
  c.nodeImage('worker-1', 'quay.io/prometheus/node-exporter:v1.8.2');
  const image = pod.spec.containers[0].image;
  c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${deletedPodName(c, 'node-exporter', 'worker-1')}`, ROLLOUT);
  c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, created);
  c.event({ object: pod, reason: 'Scheduled', message: `Successfully assigned monitoring/${pod.metadata.name} to worker-1`, component: 'default-scheduler', firstAgo: created - 1 });
  c.kubeletEvent(pod, 'node-exporter', { reason: 'Pulling', message: `Pulling image "${image}"`, firstAgo: created - 3 });
  c.kubeletEvent(pod, 'node-exporter', { reason: 'Pulled', message: `Successfully pulled image "${image}" in 3.927s (3.927s including waiting). Image size: ${imageSize(image)} bytes.`, firstAgo: created - 7 });
  crashEvents(c, pod, 'node-exporter', loop, { pulledFresh: true });
  return c.write(() => readme(c, b, `
    monitoring/node-exporter was updated 25 minutes ago from quay.io/prometheus/node-exporter:v1.8.2 to
    v1.9.0 (generation 2, RollingUpdate maxUnavailable 1). The controller replaced the pod on worker-1
    first; the new pod ${pod.metadata.name} exits with code 1 right after start (${loop.restarts} restarts,
    CrashLoopBackOff), which uses up the whole unavailability budget, so the five other nodes keep their
    Ready v1.8.2 pods.`, {
    nodes: {
      'worker-1': 'Unhealthy — CrashLoopBackOff (new revision, exit code 1)',
      ...Object.fromEntries([2, 3, 4, 5, 6].map((i) => [`worker-${i}`, 'Healthy (OutdatedRevision, info)'])),
    },
    rollout: 'Stuck (blocking node worker-1: CrashLoopBackOff; 1 of 6 updated, maxUnavailable 1 used up)',
  }));
}

function rolloutBadTag() {
  const c = new Cluster('rollout-bad-tag', 5_330_000);
  const CREATED = 75 * DAY;
  const ROLLOUT = 18 * MIN;
  c.namespace('platform', CREATED + 600);
  workers(c, 4);
  const labels = { 'app.kubernetes.io/name': 'telemetry-agent', 'app.kubernetes.io/part-of': 'platform' };
  const template = (tag) => finishTemplate({
    metadata: { creationTimestamp: null, labels },
    spec: {
      volumes: [
        { name: 'config', configMap: { name: 'telemetry-agent', defaultMode: 420 } },
        hostPath('proc', '/proc'),
        hostPath('varlog', '/var/log'),
      ],
      containers: [{
        name: 'agent',
        image: `ghcr.io/acme-platform/telemetry-agent:${tag}`,
        args: ['--config=/etc/telemetry-agent/agent.yaml', '--node=$(NODE_NAME)'],
        ports: [{ name: 'metrics', containerPort: 9464, protocol: 'TCP' }],
        env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
        resources: { limits: { memory: '256Mi' }, requests: { cpu: '50m', memory: '128Mi' } },
        volumeMounts: [
          { name: 'config', readOnly: true, mountPath: '/etc/telemetry-agent' },
          { name: 'proc', readOnly: true, mountPath: '/host/proc' },
          { name: 'varlog', readOnly: true, mountPath: '/var/log' },
        ],
        readinessProbe: httpProbe('/healthz', 'metrics'),
        ...FILE,
        securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'telemetry-agent',
      serviceAccount: 'telemetry-agent',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName: 'system-node-critical',
    },
  });
  const b = c.daemonSet({
    namespace: 'platform', name: 'telemetry-agent', createdAgo: CREATED, labels, selector: labels,
    updateStrategy: rolling('25%'), statusWrittenAgo: ROLLOUT - 4,
    revs: [
      { generation: 1, template: template('v1.4.2'), createdAgo: CREATED },
      { generation: 2, template: template('v2.0.0-does-not-exist'), createdAgo: ROLLOUT },
    ],
  });
  for (const i of [1, 2, 4]) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const created = ROLLOUT - 3;
  const pod = c.daemonPod(b, 1, 'worker-3', { state: { kind: 'ImagePullBackOff' }, created, lastWrite: created - 6 });
  c.nodeImage('worker-3', 'ghcr.io/acme-platform/telemetry-agent:v1.4.2');
  const image = pod.spec.containers[0].image;
  // Pull attempts back off like container restarts (10 s doubling to 5 min); each takes ~1 s.
  const attempts = crashLoop(created - 5, 1);
  c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${deletedPodName(c, 'telemetry-agent', 'worker-3')}`, ROLLOUT);
  c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, created);
  c.event({ object: pod, reason: 'Scheduled', message: `Successfully assigned platform/${pod.metadata.name} to worker-3`, component: 'default-scheduler', firstAgo: created - 1 });
  const err = pullEvents(c, pod, 'agent', image, attempts, 8);
  return c.write(() => readme(c, b, `
    platform/telemetry-agent was updated 18 minutes ago to the tag v2.0.0-does-not-exist (generation 2,
    RollingUpdate maxUnavailable 25% = 1 of 4 nodes). The new pod ${pod.metadata.name} on worker-3 is in
    ImagePullBackOff, with Failed events \`Failed to pull image "${image}": ${err}\`; the other three
    nodes keep their Ready v1.4.2 pods.`, {
    nodes: {
      'worker-1': 'Healthy (OutdatedRevision, info)',
      'worker-2': 'Healthy (OutdatedRevision, info)',
      'worker-3': 'Unhealthy — ImagePullBackOff (tag v2.0.0-does-not-exist not found)',
      'worker-4': 'Healthy (OutdatedRevision, info)',
    },
    rollout: 'Stuck (blocking node worker-3: ImagePullBackOff; 1 of 4 updated, maxUnavailable 25% = 1 used up)',
  }));
}

function rolloutRequestsDontFit() {
  const c = new Cluster('rollout-requests-dont-fit', 4_480_000);
  const CREATED = 50 * DAY;
  const ROLLOUT = 14 * MIN;
  c.namespace('logging', CREATED + 300);
  c.namespace('shop', 45 * DAY);
  workers(c, 3);
  const shop = [
    { app: 'storefront', cpu: '500m', memory: '4Gi' },
    { app: 'cart', cpu: '250m', memory: '3Gi' },
    { app: 'checkout', cpu: '500m', memory: '4Gi' },
    { app: 'search', cpu: '500m', memory: '2560Mi' },
  ];
  shop.forEach((a, i) => c.deploymentPod({
    namespace: 'shop', app: a.app, node: 'worker-2', created: 9 * DAY - 20 * i, labels: { app: a.app, 'app.kubernetes.io/part-of': 'shop' },
    image: `ghcr.io/acme-shop/${a.app}:2.${i + 3}.0`,
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
    resources: { limits: { memory: a.memory }, requests: { cpu: a.cpu, memory: a.memory } },
    readinessProbe: httpProbe('/healthz/ready', 'http'),
  }));
  const labels = { 'app.kubernetes.io/name': 'fluentd', 'app.kubernetes.io/instance': 'fluentd' };
  const template = (memory, limit) => finishTemplate({
    metadata: { creationTimestamp: null, labels },
    spec: {
      volumes: [hostPath('varlog', '/var/log'), hostPath('varlibdockercontainers', '/var/lib/docker/containers'), { name: 'buffer', emptyDir: {} }],
      containers: [{
        name: 'fluentd',
        image: 'docker.io/fluent/fluentd-kubernetes-daemonset:v1.17.1-debian-forward-1.0',
        env: [
          { name: 'K8S_NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
          { name: 'FLUENT_FORWARD_HOST', value: 'aggregator.logging.svc' },
          { name: 'FLUENT_FORWARD_PORT', value: '24224' },
        ],
        resources: { limits: { memory: limit }, requests: { cpu: '100m', memory } },
        volumeMounts: [
          { name: 'varlog', mountPath: '/var/log' },
          { name: 'varlibdockercontainers', readOnly: true, mountPath: '/var/lib/docker/containers' },
          { name: 'buffer', mountPath: '/fluentd/buffer' },
        ],
        ...FILE,
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'fluentd',
      serviceAccount: 'fluentd',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    },
  });
  const b = c.daemonSet({
    namespace: 'logging', name: 'fluentd', createdAgo: CREATED, labels, selector: labels,
    updateStrategy: rolling(1), statusWrittenAgo: ROLLOUT - 4,
    revs: [
      { generation: 1, template: template('256Mi', '512Mi'), createdAgo: CREATED },
      { generation: 2, template: template('2Gi', '2Gi'), createdAgo: ROLLOUT },
    ],
  });
  for (const i of [1, 3]) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const created = ROLLOUT - 4;
  const reason = 'Insufficient memory';
  const pod = c.daemonPod(b, 1, 'worker-2', { state: unschedulable(reason, 3), created, lastWrite: created - 1 });
  assertFilter(c, pod, [reason]);
  // The old pod (256Mi) did fit: 15128Mi allocatable - 13824Mi of shop requests = 1304Mi free.
  const free = quantity(c.nodesByName['worker-2'].status.allocatable.memory) - c.pods.filter((p) => p.spec.nodeName === 'worker-2').reduce((sum, p) => sum + podRequest(p, 'memory'), 0);
  if (!(free >= quantity('256Mi') && free < quantity('2Gi'))) throw new Error(`${c.name}: worker-2 free memory ${free}`);
  c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${deletedPodName(c, 'fluentd', 'worker-2')}`, ROLLOUT);
  c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, created);
  failedSchedulingEvent(c, pod, 7, 3 * MIN + 10);
  const freeMi = free / 2 ** 20;
  return c.write(() => readme(c, b, `
    logging/fluentd was updated 14 minutes ago to request 2Gi of memory instead of 256Mi (generation 2,
    maxUnavailable 1, no priority class). The controller deleted the old pod on worker-2 first, but the
    shop pods there request 13824Mi of its 15128Mi allocatable, leaving ${freeMi}Mi: the new pod
    ${pod.metadata.name} stays Pending with \`${pod.status.conditions[0].message}\`.`, {
    nodes: {
      'worker-1': 'Healthy (OutdatedRevision, info)',
      'worker-2': `Pending — InsufficientResource (Insufficient memory: requests 2Gi, ${freeMi}Mi free)`,
      'worker-3': 'Healthy (OutdatedRevision, info)',
    },
    rollout: 'Stuck (blocking node worker-2: InsufficientResource; the old pod there is already gone; 1 of 3 updated)',
  }));
}

function rolloutSurgeHostPort() {
  const c = new Cluster('rollout-surge-hostport', 3_050_000);
  const CREATED = 60 * DAY;
  const ROLLOUT = 12 * MIN;
  c.namespace('monitoring', CREATED + 60);
  workers(c, 3);
  const b = c.daemonSet({
    namespace: 'monitoring', name: 'node-exporter', createdAgo: CREATED, labels: nodeExporterLabels('v1.9.0'),
    selector: NODE_EXPORTER_SELECTOR, updateStrategy: rolling(0, 1), statusWrittenAgo: ROLLOUT - 2,
    revs: [
      { generation: 1, template: nodeExporterTemplate({ version: 'v1.8.2', explicitHostPort: false }), createdAgo: CREATED },
      { generation: 2, template: nodeExporterTemplate({ version: 'v1.9.0', explicitHostPort: false }), createdAgo: ROLLOUT },
    ],
  });
  for (let i = 1; i <= 3; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const reason = "node(s) didn't have free ports for the requested pod ports";
  const created = ROLLOUT - 1;
  const pod = c.daemonPod(b, 1, 'worker-1', { state: unschedulable(reason, 3), created, lastWrite: created - 1 });
  assertFilter(c, pod, [reason]);
  c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, created);
  failedSchedulingEvent(c, pod, 6, 2 * MIN + 5);
  const old = b.podsOf['worker-1'][0];
  return c.write(() => readme(c, b, `
    monitoring/node-exporter uses hostNetwork with containerPort 9100, so its pods get hostPort 9100 by
    defaulting; it was updated 12 minutes ago to v1.9.0 with RollingUpdate maxSurge 1, maxUnavailable 0.
    The surge pod ${pod.metadata.name} for worker-1 must run next to the old pod ${old.metadata.name},
    which holds port 9100, so it stays Pending with \`${pod.status.conditions[0].message}\`; the old pod
    is only deleted once the new one is available, which never happens.`, {
    nodes: {
      'worker-1': `Healthy (the old pod serves, OutdatedRevision; its surge pod ${pod.metadata.name} is Pending — HostPortConflict)`,
      'worker-2': 'Healthy (OutdatedRevision, info)',
      'worker-3': 'Healthy (OutdatedRevision, info)',
    },
    rollout: 'Stuck (blocking node worker-1: HostPortConflict of the surge pod; maxSurge 1 used up; 0 of 3 updated — a DaemonSet with host ports cannot surge)',
  }));
}

function ebsTemplate(version) {
  return finishTemplate({
    metadata: { creationTimestamp: null, labels: { app: 'ebs-csi-node', 'app.kubernetes.io/component': 'csi-driver', 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/name': 'aws-ebs-csi-driver', 'app.kubernetes.io/version': version.replace(/^v/, '') } },
    spec: {
      volumes: [
        hostPath('kubelet-dir', '/var/lib/kubelet', 'Directory'),
        hostPath('plugin-dir', '/var/lib/kubelet/plugins/ebs.csi.aws.com/', 'DirectoryOrCreate'),
        hostPath('registration-dir', '/var/lib/kubelet/plugins_registry/', 'Directory'),
        hostPath('device-dir', '/dev', 'Directory'),
      ],
      containers: [
        {
          name: 'ebs-plugin',
          image: `public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:${version}`,
          args: ['node', '--endpoint=$(CSI_ENDPOINT)', '--csi-mount-point-prefix=/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/', '--logging-format=text', '--v=2'],
          ports: [{ name: 'healthz', containerPort: 9808, protocol: 'TCP' }],
          env: [
            { name: 'CSI_ENDPOINT', value: 'unix:/csi/csi.sock' },
            { name: 'CSI_NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
          ],
          resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
          volumeMounts: [
            { name: 'kubelet-dir', mountPath: '/var/lib/kubelet', mountPropagation: 'Bidirectional' },
            { name: 'plugin-dir', mountPath: '/csi' },
            { name: 'device-dir', mountPath: '/dev' },
          ],
          livenessProbe: { httpGet: { path: '/healthz', port: 'healthz', scheme: 'HTTP' }, initialDelaySeconds: 10, timeoutSeconds: 3, periodSeconds: 10, successThreshold: 1, failureThreshold: 5 },
          ...FILE,
          securityContext: { privileged: true, readOnlyRootFilesystem: true },
        },
        {
          name: 'node-driver-registrar',
          image: 'public.ecr.aws/eks-distro/kubernetes-csi/node-driver-registrar:v2.12.0-eks-1-31-7',
          args: ['--csi-address=$(ADDRESS)', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--v=2'],
          env: [
            { name: 'ADDRESS', value: '/csi/csi.sock' },
            { name: 'DRIVER_REG_SOCK_PATH', value: '/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock' },
          ],
          resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
          volumeMounts: [
            { name: 'plugin-dir', mountPath: '/csi' },
            { name: 'registration-dir', mountPath: '/registration' },
          ],
          ...FILE,
          securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'ebs-csi-node-sa',
      serviceAccount: 'ebs-csi-node-sa',
      securityContext: { runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, fsGroup: 0 },
      schedulerName: 'default-scheduler',
      tolerations: [{ operator: 'Exists' }],
      priorityClassName: 'system-node-critical',
    },
  });
}

function rolloutOnDelete() {
  const c = new Cluster('rollout-ondelete', 7_215_000);
  const CREATED = 100 * DAY;
  const CHANGED = 50 * MIN;
  workers(c, 3);
  const selector = { app: 'ebs-csi-node', 'app.kubernetes.io/name': 'aws-ebs-csi-driver' };
  const b = c.daemonSet({
    namespace: 'kube-system', name: 'ebs-csi-node', createdAgo: CREATED,
    labels: { 'app.kubernetes.io/component': 'csi-driver', 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/name': 'aws-ebs-csi-driver', 'app.kubernetes.io/version': '1.36.0', 'helm.sh/chart': 'aws-ebs-csi-driver-2.36.0' },
    annotations: { 'meta.helm.sh/release-name': 'aws-ebs-csi-driver', 'meta.helm.sh/release-namespace': 'kube-system' },
    selector, updateStrategy: { type: 'OnDelete' }, statusWrittenAgo: CHANGED - 1,
    revs: [
      { generation: 1, template: ebsTemplate('v1.35.0'), createdAgo: CREATED },
      { generation: 2, template: ebsTemplate('v1.36.0'), createdAgo: CHANGED },
    ],
  });
  for (let i = 1; i <= 3; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  c.coredns(['worker-1', 'worker-3']);
  // The same Helm upgrade rolled the driver's controller Deployment (RollingUpdate) at once.
  const deploy = { kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name: 'ebs-csi-controller', namespace: 'kube-system', uid: uid(`${c.name}/Deployment/kube-system/ebs-csi-controller`) } };
  const rsOld = `ebs-csi-controller-${templateHash({ v: 'v1.35.0' })}`;
  const rsNew = `ebs-csi-controller-${templateHash({ v: 'v1.36.0' })}`;
  [[`Scaled up replica set ${rsNew} from 0 to 1`, 0], [`Scaled down replica set ${rsOld} from 2 to 1`, 24], [`Scaled up replica set ${rsNew} from 1 to 2`, 24], [`Scaled down replica set ${rsOld} from 1 to 0`, 47]]
    .forEach(([message, dt]) => c.event({ object: deploy, reason: 'ScalingReplicaSet', message, component: 'deployment-controller', firstAgo: CHANGED - 1 - dt }));
  return c.write(() => readme(c, b, `
    kube-system/ebs-csi-node uses updateStrategy OnDelete. Its template was changed 50 minutes ago from
    aws-ebs-csi-driver v1.35.0 to v1.36.0 (generation 2, a second ControllerRevision), but the controller
    replaces a pod only when someone deletes it, so all three nodes still run Ready v1.35.0 pods (the same
    Helm upgrade rolled the ebs-csi-controller Deployment right away: ScalingReplicaSet events).`, {
    nodes: {
      'worker-1': 'Healthy (OutdatedRevision, info)',
      'worker-2': 'Healthy (OutdatedRevision, info)',
      'worker-3': 'Healthy (OutdatedRevision, info)',
    },
    rollout: 'Manual (OnDelete: 0 of 3 updated; delete the pods node by node to roll)',
  }));
}

function rolloutTerminatingUnreachable() {
  const c = new Cluster('rollout-terminating-unreachable', 8_640_000);
  const LOST = 46 * MIN;
  const UNKNOWN = LOST - 40;
  const ROLLOUT = 40 * MIN + 30;
  workers(c, 4, {
    'worker-3': {
      health: 'Unknown', lastHeartbeatAgo: LOST, unknownSince: UNKNOWN,
      taints: [
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: at(UNKNOWN - 1) },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(UNKNOWN - 5) },
      ],
    },
  });
  const CREATED = CLUSTER_AGE - 40;
  const b = c.daemonSet({
    namespace: 'kube-system', name: 'kube-proxy', createdAgo: CREATED, labels: { 'k8s-app': 'kube-proxy' },
    selector: { 'k8s-app': 'kube-proxy' }, updateStrategy: rolling(1), statusWrittenAgo: ROLLOUT - 1,
    revs: [
      { generation: 1, template: kubeProxyTemplate('v1.34.1'), createdAgo: CREATED },
      { generation: 2, template: kubeProxyTemplate('v1.34.2'), createdAgo: ROLLOUT + 1 },
    ],
  });
  for (const i of [1, 2, 4]) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: c.nodeDefs[`worker-${i}`].joinedAgo - 9 });
  const pod = c.daemonPod(b, 0, 'worker-3', {
    state: { kind: 'NodeLost', markedAgo: UNKNOWN - 5 }, created: c.nodeDefs['worker-3'].joinedAgo - 9, deletedAgo: ROLLOUT, grace: 30,
  });
  c.coredns(['worker-1', 'worker-2']);
  const w3 = c.nodesByName['worker-3'];
  c.event({ object: w3, reason: 'NodeNotReady', message: 'Node worker-3 status is now: NodeNotReady', component: 'node-controller', firstAgo: UNKNOWN });
  c.event({ object: pod, reason: 'NodeNotReady', type: 'Warning', message: 'Node is not ready', component: 'node-controller', firstAgo: UNKNOWN - 5 });
  c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`, ROLLOUT);
  return c.write(() => readme(c, b, `
    worker-3 stopped reporting 46 minutes ago (Ready=Unknown, taints node.kubernetes.io/unreachable
    NoSchedule and NoExecute; kube-proxy tolerates both). kube-system/kube-proxy was then updated from
    v1.34.1 to v1.34.2 (maxUnavailable 1): the controller deleted the unavailable old pod
    ${pod.metadata.name} on worker-3 at once, but the kubelet is gone, so the pod has been Terminating
    for 40 minutes (deletionTimestamp 40 minutes ago, grace 30 s), which holds the only unavailability
    slot; no other node is updated.`, {
    nodes: {
      'worker-1': 'Healthy (OutdatedRevision, info)',
      'worker-2': 'Healthy (OutdatedRevision, info)',
      'worker-3': 'Unhealthy — PodTerminating (stuck 40 min; the node is NodeNotReady: Ready=Unknown)',
      'worker-4': 'Healthy (OutdatedRevision, info)',
    },
    rollout: 'Stuck (blocking node worker-3: PodTerminating on an unreachable node; 0 of 4 updated; force-delete the pod or remove the node)',
  }));
}

function rolloutNotObserved() {
  const c = new Cluster('rollout-not-observed', 9_102_000);
  const CREATED = 90 * DAY;
  const V31 = 20 * DAY;
  const CHANGED = 3 * MIN;
  c.namespace('logging', CREATED + 120);
  workers(c, 3);
  const b = c.daemonSet({
    namespace: 'logging', name: 'fluent-bit', createdAgo: CREATED, labels: { ...FLUENT_BIT_SELECTOR, 'app.kubernetes.io/version': '3.2.2' },
    selector: FLUENT_BIT_SELECTOR, updateStrategy: rolling(1), statusWrittenAgo: V31 - 200,
    unobservedRevisions: 1, observedGeneration: 2,
    revs: [
      { generation: 1, template: fluentBitTemplate({ version: '3.0.7' }), createdAgo: CREATED },
      { generation: 2, template: fluentBitTemplate({ version: '3.1.9' }), createdAgo: V31 },
      { generation: 3, template: fluentBitTemplate({ version: '3.2.2' }), createdAgo: CHANGED },
    ],
  });
  for (let i = 1; i <= 3; i++) c.daemonPod(b, 1, `worker-${i}`, { state: READY, created: V31 - 40 * i });
  return c.write(() => readme(c, b, `
    logging/fluent-bit was changed three minutes ago from fluent-bit 3.1.9 to 3.2.2 (generation 3), but the
    DaemonSet controller has not processed it: observedGeneration is still 2, there is no
    ControllerRevision for the new template yet, and the status still describes the finished 3.1.9
    rollout (3 of 3 updated and available).`, {
    nodes: {
      'worker-1': 'Healthy (pods of the last observed revision, 3.1.9)',
      'worker-2': 'Healthy (pods of the last observed revision, 3.1.9)',
      'worker-3': 'Healthy (pods of the last observed revision, 3.1.9)',
    },
    rollout: 'Pending (ControllerNotObserved: generation 3 > observedGeneration 2; `kubectl rollout status` waits for the spec update to be observed)',
  }));
}

function rolloutComplete() {
  const c = new Cluster('rollout-complete', 5_870_000);
  const CREATED = 45 * DAY;
  const ROLLOUT = 24 * MIN;
  c.namespace('logging', CREATED + 200);
  workers(c, 3);
  const selector = { 'app.kubernetes.io/instance': 'promtail', 'app.kubernetes.io/name': 'promtail' };
  const b = c.daemonSet({
    namespace: 'logging', name: 'promtail', createdAgo: CREATED, labels: { ...selector, 'app.kubernetes.io/version': '3.2.1' },
    selector, updateStrategy: rolling(1), statusWrittenAgo: ROLLOUT - 2 * 45 - 30,
    revs: [
      { generation: 1, template: promtailTemplate('3.2.0'), createdAgo: CREATED },
      { generation: 2, template: promtailTemplate('3.2.1'), createdAgo: ROLLOUT + 1 },
    ],
  });
  for (let k = 0; k < 3; k++) {
    const n = `worker-${k + 1}`;
    const deleted = ROLLOUT - 45 * k;
    const created = deleted - 3;
    const pod = c.daemonPod(b, 1, n, { state: READY, created, pull: 3.2 + k / 10, t: { ready: created - 4 - 4 - 14 } });
    c.nodeImage(n, 'docker.io/grafana/promtail:3.2.0');
    c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${deletedPodName(c, 'promtail', n)}`, deleted);
    c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, created);
    c.startEvents(pod);
  }
  return c.write(() => readme(c, b, `
    logging/promtail was updated 24 minutes ago from 3.2.0 to 3.2.1 (generation 2, maxUnavailable 1). The
    controller replaced the three pods one after the other, each new pod becoming Ready about twenty
    seconds after it was created; all pods now run the new revision and are available.`, {
    nodes: { 'worker-1': 'Healthy', 'worker-2': 'Healthy', 'worker-3': 'Healthy' },
    rollout: 'Complete (3 of 3 updated and available)',
  }));
}

function rolloutInProgress() {
  const c = new Cluster('rollout-in-progress', 6_660_000);
  const CREATED = 30 * DAY;
  c.namespace('security', CREATED + 400);
  workers(c, 5);
  const labels = { 'app.kubernetes.io/instance': 'falco', 'app.kubernetes.io/name': 'falco' };
  const template = (version) => finishTemplate({
    metadata: { creationTimestamp: null, labels },
    spec: {
      volumes: [
        hostPath('root-falco-fs', '/root/.falco'),
        hostPath('boot-fs', '/boot'),
        hostPath('lib-modules', '/lib/modules'),
        hostPath('usr-fs', '/usr'),
        hostPath('etc-fs', '/etc'),
        hostPath('proc-fs', '/proc'),
        { name: 'config-volume', configMap: { name: 'falco', items: [{ key: 'falco.yaml', path: 'falco.yaml' }], defaultMode: 420 } },
      ],
      containers: [{
        name: 'falco',
        image: `docker.io/falcosecurity/falco:${version}`,
        args: ['/usr/bin/falco', '-o', 'engine.kind=modern_ebpf'],
        ports: [{ name: 'web', containerPort: 8765, protocol: 'TCP' }],
        env: [
          { name: 'HOST_ROOT', value: '/host' },
          { name: 'FALCO_HOSTNAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
          { name: 'FALCO_K8S_NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
        ],
        resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m', memory: '512Mi' } },
        volumeMounts: [
          { name: 'root-falco-fs', mountPath: '/root/.falco' },
          { name: 'boot-fs', readOnly: true, mountPath: '/host/boot' },
          { name: 'lib-modules', mountPath: '/host/lib/modules' },
          { name: 'usr-fs', readOnly: true, mountPath: '/host/usr' },
          { name: 'etc-fs', readOnly: true, mountPath: '/host/etc' },
          { name: 'proc-fs', readOnly: true, mountPath: '/host/proc' },
          { name: 'config-volume', mountPath: '/etc/falco/falco.yaml', subPath: 'falco.yaml' },
        ],
        livenessProbe: httpProbe('/healthz', 8765, { initialDelaySeconds: 60, timeoutSeconds: 5, periodSeconds: 15 }),
        readinessProbe: httpProbe('/healthz', 8765, { initialDelaySeconds: 35, timeoutSeconds: 5, periodSeconds: 15 }),
        ...FILE,
        securityContext: { privileged: true },
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'falco',
      serviceAccount: 'falco',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [
        { key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' },
        { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
      ],
    },
  });
  // worker-1 replaced first (Ready 86 s ago, available since 56 s ago); then worker-2, whose
  // new pod has been Ready for 10 s of the required minReadySeconds 30.
  // Container start = created - 4 s (sandbox) - the pull; readiness initialDelaySeconds 35.
  const A = { deleted: 134, created: 131, t: { ready: 86 } };
  const B = { deleted: 55, created: 54, t: { ready: 10 } };
  const b = c.daemonSet({
    namespace: 'security', name: 'falco', createdAgo: CREATED, labels, selector: labels,
    updateStrategy: rolling(1), minReadySeconds: 30, statusWrittenAgo: B.t.ready,
    revs: [
      { generation: 1, template: template('0.39.1'), createdAgo: CREATED },
      { generation: 2, template: template('0.39.2'), createdAgo: A.deleted + 1 },
    ],
  });
  for (let i = 3; i <= 5; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const pods = {};
  for (const [n, x, pull] of [['worker-1', A, 4.213], ['worker-2', B, 3.874]]) {
    const pod = c.daemonPod(b, 1, n, { state: READY, created: x.created, pull, t: x.t });
    pods[n] = pod;
    c.nodeImage(n, 'docker.io/falcosecurity/falco:0.39.1');
    c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${deletedPodName(c, 'falco', n)}`, x.deleted);
    c.dsEvent(b, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, x.created);
    c.startEvents(pod);
  }
  if (podAvailable(pods['worker-2'], 30) || !podAvailable(pods['worker-1'], 30)) throw new Error(`${c.name}: availability story broken`);
  return c.write(() => readme(c, b, `
    security/falco (minReadySeconds 30, maxUnavailable 1, five nodes) is being updated from 0.39.1 to
    0.39.2. worker-1's new pod has been Ready for 86 s and is available; worker-2's new pod
    ${pods['worker-2'].metadata.name} became Ready 10 s ago, so it is not available yet and holds the
    unavailability budget; worker-3 to worker-5 still run Ready 0.39.1 pods. Nothing is failing: the
    controller continues 20 s from now.`, {
    nodes: {
      'worker-1': 'Healthy',
      'worker-2': 'Healthy — NotAvailableYet (info: Ready for 10 s, minReadySeconds 30)',
      'worker-3': 'Healthy (OutdatedRevision, info)',
      'worker-4': 'Healthy (OutdatedRevision, info)',
      'worker-5': 'Healthy (OutdatedRevision, info)',
    },
    rollout: 'Progressing (2 of 5 updated, 4 available; no blocking node)',
  }));
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

const SCENARIOS = [
  oomKilled, configError, podSecurityFailedCreate, quotaFailedCreate, hostPortConflict, tooManyPods,
  misscheduledLabelRemoved, cordonedNode, newNode, readinessFailing, evictedPod,
  rolloutCrashloop, rolloutBadTag, rolloutRequestsDontFit, rolloutSurgeHostPort, rolloutOnDelete,
  rolloutTerminatingUnreachable, rolloutNotObserved, rolloutComplete, rolloutInProgress,
];

function writeIndex() {
  const lines = [
    '# Scenario fixtures',
    '',
    'One small cluster dump per DaemonSet failure mode (or non-failure), each in',
    '`<name>/dump.yaml` with its story and expected diagnosis in `<name>/README.md`.',
    `Evaluation instant of every dump: \`${NOW_ISO}\` (run the tool with \`--now ${NOW_ISO}\`).`,
    '',
    'The files are generated: change `scripts/make-scenarios.mjs` and run `node scripts/make-scenarios.mjs`',
    '(deterministic; regenerating without changes gives byte-identical files). Each `dump.yaml` holds one',
    '`kind: List` document per kind, as `kubectl get <kind> -A -o yaml` writes it, joined with `---`.',
    'DaemonSet `.status` is computed from the dumped nodes and pods (reference §3.8) unless a README says',
    'otherwise; FailedScheduling messages are checked against the requests, allocatable and host ports in the dump.',
    '',
    '| Scenario | DaemonSet | Expected (per node) | Rollout |',
    '|---|---|---|---|',
  ];
  for (const s of SUMMARY) {
    const nodes = Object.entries(s.nodes).map(([n, v]) => `${n}: ${v.split(' (')[0]}`).join('; ');
    const rollout = s.rollout ? s.rollout.split(';')[0].replace(/\((?!.*\))(.*)$/, '($1)') : '–';
    lines.push(`| [${s.name}](${s.name}/README.md) | ${s.ds} | ${nodes} | ${rollout} |`);
  }
  writeFile(`${OUT}/README.md`, `${lines.join('\n')}\n`);
}

fs.rmSync(path.join(ROOT, OUT), { recursive: true, force: true });
for (const f of SCENARIOS) f();
writeIndex();
console.log(`wrote ${SCENARIOS.length} scenarios under ${OUT}`);
