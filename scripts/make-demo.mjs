#!/usr/bin/env node
// Generates the test fixtures fixtures/demo/ and fixtures/cluster-info-dump/.
//
// Evaluation instant ("now") of both fixtures: 2026-11-29T12:00:00Z.
// Every timestamp below is computed relative to that instant, so tests run with
//   ds-doctor ... --now 2026-11-29T12:00:00Z
//
// The output is fully deterministic: uids, names, hashes, IPs and resourceVersions
// are derived from object names (sha256 / FNV-32a), never from the clock or
// Math.random. Run with:   node scripts/make-demo.mjs
//
// fixtures/demo/ is what `kubectl get <kind> -A -o yaml` writes (one `kind: List`
// file per kind). fixtures/cluster-info-dump/ is what
// `kubectl cluster-info dump --all-namespaces --output-directory=DIR` writes.
// The story of each fixture is told in its README.md.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------
// Time, identity and hashing helpers
// ---------------------------------------------------------------------------

const NOW_ISO = '2026-11-29T12:00:00Z';
const NOW = Date.parse(NOW_ISO);
const MIN = 60;
const HOUR = 3600;
const DAY = 86400;

/** RFC 3339 timestamp `secondsAgo` seconds before NOW (whole seconds, like the API). */
function at(secondsAgo) {
  return new Date(NOW - Math.round(secondsAgo) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
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

/**
 * Like controller.ComputeHash: FNV-32a of the template, printed in decimal, then
 * rand.SafeEncodeString (each byte mapped into SAFE). Real hashes look the same
 * (e.g. "5dd5756b68") because only ten digits are ever encoded.
 */
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

// Go struct field orders, used so the JSON of the cluster-info dump reads like kubectl's.
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

/** Parses the memory/cpu quantities used in this file (m, Ki, Mi, Gi, plain). */
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
// Kubernetes semantics used to build consistent objects (reference §1.2, §2, §3.8)
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
function shouldRun(ds, node) {
  const spec = ds.spec.template.spec;
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) {
    if (node.metadata.labels[k] !== v) return { shouldRun: false, shouldContinueRunning: false };
  }
  const tols = daemonTolerations(spec);
  const untolerated = (node.spec.taints ?? []).filter(
    (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tols.some((tol) => tolerates(tol, t)),
  );
  if (untolerated.length === 0) return { shouldRun: true, shouldContinueRunning: true };
  return { shouldRun: false, shouldContinueRunning: !untolerated.some((t) => t.effect === 'NoExecute') };
}

function podReady(pod) {
  return (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** updateDaemonSetStatus (reference §3.8); minReadySeconds is 0 everywhere here. */
function daemonSetStatus(ds, nodes, pods, hash) {
  const gen = ds.metadata.annotations['deprecated.daemonset.template.generation'];
  let desired = 0, current = 0, ready = 0, available = 0, updated = 0, misscheduled = 0;
  for (const node of nodes) {
    const mine = pods
      .filter((p) => p.metadata.ownerReferences?.[0]?.uid === ds.metadata.uid)
      .filter((p) => targetNode(p) === node.metadata.name)
      .sort((a, b) => (a.spec.nodeName ? 0 : 1) - (b.spec.nodeName ? 0 : 1)
        || Date.parse(a.metadata.creationTimestamp) - Date.parse(b.metadata.creationTimestamp)
        || (a.metadata.name < b.metadata.name ? -1 : 1));
    const { shouldRun: run } = shouldRun(ds, node);
    if (run) {
      desired++;
      if (mine.length > 0) {
        current++;
        const pod = mine[0];
        if (podReady(pod)) {
          ready++;
          available++;
        }
        const l = pod.metadata.labels;
        if (l['controller-revision-hash'] === hash || l['pod-template-generation'] === gen) updated++;
      }
    } else if (mine.length > 0) {
      misscheduled++;
    }
  }
  const status = {
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    desiredNumberScheduled: desired,
    numberReady: ready,
    observedGeneration: ds.metadata.generation,
  };
  if (updated) status.updatedNumberScheduled = updated;
  if (available) status.numberAvailable = available;
  if (desired - available) status.numberUnavailable = desired - available;
  return status;
}

/** util.GetTargetNodeName. */
function targetNode(pod) {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const t of terms) for (const f of t.matchFields ?? []) if (f.key === 'metadata.name' && f.operator === 'In') return f.values[0];
  return undefined;
}

// ---------------------------------------------------------------------------
// Object builders
// ---------------------------------------------------------------------------

function imageRef(image) {
  // containerd reports images fully qualified: "fluent/fluent-bit:3.0" -> "docker.io/fluent/fluent-bit:3.0".
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

/**
 * A Node. `n` gives name, ip, zone, instance type, capacity/allocatable, taints,
 * joinedAgo, condition overrides and extra labels/annotations.
 */
function makeNode(n, versions) {
  const labels = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/instance-type': n.instanceType,
    'beta.kubernetes.io/os': 'linux',
    'failure-domain.beta.kubernetes.io/region': n.region,
    'failure-domain.beta.kubernetes.io/zone': n.zone,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': n.name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': n.instanceType,
    'topology.kubernetes.io/region': n.region,
    'topology.kubernetes.io/zone': n.zone,
    ...n.labels,
  };
  if (!n.region) {
    for (const k of Object.keys(labels)) if (k.includes('region') || k.includes('zone') || k.includes('instance-type')) delete labels[k];
  }
  const annotations = {
    'node.alpha.kubernetes.io/ttl': '0',
    'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    ...n.annotations,
  };
  const joined = n.joinedAgo;
  const hb = n.heartbeatAgo;
  const cond = (type, status, reason, message, since) => ({
    type, status, lastHeartbeatTime: at(hb), lastTransitionTime: at(since), reason, message,
  });
  const conditions = [];
  const nu = n.networkUnavailableCondition;
  if (nu) {
    // Written by the CNI agent when it starts, not by the kubelet (hence its own heartbeat).
    conditions.push({ type: nu.type, status: nu.status, lastHeartbeatTime: at(nu.since), lastTransitionTime: at(nu.since), reason: nu.reason, message: nu.message });
  }
  conditions.push(
    cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', joined - 2),
    cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', joined - 2),
    cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', joined - 2),
    n.ready
      ? cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', n.readySinceAgo)
      : cond('Ready', 'False', 'KubeletNotReady', n.notReadyMessage, joined - 2),
  );
  const node = {
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
      providerID: n.providerID,
      unschedulable: n.unschedulable,
      taints: n.taints?.length ? n.taints : undefined,
    }, ['podCIDR', 'podCIDRs', 'providerID', 'unschedulable', 'taints']),
    status: {
      capacity: n.capacity,
      allocatable: n.allocatable,
      conditions,
      addresses: n.addresses,
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: hex(`machine/${n.name}`, 32),
        systemUUID: uid(`system/${n.name}`).toUpperCase(),
        bootID: uid(`boot/${n.name}`),
        kernelVersion: n.kernelVersion ?? '6.8.0-1019-aws',
        osImage: 'Ubuntu 24.04.1 LTS',
        containerRuntimeVersion: 'containerd://2.1.4',
        kubeletVersion: 'v1.34.2',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images: n.images,
      runtimeHandlers: [
        { name: 'runc', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
        { name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
      ],
      features: { supplementalGroupsPolicy: true },
    },
  };
  versions.add(node, hb);
  return node;
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
function admitPodSpec(templateSpec, podKey, priorities) {
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
  spec.priority = priorities[spec.priorityClassName] ?? 0;
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

function cond(type, status, since, reason, message) {
  return ordered({ type, observedGeneration: 1, status, lastProbeTime: null, lastTransitionTime: at(since), reason, message },
    ['type', 'observedGeneration', 'status', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message']);
}

function containerResourcesStatus(c) {
  const r = c.resources ?? {};
  if (!r.requests && !r.limits) return undefined;
  return clone(r);
}

/**
 * Pod status for a given state. `t` holds the timeline in seconds-ago:
 * created, scheduled, started (sandbox), ready.
 */
function podStatus(pod, state, t, node, podIP) {
  const spec = pod.spec;
  const s = { observedGeneration: 1 };
  const cid = (name, n = 0) => `containerd://${hex(`cid/${pod.metadata.name}/${name}/${n}`, 64)}`;
  const resources = (c) => containerResourcesStatus(c);
  const hostIP = node?.status.addresses.find((a) => a.type === 'InternalIP').address;
  const ips = (ip) => (ip ? [{ ip }] : undefined);

  if (state.kind === 'Unschedulable') {
    s.phase = 'Pending';
    s.conditions = [cond('PodScheduled', 'False', t.scheduled, 'Unschedulable', state.message)];
    s.qosClass = qosClass(spec);
    return s;
  }

  // Init containers run one after the other, ~3 s each (times are seconds-ago: later = smaller).
  const initDone = t.started - 3 * (spec.initContainers?.length ?? 0);
  const initStatuses = (spec.initContainers ?? []).map((c, i) => ordered({
    name: c.name,
    state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: at(t.started - 3 * i), finishedAt: at(t.started - 3 * i - 2), containerID: cid(c.name) } },
    lastState: {},
    ready: true,
    restartCount: 0,
    image: imageRef(c.image),
    imageID: imageId(c.image),
    containerID: cid(c.name),
    started: false,
    resources: resources(c),
  }, []));

  if (state.kind === 'Running') {
    s.phase = 'Running';
    s.conditions = [
      cond('PodReadyToStartContainers', 'True', t.started),
      cond('Initialized', 'True', initDone),
      cond('Ready', 'True', t.ready),
      cond('ContainersReady', 'True', t.ready),
      cond('PodScheduled', 'True', t.scheduled),
    ];
    s.hostIP = hostIP;
    s.hostIPs = ips(hostIP);
    s.podIP = podIP;
    s.podIPs = ips(podIP);
    s.startTime = at(t.scheduled - 1);
    if (initStatuses.length) s.initContainerStatuses = initStatuses;
    s.containerStatuses = spec.containers.map((c) => ({
      name: c.name,
      state: { running: { startedAt: at(initDone - 1) } },
      lastState: {},
      ready: true,
      restartCount: 0,
      image: imageRef(c.image),
      imageID: imageId(c.image),
      containerID: cid(c.name),
      started: true,
      resources: resources(c),
    }));
    s.qosClass = qosClass(spec);
    return s;
  }

  if (state.kind === 'CrashLoopBackOff') {
    const c0 = spec.containers[0];
    s.phase = 'Running';
    s.conditions = [
      cond('PodReadyToStartContainers', 'True', t.started),
      cond('Initialized', 'True', t.started),
      cond('Ready', 'False', t.scheduled - 1, 'ContainersNotReady', `containers with unready status: [${c0.name}]`),
      cond('ContainersReady', 'False', t.scheduled - 1, 'ContainersNotReady', `containers with unready status: [${c0.name}]`),
      cond('PodScheduled', 'True', t.scheduled),
    ];
    s.hostIP = hostIP;
    s.hostIPs = ips(hostIP);
    s.podIP = podIP;
    s.podIPs = ips(podIP);
    s.startTime = at(t.scheduled - 1);
    s.containerStatuses = [{
      name: c0.name,
      state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${state.backoff} restarting failed container=${c0.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})` } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: at(state.lastStartedAgo), finishedAt: at(state.lastFinishedAgo), containerID: cid(c0.name, state.restarts) } },
      ready: false,
      restartCount: state.restarts,
      image: imageRef(c0.image),
      imageID: imageId(c0.image),
      containerID: cid(c0.name, state.restarts),
      started: false,
      resources: resources(c0),
    }];
    s.qosClass = qosClass(spec);
    return s;
  }

  if (state.kind === 'ContainerCreating') {
    const names = spec.containers.map((c) => c.name).join(' ');
    s.phase = 'Pending';
    s.conditions = [
      cond('PodReadyToStartContainers', 'False', t.scheduled),
      cond('Initialized', 'True', t.scheduled),
      cond('Ready', 'False', t.scheduled, 'ContainersNotReady', `containers with unready status: [${names}]`),
      cond('ContainersReady', 'False', t.scheduled, 'ContainersNotReady', `containers with unready status: [${names}]`),
      cond('PodScheduled', 'True', t.scheduled),
    ];
    s.hostIP = hostIP;
    s.hostIPs = ips(hostIP);
    s.startTime = at(t.scheduled - 1);
    s.containerStatuses = spec.containers.map((c) => ({
      name: c.name,
      state: { waiting: { reason: 'ContainerCreating' } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: c.image,
      imageID: '',
      started: false,
      resources: resources(c),
    }));
    s.qosClass = qosClass(spec);
    return s;
  }

  if (state.kind === 'ImagePullBackOff') {
    const c0 = spec.containers[0];
    s.phase = 'Pending';
    s.conditions = [
      cond('PodReadyToStartContainers', 'True', t.started),
      cond('Initialized', 'True', t.started),
      cond('Ready', 'False', t.scheduled, 'ContainersNotReady', `containers with unready status: [${c0.name}]`),
      cond('ContainersReady', 'False', t.scheduled, 'ContainersNotReady', `containers with unready status: [${c0.name}]`),
      cond('PodScheduled', 'True', t.scheduled),
    ];
    s.hostIP = hostIP;
    s.hostIPs = ips(hostIP);
    s.podIP = podIP;
    s.podIPs = ips(podIP);
    s.startTime = at(t.scheduled - 1);
    s.containerStatuses = [{
      name: c0.name,
      state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${c0.image}"` } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: c0.image,
      imageID: '',
      started: false,
      resources: resources(c0),
    }];
    s.qosClass = qosClass(spec);
    return s;
  }

  if (state.kind === 'Succeeded') {
    s.phase = 'Succeeded';
    s.conditions = [
      cond('PodReadyToStartContainers', 'False', state.finishedAgo - 1),
      cond('Initialized', 'True', t.scheduled - 1, 'PodCompleted'),
      cond('Ready', 'False', state.finishedAgo - 1, 'PodCompleted'),
      cond('ContainersReady', 'False', state.finishedAgo - 1, 'PodCompleted'),
      cond('PodScheduled', 'True', t.scheduled),
    ];
    s.hostIP = hostIP;
    s.hostIPs = ips(hostIP);
    s.podIP = podIP;
    s.podIPs = ips(podIP);
    s.startTime = at(t.scheduled - 1);
    s.containerStatuses = spec.containers.map((c) => ({
      name: c.name,
      state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: at(t.started - 2), finishedAt: at(state.finishedAgo), containerID: cid(c.name) } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: imageRef(c.image),
      imageID: imageId(c.image),
      containerID: cid(c.name),
      started: false,
      resources: resources(c),
    }));
    s.qosClass = qosClass(spec);
    return s;
  }
  throw new Error(`unknown pod state ${state.kind}`);
}

/**
 * A pod created by the DaemonSet controller for `node` from revision `rev`
 * (reference §1.6, §2.1–2.3).
 */
function makeDaemonPod(ds, rev, nodeName, nodesByName, state, t, priorities, versions, ipFor) {
  const name = `${ds.metadata.name}-${suffix(`pod/${ds.metadata.namespace}/${ds.metadata.name}/${nodeName}/${rev.hash}/${t.created}`)}`;
  const key = `Pod/${ds.metadata.namespace}/${name}`;
  const tmpl = rev.template;
  const spec = admitPodSpec(tmpl.spec, key, priorities);
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
  if (state.kind !== 'Unschedulable') spec.nodeName = nodeName;
  const pod = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: ordered({
      name,
      generateName: `${ds.metadata.name}-`,
      namespace: ds.metadata.namespace,
      uid: uid(key),
      resourceVersion: '',
      generation: 1,
      creationTimestamp: at(t.created),
      labels: { ...tmpl.metadata.labels, 'controller-revision-hash': rev.hash, 'pod-template-generation': String(rev.generation) },
      annotations: tmpl.metadata.annotations,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name, uid: ds.metadata.uid, controller: true, blockOwnerDeletion: true }],
    }, []),
    spec: finishPodSpec(spec),
  };
  const node = nodesByName[nodeName];
  const podIP = state.kind === 'ContainerCreating' || state.kind === 'Unschedulable'
    ? undefined
    : tmpl.spec.hostNetwork
      ? node.status.addresses.find((a) => a.type === 'InternalIP').address
      : ipFor(nodeName, key);
  pod.status = podStatus(pod, state, t, state.kind === 'Unschedulable' ? undefined : node, podIP);
  versions.add(pod, t.lastWrite ?? t.ready ?? t.scheduled);
  return pod;
}

/** A DaemonSet and its ControllerRevisions. `revs` = [{generation, template, createdAgo}] oldest first. */
function makeDaemonSet(d, versions) {
  const key = `DaemonSet/${d.namespace}/${d.name}`;
  const cur = d.revs[d.revs.length - 1];
  const ds = {
    kind: 'DaemonSet',
    apiVersion: 'apps/v1',
    metadata: ordered({
      name: d.name,
      namespace: d.namespace,
      uid: uid(key),
      resourceVersion: '',
      generation: cur.generation,
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
  const revisions = d.revs.map((r, i) => {
    const hash = templateHash(r.template);
    r.hash = hash;
    const name = `${d.name}-${hash}`;
    const cr = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name,
        namespace: d.namespace,
        uid: uid(`ControllerRevision/${d.namespace}/${name}`),
        resourceVersion: '',
        creationTimestamp: at(r.createdAgo),
        labels: { ...r.template.metadata.labels, 'controller-revision-hash': hash },
        annotations: { 'deprecated.daemonset.template.generation': String(r.generation), ...(d.annotations ?? {}) },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: d.name, uid: ds.metadata.uid, controller: true, blockOwnerDeletion: true }],
      },
      data: { spec: { template: { $patch: 'replace', ...clone(r.template) } } },
      revision: i + 1,
    };
    versions.add(cr, r.createdAgo);
    return cr;
  });
  return { ds, revisions };
}

/** A core/v1 Event written through the classic recorder (source, count, first/lastTimestamp). */
function makeEvent(e, versions) {
  const inv = e.object;
  const ns = inv.metadata.namespace ?? 'default';
  const firstMs = BigInt(NOW - Math.round(e.firstAgo) * 1000);
  const nanos = firstMs * 1000000n + BigInt(parseInt(sha(`evt/${inv.metadata.name}/${e.reason}/${e.message}`).slice(0, 5), 16) % 1000000);
  const name = `${inv.metadata.name}.${nanos.toString(16)}`;
  const involvedObject = ordered({
    kind: inv.kind,
    namespace: inv.metadata.namespace,
    name: inv.metadata.name,
    uid: e.involvedUid ?? inv.metadata.uid,
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
      uid: uid(`Event/${ns}/${name}`),
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

function finishEvents(events) {
  for (const ev of events) {
    if (!ev.involvedObject.resourceVersion && ev._involved.metadata.resourceVersion && ev._involved.kind !== 'Node') {
      ev.involvedObject = ordered({ ...ev.involvedObject, resourceVersion: ev._involved.metadata.resourceVersion },
        ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']);
    }
    delete ev._involved;
  }
}

function makeNamespace(name, createdAgo, versions) {
  return versions.add({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: uid(`Namespace/${name}`),
      resourceVersion: '',
      creationTimestamp: at(createdAgo),
      labels: { 'kubernetes.io/metadata.name': name },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  }, createdAgo);
}

function makeService(s, versions) {
  const key = `Service/${s.namespace}/${s.name}`;
  const svc = {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: ordered({
      name: s.name,
      namespace: s.namespace,
      uid: uid(key),
      resourceVersion: '',
      creationTimestamp: at(s.createdAgo),
      labels: s.labels,
      annotations: s.annotations,
    }, []),
    spec: ordered({
      ports: s.ports,
      selector: s.selector,
      clusterIP: s.clusterIP,
      clusterIPs: [s.clusterIP],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    }, []),
    status: { loadBalancer: {} },
  };
  versions.add(svc, s.createdAgo);
  return svc;
}

// ---------------------------------------------------------------------------
// Task 1: fixtures/demo — a 9-node cluster, six DaemonSets
// ---------------------------------------------------------------------------

function buildDemo() {
  const versions = new Versions(4_180_000);
  const CLUSTER_AGE = 120 * DAY;
  const REGION = 'us-east-1';
  const PRIORITIES = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

  // ----- nodes ---------------------------------------------------------------
  const M5 = {
    capacity: { cpu: '4', 'ephemeral-storage': '101430960Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '16114092Ki', pods: '110' },
    allocatable: { cpu: '3920m', 'ephemeral-storage': '93478772582', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '15491072Ki', pods: '110' },
  };
  const G5 = {
    capacity: { cpu: '48', 'ephemeral-storage': '203070420Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '195865816Ki', 'nvidia.com/gpu': '4', pods: '110' },
    allocatable: { cpu: '47810m', 'ephemeral-storage': '187149065093', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '193154264Ki', 'nvidia.com/gpu': '4', pods: '110' },
  };
  const WORKER5_JOINED = 20 * MIN;
  const CORDONED = 3 * HOUR;
  const GPU_JOINED = 30 * DAY;
  const NOT_READY_MSG = 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
  const nodeDefs = [
    { name: 'cp-1', ip: '10.0.1.10', zone: 'us-east-1a', type: M5, instanceType: 'm5.xlarge', joinedAgo: CLUSTER_AGE, podNet: 112,
      labels: { 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' },
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
    { name: 'gpu-1', ip: '10.0.1.41', zone: 'us-east-1a', type: G5, instanceType: 'g5.12xlarge', joinedAgo: GPU_JOINED, podNet: 201,
      labels: { 'node-pool': 'gpu', 'nvidia.com/gpu.present': 'true' },
      taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }] },
    { name: 'gpu-2', ip: '10.0.2.42', zone: 'us-east-1b', type: G5, instanceType: 'g5.12xlarge', joinedAgo: GPU_JOINED - 95, podNet: 202,
      labels: { 'node-pool': 'gpu', 'nvidia.com/gpu.present': 'true' },
      taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }] },
    { name: 'worker-1', ip: '10.0.1.21', zone: 'us-east-1a', type: M5, instanceType: 'm5.xlarge', joinedAgo: CLUSTER_AGE - 6 * MIN, podNet: 121 },
    { name: 'worker-2', ip: '10.0.2.22', zone: 'us-east-1b', type: M5, instanceType: 'm5.xlarge', joinedAgo: CLUSTER_AGE - 7 * MIN, podNet: 122 },
    { name: 'worker-3', ip: '10.0.3.23', zone: 'us-east-1c', type: M5, instanceType: 'm5.xlarge', joinedAgo: CLUSTER_AGE - 8 * MIN, podNet: 123 },
    { name: 'worker-4', ip: '10.0.1.24', zone: 'us-east-1a', type: M5, instanceType: 'm5.xlarge', joinedAgo: CLUSTER_AGE - 9 * MIN, podNet: 124 },
    { name: 'worker-5', ip: '10.0.2.25', zone: 'us-east-1b', type: M5, instanceType: 'm5.xlarge', joinedAgo: WORKER5_JOINED, podNet: 125,
      ready: false, notReadyMessage: NOT_READY_MSG,
      taints: [
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: at(WORKER5_JOINED - 1) },
        { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: at(WORKER5_JOINED - 6) },
      ] },
    { name: 'worker-6', ip: '10.0.3.26', zone: 'us-east-1c', type: M5, instanceType: 'm5.xlarge', joinedAgo: 60 * DAY, podNet: 126,
      unschedulable: true,
      taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: at(CORDONED) }] },
  ];
  const nodeDefByName = Object.fromEntries(nodeDefs.map((n) => [n.name, n]));
  const ALL_NODES = nodeDefs.map((n) => n.name);

  // ----- DaemonSet templates ------------------------------------------------
  const hostPath = (name, p, type) => ({ name, hostPath: { path: p, type: type ?? '' } });
  const calicoTemplate = (version) => ({
    metadata: { creationTimestamp: null, labels: { 'k8s-app': 'calico-node' } },
    spec: {
      volumes: [
        hostPath('lib-modules', '/lib/modules'),
        hostPath('var-run-calico', '/var/run/calico', 'DirectoryOrCreate'),
        hostPath('var-lib-calico', '/var/lib/calico', 'DirectoryOrCreate'),
        hostPath('xtables-lock', '/run/xtables.lock', 'FileOrCreate'),
        hostPath('sys-fs', '/sys/fs/', 'DirectoryOrCreate'),
        hostPath('bpffs', '/sys/fs/bpf', 'Directory'),
        hostPath('nodeproc', '/proc'),
        hostPath('cni-bin-dir', '/opt/cni/bin', 'DirectoryOrCreate'),
        hostPath('cni-net-dir', '/etc/cni/net.d'),
        hostPath('cni-log-dir', '/var/log/calico/cni'),
        hostPath('host-local-net-dir', '/var/lib/cni/networks'),
        hostPath('policysync', '/var/run/nodeagent', 'DirectoryOrCreate'),
      ],
      initContainers: [
        {
          name: 'upgrade-ipam',
          image: `docker.io/calico/cni:${version}`,
          command: ['/opt/cni/bin/calico-ipam', '-upgrade'],
          envFrom: [{ configMapRef: { name: 'kubernetes-services-endpoint', optional: true } }],
          env: [
            { name: 'KUBERNETES_NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
            { name: 'CALICO_NETWORKING_BACKEND', valueFrom: { configMapKeyRef: { name: 'calico-config', key: 'calico_backend' } } },
          ],
          resources: {},
          volumeMounts: [
            { name: 'host-local-net-dir', mountPath: '/var/lib/cni/networks' },
            { name: 'cni-bin-dir', mountPath: '/host/opt/cni/bin' },
          ],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          securityContext: { privileged: true },
        },
        {
          name: 'install-cni',
          image: `docker.io/calico/cni:${version}`,
          command: ['/opt/cni/bin/install'],
          envFrom: [{ configMapRef: { name: 'kubernetes-services-endpoint', optional: true } }],
          env: [
            { name: 'CNI_CONF_NAME', value: '10-calico.conflist' },
            { name: 'CNI_NETWORK_CONFIG', valueFrom: { configMapKeyRef: { name: 'calico-config', key: 'cni_network_config' } } },
            { name: 'KUBERNETES_NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
            { name: 'CNI_MTU', valueFrom: { configMapKeyRef: { name: 'calico-config', key: 'veth_mtu' } } },
            { name: 'SLEEP', value: 'false' },
          ],
          resources: {},
          volumeMounts: [
            { name: 'cni-bin-dir', mountPath: '/host/opt/cni/bin' },
            { name: 'cni-net-dir', mountPath: '/host/etc/cni/net.d' },
          ],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          securityContext: { privileged: true },
        },
      ],
      containers: [
        {
          name: 'calico-node',
          image: `docker.io/calico/node:${version}`,
          envFrom: [{ configMapRef: { name: 'kubernetes-services-endpoint', optional: true } }],
          env: [
            { name: 'DATASTORE_TYPE', value: 'kubernetes' },
            { name: 'WAIT_FOR_DATASTORE', value: 'true' },
            { name: 'NODENAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
            { name: 'CALICO_NETWORKING_BACKEND', valueFrom: { configMapKeyRef: { name: 'calico-config', key: 'calico_backend' } } },
            { name: 'CLUSTER_TYPE', value: 'k8s,bgp' },
            { name: 'IP', value: 'autodetect' },
            { name: 'CALICO_IPV4POOL_IPIP', value: 'Always' },
            { name: 'CALICO_IPV4POOL_VXLAN', value: 'Never' },
            { name: 'FELIX_IPINIPMTU', valueFrom: { configMapKeyRef: { name: 'calico-config', key: 'veth_mtu' } } },
            { name: 'CALICO_DISABLE_FILE_LOGGING', value: 'true' },
            { name: 'FELIX_DEFAULTENDPOINTTOHOSTACTION', value: 'ACCEPT' },
            { name: 'FELIX_IPV6SUPPORT', value: 'false' },
            { name: 'FELIX_HEALTHENABLED', value: 'true' },
          ],
          resources: { requests: { cpu: '250m' } },
          volumeMounts: [
            { name: 'cni-net-dir', mountPath: '/host/etc/cni/net.d' },
            { name: 'lib-modules', readOnly: true, mountPath: '/lib/modules' },
            { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
            { name: 'var-run-calico', mountPath: '/var/run/calico' },
            { name: 'var-lib-calico', mountPath: '/var/lib/calico' },
            { name: 'policysync', mountPath: '/var/run/nodeagent' },
            { name: 'bpffs', mountPath: '/sys/fs/bpf' },
            { name: 'cni-log-dir', readOnly: true, mountPath: '/var/log/calico/cni' },
          ],
          livenessProbe: {
            exec: { command: ['/bin/calico-node', '-felix-live', '-bird-live'] },
            initialDelaySeconds: 10, timeoutSeconds: 10, periodSeconds: 10, successThreshold: 1, failureThreshold: 6,
          },
          readinessProbe: {
            exec: { command: ['/bin/calico-node', '-felix-ready', '-bird-ready'] },
            timeoutSeconds: 10, periodSeconds: 10, successThreshold: 1, failureThreshold: 3,
          },
          lifecycle: { preStop: { exec: { command: ['/bin/calico-node', '-shutdown'] } } },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          securityContext: { capabilities: { add: ['NET_ADMIN'] }, privileged: true },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 0,
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'calico-node',
      serviceAccount: 'calico-node',
      hostNetwork: true,
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [
        { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'CriticalAddonsOnly', operator: 'Exists' },
      ],
      priorityClassName: 'system-node-critical',
    },
  });

  const kubeProxyTemplate = (version) => ({
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
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
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

  const fluentBitTemplate = (version) => ({
    metadata: { creationTimestamp: null, labels: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/instance': 'fluent-bit' } },
    spec: {
      volumes: [
        { name: 'config', configMap: { name: 'fluent-bit', defaultMode: 420 } },
        hostPath('varlog', '/var/log'),
        hostPath('varlibdockercontainers', '/var/lib/docker/containers'),
      ],
      containers: [{
        name: 'fluent-bit',
        image: `fluent/fluent-bit:${version}`,
        ports: [{ name: 'http', containerPort: 2020, protocol: 'TCP' }],
        resources: { limits: { memory: '200Mi' }, requests: { cpu: '100m', memory: '100Mi' } },
        volumeMounts: [
          { name: 'config', mountPath: '/fluent-bit/etc/conf' },
          { name: 'varlog', mountPath: '/var/log' },
          { name: 'varlibdockercontainers', readOnly: true, mountPath: '/var/lib/docker/containers' },
        ],
        readinessProbe: {
          httpGet: { path: '/api/v1/health', port: 2020, scheme: 'HTTP' },
          timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3,
        },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'fluent-bit',
      serviceAccount: 'fluent-bit',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName: 'system-node-critical',
    },
  });

  const nodeExporterLabels = {
    'app.kubernetes.io/component': 'exporter',
    'app.kubernetes.io/name': 'node-exporter',
    'app.kubernetes.io/part-of': 'kube-prometheus',
    'app.kubernetes.io/version': '1.8.2',
  };
  const nodeExporterTemplate = () => ({
    metadata: { creationTimestamp: null, labels: nodeExporterLabels },
    spec: {
      volumes: [hostPath('proc', '/proc'), hostPath('sys', '/sys'), hostPath('root', '/')],
      containers: [{
        name: 'node-exporter',
        image: 'quay.io/prometheus/node-exporter:v1.8.2',
        args: [
          '--web.listen-address=:9100',
          '--path.procfs=/host/proc',
          '--path.sysfs=/host/sys',
          '--path.rootfs=/host/root',
          '--no-collector.wifi',
          '--collector.filesystem.mount-points-exclude=^/(dev|proc|sys|run/k3s/containerd/.+|var/lib/docker/.+|var/lib/kubelet/pods/.+)($|/)',
        ],
        ports: [{ name: 'metrics', hostPort: 9100, containerPort: 9100, protocol: 'TCP' }],
        resources: { limits: { memory: '60Mi' }, requests: { cpu: '50m', memory: '30Mi' } },
        volumeMounts: [
          { name: 'proc', readOnly: true, mountPath: '/host/proc' },
          { name: 'sys', readOnly: true, mountPath: '/host/sys' },
          { name: 'root', readOnly: true, mountPath: '/host/root', mountPropagation: 'HostToContainer' },
        ],
        readinessProbe: {
          httpGet: { path: '/', port: 9100, scheme: 'HTTP' },
          timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3,
        },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
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
    },
  });

  const ebsTemplate = () => ({
    metadata: { creationTimestamp: null, labels: { app: 'ebs-csi-node', 'app.kubernetes.io/component': 'csi-driver', 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/name': 'aws-ebs-csi-driver', 'app.kubernetes.io/version': '1.35.0' } },
    spec: {
      volumes: [
        hostPath('kubelet-dir', '/var/lib/kubelet', 'Directory'),
        hostPath('plugin-dir', '/var/lib/kubelet/plugins/ebs.csi.aws.com/', 'DirectoryOrCreate'),
        hostPath('registration-dir', '/var/lib/kubelet/plugins_registry/', 'Directory'),
        hostPath('device-dir', '/dev', 'Directory'),
        { name: 'probe-dir', emptyDir: {} },
      ],
      containers: [
        {
          name: 'ebs-plugin',
          image: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.35.0',
          args: ['node', '--endpoint=$(CSI_ENDPOINT)', '--csi-mount-point-prefix=/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/', '--logging-format=text', '--v=2'],
          ports: [{ name: 'healthz', containerPort: 9808, protocol: 'TCP' }],
          env: [
            { name: 'CSI_ENDPOINT', value: 'unix:/csi/csi.sock' },
            { name: 'CSI_NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
          ],
          resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '256Mi' } },
          volumeMounts: [
            { name: 'kubelet-dir', mountPath: '/var/lib/kubelet', mountPropagation: 'Bidirectional' },
            { name: 'plugin-dir', mountPath: '/csi' },
            { name: 'device-dir', mountPath: '/dev' },
          ],
          livenessProbe: {
            httpGet: { path: '/healthz', port: 'healthz', scheme: 'HTTP' },
            initialDelaySeconds: 10, timeoutSeconds: 3, periodSeconds: 10, successThreshold: 1, failureThreshold: 5,
          },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          securityContext: { privileged: true, readOnlyRootFilesystem: true },
        },
        {
          name: 'node-driver-registrar',
          image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.11.1',
          args: ['--csi-address=$(ADDRESS)', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--v=2'],
          env: [
            { name: 'ADDRESS', value: '/csi/csi.sock' },
            { name: 'DRIVER_REG_SOCK_PATH', value: '/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock' },
          ],
          resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
          volumeMounts: [
            { name: 'plugin-dir', mountPath: '/csi' },
            { name: 'registration-dir', mountPath: '/registration' },
            { name: 'probe-dir', mountPath: '/var/lib/kubelet/plugins/ebs.csi.aws.com/' },
          ],
          livenessProbe: {
            exec: { command: ['/csi-node-driver-registrar', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--mode=kubelet-registration-probe'] },
            initialDelaySeconds: 30, timeoutSeconds: 15, periodSeconds: 90, successThreshold: 1, failureThreshold: 3,
          },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
        },
        {
          name: 'liveness-probe',
          image: 'registry.k8s.io/sig-storage/livenessprobe:v2.13.1',
          args: ['--csi-address=/csi/csi.sock'],
          resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
          volumeMounts: [{ name: 'plugin-dir', mountPath: '/csi' }],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirstWithHostNet',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'ebs-csi-node-sa',
      serviceAccount: 'ebs-csi-node-sa',
      hostNetwork: true,
      securityContext: { runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, fsGroup: 0 },
      schedulerName: 'default-scheduler',
      tolerations: [{ operator: 'Exists' }],
    },
  });

  const nvidiaTemplate = () => ({
    metadata: { creationTimestamp: null, labels: { name: 'nvidia-device-plugin-ds' } },
    spec: {
      volumes: [hostPath('device-plugin', '/var/lib/kubelet/device-plugins')],
      containers: [{
        name: 'nvidia-device-plugin-ctr',
        image: 'nvcr.io/nvidia/k8s-device-plugin:v0.16.2',
        env: [{ name: 'FAIL_ON_INIT_ERROR', value: 'false' }],
        resources: {},
        volumeMounts: [{ name: 'device-plugin', mountPath: '/var/lib/kubelet/device-plugins' }],
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
        securityContext: { capabilities: { drop: ['ALL'] }, allowPrivilegeEscalation: false },
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'nvidia.com/gpu.present': 'true' },
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName: 'system-node-critical',
    },
  });

  const finishTemplate = (tmpl) => ({ metadata: tmpl.metadata, spec: finishPodSpec(tmpl.spec) });
  const rolling = (maxUnavailable) => ({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable, maxSurge: 0 } });

  // Rollout instants (seconds ago).
  const CALICO_UPGRADE = 21 * DAY;
  const PROXY_UPGRADE = 14 * DAY;
  const FLUENT_CREATED = 90 * DAY;
  const FLUENT_ROLLOUT = 24 * MIN;
  const EXPORTER_CREATED = 60 * DAY;
  const EBS_CREATED = 15 * MIN;
  const NVIDIA_CREATED = GPU_JOINED - 10 * MIN;

  const dsDefs = [
    { namespace: 'kube-system', name: 'calico-node', createdAgo: CLUSTER_AGE - 60, labels: { 'k8s-app': 'calico-node' },
      selector: { 'k8s-app': 'calico-node' }, updateStrategy: rolling(1),
      revs: [
        { generation: 1, template: finishTemplate(calicoTemplate('v3.27.3')), createdAgo: CLUSTER_AGE - 60 },
        { generation: 2, template: finishTemplate(calicoTemplate('v3.28.1')), createdAgo: CALICO_UPGRADE },
      ] },
    { namespace: 'kube-system', name: 'ebs-csi-node', createdAgo: EBS_CREATED,
      labels: { 'app.kubernetes.io/component': 'csi-driver', 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/name': 'aws-ebs-csi-driver', 'app.kubernetes.io/version': '1.35.0', 'helm.sh/chart': 'aws-ebs-csi-driver-2.35.0' },
      annotations: { 'meta.helm.sh/release-name': 'aws-ebs-csi-driver', 'meta.helm.sh/release-namespace': 'kube-system' },
      selector: { app: 'ebs-csi-node', 'app.kubernetes.io/name': 'aws-ebs-csi-driver' }, updateStrategy: rolling('10%'),
      revs: [{ generation: 1, template: finishTemplate(ebsTemplate()), createdAgo: EBS_CREATED }] },
    { namespace: 'kube-system', name: 'kube-proxy', createdAgo: CLUSTER_AGE - 40, labels: { 'k8s-app': 'kube-proxy' },
      selector: { 'k8s-app': 'kube-proxy' }, updateStrategy: rolling(1),
      revs: [
        { generation: 1, template: finishTemplate(kubeProxyTemplate('v1.33.5')), createdAgo: CLUSTER_AGE - 40 },
        { generation: 2, template: finishTemplate(kubeProxyTemplate('v1.34.2')), createdAgo: PROXY_UPGRADE },
      ] },
    { namespace: 'kube-system', name: 'nvidia-device-plugin-daemonset', createdAgo: NVIDIA_CREATED, labels: undefined,
      selector: { name: 'nvidia-device-plugin-ds' }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revs: [{ generation: 1, template: finishTemplate(nvidiaTemplate()), createdAgo: NVIDIA_CREATED }] },
    { namespace: 'logging', name: 'fluent-bit', createdAgo: FLUENT_CREATED,
      labels: { 'app.kubernetes.io/instance': 'fluent-bit', 'app.kubernetes.io/name': 'fluent-bit' },
      selector: { 'app.kubernetes.io/instance': 'fluent-bit', 'app.kubernetes.io/name': 'fluent-bit' }, updateStrategy: rolling(1),
      revs: [
        { generation: 1, template: finishTemplate(fluentBitTemplate('3.0')), createdAgo: FLUENT_CREATED },
        { generation: 2, template: finishTemplate(fluentBitTemplate('3.1')), createdAgo: FLUENT_ROLLOUT },
      ] },
    { namespace: 'monitoring', name: 'node-exporter', createdAgo: EXPORTER_CREATED, labels: nodeExporterLabels,
      selector: { 'app.kubernetes.io/component': 'exporter', 'app.kubernetes.io/name': 'node-exporter', 'app.kubernetes.io/part-of': 'kube-prometheus' },
      updateStrategy: rolling('10%'),
      revs: [{ generation: 1, template: finishTemplate(nodeExporterTemplate()), createdAgo: EXPORTER_CREATED }] },
  ];
  const built = Object.fromEntries(dsDefs.map((d) => [d.name, { def: d, ...makeDaemonSet(d, versions) }]));

  // ----- per node pod placement (the story) -----------------------------------
  // Each entry: node -> {rev index, state, created (ago)}. Nodes absent = no pod.
  const READY = { kind: 'Running' };
  const stagger = (base, nodeName) => base - 45 * ALL_NODES.indexOf(nodeName);
  const joinedOr = (rolloutAgo, nodeName) => Math.min(rolloutAgo, nodeDefByName[nodeName].joinedAgo - 8);

  const FB_OLD_W1_DELETED = FLUENT_ROLLOUT; // rolling update deleted worker-1's 3.0 pod
  const FB_NEW_W1_CREATED = FLUENT_ROLLOUT - 12; // after the 3.0 pod's graceful termination
  const FB_W5_CREATED = WORKER5_JOINED - 5; // node added -> manage() creates with the current template
  // Crash loop timeline of worker-1's 3.1 pod: it runs ~99 s, exits 1, backs off 10s, 20s, ... 5m.
  const CRASH_RUN = 99;
  const crashStarts = [];
  {
    let tAgo = FB_NEW_W1_CREATED - 10; // first start (image pulled)
    const backoffs = [10, 20, 40, 80, 160, 300];
    for (let i = 0; i <= 6; i++) {
      crashStarts.push(tAgo);
      tAgo -= CRASH_RUN + (backoffs[i] ?? 300);
    }
  }
  const crashLastStart = crashStarts[6];
  const crashLastFinish = crashLastStart - CRASH_RUN;

  // worker-3 memory: the story's arithmetic (see README): allocatable 15491072Ki = 15128Mi.
  // daemon pods bound there request 100Mi (fluent-bit) + 30Mi (node-exporter) = 130Mi,
  // the shop pods 14848Mi -> 150Mi free; ebs-csi-node needs 256+40+40 = 336Mi.
  const EBS_W3_MESSAGE = '0/9 nodes are available: 1 Insufficient memory, 8 node(s) didn\'t satisfy plugin(s) [NodeAffinity]. preemption: 0/9 nodes are available: 1 No preemption victims found for incoming pod, 8 Preemption is not helpful for scheduling.';

  const placement = {
    'calico-node': Object.fromEntries(ALL_NODES.filter((n) => n !== 'worker-5').map((n) => [n, { rev: 1, state: READY, created: stagger(CALICO_UPGRADE, n) }])),
    'kube-proxy': Object.fromEntries(ALL_NODES.map((n) => [n, { rev: 1, state: READY, created: joinedOr(stagger(PROXY_UPGRADE, n), n) }])),
    'fluent-bit': Object.fromEntries(ALL_NODES.map((n) => [n, { rev: 0, state: READY, created: joinedOr(stagger(FLUENT_CREATED - 30, n), n) }])),
    'node-exporter': Object.fromEntries(ALL_NODES.filter((n) => !['gpu-1', 'gpu-2', 'worker-5'].includes(n)).map((n) => [n, { rev: 0, state: READY, created: joinedOr(stagger(EXPORTER_CREATED - 20, n), n) }])),
    'ebs-csi-node': Object.fromEntries(ALL_NODES.map((n) => [n, { rev: 0, state: READY, created: EBS_CREATED - 1 - ALL_NODES.indexOf(n) % 3 }])),
    'nvidia-device-plugin-daemonset': { 'gpu-1': { rev: 0, state: READY, created: NVIDIA_CREATED - 2 }, 'gpu-2': { rev: 0, state: READY, created: NVIDIA_CREATED - 2 } },
  };
  placement['fluent-bit']['worker-1'] = {
    rev: 1, created: FB_NEW_W1_CREATED,
    state: { kind: 'CrashLoopBackOff', restarts: 6, backoff: '5m0s', lastStartedAgo: crashLastStart, lastFinishedAgo: crashLastFinish },
  };
  placement['fluent-bit']['worker-5'] = { rev: 1, created: FB_W5_CREATED, state: { kind: 'ContainerCreating' } };
  placement['ebs-csi-node']['worker-3'].state = { kind: 'Unschedulable', message: EBS_W3_MESSAGE };

  // ----- nodes (need the pods' images, so build after placement is known) ----------
  const podIPs = new Map();
  const ipFor = (nodeName, key) => {
    const n = nodeDefByName[nodeName];
    const used = podIPs.get(nodeName) ?? 0;
    podIPs.set(nodeName, used + 1);
    return `192.168.${n.podNet}.${3 + used * 7 + (parseInt(sha(key).slice(0, 2), 16) % 7)}`;
  };

  const imagesOn = Object.fromEntries(ALL_NODES.map((n) => [n, new Set(['registry.k8s.io/pause:3.10'])]));
  for (const [dsName, perNode] of Object.entries(placement)) {
    const d = built[dsName].def;
    for (const [n, p] of Object.entries(perNode)) {
      if (p.state.kind === 'Unschedulable' || p.state.kind === 'ContainerCreating') continue;
      const spec = d.revs[p.rev].template.spec;
      for (const c of [...(spec.initContainers ?? []), ...spec.containers]) imagesOn[n].add(c.image);
    }
  }
  // Images of earlier revisions stay in the node's image cache.
  for (const n of ['cp-1', 'worker-1', 'worker-2', 'worker-3', 'worker-4']) {
    imagesOn[n].add('docker.io/calico/node:v3.27.3').add('docker.io/calico/cni:v3.27.3').add('registry.k8s.io/kube-proxy:v1.33.5');
  }
  imagesOn['cp-1'].add('registry.k8s.io/etcd:3.6.4-0').add('registry.k8s.io/kube-apiserver:v1.34.2')
    .add('registry.k8s.io/kube-controller-manager:v1.34.2').add('registry.k8s.io/kube-scheduler:v1.34.2')
    .add('registry.k8s.io/coredns/coredns:v1.12.1');
  imagesOn['worker-1'].add('fluent/fluent-bit:3.1');
  const SHOP_IMAGES = ['ghcr.io/acme-shop/storefront:2.14.0', 'ghcr.io/acme-shop/cart:1.9.3', 'ghcr.io/acme-shop/checkout:3.2.1', 'ghcr.io/acme-shop/recommendation:0.22.0', 'ghcr.io/acme-shop/order-export:1.4.0'];
  for (const i of SHOP_IMAGES) imagesOn['worker-3'].add(i);

  const nodeImages = (n) => [...imagesOn[n]].map((i) => ({ names: [imageId(i), imageRef(i)], sizeBytes: imageSize(i) }))
    .sort((a, b) => b.sizeBytes - a.sizeBytes);

  const nodes = nodeDefs.map((n, idx) => {
    const annotations = {
      'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock',
    };
    const calicoRuns = n.name !== 'worker-5';
    if (calicoRuns) {
      annotations['projectcalico.org/IPv4Address'] = `${n.ip}/24`;
      annotations['projectcalico.org/IPv4IPIPTunnelAddr'] = `192.168.${n.podNet}.0`;
    }
    if (n.name !== 'worker-3') annotations['csi.volume.kubernetes.io/nodeid'] = JSON.stringify({ 'ebs.csi.aws.com': `i-0${hex(`instance/${n.name}`, 16)}` });
    const instanceId = `i-0${hex(`instance/${n.name}`, 16)}`;
    return makeNode({
      name: n.name,
      region: REGION,
      zone: n.zone,
      instanceType: n.instanceType,
      labels: n.labels,
      annotations,
      joinedAgo: n.joinedAgo,
      heartbeatAgo: 20 + ((idx * 37) % 240),
      ready: n.ready !== false,
      readySinceAgo: n.joinedAgo - 40,
      notReadyMessage: n.notReadyMessage,
      networkUnavailableCondition: calicoRuns
        ? { type: 'NetworkUnavailable', status: 'False', reason: 'CalicoIsUp', message: 'Calico is running on this node', since: placement['calico-node'][n.name].created - 12 }
        : undefined,
      podCIDR: `192.168.${n.podNet}.0/24`,
      providerID: `aws:///${n.zone}/${instanceId}`,
      unschedulable: n.unschedulable,
      taints: n.taints,
      capacity: n.type.capacity,
      allocatable: n.type.allocatable,
      addresses: [
        { type: 'InternalIP', address: n.ip },
        { type: 'InternalDNS', address: `ip-${n.ip.replaceAll('.', '-')}.ec2.internal` },
        { type: 'Hostname', address: n.name },
      ],
      images: nodeImages(n.name),
    }, versions);
  });
  const nodesByName = Object.fromEntries(nodes.map((n) => [n.metadata.name, n]));

  // ----- daemon pods ------------------------------------------------------------
  const pods = [];
  const podOf = {}; // dsName -> node -> pod
  for (const [dsName, perNode] of Object.entries(placement)) {
    const b = built[dsName];
    podOf[dsName] = {};
    for (const n of ALL_NODES) {
      const p = perNode[n];
      if (!p) continue;
      const rev = b.def.revs[p.rev];
      const t = { created: p.created, scheduled: p.created - 1, started: p.created - 4, ready: p.created - 15 };
      if (p.state.kind === 'CrashLoopBackOff') t.lastWrite = p.state.lastFinishedAgo - 1;
      if (p.state.kind === 'Unschedulable') t.lastWrite = 3 * MIN;
      const pod = makeDaemonPod(b.ds, rev, n, nodesByName, p.state, t, PRIORITIES, versions, ipFor);
      pods.push(pod);
      podOf[dsName][n] = pod;
    }
  }

  // ----- shop workload on worker-3 -----------------------------------------------
  const shopApps = [
    { app: 'storefront', image: SHOP_IMAGES[0], cpu: '500m', memory: '4Gi', port: 8080 },
    { app: 'cart', image: SHOP_IMAGES[1], cpu: '250m', memory: '3Gi', port: 8080 },
    { app: 'checkout', image: SHOP_IMAGES[2], cpu: '500m', memory: '4Gi', port: 8080 },
    { app: 'recommendation', image: SHOP_IMAGES[3], cpu: '500m', memory: '3584Mi', port: 8080 },
  ];
  const SHOP_PODS_CREATED = 9 * DAY;
  const worker3 = nodesByName['worker-3'];
  shopApps.forEach((a, i) => {
    const podTemplateHash = templateHash({ app: a.app, image: a.image });
    const rsName = `${a.app}-${podTemplateHash}`;
    const name = `${rsName}-${suffix(`shop/${a.app}`)}`;
    const key = `Pod/shop/${name}`;
    const spec = admitPodSpec({
      containers: [{
        name: a.app,
        image: a.image,
        ports: [{ name: 'http', containerPort: a.port, protocol: 'TCP' }],
        env: [{ name: 'JAVA_TOOL_OPTIONS', value: '-XX:MaxRAMPercentage=75' }],
        resources: { limits: { memory: a.memory }, requests: { cpu: a.cpu, memory: a.memory } },
        readinessProbe: { httpGet: { path: '/healthz/ready', port: 'http', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      nodeName: 'worker-3',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    }, key, PRIORITIES);
    const pod = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        name,
        generateName: `${rsName}-`,
        namespace: 'shop',
        uid: uid(key),
        resourceVersion: '',
        generation: 1,
        creationTimestamp: at(SHOP_PODS_CREATED - 20 * i),
        labels: { app: a.app, 'app.kubernetes.io/part-of': 'shop', 'pod-template-hash': podTemplateHash },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rsName, uid: uid(`ReplicaSet/shop/${rsName}`), controller: true, blockOwnerDeletion: true }],
      },
      spec: finishPodSpec(spec),
    };
    const created = SHOP_PODS_CREATED - 20 * i;
    pod.status = podStatus(pod, READY, { created, scheduled: created - 1, started: created - 3, ready: created - 25 }, worker3, ipFor('worker-3', key));
    versions.add(pod, created - 25);
    pods.push(pod);
  });

  // A finished CronJob run on worker-3: Succeeded pods hold no resources (reference §4.1).
  {
    const scheduledMinute = Math.floor(Date.UTC(2026, 10, 29, 6, 0, 0) / 60000);
    const jobName = `order-export-${scheduledMinute}`;
    const name = `${jobName}-${suffix(`job/${jobName}`)}`;
    const key = `Pod/shop/${name}`;
    const jobUid = uid(`Job/shop/${jobName}`);
    const created = 6 * HOUR;
    const spec = admitPodSpec({
      containers: [{
        name: 'order-export',
        image: SHOP_IMAGES[4],
        args: ['--since=24h', '--format=parquet'],
        resources: { limits: { memory: '4Gi' }, requests: { cpu: '2', memory: '4Gi' } },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
      }],
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      nodeName: 'worker-3',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    }, key, PRIORITIES);
    const pod = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        name,
        generateName: `${jobName}-`,
        namespace: 'shop',
        uid: uid(key),
        resourceVersion: '',
        generation: 1,
        creationTimestamp: at(created),
        labels: {
          'batch.kubernetes.io/controller-uid': jobUid,
          'batch.kubernetes.io/job-name': jobName,
          'controller-uid': jobUid,
          'job-name': jobName,
        },
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: jobName, uid: jobUid, controller: true, blockOwnerDeletion: true }],
      },
      spec: finishPodSpec(spec),
    };
    const finished = created - 11 * MIN;
    pod.status = podStatus(pod, { kind: 'Succeeded', finishedAgo: finished }, { created, scheduled: created - 1, started: created - 4 }, worker3, ipFor('worker-3', key));
    versions.add(pod, finished - 1);
    pods.push(pod);
  }

  // ----- self-check of the worker-3 story (NodeResourcesFit, reference §4.5) ---------
  {
    const request = (pod, r) => pod.spec.containers.reduce((sum, c) => sum + quantity(c.resources?.requests?.[r] ?? 0), 0);
    const bound = pods.filter((p) => p.spec.nodeName === 'worker-3' && !['Succeeded', 'Failed'].includes(p.status.phase));
    const ebsPod = podOf['ebs-csi-node']['worker-3'];
    for (const r of ['memory', 'cpu']) {
      const free = quantity(worker3.status.allocatable[r]) - bound.reduce((sum, p) => sum + request(p, r), 0);
      const fits = request(ebsPod, r) <= free;
      if (fits !== (r === 'cpu')) throw new Error(`worker-3 story broken: ${r} free ${free}, ebs-csi-node requests ${request(ebsPod, r)}`);
      if (r === 'memory' && free >= 200 * 2 ** 20) throw new Error('worker-3 should have less than 200Mi free');
    }
  }

  // ----- DaemonSet status (§3.8) --------------------------------------------------
  for (const b of Object.values(built)) {
    const cur = b.def.revs[b.def.revs.length - 1];
    b.ds.status = daemonSetStatus(b.ds, nodes, pods, cur.hash);
  }
  const dsLastWrite = {
    'calico-node': CALICO_UPGRADE - 600, 'kube-proxy': WORKER5_JOINED - 30, 'fluent-bit': WORKER5_JOINED - 10,
    'node-exporter': EXPORTER_CREATED - 100, 'ebs-csi-node': EBS_CREATED - 40, 'nvidia-device-plugin-daemonset': NVIDIA_CREATED - 60,
  };
  for (const [name, b] of Object.entries(built)) versions.add(b.ds, dsLastWrite[name]);

  // ----- events ------------------------------------------------------------------
  const events = [];
  const ev = (e) => events.push(makeEvent(e, versions));
  const fb = built['fluent-bit'].ds;
  const fbW1 = podOf['fluent-bit']['worker-1'];
  const fbW5 = podOf['fluent-bit']['worker-5'];
  const oldW1Name = `fluent-bit-${suffix('pod/logging/fluent-bit/worker-1/old')}`;
  ev({ object: fb, reason: 'SuccessfulDelete', message: `Deleted pod: ${oldW1Name}`, component: 'daemonset-controller', firstAgo: FB_OLD_W1_DELETED });
  ev({ object: fb, reason: 'SuccessfulCreate', message: `Created pod: ${fbW1.metadata.name}`, component: 'daemonset-controller', firstAgo: FB_NEW_W1_CREATED });
  ev({ object: fb, reason: 'SuccessfulCreate', message: `Created pod: ${fbW5.metadata.name}`, component: 'daemonset-controller', firstAgo: FB_W5_CREATED });

  const fbImage = 'fluent/fluent-bit:3.1';
  const w1 = { component: 'kubelet', host: 'worker-1', object: fbW1, fieldPath: 'spec.containers{fluent-bit}' };
  ev({ object: fbW1, reason: 'Scheduled', message: `Successfully assigned logging/${fbW1.metadata.name} to worker-1`, component: 'default-scheduler', firstAgo: FB_NEW_W1_CREATED - 1 });
  ev({ ...w1, reason: 'Pulling', message: `Pulling image "${fbImage}"`, firstAgo: FB_NEW_W1_CREATED - 3 });
  ev({ ...w1, reason: 'Pulled', message: `Successfully pulled image "${fbImage}" in 6.214s (6.214s including waiting). Image size: ${imageSize(fbImage)} bytes.`, firstAgo: FB_NEW_W1_CREATED - 9 });
  ev({ ...w1, reason: 'Created', message: 'Created container: fluent-bit', firstAgo: crashStarts[0] + 1, lastAgo: crashLastStart + 1, count: 7 });
  ev({ ...w1, reason: 'Started', message: 'Started container fluent-bit', firstAgo: crashStarts[0], lastAgo: crashLastStart, count: 7 });
  ev({ ...w1, reason: 'Pulled', message: `Container image "${fbImage}" already present on machine`, firstAgo: crashStarts[1] + 1, lastAgo: crashLastStart + 1, count: 6 });
  ev({ ...w1, reason: 'Unhealthy', type: 'Warning', message: 'Readiness probe failed: HTTP probe failed with statuscode: 500', firstAgo: crashStarts[0] - 8, lastAgo: crashLastFinish + 4, count: 61 });
  ev({ ...w1, reason: 'BackOff', type: 'Warning', message: `Back-off restarting failed container fluent-bit in pod ${fbW1.metadata.name}_logging(${fbW1.metadata.uid})`, firstAgo: crashStarts[0] - CRASH_RUN - 1, lastAgo: 7, count: 38 });

  ev({ object: fbW5, reason: 'Scheduled', message: `Successfully assigned logging/${fbW5.metadata.name} to worker-5`, component: 'default-scheduler', firstAgo: FB_W5_CREATED - 1 });
  // The kubelet does not try to create a sandbox for a non-hostNetwork pod while the
  // runtime reports NetworkReady=false; it records NetworkNotReady on each sync instead.
  ev({ object: fbW5, reason: 'NetworkNotReady', type: 'Warning', component: 'kubelet', host: 'worker-5',
    message: `network is not ready: ${NOT_READY_MSG}`, firstAgo: FB_W5_CREATED - 2, lastAgo: 4, count: 112 });

  const ebs = built['ebs-csi-node'].ds;
  for (const n of ALL_NODES) {
    const p = podOf['ebs-csi-node'][n];
    ev({ object: ebs, reason: 'SuccessfulCreate', message: `Created pod: ${p.metadata.name}`, component: 'daemonset-controller', firstAgo: EBS_CREATED - 1 - ALL_NODES.indexOf(n) % 3 });
  }
  const ebsW3 = podOf['ebs-csi-node']['worker-3'];
  const ebsW3Created = (Date.parse(NOW_ISO) - Date.parse(ebsW3.metadata.creationTimestamp)) / 1000;
  ev({ object: ebsW3, reason: 'FailedScheduling', type: 'Warning', component: 'default-scheduler', message: EBS_W3_MESSAGE, firstAgo: ebsW3Created - 1, lastAgo: 3 * MIN, count: 6 });

  const w5 = nodesByName['worker-5'];
  const nodeEv = (reason, message, dt, extra = {}) => ev({ object: w5, involvedUid: 'worker-5', reason, message, component: 'kubelet', host: 'worker-5', firstAgo: WORKER5_JOINED + dt, ...extra });
  nodeEv('Starting', 'Starting kubelet.', 12);
  nodeEv('NodeHasSufficientMemory', 'Node worker-5 status is now: NodeHasSufficientMemory', 11, { count: 2, lastAgo: WORKER5_JOINED + 2 });
  nodeEv('NodeHasNoDiskPressure', 'Node worker-5 status is now: NodeHasNoDiskPressure', 11, { count: 2, lastAgo: WORKER5_JOINED + 2 });
  nodeEv('NodeHasSufficientPID', 'Node worker-5 status is now: NodeHasSufficientPID', 11, { count: 2, lastAgo: WORKER5_JOINED + 2 });
  nodeEv('NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', 10);
  ev({ object: w5, reason: 'RegisteredNode', message: 'Node worker-5 event: Registered Node worker-5 in Controller', component: 'node-controller', firstAgo: WORKER5_JOINED - 4 });

  // ----- services, endpoint slices, PDB, namespaces, priority classes -------------
  const nsCreated = { default: CLUSTER_AGE, 'kube-node-lease': CLUSTER_AGE, 'kube-public': CLUSTER_AGE, 'kube-system': CLUSTER_AGE, logging: FLUENT_CREATED + 120, monitoring: EXPORTER_CREATED + 60, shop: 45 * DAY };
  const namespaces = Object.entries(nsCreated).map(([n, a]) => makeNamespace(n, a, versions));

  const services = [
    makeService({ namespace: 'default', name: 'kubernetes', createdAgo: CLUSTER_AGE, labels: { component: 'apiserver', provider: 'kubernetes' },
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }], clusterIP: '10.96.0.1' }, versions),
    makeService({ namespace: 'kube-system', name: 'kube-dns', createdAgo: CLUSTER_AGE - 30,
      labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
      annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
      ports: [
        { name: 'dns', protocol: 'UDP', port: 53, targetPort: 53 },
        { name: 'dns-tcp', protocol: 'TCP', port: 53, targetPort: 53 },
        { name: 'metrics', protocol: 'TCP', port: 9153, targetPort: 9153 },
      ], selector: { 'k8s-app': 'kube-dns' }, clusterIP: '10.96.0.10' }, versions),
    makeService({ namespace: 'monitoring', name: 'node-exporter', createdAgo: EXPORTER_CREATED, labels: nodeExporterLabels,
      ports: [{ name: 'metrics', protocol: 'TCP', port: 9100, targetPort: 'metrics' }],
      selector: { 'app.kubernetes.io/component': 'exporter', 'app.kubernetes.io/name': 'node-exporter', 'app.kubernetes.io/part-of': 'kube-prometheus' },
      clusterIP: 'None' }, versions),
  ];
  const neSvc = services[2];

  const endpointSlices = [];
  {
    const cpIP = nodesByName['cp-1'].status.addresses[0].address;
    endpointSlices.push(versions.add({
      addressType: 'IPv4',
      apiVersion: 'discovery.k8s.io/v1',
      endpoints: [{ addresses: [cpIP], conditions: { ready: true } }],
      kind: 'EndpointSlice',
      metadata: {
        creationTimestamp: at(CLUSTER_AGE),
        generation: 1,
        labels: { 'kubernetes.io/service-name': 'kubernetes' },
        name: 'kubernetes',
        namespace: 'default',
        resourceVersion: '',
        uid: uid('EndpointSlice/default/kubernetes'),
      },
      ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
    }, CLUSTER_AGE));
    const nePods = Object.entries(podOf['node-exporter']).filter(([, p]) => podReady(p));
    const sliceName = `node-exporter-${suffix('endpointslice/monitoring/node-exporter')}`;
    endpointSlices.push(versions.add({
      addressType: 'IPv4',
      apiVersion: 'discovery.k8s.io/v1',
      endpoints: nePods.map(([n, p]) => ({
        addresses: [p.status.podIP],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: n,
        targetRef: { kind: 'Pod', name: p.metadata.name, namespace: 'monitoring', uid: p.metadata.uid },
        zone: nodesByName[n].metadata.labels['topology.kubernetes.io/zone'],
      })),
      kind: 'EndpointSlice',
      metadata: {
        annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': at(CORDONED + 2 * DAY) },
        creationTimestamp: at(EXPORTER_CREATED),
        generateName: 'node-exporter-',
        generation: 7,
        labels: {
          ...nodeExporterLabels,
          'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
          'kubernetes.io/service-name': 'node-exporter',
          'service.kubernetes.io/headless': '',
        },
        name: sliceName,
        namespace: 'monitoring',
        ownerReferences: [{ apiVersion: 'v1', blockOwnerDeletion: true, controller: true, kind: 'Service', name: 'node-exporter', uid: neSvc.metadata.uid }],
        resourceVersion: '',
        uid: uid(`EndpointSlice/monitoring/${sliceName}`),
      },
      ports: [{ name: 'metrics', port: 9100, protocol: 'TCP' }],
    }, EXPORTER_CREATED - 200));
  }

  const priorityClasses = [
    versions.add({
      apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass',
      description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
      metadata: { creationTimestamp: at(CLUSTER_AGE + 30), generation: 1, name: 'system-cluster-critical', resourceVersion: '', uid: uid('PriorityClass/system-cluster-critical') },
      preemptionPolicy: 'PreemptLowerPriority', value: 2000000000,
    }, CLUSTER_AGE + 30),
    versions.add({
      apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass',
      description: 'Used for system critical pods that must not be moved from their current node.',
      metadata: { creationTimestamp: at(CLUSTER_AGE + 30), generation: 1, name: 'system-node-critical', resourceVersion: '', uid: uid('PriorityClass/system-node-critical') },
      preemptionPolicy: 'PreemptLowerPriority', value: 2000001000,
    }, CLUSTER_AGE + 30),
  ];

  const pdbs = [versions.add({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { creationTimestamp: at(45 * DAY), generation: 1, labels: { app: 'storefront', 'app.kubernetes.io/part-of': 'shop' }, name: 'storefront', namespace: 'shop', resourceVersion: '', uid: uid('PodDisruptionBudget/shop/storefront') },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'storefront' } } },
    status: {
      conditions: [{ lastTransitionTime: at(SHOP_PODS_CREATED - 30), message: '', observedGeneration: 1, reason: 'InsufficientPods', status: 'False', type: 'DisruptionAllowed' }],
      currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 0, expectedPods: 1, observedGeneration: 1,
    },
  }, SHOP_PODS_CREATED - 30)];

  versions.assign();
  finishEvents(events);

  const dss = Object.values(built).map((b) => b.ds);
  const revisions = Object.values(built).flatMap((b) => b.revisions);
  const files = {
    'nodes.yaml': nodes,
    'daemonsets.yaml': dss,
    'pods.yaml': pods,
    'events.yaml': events,
    'controllerrevisions.yaml': revisions,
    'services.yaml': services,
    'endpointslices.yaml': endpointSlices,
    'namespaces.yaml': namespaces,
    'priorityclasses.yaml': priorityClasses,
    'poddisruptionbudgets.yaml': pdbs,
  };
  for (const [f, items] of Object.entries(files)) {
    writeFile(`fixtures/demo/${f}`, toYaml(kubectlList([...items].sort(byKey))));
  }
}

// ---------------------------------------------------------------------------
// Task 2: fixtures/cluster-info-dump — a 3-node cluster in cluster-info dump layout
// ---------------------------------------------------------------------------

function buildClusterInfoDump() {
  const versions = new Versions(1_840_000);
  const OUT = 'fixtures/cluster-info-dump';
  const CLUSTER_AGE = 40 * DAY;
  const ROLLOUT = 35 * MIN;
  const PRIORITIES = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };
  const cap = { cpu: '8', 'ephemeral-storage': '203056560Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '32780324Ki', pods: '110' };
  const alloc = { cpu: '7910m', 'ephemeral-storage': '187136044798', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '31629348Ki', pods: '110' };
  const nodeDefs = [
    { name: 'node-a', ip: '10.10.0.11', podNet: '10.244.0.0/24', joinedAgo: CLUSTER_AGE },
    { name: 'node-b', ip: '10.10.0.12', podNet: '10.244.1.0/24', joinedAgo: CLUSTER_AGE - 300 },
    { name: 'node-c', ip: '10.10.0.13', podNet: '10.244.2.0/24', joinedAgo: CLUSTER_AGE - 360,
      labels: { 'node-role.kubernetes.io/infra': '', dedicated: 'infra' },
      taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] },
  ];
  const proxyImage = (v) => `registry.k8s.io/kube-proxy:${v}`;
  const neImage = 'quay.io/prometheus/node-exporter:v1.8.2';

  const nodes = nodeDefs.map((n, i) => {
    const images = [proxyImage('v1.34.2'), 'registry.k8s.io/pause:3.10'];
    if (n.name !== 'node-c') images.push(neImage);
    return makeNode({
      name: n.name,
      labels: n.labels,
      annotations: { 'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock' },
      joinedAgo: n.joinedAgo,
      heartbeatAgo: 40 + i * 70,
      ready: true,
      readySinceAgo: n.joinedAgo - 35,
      podCIDR: n.podNet,
      taints: n.taints,
      capacity: cap,
      allocatable: alloc,
      addresses: [{ type: 'InternalIP', address: n.ip }, { type: 'Hostname', address: n.name }],
      images: images.map((im) => ({ names: [imageId(im), imageRef(im)], sizeBytes: imageSize(im) })).sort((a, b) => b.sizeBytes - a.sizeBytes),
      kernelVersion: '6.1.0-28-amd64',
    }, versions);
  });
  // A bare-metal cluster: no cloud labels, no providerID.
  for (const n of nodes) {
    for (const k of Object.keys(n.metadata.labels)) if (/instance-type|region|zone/.test(k)) delete n.metadata.labels[k];
    n.status.nodeInfo.osImage = 'Debian GNU/Linux 12 (bookworm)';
  }
  const nodesByName = Object.fromEntries(nodes.map((n) => [n.metadata.name, n]));

  const hostPath = (name, p, type) => ({ name, hostPath: { path: p, type: type ?? '' } });
  const proxyTemplate = (v) => ({
    metadata: { creationTimestamp: null, labels: { 'k8s-app': 'kube-proxy' } },
    spec: finishPodSpec({
      volumes: [
        { name: 'kube-proxy', configMap: { name: 'kube-proxy', defaultMode: 420 } },
        hostPath('xtables-lock', '/run/xtables.lock', 'FileOrCreate'),
        hostPath('lib-modules', '/lib/modules'),
      ],
      containers: [{
        name: 'kube-proxy',
        image: proxyImage(v),
        command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
        env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
        resources: {},
        volumeMounts: [
          { name: 'kube-proxy', mountPath: '/var/lib/kube-proxy' },
          { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
          { name: 'lib-modules', readOnly: true, mountPath: '/lib/modules' },
        ],
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
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
    }),
  });
  const neLabels = { 'app.kubernetes.io/name': 'node-exporter' };
  const neTemplate = () => ({
    metadata: { creationTimestamp: null, labels: neLabels },
    spec: finishPodSpec({
      volumes: [hostPath('proc', '/proc'), hostPath('sys', '/sys'), hostPath('root', '/')],
      containers: [{
        name: 'node-exporter',
        image: neImage,
        args: ['--web.listen-address=:9100', '--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--path.rootfs=/host/root'],
        ports: [{ name: 'metrics', hostPort: 9100, containerPort: 9100, protocol: 'TCP' }],
        resources: { limits: { memory: '60Mi' }, requests: { cpu: '50m', memory: '30Mi' } },
        volumeMounts: [
          { name: 'proc', readOnly: true, mountPath: '/host/proc' },
          { name: 'sys', readOnly: true, mountPath: '/host/sys' },
          { name: 'root', readOnly: true, mountPath: '/host/root', mountPropagation: 'HostToContainer' },
        ],
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
        securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirstWithHostNet',
      serviceAccountName: 'node-exporter',
      serviceAccount: 'node-exporter',
      automountServiceAccountToken: false,
      hostNetwork: true,
      hostPID: true,
      securityContext: { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true },
      schedulerName: 'default-scheduler',
    }),
  });
  // ControllerRevisions are not part of a cluster-info dump; makeDaemonSet still
  // computes each revision's hash (stored on the def), which the pods' labels carry.
  const proxyDef = {
    namespace: 'kube-system', name: 'kube-proxy', createdAgo: CLUSTER_AGE - 20, labels: { 'k8s-app': 'kube-proxy' },
    selector: { 'k8s-app': 'kube-proxy' }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    revs: [
      { generation: 1, template: proxyTemplate('v1.34.2'), createdAgo: CLUSTER_AGE - 20 },
      { generation: 2, template: proxyTemplate('v1.34.99'), createdAgo: ROLLOUT },
    ],
  };
  const neDef = {
    namespace: 'monitoring', name: 'node-exporter', createdAgo: 12 * DAY, labels: neLabels,
    selector: neLabels, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    revs: [{ generation: 1, template: neTemplate(), createdAgo: 12 * DAY }],
  };
  const scratch = new Versions(0); // revisions are not written, keep them out of the real versions
  const proxy = makeDaemonSet(proxyDef, scratch);
  const ne = makeDaemonSet(neDef, scratch);
  const neRev = neDef.revs[0];

  const READY = { kind: 'Running' };
  const noIP = () => undefined;
  const pods = [];
  const proxyPods = {};
  for (const n of ['node-a', 'node-b', 'node-c']) {
    const idx = ['node-a', 'node-b', 'node-c'].indexOf(n);
    let p;
    if (n === 'node-b') {
      const created = ROLLOUT - 14;
      p = makeDaemonPod(proxy.ds, proxyDef.revs[1], n, nodesByName, { kind: 'ImagePullBackOff' },
        { created, scheduled: created - 1, started: created - 3, lastWrite: 20 }, PRIORITIES, versions, noIP);
    } else {
      const created = CLUSTER_AGE - 25 - 40 * idx;
      p = makeDaemonPod(proxy.ds, proxyDef.revs[0], n, nodesByName, READY,
        { created, scheduled: created - 1, started: created - 3, ready: created - 8 }, PRIORITIES, versions, noIP);
    }
    proxyPods[n] = p;
    pods.push(p);
  }
  const nePods = {};
  for (const n of ['node-a', 'node-b']) {
    const created = 12 * DAY - 3 - (n === 'node-b' ? 1 : 0);
    const p = makeDaemonPod(ne.ds, neRev, n, nodesByName, READY,
      { created, scheduled: created - 1, started: created - 3, ready: created - 9 }, PRIORITIES, versions, noIP);
    nePods[n] = p;
    pods.push(p);
  }
  proxy.ds.status = daemonSetStatus(proxy.ds, nodes, pods, proxyDef.revs[1].hash);
  ne.ds.status = daemonSetStatus(ne.ds, nodes, pods, neRev.hash);
  versions.add(proxy.ds, ROLLOUT - 20);
  versions.add(ne.ds, 12 * DAY - 20);

  const events = [];
  const ev = (e) => events.push(makeEvent(e, versions));
  const bad = proxyPods['node-b'];
  const badImage = proxyImage('v1.34.99');
  const oldB = `kube-proxy-${suffix('pod/kube-system/kube-proxy/node-b/old')}`;
  ev({ object: proxy.ds, reason: 'SuccessfulDelete', message: `Deleted pod: ${oldB}`, component: 'daemonset-controller', firstAgo: ROLLOUT - 1 });
  ev({ object: proxy.ds, reason: 'SuccessfulCreate', message: `Created pod: ${bad.metadata.name}`, component: 'daemonset-controller', firstAgo: ROLLOUT - 14 });
  const kb = { component: 'kubelet', host: 'node-b', object: bad, fieldPath: 'spec.containers{kube-proxy}' };
  ev({ object: bad, reason: 'Scheduled', message: `Successfully assigned kube-system/${bad.metadata.name} to node-b`, component: 'default-scheduler', firstAgo: ROLLOUT - 15 });
  ev({ ...kb, reason: 'Pulling', message: `Pulling image "${badImage}"`, firstAgo: ROLLOUT - 17, lastAgo: 4 * MIN + 10, count: 8 });
  const ref = badImage;
  ev({ ...kb, reason: 'Failed', type: 'Warning', message: `Failed to pull image "${badImage}": rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`, firstAgo: ROLLOUT - 18, lastAgo: 4 * MIN + 9, count: 8 });
  ev({ ...kb, reason: 'Failed', type: 'Warning', message: 'Error: ErrImagePull', firstAgo: ROLLOUT - 18, lastAgo: 4 * MIN + 9, count: 8 });
  ev({ ...kb, reason: 'BackOff', message: `Back-off pulling image "${badImage}"`, firstAgo: ROLLOUT - 19, lastAgo: 20, count: 141 });
  ev({ ...kb, reason: 'Failed', type: 'Warning', message: 'Error: ImagePullBackOff', firstAgo: ROLLOUT - 19, lastAgo: 20, count: 141 });

  const svcKubernetes = makeService({ namespace: 'default', name: 'kubernetes', createdAgo: CLUSTER_AGE + 10, labels: { component: 'apiserver', provider: 'kubernetes' },
    ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }], clusterIP: '10.96.0.1' }, versions);
  const svcNe = makeService({ namespace: 'monitoring', name: 'node-exporter', createdAgo: 12 * DAY, labels: neLabels,
    ports: [{ name: 'metrics', protocol: 'TCP', port: 9100, targetPort: 9100 }], selector: neLabels, clusterIP: 'None' }, versions);

  const listRV = versions.assign();
  finishEvents(events);

  // Typed lists as the JSON printer writes them: kind, apiVersion, metadata, items;
  // items carry no kind/apiVersion (they are stripped from typed list items).
  const strip = (o) => {
    const { kind, apiVersion, ...rest } = o;
    return rest;
  };
  const list = (kind, apiVersion, items) => ({ kind, apiVersion, metadata: { resourceVersion: listRV }, items: [...items].sort(byKey).map(strip) });
  // encoding/json writes struct fields in declaration order but map keys sorted.
  const MAP_FIELDS = new Set(['labels', 'annotations', 'capacity', 'allocatable', 'nodeSelector', 'matchLabels', 'selector', 'requests', 'limits']);
  const sortMaps = (v, key) => {
    if (Array.isArray(v)) return v.map((x) => sortMaps(x));
    if (!v || typeof v !== 'object') return v;
    const keys = MAP_FIELDS.has(key) ? Object.keys(v).sort() : Object.keys(v);
    return Object.fromEntries(keys.map((k) => [k, sortMaps(v[k], k)]));
  };
  const json = (o) => `${JSON.stringify(sortMaps(clone(o)), null, 4)}\n`;

  writeFile(`${OUT}/nodes.json`, json(list('NodeList', 'v1', nodes)));
  const namespaces = ['default', 'kube-node-lease', 'kube-public', 'kube-system', 'monitoring'];
  const inNs = (ns, arr) => arr.filter((o) => o.metadata.namespace === ns);
  for (const ns of namespaces) {
    writeFile(`${OUT}/${ns}/events.json`, json(list('EventList', 'v1', inNs(ns, events))));
    writeFile(`${OUT}/${ns}/replication-controllers.json`, json(list('ReplicationControllerList', 'v1', [])));
    writeFile(`${OUT}/${ns}/services.json`, json(list('ServiceList', 'v1', inNs(ns, [svcKubernetes, svcNe]))));
    writeFile(`${OUT}/${ns}/daemonsets.json`, json(list('DaemonSetList', 'apps/v1', inNs(ns, [proxy.ds, ne.ds]))));
    writeFile(`${OUT}/${ns}/deployments.json`, json(list('DeploymentList', 'apps/v1', [])));
    writeFile(`${OUT}/${ns}/replicasets.json`, json(list('ReplicaSetList', 'apps/v1', [])));
    writeFile(`${OUT}/${ns}/pods.json`, json(list('PodList', 'v1', inNs(ns, pods))));
  }

  // Container logs, framed the way cluster-info dump frames them.
  // Log lines at `startAgo` seconds before NOW plus a growing, deterministic offset in microseconds.
  const logClock = (startAgo, seed) => {
    let micros = (NOW - startAgo * 1000) * 1000 + (parseInt(sha(seed).slice(0, 4), 16) % 1000) * 7;
    return (seedLine) => {
      micros += 200 + (parseInt(sha(`${seed}/${seedLine}`).slice(0, 4), 16) % 40000);
      return { date: new Date(Math.floor(micros / 1000)), micros: micros % 1000000 };
    };
  };
  const pad = (v, n = 2) => String(v).padStart(n, '0');
  const klogLine = (clock, file, msg) => {
    const { date: d, micros } = clock(msg);
    return `I${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(micros, 6)}       1 ${file}] ${msg}`;
  };
  const logs = (pod, body) => {
    const c = pod.spec.containers[0].name;
    const id = `${pod.metadata.namespace}/${pod.metadata.name}`;
    return `==== START logs for container ${c} of pod ${id} ====\n${body}==== END logs for container ${c} of pod ${id} ====\n`;
  };
  for (const n of ['node-a', 'node-c']) {
    const p = proxyPods[n];
    const t0 = CLUSTER_AGE - 30 - 40 * ['node-a', 'node-b', 'node-c'].indexOf(n);
    const ip = nodesByName[n].status.addresses[0].address;
    const clock = logClock(t0, `log/${p.metadata.name}`);
    const lines = [
      ['server_linux.go:66', '"Using iptables proxy"'],
      ['server.go:698', `"Successfully retrieved node IP(s)" IPs=["${ip}"]`],
      ['server_linux.go:147', '"No iptables support for family" ipFamily="IPv6"'],
      ['server.go:245', '"kube-proxy running in single-stack mode" ipFamily="IPv4"'],
      ['server.go:483', '"Version info" version="v1.34.2"'],
      ['config.go:199', '"Starting service config controller"'],
      ['config.go:105', '"Starting endpoint slice config controller"'],
      ['config.go:329', '"Starting node config controller"'],
      ['shared_informer.go:356', '"Caches are synced" controller="service config"'],
      ['shared_informer.go:356', '"Caches are synced" controller="endpoint slice config"'],
      ['shared_informer.go:356', '"Caches are synced" controller="node config"'],
    ].map(([file, msg]) => klogLine(clock, file, msg));
    writeFile(`${OUT}/kube-system/${p.metadata.name}/logs.txt`, logs(p, `${lines.join('\n')}\n`));
  }
  const h = (p) => p.metadata.labels['controller-revision-hash'];
  writeFile(`${OUT}/README.md`, `# cluster-info dump fixture

The layout \`kubectl cluster-info dump --all-namespaces --output-directory=DIR\` writes:
top-level \`nodes.json\`, and per namespace \`events.json\`, \`replication-controllers.json\`,
\`services.json\`, \`daemonsets.json\`, \`deployments.json\`, \`replicasets.json\`, \`pods.json\`
(typed lists printed as JSON with 4-space indentation; list items carry no
\`kind\`/\`apiVersion\`), plus \`<namespace>/<pod>/logs.txt\` for every pod. (This README is not
part of kubectl's output.)

**Evaluation instant: \`${NOW_ISO}\`** (run with \`--now ${NOW_ISO}\`). Generated by
\`node scripts/make-demo.mjs\`; do not edit by hand.

Cluster: three Ready nodes, Kubernetes v1.34.2. \`node-a\` and \`node-b\` are untainted;
\`node-c\` carries the custom taint \`dedicated=infra:NoSchedule\`.

- **kube-system/kube-proxy** (blanket toleration \`operator: Exists\`, RollingUpdate
  maxUnavailable 1). Its image was changed ${Math.round(ROLLOUT / MIN)} minutes ago from
  \`registry.k8s.io/kube-proxy:v1.34.2\` (revision hash \`${h(proxyPods['node-a'])}\`,
  generation 1) to the non-existent \`registry.k8s.io/kube-proxy:v1.34.99\` (hash
  \`${h(bad)}\`, generation 2). The controller replaced node-b's pod first; the new pod
  \`${bad.metadata.name}\` is in \`ImagePullBackOff\` (\`Back-off pulling image
  "registry.k8s.io/kube-proxy:v1.34.99"\`, \`Failed\` events \`Failed to pull image … not found\`,
  \`Error: ErrImagePull\`, \`Error: ImagePullBackOff\`). With one pod unavailable the budget is
  used up, so node-a (\`${proxyPods['node-a'].metadata.name}\`) and node-c
  (\`${proxyPods['node-c'].metadata.name}\`) keep running the old, Ready v1.34.2 pods.
  Verdicts: node-a Healthy, **node-b Unhealthy (ImagePullBackOff)**, node-c Healthy.
  Status: desired 3, current 3, ready 2, available 2, unavailable 1, updated 1,
  observedGeneration 2. Rollout: Stuck.
- **monitoring/node-exporter** (no tolerations, hostNetwork, hostPort 9100). Healthy on
  node-a (\`${nePods['node-a'].metadata.name}\`) and node-b (\`${nePods['node-b'].metadata.name}\`);
  **node-c Excluded** by the untolerated taint \`dedicated=infra:NoSchedule\`. Status: desired 2,
  current 2, ready 2, available 2, updated 2.

\`default\`, \`kube-node-lease\` and \`kube-public\` hold only empty lists (and the
\`default/kubernetes\` Service). Not in a cluster-info dump, hence absent: ControllerRevisions,
Namespaces, PriorityClasses, EndpointSlices, PodDisruptionBudgets.
`);
  writeFile(`${OUT}/kube-system/${bad.metadata.name}/logs.txt`, logs(bad,
    `Request log error: container "kube-proxy" in pod "${bad.metadata.name}" is waiting to start: trying and failing to pull image\n`));
  for (const [n, p] of Object.entries(nePods)) {
    const t0 = 12 * DAY - 12 - (n === 'node-b' ? 1 : 0);
    // node_exporter 1.8 still logs with go-kit (logfmt with ts/caller/level).
    const clock = logClock(t0, `log/${p.metadata.name}`);
    const lines = [
      ['node_exporter.go:193', 'msg="Starting node_exporter" version="(version=1.8.2, branch=HEAD, revision=f1e0e8360aa60b6cb5e5cc1560bed348fc2c1895)"'],
      ['node_exporter.go:194', 'msg="Build context" build_context="(go=go1.22.5, platform=linux/amd64, user=root@03d440803209, date=20240714-11:53:45, tags=unknown)"'],
      ['filesystem_common.go:111', 'collector=filesystem msg="Parsed flag --collector.filesystem.mount-points-exclude" flag=^/(dev|proc|run/credentials/.+|sys|var/lib/docker/.+|var/lib/containers/storage/.+)($|/)'],
      ['node_exporter.go:111', 'msg="Enabled collectors"'],
      ['node_exporter.go:118', 'collector=cpu'],
      ['node_exporter.go:118', 'collector=filesystem'],
      ['node_exporter.go:118', 'collector=meminfo'],
      ['node_exporter.go:118', 'collector=netdev'],
      ['tls_config.go:313', 'msg="Listening on" address=[::]:9100'],
      ['tls_config.go:316', 'msg="TLS is disabled." http2=false address=[::]:9100'],
    ].map(([caller, rest]) => {
      const { date, micros } = clock(rest);
      return `ts=${date.toISOString().replace(/Z$/, '')}${pad(micros % 1000, 3)}Z caller=${caller} level=info ${rest}`;
    });
    writeFile(`${OUT}/monitoring/${p.metadata.name}/logs.txt`, logs(p, `${lines.join('\n')}\n`));
  }
}

// ---------------------------------------------------------------------------

// Regenerate from scratch (fixtures/demo/README.md is written by hand and kept).
const demoDir = path.join(ROOT, 'fixtures/demo');
if (fs.existsSync(demoDir)) for (const f of fs.readdirSync(demoDir)) if (f.endsWith('.yaml')) fs.rmSync(path.join(demoDir, f));
fs.rmSync(path.join(ROOT, 'fixtures/cluster-info-dump'), { recursive: true, force: true });
buildDemo();
buildClusterInfoDump();
console.log('wrote fixtures/demo and fixtures/cluster-info-dump');
