// Building blocks of the fixture generators (scripts/make-demo.mjs, scripts/make-scenarios.mjs,
// fixtures/impact/generate.mjs): deterministic identities, the evaluation instant, YAML output,
// and Kubernetes objects built the way the API server and the DaemonSet controller write them.
//
// Everything is derived from names (sha256 / FNV-32a), never from the clock or Math.random, so
// the generators write byte-identical files on every run. Section numbers ("docs/semantics.md §3.8")
// point into docs/semantics.md, the upstream behaviours the tool mirrors.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

/** The repository root; `writeFile` paths are relative to it. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// ---------------------------------------------------------------------------
// Time, identity and hashing
// ---------------------------------------------------------------------------

/** The evaluation instant of every fixture (run the tool with `--now` set to it). */
export const NOW_ISO = '2026-11-29T12:00:00Z';
/** NOW_ISO in epoch milliseconds. */
export const NOW = Date.parse(NOW_ISO);
/** Seconds in a minute. */
export const MIN = 60;
/** Seconds in an hour. */
export const HOUR = 3600;
/** Seconds in a day. */
export const DAY = 86400;

/** RFC 3339 timestamp `secondsAgo` seconds before NOW (whole seconds, like the API; negative: after NOW). */
export function at(secondsAgo) {
  return new Date(NOW - Math.round(secondsAgo) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Seconds from the timestamp `ts` to NOW. */
export function ago(ts) {
  return (NOW - Date.parse(ts)) / 1000;
}

/** Hex sha256 of a string. */
export function sha(s) {
  return crypto.createHash('sha256').update(s).digest('hex');
}

/** A stable RFC 4122 v4-shaped uid derived from a key such as "Pod/ns/name". */
export function uid(key) {
  const h = sha(`uid/${key}`);
  const variant = '89ab'[parseInt(h[16], 16) % 4];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The alphabet of k8s.io/apimachinery/pkg/util/rand (no vowels, no 0/1/3). */
export const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/** `n` random-looking lowercase characters, as generateName produces, derived from `key`. */
export function suffix(key, n = 5) {
  const h = sha(`suffix/${key}`);
  let out = '';
  for (let i = 0; i < n; i++) out += SAFE[parseInt(h.slice(i * 2, i * 2 + 2), 16) % SAFE.length];
  return out;
}

/** `n` hex digits derived from `key` (container ids, image digests, machine ids). */
function hex(key, n) {
  let out = '';
  for (let i = 0; out.length < n; i++) out += sha(`hex/${key}/${i}`);
  return out.slice(0, n);
}

/** FNV-32a of the UTF-8 bytes of `str`, as an unsigned integer. */
export function fnv32a(str) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(str, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Like controller.ComputeHash: FNV-32a of the template, printed in decimal, then
 * rand.SafeEncodeString (each byte mapped into SAFE). Real hashes look the same
 * (e.g. "5dd5756b68") because only ten digits are ever encoded.
 */
export function templateHash(template) {
  return [...String(fnv32a(JSON.stringify(template)))].map((c) => SAFE[c.charCodeAt(0) % SAFE.length]).join('');
}

/** A deep copy through JSON (drops undefined fields). */
export function clone(v) {
  return JSON.parse(JSON.stringify(v));
}

/** Returns a copy of `obj` with the keys listed in `order` first (in that order), the rest after; undefined fields are left out. */
export function ordered(obj, order) {
  const out = {};
  for (const k of order) if (obj[k] !== undefined) out[k] = obj[k];
  for (const k of Object.keys(obj)) if (!(k in out) && obj[k] !== undefined) out[k] = obj[k];
  return out;
}

/** Parses the quantities used in the fixtures (m, Ki, Mi, Gi, plain) into cores / bytes / count. */
export function quantity(q) {
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
// Output
// ---------------------------------------------------------------------------

/** Writes `text` to `rel` (relative to the repository root), creating folders. */
export function writeFile(rel, text) {
  const full = path.join(ROOT, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

/** `kubectl get -o yaml` style: keys sorted, lists not indented, double quotes. */
function toYaml(obj) {
  return yaml.dump(clone(obj), { sortKeys: true, noArrayIndent: true, lineWidth: -1, noRefs: true, quotingType: '"' });
}

/** Sort as the API server lists: by namespace, then name. */
export function byKey(a, b) {
  const ka = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
  const kb = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** What `kubectl get <kind> -A -o yaml` writes for `items`: a `kind: List`, items sorted by namespace and name. */
export function listYaml(items) {
  return toYaml({ apiVersion: 'v1', items: [...items].sort(byKey), kind: 'List', metadata: { resourceVersion: '' } });
}

/**
 * Hands out resourceVersions: every object is registered with the time of its last
 * write; versions then increase with that time, like etcd revisions do.
 */
export class Versions {
  constructor(start) {
    this.start = start;
    this.entries = [];
  }

  /** Registers `obj`, last written `lastWriteAgo` seconds before NOW; returns it. */
  add(obj, lastWriteAgo) {
    this.entries.push({ obj, lastWriteAgo });
    return obj;
  }

  /** Assigns versions; returns the list resourceVersion (greater than all of them). */
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
// Kubernetes semantics used to build consistent objects (docs/semantics.md §1.2, §2, §3.5, §3.8, §4)
// ---------------------------------------------------------------------------

/** Toleration.ToleratesTaint (docs/semantics.md §1.4). */
function tolerates(tol, taint) {
  if (tol.effect && tol.effect !== taint.effect) return false;
  if (tol.key && tol.key !== taint.key) return false;
  const op = tol.operator ?? 'Equal';
  if (op === 'Exists') return true;
  if (op === 'Equal') return (tol.value ?? '') === (taint.value ?? '');
  return false;
}

/** AddOrUpdateDaemonPodTolerations (docs/semantics.md §2.1): the tolerations of a daemon pod made from `templateSpec`. */
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

/** NodeShouldRunDaemonPod for the selectors the fixtures use (nodeSelector + taints). */
export function shouldRun(templateSpec, node) {
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

/** Whether the pod's Ready condition is True. */
export function podReady(pod) {
  return (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** podutil.IsPodAvailable, 1.34+ (ready-since + minReadySeconds <= now). */
export function podAvailable(pod, minReadySeconds) {
  const c = (pod.status.conditions ?? []).find((x) => x.type === 'Ready');
  if (!c || c.status !== 'True') return false;
  if (!minReadySeconds) return true;
  return Date.parse(c.lastTransitionTime) + minReadySeconds * 1000 <= NOW;
}

/** Whether the pod has finished (Succeeded or Failed). */
export function isTerminal(pod) {
  return pod.status.phase === 'Succeeded' || pod.status.phase === 'Failed';
}

/** util.GetTargetNodeName: the bound node, else the node a daemon pod's affinity pins. */
export function targetNode(pod) {
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
 * updateDaemonSetStatus (docs/semantics.md §3.8). `hash`/`templateGeneration` are those of the
 * revision the controller last synced against (normally the current one).
 */
export function daemonSetStatus(ds, nodes, pods, { hash, templateGeneration, observedGeneration = ds.metadata.generation }) {
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

/**
 * computePodResourceRequest without sidecars or overhead: the larger of the containers' sum
 * and the largest init container, since init containers run one at a time.
 */
export function podRequest(pod, resource) {
  const request = (c) => quantity(c.resources?.requests?.[resource] ?? 0);
  const sum = pod.spec.containers.reduce((s, c) => s + request(c), 0);
  return Math.max(sum, ...(pod.spec.initContainers ?? []).map(request));
}

/** What is left of the node's allocatable `resource` after the requests of the non-terminal pods bound to it. */
export function freeResource(node, pods, resource) {
  const onNode = pods.filter((p) => p.spec.nodeName === node.metadata.name && !isTerminal(p));
  return quantity(node.status.allocatable[resource]) - onNode.reduce((s, p) => s + podRequest(p, resource), 0);
}

/** The host ports a pod's containers ask for, as {ip, protocol, port}. */
function hostPorts(pod) {
  return pod.spec.containers.flatMap((c) => (c.ports ?? []).filter((p) => p.hostPort > 0)
    .map((p) => ({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort })));
}

/**
 * The reasons the scheduler's NodePorts and NodeResourcesFit filters give for `pod` on
 * `node` (docs/semantics.md §4.5, §4.6), counting every non-terminal pod bound to the node.
 */
export function filterReasons(pod, node, pods) {
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
    if (req > freeResource(node, onNode, r)) reasons.push(`Insufficient ${r}`);
  }
  return reasons;
}

/** The FailedScheduling message of a daemon pod whose target node fails one filter with `reason` (1.32+). */
export function failedSchedulingMessage(nodeCount, reason) {
  const others = nodeCount - 1;
  return `0/${nodeCount} nodes are available: 1 ${reason}, ${others} node(s) didn't satisfy plugin(s) [NodeAffinity]. `
    + `preemption: 0/${nodeCount} nodes are available: 1 No preemption victims found for incoming pod, ${others} Preemption is not helpful for scheduling.`;
}

/**
 * A crash loop: the container starts `firstStartAgo`, runs `run` seconds, exits, and is
 * restarted after the kubelet's back-off (10s doubling to 5m). Returns the starts (seconds
 * ago) up to NOW, which falls inside a back-off wait.
 */
export function crashLoop(firstStartAgo, run) {
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
// Images and nodes
// ---------------------------------------------------------------------------

/** The values of the built-in priority classes. */
const PRIORITIES = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

/** An EKS m5.xlarge: capacity and allocatable. */
export const M5_XLARGE = {
  instanceType: 'm5.xlarge',
  capacity: { cpu: '4', 'ephemeral-storage': '101430960Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '16114092Ki', pods: '110' },
  allocatable: { cpu: '3920m', 'ephemeral-storage': '93478772582', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '15491072Ki', pods: '110' },
};

/** The image reference containerd reports: "fluent/fluent-bit:3.0" -> "docker.io/fluent/fluent-bit:3.0". */
export function imageRef(image) {
  const first = image.split('/')[0];
  if (image.split('/').length === 1) return `docker.io/library/${image}`;
  if (!first.includes('.') && !first.includes(':')) return `docker.io/${image}`;
  return image;
}

/** The digest reference of an image (repository@sha256:…). */
function imageId(image) {
  const ref = imageRef(image);
  return `${ref.replace(/:[^:/]+$/, '')}@sha256:${hex(`image/${ref}`, 64)}`;
}

/** The size in bytes of an image. */
function imageSize(image) {
  return 8_000_000 + (parseInt(sha(`size/${image}`).slice(0, 6), 16) % 90_000_000);
}

/** Node .status.images for a set of images, largest first. */
export function nodeImages(images) {
  return [...images].map((i) => ({ names: [imageId(i), imageRef(i)], sizeBytes: imageSize(i) }))
    .sort((a, b) => b.sizeBytes - a.sizeBytes);
}

/** The EC2 instance id of a node. */
export function ec2InstanceId(nodeName) {
  return `i-0${hex(`instance/${nodeName}`, 16)}`;
}

/** The address of a node's InternalIP. */
function internalIP(node) {
  return node.status.addresses.find((a) => a.type === 'InternalIP').address;
}

/** A node condition as the kubelet posts it. */
export function nodeCondition(type, status, reason, message, heartbeatAgo, sinceAgo) {
  return { type, status, lastHeartbeatTime: at(heartbeatAgo), lastTransitionTime: at(sinceAgo), reason, message };
}

/**
 * The four conditions a running kubelet posts: no pressure (or MemoryPressure since
 * `memoryPressureSince`), and Ready since `readySinceAgo` or, with `ready` false, NotReady
 * with `notReadyMessage` since it joined.
 */
export function kubeletConditions({ heartbeatAgo: hb, joinedAgo, ready = true, readySinceAgo = joinedAgo - 40, notReadyMessage, memoryPressureSince }) {
  const joined = joinedAgo - 2;
  return [
    memoryPressureSince
      ? nodeCondition('MemoryPressure', 'True', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available', hb, memoryPressureSince)
      : nodeCondition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', hb, joined),
    nodeCondition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', hb, joined),
    nodeCondition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', hb, joined),
    ready
      ? nodeCondition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', hb, readySinceAgo)
      : nodeCondition('Ready', 'False', 'KubeletNotReady', notReadyMessage, hb, joined),
  ];
}

/** The NoSchedule and NoExecute taints the node lifecycle controller puts on a node whose Ready condition is `condition` ('not-ready', 'unreachable'). */
export function lifecycleTaints(condition, noScheduleAgo, noExecuteAgo) {
  return [
    { key: `node.kubernetes.io/${condition}`, effect: 'NoSchedule', timeAdded: at(noScheduleAgo) },
    { key: `node.kubernetes.io/${condition}`, effect: 'NoExecute', timeAdded: at(noExecuteAgo) },
  ];
}

/**
 * A Node, kubelet v1.34.2 on Ubuntu with containerd. With `region` it is an EC2 instance
 * (topology and instance-type labels, providerID, InternalDNS address); without, bare metal.
 * `n`: name, ip, joinedAgo, conditions, type ({instanceType, capacity, allocatable}), podCIDR;
 * optional region, zone, labels, annotations, unschedulable, taints, images, kernelVersion, osImage.
 */
export function makeNode(n) {
  const cloud = n.region ? {
    'beta.kubernetes.io/instance-type': n.type.instanceType,
    'failure-domain.beta.kubernetes.io/region': n.region,
    'failure-domain.beta.kubernetes.io/zone': n.zone,
    'node.kubernetes.io/instance-type': n.type.instanceType,
    'topology.kubernetes.io/region': n.region,
    'topology.kubernetes.io/zone': n.zone,
  } : {};
  const addresses = n.region
    ? [{ type: 'InternalIP', address: n.ip }, { type: 'InternalDNS', address: `ip-${n.ip.replaceAll('.', '-')}.ec2.internal` }, { type: 'Hostname', address: n.name }]
    : [{ type: 'InternalIP', address: n.ip }, { type: 'Hostname', address: n.name }];
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: {
      name: n.name,
      uid: uid(`Node/${n.name}`),
      resourceVersion: '',
      creationTimestamp: at(n.joinedAgo),
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': n.name,
        'kubernetes.io/os': 'linux',
        ...cloud,
        ...n.labels,
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        ...n.annotations,
      },
    },
    spec: ordered({
      podCIDR: n.podCIDR,
      podCIDRs: [n.podCIDR],
      providerID: n.region ? `aws:///${n.zone}/${ec2InstanceId(n.name)}` : undefined,
      unschedulable: n.unschedulable,
      taints: n.taints?.length ? n.taints : undefined,
    }, ['podCIDR', 'podCIDRs', 'providerID', 'unschedulable', 'taints']),
    status: {
      capacity: n.type.capacity,
      allocatable: n.type.allocatable,
      conditions: n.conditions,
      addresses,
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: hex(`machine/${n.name}`, 32),
        systemUUID: uid(`system/${n.name}`).toUpperCase(),
        bootID: uid(`boot/${n.name}`),
        kernelVersion: n.kernelVersion ?? '6.8.0-1019-aws',
        osImage: n.osImage ?? 'Ubuntu 24.04.1 LTS',
        containerRuntimeVersion: 'containerd://2.1.4',
        kubeletVersion: 'v1.34.2',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images: n.images ?? [],
      runtimeHandlers: [
        { name: 'runc', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
        { name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
      ],
      features: { supplementalGroupsPolicy: true },
    },
  };
}

/**
 * Hands out pod IPs from each node's 192.168.<podNet>.0/24 (`podNetOf(nodeName)`), in the
 * order asked, spread by a hash of the pod key. Returns `(nodeName, podKey) => ip`.
 */
export function podIPAllocator(podNetOf) {
  const used = new Map();
  return (nodeName, key) => {
    const n = used.get(nodeName) ?? 0;
    used.set(nodeName, n + 1);
    return `192.168.${podNetOf(nodeName)}.${3 + n * 7 + (parseInt(sha(key).slice(0, 2), 16) % 7)}`;
  };
}

// ---------------------------------------------------------------------------
// Pod specs and templates
// ---------------------------------------------------------------------------

/** Go struct field order of PodSpec, so serialized specs read like the API's. */
const POD_SPEC_ORDER = [
  'volumes', 'initContainers', 'containers', 'restartPolicy', 'terminationGracePeriodSeconds',
  'activeDeadlineSeconds', 'dnsPolicy', 'nodeSelector', 'serviceAccountName', 'serviceAccount',
  'automountServiceAccountToken', 'nodeName', 'hostNetwork', 'hostPID', 'hostIPC', 'securityContext',
  'imagePullSecrets', 'hostname', 'subdomain', 'affinity', 'schedulerName', 'tolerations', 'hostAliases',
  'priorityClassName', 'priority', 'dnsConfig', 'readinessGates', 'runtimeClassName', 'enableServiceLinks',
  'preemptionPolicy',
];
/** Go struct field order of Container. */
const CONTAINER_ORDER = [
  'name', 'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resources', 'volumeMounts',
  'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'terminationMessagePath',
  'terminationMessagePolicy', 'imagePullPolicy', 'securityContext',
];

/** The container fields the API server defaults (termination message, pull policy). */
export const CONTAINER_DEFAULTS = { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' };

/** The pod-spec fields the API server defaults, with the service account `serviceAccount` if any (`overrides` win). */
export function podSpecDefaults(serviceAccount, overrides = {}) {
  return {
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: serviceAccount,
    serviceAccount,
    securityContext: {},
    schedulerName: 'default-scheduler',
    ...overrides,
  };
}

/** The tolerations DefaultTolerationSeconds admission adds to an ordinary pod. */
export const NOT_READY_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

/** A hostPath volume (`type` '' when not given). */
export function hostPath(name, p, type) {
  return { name, hostPath: { path: p, type: type ?? '' } };
}

/** An environment variable from a pod field (the node name by default). */
export function fieldEnv(name, fieldPath = 'spec.nodeName') {
  return { name, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } } };
}

/** An HTTP probe with the API defaults; `extra` overrides them. */
export function httpProbe(p, port, extra = {}) {
  return { httpGet: { path: p, port, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, ...extra };
}

/** A RollingUpdate update strategy. */
export function rolling(maxUnavailable, maxSurge = 0) {
  return { type: 'RollingUpdate', rollingUpdate: { maxUnavailable, maxSurge } };
}

/** Puts the containers' and the spec's fields in API order. */
function finishPodSpec(spec) {
  for (const key of ['initContainers', 'containers']) {
    if (spec[key]) spec[key] = spec[key].map((c) => ordered(c, CONTAINER_ORDER));
  }
  return ordered(spec, POD_SPEC_ORDER);
}

/** A pod template with its spec in API order. */
export function finishTemplate(tmpl) {
  return { metadata: tmpl.metadata, spec: finishPodSpec(tmpl.spec) };
}

/** kube-proxy as kubeadm deploys it: hostNetwork, privileged, blanket toleration. */
export function kubeProxyTemplate(version) {
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
        env: [fieldEnv('NODE_NAME')],
        resources: {},
        volumeMounts: [
          { name: 'kube-proxy', mountPath: '/var/lib/kube-proxy' },
          { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
          { name: 'lib-modules', readOnly: true, mountPath: '/lib/modules' },
        ],
        ...CONTAINER_DEFAULTS,
        securityContext: { privileged: true },
      }],
      ...podSpecDefaults('kube-proxy'),
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      hostNetwork: true,
      tolerations: [{ operator: 'Exists' }],
      priorityClassName: 'system-node-critical',
    },
  });
}

/** The selector of kube-prometheus' node-exporter. */
export const NODE_EXPORTER_SELECTOR = { 'app.kubernetes.io/component': 'exporter', 'app.kubernetes.io/name': 'node-exporter', 'app.kubernetes.io/part-of': 'kube-prometheus' };

/** The labels of kube-prometheus' node-exporter at `version` (v-prefixed). */
export function nodeExporterLabels(version) {
  return { ...NODE_EXPORTER_SELECTOR, 'app.kubernetes.io/version': version.replace(/^v/, '') };
}

/** prometheus node-exporter as kube-prometheus ships it (hostNetwork, hostPID, hostPort 9100). */
export function nodeExporterTemplate({ version = 'v1.8.2', memoryLimit = '60Mi', extraArgs = [], explicitHostPort = true, priorityClassName } = {}) {
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
        ...CONTAINER_DEFAULTS,
        securityContext: { capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
      }],
      ...podSpecDefaults('node-exporter', { dnsPolicy: 'ClusterFirstWithHostNet', securityContext: { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true } }),
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      automountServiceAccountToken: false,
      hostNetwork: true,
      hostPID: true,
      tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName,
    },
  });
}

/** The hostPath volumes of the aws-ebs-csi-driver node plugin. */
export const EBS_NODE_VOLUMES = [
  hostPath('kubelet-dir', '/var/lib/kubelet', 'Directory'),
  hostPath('plugin-dir', '/var/lib/kubelet/plugins/ebs.csi.aws.com/', 'DirectoryOrCreate'),
  hostPath('registration-dir', '/var/lib/kubelet/plugins_registry/', 'Directory'),
  hostPath('device-dir', '/dev', 'Directory'),
];

/** The labels of the aws-ebs-csi-driver node plugin's pods at `version` (v-prefixed). */
export function ebsNodeLabels(version) {
  return { app: 'ebs-csi-node', 'app.kubernetes.io/component': 'csi-driver', 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/name': 'aws-ebs-csi-driver', 'app.kubernetes.io/version': version.replace(/^v/, '') };
}

/** The aws-ebs-csi-driver container in node mode, at `version`, requesting `memory`. */
export function ebsPluginContainer(version, memory) {
  return {
    name: 'ebs-plugin',
    image: `public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:${version}`,
    args: ['node', '--endpoint=$(CSI_ENDPOINT)', '--csi-mount-point-prefix=/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/', '--logging-format=text', '--v=2'],
    ports: [{ name: 'healthz', containerPort: 9808, protocol: 'TCP' }],
    env: [{ name: 'CSI_ENDPOINT', value: 'unix:/csi/csi.sock' }, fieldEnv('CSI_NODE_NAME')],
    resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory } },
    volumeMounts: [
      { name: 'kubelet-dir', mountPath: '/var/lib/kubelet', mountPropagation: 'Bidirectional' },
      { name: 'plugin-dir', mountPath: '/csi' },
      { name: 'device-dir', mountPath: '/dev' },
    ],
    livenessProbe: { httpGet: { path: '/healthz', port: 'healthz', scheme: 'HTTP' }, initialDelaySeconds: 10, timeoutSeconds: 3, periodSeconds: 10, successThreshold: 1, failureThreshold: 5 },
    ...CONTAINER_DEFAULTS,
    securityContext: { privileged: true, readOnlyRootFilesystem: true },
  };
}

/** The CSI node-driver-registrar sidecar of the EBS driver (`image`), with `extra` fields and `extraMounts`. */
export function ebsRegistrarContainer(image, { extraMounts = [], ...extra } = {}) {
  return {
    name: 'node-driver-registrar',
    image,
    args: ['--csi-address=$(ADDRESS)', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--v=2'],
    env: [
      { name: 'ADDRESS', value: '/csi/csi.sock' },
      { name: 'DRIVER_REG_SOCK_PATH', value: '/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock' },
    ],
    resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
    volumeMounts: [
      { name: 'plugin-dir', mountPath: '/csi' },
      { name: 'registration-dir', mountPath: '/registration' },
      ...extraMounts,
    ],
    ...extra,
    ...CONTAINER_DEFAULTS,
    securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
  };
}

/** The projected service-account token volume the ServiceAccount admission plugin adds. */
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

/**
 * A pod spec as the API server stores it after admission: the service-account token
 * volume, pod-only defaults (hostPort for hostNetwork ports), priority.
 */
export function admitPodSpec(templateSpec, podKey) {
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

/** The node affinity a daemon pod is pinned to its node with, added to `affinity` (docs/semantics.md §2.2). */
export function pinnedAffinity(affinity, nodeName) {
  return {
    ...(affinity ?? {}),
    nodeAffinity: {
      ...(affinity?.nodeAffinity ?? {}),
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
      },
    },
  };
}

/** The ownerReferences of an object controlled by `kind`/`name`/`uid`. */
export function controllerRef(kind, name, ownerUid, apiVersion = 'apps/v1') {
  return [{ apiVersion, kind, name, uid: ownerUid, controller: true, blockOwnerDeletion: true }];
}

// ---------------------------------------------------------------------------
// Pod status
// ---------------------------------------------------------------------------

/** The QoS class of a pod spec. */
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

/** A pod condition, in the API's field order. */
function podCondition(type, status, since, reason, message, observedGeneration = 1) {
  return ordered({ type, observedGeneration, status, lastProbeTime: null, lastTransitionTime: at(since), reason, message },
    ['type', 'observedGeneration', 'status', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message']);
}

/** The resources a container status reports (its spec's, when it has any). */
function containerResourcesStatus(c) {
  const r = c.resources ?? {};
  if (!r.requests && !r.limits) return undefined;
  return clone(r);
}

/**
 * Pod status for a given state. `t` holds the timeline in seconds-ago: created, scheduled,
 * sandbox (PodReadyToStartContainers; default: started), started (init containers run 3 s each
 * from there, then the containers start 1 s later), ready, and optionally initialized
 * (Initialized=True) and unready (Ready=False of a started pod), both by default scheduled - 1.
 * State kinds:
 *   Running                      all containers running and Ready
 *   NotReady                     running, readiness probe failing (since t.started)
 *   NodeLost                     Running as last reported, Ready=False set by the node lifecycle controller at state.markedAgo
 *   CrashLoopBackOff             waiting CrashLoopBackOff, lastState terminated {state.exitCode, state.reason}
 *   CreateContainerConfigError   waiting with state.message
 *   ImagePullBackOff             waiting ImagePullBackOff
 *   ContainerCreating            bound, sandbox not ready
 *   Unschedulable                unbound, PodScheduled=False
 *   Evicted                      phase Failed, reason Evicted, state.message, at state.evictedAgo
 *   Succeeded                    completed at state.finishedAgo
 * `state.observedGeneration` (default 1) is the pod generation the kubelet reports.
 */
export function podStatus(pod, state, t, node, podIP) {
  const spec = pod.spec;
  const og = state.observedGeneration ?? 1;
  const c = (type, status, since, reason, message) => podCondition(type, status, since, reason, message, og);
  const cid = (name, n = 0) => `containerd://${hex(`cid/${pod.metadata.name}/${name}/${n}`, 64)}`;
  const ips = (ip) => (ip ? [{ ip }] : undefined);
  const inits = spec.initContainers ?? [];
  const initDone = t.started - 3 * inits.length;
  const sandbox = t.sandbox ?? t.started;
  const initialized = t.initialized ?? t.scheduled - 1;
  const unready = t.unready ?? t.scheduled - 1;
  const c0 = spec.containers[0];

  // The conditions of a bound pod: sandbox, Initialized, Ready and ContainersReady, PodScheduled.
  const conditions = (sandboxCondition, readyCondition, containersReady = readyCondition) => [
    sandboxCondition,
    c('Initialized', 'True', initialized, state.kind === 'Succeeded' ? 'PodCompleted' : undefined),
    c('Ready', ...readyCondition),
    c('ContainersReady', ...containersReady),
    c('PodScheduled', 'True', t.scheduled),
  ];
  const sandboxReady = () => c('PodReadyToStartContainers', 'True', sandbox);
  const notReady = (cs) => ['False', unready, 'ContainersNotReady', `containers with unready status: [${cs.map((x) => x.name).join(' ')}]`];

  // The status of a container that has run (its image pulled), in its `restarts`th run.
  const ran = (x, containerState, { ready = false, started = false, restarts = 0, lastState = {} } = {}) => ({
    name: x.name,
    state: containerState,
    lastState,
    ready,
    restartCount: restarts,
    image: imageRef(x.image),
    imageID: imageId(x.image),
    containerID: cid(x.name, restarts),
    started,
    resources: containerResourcesStatus(x),
  });
  const exited = (x, exitCode, reason, startedAgo, finishedAgo, run = 0) => (
    { terminated: { exitCode, reason, startedAt: at(startedAgo), finishedAt: at(finishedAgo), containerID: cid(x.name, run) } });
  const running = (x, ready) => ran(x, { running: { startedAt: at(initDone - 1) } }, { ready, started: true });
  const terminated = (x, exitCode, reason, startedAgo, finishedAgo, ready = false) => ran(x, exited(x, exitCode, reason, startedAgo, finishedAgo), { ready });
  const waiting = (x, reason, message) => ({
    name: x.name,
    state: { waiting: { reason, message } },
    lastState: {},
    ready: false,
    restartCount: 0,
    image: x.image,
    imageID: '',
    started: false,
    resources: containerResourcesStatus(x),
  });

  // The status of a pod bound to `node`, in the API's field order.
  const bound = (phase, podConditions, containerStatuses, extra = {}) => {
    const hostIP = internalIP(node);
    return {
      observedGeneration: og,
      phase,
      conditions: podConditions,
      ...extra,
      hostIP,
      hostIPs: ips(hostIP),
      podIP,
      podIPs: ips(podIP),
      startTime: at(t.scheduled - 1),
      initContainerStatuses: inits.length ? inits.map((x, i) => terminated(x, 0, 'Completed', t.started - 3 * i, t.started - 3 * i - 2, true)) : undefined,
      containerStatuses,
      qosClass: qosClass(spec),
    };
  };

  switch (state.kind) {
    case 'Unschedulable':
      return { observedGeneration: og, phase: 'Pending', conditions: [c('PodScheduled', 'False', t.scheduled, 'Unschedulable', state.message)], qosClass: qosClass(spec) };

    case 'Running':
    case 'NodeLost':
      return bound('Running', conditions(sandboxReady(), state.kind === 'NodeLost' ? ['False', state.markedAgo] : ['True', t.ready], ['True', t.ready]),
        spec.containers.map((x) => running(x, true)));

    case 'NotReady': {
      const bad = spec.containers.filter((x) => x.readinessProbe);
      return bound('Running', conditions(sandboxReady(), notReady(bad)), spec.containers.map((x) => running(x, !bad.includes(x))));
    }

    case 'CrashLoopBackOff': {
      const n = state.restarts;
      const backOff = { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${state.backoff} restarting failed container=${c0.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})` } };
      const lastState = exited(c0, state.exitCode, state.reason, state.lastStartedAgo, state.lastFinishedAgo, n);
      return bound('Running', conditions(sandboxReady(), notReady([c0])),
        spec.containers.map((x) => (x !== c0 ? running(x, true) : ran(c0, backOff, { restarts: n, lastState }))));
    }

    case 'CreateContainerConfigError':
    case 'ImagePullBackOff': {
      const message = state.kind === 'ImagePullBackOff' ? `Back-off pulling image "${c0.image}"` : state.message;
      return bound('Pending', conditions(sandboxReady(), notReady([c0])), [waiting(c0, state.kind, message)]);
    }

    case 'ContainerCreating':
      return bound('Pending', conditions(c('PodReadyToStartContainers', 'False', t.scheduled), notReady(spec.containers)),
        spec.containers.map((x) => waiting(x, 'ContainerCreating')));

    case 'Evicted':
      return bound('Failed', [
        c('DisruptionTarget', 'True', state.evictedAgo, 'TerminationByKubelet', state.message),
        ...conditions(c('PodReadyToStartContainers', 'False', state.evictedAgo - 1), ['False', state.evictedAgo - 1, 'PodFailed']),
      ], spec.containers.map((x) => terminated(x, 137, 'Error', t.started - 1, state.evictedAgo - 1)), { message: state.message, reason: 'Evicted' });

    case 'Succeeded':
      return bound('Succeeded', conditions(c('PodReadyToStartContainers', 'False', state.finishedAgo - 1), ['False', state.finishedAgo - 1, 'PodCompleted']),
        spec.containers.map((x) => terminated(x, 0, 'Completed', t.started - 2, state.finishedAgo)));

    default:
      throw new Error(`unknown pod state ${state.kind}`);
  }
}

// ---------------------------------------------------------------------------
// DaemonSets, daemon pods, events, namespaces, priority classes
// ---------------------------------------------------------------------------

/**
 * A DaemonSet and the ControllerRevisions the controller has stored for it (each registered
 * in `versions` at its creation). `d`: namespace, name, createdAgo, labels, annotations,
 * selector, updateStrategy (default: the API's, RollingUpdate maxUnavailable 1),
 * minReadySeconds, and `revs` = [{generation, template, createdAgo}] oldest first, or just
 * `template` for a single revision made with the DaemonSet; optional generation (default: the
 * newest revision's) and unobservedRevisions (newest revisions the controller has not made
 * yet). `idPrefix` keeps the uids of separate clusters apart. Returns {ds, revs (with their
 * hash), revisions}.
 */
export function makeDaemonSet(d, versions, idPrefix = '') {
  const key = `DaemonSet/${d.namespace}/${d.name}`;
  const defRevs = d.revs ?? [{ generation: 1, template: d.template, createdAgo: d.createdAgo }];
  const cur = defRevs[defRevs.length - 1];
  const ds = {
    kind: 'DaemonSet',
    apiVersion: 'apps/v1',
    metadata: ordered({
      name: d.name,
      namespace: d.namespace,
      uid: uid(`${idPrefix}${key}`),
      resourceVersion: '',
      generation: d.generation ?? cur.generation,
      creationTimestamp: at(d.createdAgo),
      labels: d.labels,
      annotations: { 'deprecated.daemonset.template.generation': String(cur.generation), ...(d.annotations ?? {}) },
    }, []),
    spec: ordered({
      selector: { matchLabels: d.selector },
      template: cur.template,
      updateStrategy: d.updateStrategy ?? rolling(1),
      minReadySeconds: d.minReadySeconds,
      revisionHistoryLimit: 10,
    }, []),
    status: {},
  };
  const revs = defRevs.map((r) => ({ ...r, hash: templateHash(r.template) }));
  const stored = d.unobservedRevisions ? revs.slice(0, revs.length - d.unobservedRevisions) : revs;
  const revisions = stored.map((r, i) => {
    const name = `${d.name}-${r.hash}`;
    return versions.add({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name,
        namespace: d.namespace,
        uid: uid(`${idPrefix}ControllerRevision/${d.namespace}/${name}`),
        resourceVersion: '',
        creationTimestamp: at(r.createdAgo),
        labels: { ...r.template.metadata.labels, 'controller-revision-hash': r.hash },
        annotations: { 'deprecated.daemonset.template.generation': String(r.generation), ...(d.annotations ?? {}) },
        ownerReferences: controllerRef('DaemonSet', d.name, ds.metadata.uid),
      },
      data: { spec: { template: { $patch: 'replace', ...clone(r.template) } } },
      revision: i + 1,
    }, r.createdAgo);
  });
  return { ds, revs, revisions };
}

/**
 * A Pod without status: `key` names its uid, `spec` is put in API order. With `deletedAgo` +
 * `grace`, graceful deletion was requested `deletedAgo` seconds ago.
 */
export function makePod({ name, generateName, namespace, key, createdAgo, labels, annotations, ownerReferences, spec, deletedAgo, grace }) {
  const deleting = deletedAgo !== undefined;
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: ordered({
      name,
      generateName,
      namespace,
      uid: uid(key),
      resourceVersion: '',
      generation: deleting ? 2 : 1,
      creationTimestamp: at(createdAgo),
      deletionTimestamp: deleting ? at(deletedAgo - grace) : undefined,
      deletionGracePeriodSeconds: deleting ? grace : undefined,
      labels,
      annotations,
      ownerReferences,
    }, []),
    spec: finishPodSpec(spec),
  };
}

/**
 * A pod created by the DaemonSet controller for `node` from revision `rev` ({template, hash,
 * generation}) (docs/semantics.md §1.6, §2.1–2.3), with its status for `state` and timeline `t`
 * (see podStatus). Its IP is the node's for a hostNetwork pod, else `ipFor(nodeName, podKey)`.
 * `deletedAgo` + `grace`: graceful deletion requested `deletedAgo` seconds ago.
 */
export function daemonPod(ds, rev, node, { state, t, ipFor, idPrefix = '', deletedAgo, grace }) {
  const { name: dsName, namespace } = ds.metadata;
  const nodeName = node.metadata.name;
  const name = `${dsName}-${suffix(`${idPrefix}pod/${namespace}/${dsName}/${nodeName}/${rev.hash}/${t.created}`)}`;
  const key = `${idPrefix}Pod/${namespace}/${name}`;
  const tmpl = rev.template;
  const unbound = state.kind === 'Unschedulable';
  const spec = admitPodSpec(tmpl.spec, key);
  spec.tolerations = daemonTolerations(tmpl.spec);
  spec.affinity = pinnedAffinity(spec.affinity, nodeName);
  if (!unbound) spec.nodeName = nodeName;
  const pod = makePod({
    name,
    generateName: `${dsName}-`,
    namespace,
    key,
    createdAgo: t.created,
    labels: { ...tmpl.metadata.labels, 'controller-revision-hash': rev.hash, 'pod-template-generation': String(rev.generation) },
    annotations: tmpl.metadata.annotations,
    ownerReferences: controllerRef('DaemonSet', dsName, ds.metadata.uid),
    spec,
    deletedAgo,
    grace,
  });
  const podIP = unbound || state.kind === 'ContainerCreating' ? undefined : tmpl.spec.hostNetwork ? internalIP(node) : ipFor(nodeName, key);
  pod.status = podStatus(pod, state, t, unbound ? undefined : node, podIP);
  return pod;
}

/**
 * A core/v1 Event written through the classic recorder (source, count, first/lastTimestamp),
 * registered in `versions`. `e`: object, reason, message, component, host, firstAgo, lastAgo,
 * count, type, fieldPath, involvedResourceVersion. Kubelet events about a Node name it by its
 * name instead of its uid. Keeps the involved object in `_involved` for finishEvents.
 */
export function makeEvent(e, versions, idPrefix = '') {
  const inv = e.object;
  const ns = inv.metadata.namespace ?? 'default';
  const firstMs = BigInt(NOW - Math.round(e.firstAgo) * 1000);
  const nanos = firstMs * 1000000n + BigInt(parseInt(sha(`evt/${idPrefix}${inv.metadata.name}/${e.reason}/${e.message}`).slice(0, 5), 16) % 1000000);
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
      uid: uid(`${idPrefix}Event/${ns}/${name}`),
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
  versions.add(ev, e.lastAgo ?? e.firstAgo);
  ev._involved = inv;
  return ev;
}

/** After resourceVersions are assigned: records the involved object's version in each event (not for Nodes). */
export function finishEvents(events) {
  for (const ev of events) {
    const inv = ev._involved;
    if (!ev.involvedObject.resourceVersion && inv.metadata.resourceVersion && inv.kind !== 'Node') {
      ev.involvedObject = ordered({ ...ev.involvedObject, resourceVersion: inv.metadata.resourceVersion },
        ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']);
    }
    delete ev._involved;
  }
}

/** The fields of an event the kubelet records about a container of `pod` (or about the pod, without `container`). */
export function kubeletSource(pod, container) {
  return { object: pod, component: 'kubelet', host: pod.spec.nodeName, fieldPath: container ? `spec.containers{${container}}` : undefined };
}

/** The message of a Pulled event after a pull that took `seconds`. */
export function pulledMessage(image, seconds) {
  return `Successfully pulled image "${image}" in ${seconds}s (${seconds}s including waiting). Image size: ${imageSize(image)} bytes.`;
}

/** The error of pulling an image that does not exist (containerd's message). */
export function imageNotFound(image) {
  const ref = imageRef(image);
  return `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
}

/**
 * The kubelet's events about `container` of `pod` whose image does not exist: `pulls` pulls,
 * the first `firstAgo` and the last `lastAgo` seconds before NOW, each failing a second later,
 * and `backOffs` syncs in back-off from then on, the last `lastBackOffAgo`.
 */
export function failedPullEvents(pod, container, { firstAgo, lastAgo, pulls, backOffs, lastBackOffAgo }) {
  const image = pod.spec.containers.find((x) => x.name === container).image;
  const source = kubeletSource(pod, container);
  const failing = { firstAgo: firstAgo - 1, lastAgo: lastAgo - 1, count: pulls };
  const backingOff = { firstAgo: firstAgo - 2, lastAgo: lastBackOffAgo, count: backOffs };
  const failed = (message, times) => ({ ...source, reason: 'Failed', type: 'Warning', message, ...times });
  return [
    { ...source, reason: 'Pulling', message: `Pulling image "${image}"`, firstAgo, lastAgo, count: pulls },
    failed(`Failed to pull image "${image}": ${imageNotFound(image)}`, failing),
    failed('Error: ErrImagePull', failing),
    { ...source, reason: 'BackOff', message: `Back-off pulling image "${image}"`, ...backingOff },
    failed('Error: ImagePullBackOff', backingOff),
  ];
}

/**
 * The events of a node's kubelet starting and registering, `joinedAgo` seconds ago: Starting
 * `startedBefore` seconds before that, the three NodeHas* (twice, the last `lastStatusBefore`
 * seconds before it joined), NodeAllocatableEnforced, and the node controller's RegisteredNode.
 */
export function nodeStartEvents(node, joinedAgo, { startedBefore, lastStatusBefore }) {
  const name = node.metadata.name;
  const kubelet = (reason, message, before, extra = {}) => ({ object: node, reason, message, component: 'kubelet', host: name, firstAgo: joinedAgo + before, ...extra });
  const status = (condition) => kubelet(condition, `Node ${name} status is now: ${condition}`, startedBefore - 1, { count: 2, lastAgo: joinedAgo + lastStatusBefore });
  return [
    kubelet('Starting', 'Starting kubelet.', startedBefore),
    status('NodeHasSufficientMemory'),
    status('NodeHasNoDiskPressure'),
    status('NodeHasSufficientPID'),
    kubelet('NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', startedBefore - 2),
    { object: node, reason: 'RegisteredNode', message: `Node ${name} event: Registered Node ${name} in Controller`, component: 'node-controller', firstAgo: joinedAgo - 4 },
  ];
}

/** A Namespace (register it in the caller's Versions). */
export function makeNamespace(name, createdAgo, { uidKey = `Namespace/${name}`, labels = {} } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: uid(uidKey),
      resourceVersion: '',
      creationTimestamp: at(createdAgo),
      labels: { 'kubernetes.io/metadata.name': name, ...labels },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

/** The two built-in PriorityClasses, created `createdAgo` seconds before NOW. */
export function systemPriorityClasses(createdAgo) {
  const pc = (name, description) => ({
    apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', description,
    metadata: { creationTimestamp: at(createdAgo), generation: 1, name, resourceVersion: '', uid: uid(`PriorityClass/${name}`) },
    preemptionPolicy: 'PreemptLowerPriority', value: PRIORITIES[name],
  });
  return [
    pc('system-cluster-critical', 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'),
    pc('system-node-critical', 'Used for system critical pods that must not be moved from their current node.'),
  ];
}
