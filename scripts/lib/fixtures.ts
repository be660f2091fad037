// Building blocks of the fixture generators (scripts/make-demo.ts, scripts/make-scenarios.ts,
// scripts/make-impact.ts; all run by `npm run fixtures`): YAML output, resourceVersions, and
// Kubernetes objects built the way the API server and the DaemonSet controller write them.
// Time and identities come from test/kube/ (the builder library the unit tests use); placement,
// tolerations, status, availability and the scheduler's filters are src/k8s's own mirrors of
// upstream, so the fixtures and the tool cannot disagree on what Kubernetes would do.
//
// Everything is derived from names (sha256 / FNV-32a), never from the clock or Math.random, so
// the generators write byte-identical files on every run. Section numbers ("docs/semantics.md §3.8")
// point into docs/semantics.md, the upstream behaviours the tool mirrors.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import type {
  Affinity, Container, ContainerPort, ControllerRevision, DaemonSet, DaemonSetStatus, KubeEvent, Namespace, Node,
  NodeCondition, OwnerReference, Pod, PodCondition, PodSpec, PodStatus, PriorityClass, Taint, Toleration, Volume,
} from '../../src/model/k8s-types.js';
import type { BuiltDaemonSet, BuiltNode, BuiltPod, BuiltPodSpec, BuiltTemplate } from '../../test/kube/types.js';
import { emptySnapshot } from '../../src/model/snapshot.js';
import { SnapshotIndex } from '../../src/model/snapshot-index.js';
import { daemonPodTolerations, nodeShouldRunDaemonPod } from '../../src/k8s/daemonpod.js';
import { isPodAvailable, isPodTerminal } from '../../src/k8s/podutil.js';
import { allocatable, podRequests } from '../../src/k8s/resources.js';
import { runFilters } from '../../src/k8s/scheduler.js';

export { isPodTerminal as isTerminal } from '../../src/k8s/podutil.js';
export { targetNodeName as targetNode } from '../../src/k8s/daemonpod.js';
export { resourceAmount } from '../../src/k8s/quantity.js';
import { recomputeStatus } from '../../src/k8s/status.js';
import { NOW, at } from '../../test/kube/time.js';
import { hex, sha, suffix, templateHash, uid } from '../../test/kube/ids.js';

export { SAFE, fnv32a, sha, suffix, templateHash, uid } from '../../test/kube/ids.js';

export { DAY, HOUR, MIN, NOW_ISO, at, secondsBefore as ago } from '../../test/kube/time.js';

/** The repository root (this file runs as dist/scripts/lib/fixtures.js); `writeFile` paths are relative to it. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A plain JSON object under construction (fields are filled in API order, then typed by the caller). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** Any built object, as the listing and versioning helpers see it. */
type Listed = { kind?: string; metadata?: { name?: string; namespace?: string; resourceVersion?: string } };

/** The result of crashLoop: the starts (seconds ago), the last run, and the back-off NOW falls in. */
export interface CrashLoop {
  starts: number[];
  run: number;
  restarts: number;
  lastStartedAgo: number;
  lastFinishedAgo: number;
  backoff: string;
  waited: number;
}

/** What kubeletConditions needs: the last heartbeat, when the node joined, and its health. */
export interface KubeletState {
  heartbeatAgo: number;
  joinedAgo: number;
  ready?: boolean;
  readySinceAgo?: number;
  notReadyMessage?: string;
  memoryPressureSince?: number;
}

/** An instance type: its name and the node's capacity and allocatable. */
export interface InstanceType {
  instanceType: string;
  capacity: Record<string, string>;
  allocatable: Record<string, string>;
}

/** What makeNode builds a Node from. */
export interface NodeDef {
  name: string;
  ip: string;
  joinedAgo: number;
  conditions: NodeCondition[];
  type: InstanceType;
  podCIDR: string;
  region?: string;
  zone?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  unschedulable?: boolean;
  taints?: Taint[];
  images?: { names: string[]; sizeBytes: number }[];
  kernelVersion?: string;
  osImage?: string;
}

/** Hands out a pod IP on a node for a pod key. */
export type IPAllocator = (nodeName: string, podKey: string) => string;

/** The options of nodeExporterTemplate. */
export interface NodeExporterOptions {
  version?: string;
  memoryLimit?: string;
  extraArgs?: string[];
  explicitHostPort?: boolean;
  priorityClassName?: string;
}

/** The states podStatus can write (see there), with the fields each uses. */
export interface PodState {
  kind: 'Running' | 'NotReady' | 'NodeLost' | 'CrashLoopBackOff' | 'CreateContainerConfigError' | 'ImagePullBackOff'
    | 'ContainerCreating' | 'Unschedulable' | 'Evicted' | 'Succeeded';
  observedGeneration?: number;
  message?: string;
  markedAgo?: number;
  restarts?: number;
  backoff?: string;
  exitCode?: number;
  reason?: string;
  lastStartedAgo?: number;
  lastFinishedAgo?: number;
  evictedAgo?: number;
  finishedAgo?: number;
}

/** A pod's timeline in seconds before NOW (see podStatus). */
export interface PodTimeline {
  created: number;
  scheduled: number;
  started: number;
  ready: number;
  sandbox?: number;
  initialized?: number;
  unready?: number;
}

/** One revision of a DaemonSet definition, oldest first. */
export interface RevisionDef {
  generation: number;
  template: BuiltTemplate;
  createdAgo: number;
}

/** A revision with its template hash. */
export type Revision = RevisionDef & { hash: string };

/** What makeDaemonSet builds a DaemonSet and its ControllerRevisions from. */
export interface DaemonSetDef {
  namespace: string;
  name: string;
  createdAgo: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  selector: Record<string, string>;
  updateStrategy?: NonNullable<DaemonSet['spec']>['updateStrategy'];
  minReadySeconds?: number;
  revs?: RevisionDef[];
  template?: BuiltTemplate;
  generation?: number;
  unobservedRevisions?: number;
}

/** makeDaemonSet's result. */
export interface MadeDaemonSet {
  ds: BuiltDaemonSet;
  revs: Revision[];
  revisions: (ControllerRevision & { metadata: { name: string } })[];
}

/** What makePod builds a Pod from. */
export interface PodDef {
  name: string;
  generateName?: string;
  namespace: string;
  key: string;
  createdAgo: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  spec: BuiltPodSpec;
  deletedAgo?: number;
  grace?: number;
}

/** The options of daemonPod. */
export interface DaemonPodOptions {
  state: PodState;
  t: PodTimeline;
  ipFor: IPAllocator;
  idPrefix?: string;
  deletedAgo?: number;
  grace?: number;
}

/** What makeEvent builds an Event from. */
export interface EventDef {
  object: Json;
  reason: string;
  message: string;
  component: string;
  host?: string;
  firstAgo: number;
  lastAgo?: number;
  count?: number;
  type?: string;
  fieldPath?: string;
  involvedResourceVersion?: string;
}

/** An Event as makeEvent builds it; `_involved` is dropped by finishEvents. */
export type BuiltEvent = KubeEvent & { metadata: { name: string; namespace: string }; involvedObject: Json; _involved?: Json };

/** The options of failedPullEvents. */
export interface FailedPulls {
  firstAgo: number;
  lastAgo: number;
  pulls: number;
  backOffs: number;
  lastBackOffAgo: number;
}

// ---------------------------------------------------------------------------
// Copies and field order
// ---------------------------------------------------------------------------

/** A deep copy through JSON (drops undefined fields). */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

/** Returns a copy of `obj` with the keys listed in `order` first (in that order), the rest after; undefined fields are left out. */
export function ordered<T extends object>(obj: T, order: readonly string[]): T {
  const src = obj as Json;
  const out: Json = {};
  for (const k of order) if (src[k] !== undefined) out[k] = src[k];
  for (const k of Object.keys(src)) if (!(k in out) && src[k] !== undefined) out[k] = src[k];
  return out as T;
}

/** Go's time.Duration.String() for whole seconds: 10s, 2m40s, 5m0s. */
function goDuration(s: number): string {
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m${s % 60}s`;
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

/** Writes `text` to `rel` (relative to the repository root), creating folders. */
export function writeFile(rel: string, text: string): void {
  const full = path.join(ROOT, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

/** Files under a generated folder that people write by hand (a scenario's expected verdicts): generators keep them. */
export const HAND_WRITTEN: readonly string[] = ['expect.json'];

/**
 * Empties the generated folder `rel` (relative to the repository root) before it is written
 * again, so that an object dropped from a generator leaves no stale file behind: removes every
 * file except those named in HAND_WRITTEN, then every folder left empty.
 */
export function clearGenerated(rel: string): void {
  clearFolder(path.join(ROOT, rel));
}

function clearFolder(dir: string): boolean {
  if (!fs.existsSync(dir)) return true;
  let empty = true;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (clearFolder(full)) fs.rmdirSync(full);
      else empty = false;
    } else if (HAND_WRITTEN.includes(entry.name)) {
      empty = false;
    } else {
      fs.rmSync(full);
    }
  }
  return empty;
}

/** `kubectl get -o yaml` style: keys sorted, lists not indented, double quotes. */
function toYaml(obj: unknown): string {
  return yaml.dump(clone(obj), { sortKeys: true, noArrayIndent: true, lineWidth: -1, noRefs: true, quotingType: '"' });
}

/** Sort as the API server lists: by namespace, then name. */
export function byKey(a: Listed, b: Listed): number {
  const ka = `${a.metadata?.namespace ?? ''}/${a.metadata?.name}`;
  const kb = `${b.metadata?.namespace ?? ''}/${b.metadata?.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** What `kubectl get <kind> -A -o yaml` writes for `items`: a `kind: List`, items sorted by namespace and name. */
export function listYaml(items: readonly Listed[]): string {
  return toYaml({ apiVersion: 'v1', items: [...items].sort(byKey), kind: 'List', metadata: { resourceVersion: '' } });
}

/**
 * Hands out resourceVersions: every object is registered with the time of its last
 * write; versions then increase with that time, like etcd revisions do.
 */
export class Versions {
  private readonly entries: { obj: Listed; lastWriteAgo: number }[] = [];
  constructor(private readonly start: number) {}

  /** Registers `obj`, last written `lastWriteAgo` seconds before NOW; returns it. */
  add<T extends Listed>(obj: T, lastWriteAgo: number): T {
    this.entries.push({ obj, lastWriteAgo });
    return obj;
  }

  /** Assigns versions; returns the list resourceVersion (greater than all of them). */
  assign() {
    const sorted = [...this.entries].sort((a, b) => b.lastWriteAgo - a.lastWriteAgo || byKey(a.obj, b.obj));
    let rv = this.start;
    for (const e of sorted) {
      rv += 1 + (parseInt(sha(`rv/${e.obj.kind}/${e.obj.metadata?.namespace}/${e.obj.metadata?.name}`).slice(0, 4), 16) % 97);
      e.obj.metadata!.resourceVersion = String(rv);
    }
    return String(rv + 17);
  }
}

// ---------------------------------------------------------------------------
// Kubernetes semantics used to build consistent objects (docs/semantics.md §1.2, §2, §3.5, §3.8, §4)
// ---------------------------------------------------------------------------

/** Whether the controller should run (and keep running) a pod of `ds` on `node`: the real NodeShouldRunDaemonPod of src/k8s. */
export function shouldRun(ds: DaemonSet, node: Node): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const { shouldRun: run, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
  return { shouldRun: run, shouldContinueRunning };
}

/**
 * updateDaemonSetStatus (docs/semantics.md §3.8), computed by src/k8s/status.ts over `nodes`
 * and `pods`. `hash`/`templateGeneration` are those of the revision the controller last synced
 * against (normally the current one). Field order and omitempty as the API serializes it.
 */
export function daemonSetStatus(
  ds: DaemonSet, nodes: Node[], pods: Pod[],
  { hash, templateGeneration, observedGeneration = ds.metadata?.generation }: { hash: string; templateGeneration: number; observedGeneration?: number | undefined },
): DaemonSetStatus {
  const index = new SnapshotIndex({ ...emptySnapshot(), nodes, pods, daemonSets: [ds] });
  const s = recomputeStatus(index, ds, hash, templateGeneration, NOW);
  const status: DaemonSetStatus = {
    currentNumberScheduled: s.current,
    numberMisscheduled: s.misscheduled,
    desiredNumberScheduled: s.desired,
    numberReady: s.ready,
    observedGeneration: observedGeneration!,
  };
  if (s.updated) status.updatedNumberScheduled = s.updated;
  if (s.available) status.numberAvailable = s.available;
  if (s.unavailable) status.numberUnavailable = s.unavailable;
  return status;
}

/** Whether the pod is available with `minReadySeconds` at NOW (podutil.IsPodAvailable). */
export function podAvailable(pod: Pod, minReadySeconds: number): boolean {
  return isPodAvailable(pod, minReadySeconds, NOW);
}

/** The pod's request of `resource` as the scheduler counts it (cpu in millicores, the rest in units). */
export function podRequest(pod: Pod, resource: string): number {
  return podRequests(pod.spec).get(resource) ?? 0;
}

/** What is left of the node's allocatable `resource` after the requests of the non-terminal pods bound to it. */
export function freeResource(node: Node, pods: Pod[], resource: string): number {
  const onNode = pods.filter((p) => p.spec?.nodeName === node.metadata?.name && !isPodTerminal(p));
  return (allocatable(node).get(resource) ?? 0) - onNode.reduce((sum, p) => sum + podRequest(p, resource), 0);
}

/**
 * The reasons the scheduler's filters (src/k8s/scheduler.ts) give for `pod` on `node`,
 * counting every non-terminal pod bound to the node (docs/semantics.md §4.5, §4.6).
 */
export function filterReasons(pod: Pod, node: Node, pods: Pod[]): string[] {
  const others = pods.filter((p) => p !== pod && p.spec?.nodeName === node.metadata?.name && !isPodTerminal(p));
  return runFilters(pod, node, others)?.reasons ?? [];
}

/** The FailedScheduling message of a daemon pod whose target node fails one filter with `reason` (1.32+). */
export function failedSchedulingMessage(nodeCount: number, reason: string): string {
  const others = nodeCount - 1;
  return `0/${nodeCount} nodes are available: 1 ${reason}, ${others} node(s) didn't satisfy plugin(s) [NodeAffinity]. `
    + `preemption: 0/${nodeCount} nodes are available: 1 No preemption victims found for incoming pod, ${others} Preemption is not helpful for scheduling.`;
}

/**
 * A crash loop: the container starts `firstStartAgo`, runs `run` seconds, exits, and is
 * restarted after the kubelet's back-off (10s doubling to 5m). Returns the starts (seconds
 * ago) up to NOW, which falls inside a back-off wait.
 */
export function crashLoop(firstStartAgo: number, run: number): CrashLoop {
  const backoffs = [10, 20, 40, 80, 160, 300];
  const starts: number[] = [];
  let waited = 0;
  let tAgo = firstStartAgo;
  for (let i = 0; ; i++) {
    starts.push(tAgo);
    const finish = tAgo - run;
    const b = backoffs[Math.min(i, backoffs.length - 1)]!;
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
const PRIORITIES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

/** An EKS m5.xlarge: capacity and allocatable. */
export const M5_XLARGE = {
  instanceType: 'm5.xlarge',
  capacity: { cpu: '4', 'ephemeral-storage': '101430960Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '16114092Ki', pods: '110' },
  allocatable: { cpu: '3920m', 'ephemeral-storage': '93478772582', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '15491072Ki', pods: '110' },
};

/** The image reference containerd reports: "fluent/fluent-bit:3.0" -> "docker.io/fluent/fluent-bit:3.0". */
export function imageRef(image: string): string {
  const first = image.split('/')[0]!;
  if (image.split('/').length === 1) return `docker.io/library/${image}`;
  if (!first.includes('.') && !first.includes(':')) return `docker.io/${image}`;
  return image;
}

/** The digest reference of an image (repository@sha256:…). */
function imageId(image: string): string {
  const ref = imageRef(image);
  return `${ref.replace(/:[^:/]+$/, '')}@sha256:${hex(`image/${ref}`, 64)}`;
}

/** The size in bytes of an image. */
function imageSize(image: string): number {
  return 8_000_000 + (parseInt(sha(`size/${image}`).slice(0, 6), 16) % 90_000_000);
}

/** Node .status.images for a set of images, largest first. */
export function nodeImages(images: Iterable<string>): { names: string[]; sizeBytes: number }[] {
  return [...images].map((i) => ({ names: [imageId(i), imageRef(i)], sizeBytes: imageSize(i) }))
    .sort((a, b) => b.sizeBytes - a.sizeBytes);
}

/** The EC2 instance id of a node. */
export function ec2InstanceId(nodeName: string): string {
  return `i-0${hex(`instance/${nodeName}`, 16)}`;
}

/** The address of a node's InternalIP. */
function internalIP(node: BuiltNode): string {
  return node.status.addresses!.find((a) => a.type === 'InternalIP')!.address;
}

/** A node condition as the kubelet posts it. */
export function nodeCondition(type: string, status: string, reason: string, message: string | undefined, heartbeatAgo: number, sinceAgo: number): NodeCondition {
  return { type, status, lastHeartbeatTime: at(heartbeatAgo), lastTransitionTime: at(sinceAgo), reason, message };
}

/**
 * The four conditions a running kubelet posts: no pressure (or MemoryPressure since
 * `memoryPressureSince`), and Ready since `readySinceAgo` or, with `ready` false, NotReady
 * with `notReadyMessage` since it joined.
 */
export function kubeletConditions({ heartbeatAgo: hb, joinedAgo, ready = true, readySinceAgo = joinedAgo - 40, notReadyMessage, memoryPressureSince }: KubeletState): NodeCondition[] {
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
export function lifecycleTaints(condition: string, noScheduleAgo: number, noExecuteAgo: number): Taint[] {
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
export function makeNode(n: NodeDef): BuiltNode {
  const node: Json = buildNode(n);
  return node as BuiltNode;
}

function buildNode(n: NodeDef): Json {
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
export function podIPAllocator(podNetOf: (nodeName: string) => number): IPAllocator {
  const used = new Map<string, number>();
  return (nodeName: string, key: string) => {
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
export const CONTAINER_DEFAULTS: Json = { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' };

/** The pod-spec fields the API server defaults, with the service account `serviceAccount` if any (`overrides` win). */
export function podSpecDefaults(serviceAccount: string | undefined, overrides: Json = {}): Json {
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
export const NOT_READY_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

/** A hostPath volume (`type` '' when not given). */
export function hostPath(name: string, p: string, type?: string): Volume {
  return { name, hostPath: { path: p, type: type ?? '' } };
}

/** An environment variable from a pod field (the node name by default). */
export function fieldEnv(name: string, fieldPath = 'spec.nodeName'): NonNullable<Container['env']>[number] {
  return { name, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } } };
}

/** An HTTP probe with the API defaults; `extra` overrides them. */
export function httpProbe(p: string, port: number | string, extra: Json = {}): Json {
  return { httpGet: { path: p, port, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, ...extra };
}

/** A RollingUpdate update strategy. */
export function rolling(maxUnavailable: number | string, maxSurge: number | string = 0): NonNullable<DaemonSet['spec']>['updateStrategy'] {
  return { type: 'RollingUpdate', rollingUpdate: { maxUnavailable, maxSurge } };
}

/** Puts the containers' and the spec's fields in API order. */
function finishPodSpec<T extends PodSpec>(spec: T): T {
  for (const key of ['initContainers', 'containers'] as const) {
    const list = spec[key];
    if (list) spec[key] = list.map((c) => ordered(c, CONTAINER_ORDER));
  }
  return ordered(spec, POD_SPEC_ORDER);
}

/** A pod template with its spec in API order. */
export function finishTemplate(tmpl: { metadata: Json; spec: Json }): BuiltTemplate {
  return { metadata: tmpl.metadata as BuiltTemplate['metadata'], spec: finishPodSpec(tmpl.spec as BuiltPodSpec) };
}

/** kube-proxy as kubeadm deploys it: hostNetwork, privileged, blanket toleration. */
export function kubeProxyTemplate(version: string): BuiltTemplate {
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
export const NODE_EXPORTER_SELECTOR: Record<string, string> = { 'app.kubernetes.io/component': 'exporter', 'app.kubernetes.io/name': 'node-exporter', 'app.kubernetes.io/part-of': 'kube-prometheus' };

/** The labels of kube-prometheus' node-exporter at `version` (v-prefixed). */
export function nodeExporterLabels(version: string): Record<string, string> {
  return { ...NODE_EXPORTER_SELECTOR, 'app.kubernetes.io/version': version.replace(/^v/, '') };
}

/** prometheus node-exporter as kube-prometheus ships it (hostNetwork, hostPID, hostPort 9100). */
export function nodeExporterTemplate({ version = 'v1.8.2', memoryLimit = '60Mi', extraArgs = [], explicitHostPort = true, priorityClassName }: NodeExporterOptions = {}): BuiltTemplate {
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
export const EBS_NODE_VOLUMES: Volume[] = [
  hostPath('kubelet-dir', '/var/lib/kubelet', 'Directory'),
  hostPath('plugin-dir', '/var/lib/kubelet/plugins/ebs.csi.aws.com/', 'DirectoryOrCreate'),
  hostPath('registration-dir', '/var/lib/kubelet/plugins_registry/', 'Directory'),
  hostPath('device-dir', '/dev', 'Directory'),
];

/** The labels of the aws-ebs-csi-driver node plugin's pods at `version` (v-prefixed). */
export function ebsNodeLabels(version: string): Record<string, string> {
  return { app: 'ebs-csi-node', 'app.kubernetes.io/component': 'csi-driver', 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/name': 'aws-ebs-csi-driver', 'app.kubernetes.io/version': version.replace(/^v/, '') };
}

/** The aws-ebs-csi-driver container in node mode, at `version`, requesting `memory`. */
export function ebsPluginContainer(version: string, memory: string): Json {
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
export function ebsRegistrarContainer(image: string, { extraMounts = [], ...extra }: Json = {}): Json {
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
function apiAccessVolume(name: string): Volume {
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
export function admitPodSpec(templateSpec: BuiltPodSpec, podKey: string): BuiltPodSpec {
  const spec: Json = clone(templateSpec);
  if (spec.automountServiceAccountToken !== false) {
    const vol = `kube-api-access-${suffix(`kube-api-access/${podKey}`)}`;
    spec.volumes = [...(spec.volumes ?? []), apiAccessVolume(vol)];
    for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
      c.volumeMounts = [...(c.volumeMounts ?? []), { name: vol, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }];
    }
  }
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    if (spec.hostNetwork) for (const p of c.ports ?? []) if (!p.hostPort) p.hostPort = p.containerPort;
    if (c.ports) c.ports = c.ports.map((p: ContainerPort) => ordered(p, ['name', 'hostPort', 'containerPort', 'protocol']));
  }
  spec.priority = PRIORITIES[spec.priorityClassName ?? ''] ?? 0;
  spec.enableServiceLinks = true;
  spec.preemptionPolicy = 'PreemptLowerPriority';
  return spec as BuiltPodSpec;
}

/** The node affinity a daemon pod is pinned to its node with, added to `affinity` (docs/semantics.md §2.2). */
export function pinnedAffinity(affinity: Affinity | undefined, nodeName: string): Affinity {
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
export function controllerRef(kind: string, name: string, ownerUid: string, apiVersion = 'apps/v1'): OwnerReference[] {
  return [{ apiVersion, kind, name, uid: ownerUid, controller: true, blockOwnerDeletion: true }];
}

// ---------------------------------------------------------------------------
// Pod status
// ---------------------------------------------------------------------------

/** The QoS class of a pod spec. */
function qosClass(spec: BuiltPodSpec): string {
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
function podCondition(type: string, status: string, since: number, reason: string | undefined, message: string | undefined, observedGeneration = 1): PodCondition {
  return ordered({ type, observedGeneration, status, lastProbeTime: null, lastTransitionTime: at(since), reason, message },
    ['type', 'observedGeneration', 'status', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message']);
}

/** The resources a container status reports (its spec's, when it has any). */
function containerResourcesStatus(c: Container): Container['resources'] {
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
export function podStatus(pod: BuiltPod, state: PodState, t: PodTimeline, node: BuiltNode | undefined, podIP: string | undefined): PodStatus {
  const spec = pod.spec;
  const og = state.observedGeneration ?? 1;
  const c = (type: string, status: string, since: number, reason?: string, message?: string) => podCondition(type, status, since, reason, message, og);
  const cid = (name: string, n = 0) => `containerd://${hex(`cid/${pod.metadata.name}/${name}/${n}`, 64)}`;
  const ips = (ip: string | undefined) => (ip ? [{ ip }] : undefined);
  const inits = spec.initContainers ?? [];
  const initDone = t.started - 3 * inits.length;
  const sandbox = t.sandbox ?? t.started;
  const initialized = t.initialized ?? t.scheduled - 1;
  const unready = t.unready ?? t.scheduled - 1;
  const c0 = spec.containers[0]!;

  // The conditions of a bound pod: sandbox, Initialized, Ready and ContainersReady, PodScheduled.
  type ConditionArgs = [status: string, since: number, reason?: string, message?: string];
  const conditions = (sandboxCondition: PodCondition, readyCondition: ConditionArgs, containersReady: ConditionArgs = readyCondition) => [
    sandboxCondition,
    c('Initialized', 'True', initialized, state.kind === 'Succeeded' ? 'PodCompleted' : undefined),
    c('Ready', ...readyCondition),
    c('ContainersReady', ...containersReady),
    c('PodScheduled', 'True', t.scheduled),
  ];
  const sandboxReady = () => c('PodReadyToStartContainers', 'True', sandbox);
  const notReady = (cs: Container[]): ConditionArgs => ['False', unready, 'ContainersNotReady', `containers with unready status: [${cs.map((x) => x.name).join(' ')}]`];

  // The status of a container that has run (its image pulled), in its `restarts`th run.
  const ran = (x: Container, containerState: Json, { ready = false, started = false, restarts = 0, lastState = {} }: { ready?: boolean; started?: boolean; restarts?: number; lastState?: Json } = {}) => ({
    name: x.name,
    state: containerState,
    lastState,
    ready,
    restartCount: restarts,
    image: imageRef(x.image!),
    imageID: imageId(x.image!),
    containerID: cid(x.name, restarts),
    started,
    resources: containerResourcesStatus(x),
  });
  const exited = (x: Container, exitCode: number, reason: string, startedAgo: number, finishedAgo: number, run = 0) => (
    { terminated: { exitCode, reason, startedAt: at(startedAgo), finishedAt: at(finishedAgo), containerID: cid(x.name, run) } });
  const running = (x: Container, ready: boolean) => ran(x, { running: { startedAt: at(initDone - 1) } }, { ready, started: true });
  const terminated = (x: Container, exitCode: number, reason: string, startedAgo: number, finishedAgo: number, ready = false) => ran(x, exited(x, exitCode, reason, startedAgo, finishedAgo), { ready });
  const waiting = (x: Container, reason: string, message?: string) => ({
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
  const bound = (phase: string, podConditions: PodCondition[], containerStatuses: Json[], extra: Json = {}): PodStatus => {
    const hostIP = internalIP(node!);
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
    } as Json as PodStatus;
  };

  switch (state.kind) {
    case 'Unschedulable':
      return { observedGeneration: og, phase: 'Pending', conditions: [c('PodScheduled', 'False', t.scheduled, 'Unschedulable', state.message)], qosClass: qosClass(spec) } as PodStatus;

    case 'Running':
    case 'NodeLost':
      return bound('Running', conditions(sandboxReady(), state.kind === 'NodeLost' ? ['False', state.markedAgo!] : ['True', t.ready], ['True', t.ready]),
        spec.containers.map((x) => running(x, true)));

    case 'NotReady': {
      const bad = spec.containers.filter((x) => x.readinessProbe);
      return bound('Running', conditions(sandboxReady(), notReady(bad)), spec.containers.map((x) => running(x, !bad.includes(x))));
    }

    case 'CrashLoopBackOff': {
      const n = state.restarts!;
      const backOff = { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${state.backoff} restarting failed container=${c0.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})` } };
      const lastState = exited(c0, state.exitCode!, state.reason!, state.lastStartedAgo!, state.lastFinishedAgo!, n);
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
        c('DisruptionTarget', 'True', state.evictedAgo!, 'TerminationByKubelet', state.message),
        ...conditions(c('PodReadyToStartContainers', 'False', state.evictedAgo! - 1), ['False', state.evictedAgo! - 1, 'PodFailed']),
      ], spec.containers.map((x) => terminated(x, 137, 'Error', t.started - 1, state.evictedAgo! - 1)), { message: state.message, reason: 'Evicted' });

    case 'Succeeded':
      return bound('Succeeded', conditions(c('PodReadyToStartContainers', 'False', state.finishedAgo! - 1), ['False', state.finishedAgo! - 1, 'PodCompleted']),
        spec.containers.map((x) => terminated(x, 0, 'Completed', t.started - 2, state.finishedAgo!)));

    default:
      throw new Error(`unknown pod state ${(state as PodState).kind}`);
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
export function makeDaemonSet(d: DaemonSetDef, versions: Versions, idPrefix = ''): MadeDaemonSet {
  const key = `DaemonSet/${d.namespace}/${d.name}`;
  const defRevs: RevisionDef[] = d.revs ?? [{ generation: 1, template: d.template!, createdAgo: d.createdAgo }];
  const cur = defRevs[defRevs.length - 1]!;
  const ds: BuiltDaemonSet = {
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
  } as Json as BuiltDaemonSet;
  const revs: Revision[] = defRevs.map((r) => ({ ...r, hash: templateHash(r.template) }));
  const stored = d.unobservedRevisions ? revs.slice(0, revs.length - d.unobservedRevisions) : revs;
  const revisions = stored.map((r, i) => {
    const name = `${d.name}-${r.hash}`;
    const revision: MadeDaemonSet['revisions'][number] = {
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
      data: { spec: { template: { $patch: 'replace', ...clone(r.template) } as BuiltTemplate } },
      revision: i + 1,
    };
    return versions.add(revision, r.createdAgo);
  });
  return { ds, revs, revisions };
}

/**
 * A Pod without status: `key` names its uid, `spec` is put in API order. With `deletedAgo` +
 * `grace`, graceful deletion was requested `deletedAgo` seconds ago.
 */
export function makePod({ name, generateName, namespace, key, createdAgo, labels, annotations, ownerReferences, spec, deletedAgo, grace = 0 }: PodDef): BuiltPod {
  const deleting = deletedAgo !== undefined;
  const pod: Json = {
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
  return pod as BuiltPod;
}

/**
 * A pod created by the DaemonSet controller for `node` from revision `rev` ({template, hash,
 * generation}) (docs/semantics.md §1.6, §2.1–2.3), with its status for `state` and timeline `t`
 * (see podStatus). Its IP is the node's for a hostNetwork pod, else `ipFor(nodeName, podKey)`.
 * `deletedAgo` + `grace`: graceful deletion requested `deletedAgo` seconds ago.
 */
export function daemonPod(ds: BuiltDaemonSet, rev: Revision, node: BuiltNode, { state, t, ipFor, idPrefix = '', deletedAgo, grace }: DaemonPodOptions): BuiltPod {
  const { name: dsName, namespace } = ds.metadata;
  const nodeName = node.metadata.name;
  const name = `${dsName}-${suffix(`${idPrefix}pod/${namespace}/${dsName}/${nodeName}/${rev.hash}/${t.created}`)}`;
  const key = `${idPrefix}Pod/${namespace}/${name}`;
  const tmpl = rev.template;
  const unbound = state.kind === 'Unschedulable';
  const spec = admitPodSpec(tmpl.spec, key);
  spec.tolerations = daemonPodTolerations(tmpl.spec);
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
export function makeEvent(e: EventDef, versions: Versions, idPrefix = ''): BuiltEvent {
  const inv = e.object;
  const ns = inv.metadata.namespace ?? 'default';
  const firstMs = BigInt(NOW.getTime() - Math.round(e.firstAgo) * 1000);
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
  const ev: Json = {
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
  return ev as BuiltEvent;
}

/** After resourceVersions are assigned: records the involved object's version in each event (not for Nodes). */
export function finishEvents(events: BuiltEvent[]): void {
  for (const ev of events) {
    const inv = ev._involved!;
    if (!ev.involvedObject.resourceVersion && inv.metadata.resourceVersion && inv.kind !== 'Node') {
      ev.involvedObject = ordered({ ...ev.involvedObject, resourceVersion: inv.metadata.resourceVersion },
        ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']);
    }
    delete ev._involved;
  }
}

/** The fields of an event the kubelet records about a container of `pod` (or about the pod, without `container`). */
export function kubeletSource(pod: BuiltPod, container?: string): Pick<EventDef, 'object' | 'component' | 'host' | 'fieldPath'> {
  return { object: pod, component: 'kubelet', host: pod.spec.nodeName, fieldPath: container ? `spec.containers{${container}}` : undefined };
}

/** The message of a Pulled event after a pull that took `seconds`. */
export function pulledMessage(image: string, seconds: number): string {
  return `Successfully pulled image "${image}" in ${seconds}s (${seconds}s including waiting). Image size: ${imageSize(image)} bytes.`;
}

/** The error of pulling an image that does not exist (containerd's message). */
export function imageNotFound(image: string): string {
  const ref = imageRef(image);
  return `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
}

/**
 * The kubelet's events about `container` of `pod` whose image does not exist: `pulls` pulls,
 * the first `firstAgo` and the last `lastAgo` seconds before NOW, each failing a second later,
 * and `backOffs` syncs in back-off from then on, the last `lastBackOffAgo`.
 */
export function failedPullEvents(pod: BuiltPod, container: string, { firstAgo, lastAgo, pulls, backOffs, lastBackOffAgo }: FailedPulls): EventDef[] {
  const image = pod.spec.containers.find((x) => x.name === container)!.image!;
  const source = kubeletSource(pod, container);
  const failing = { firstAgo: firstAgo - 1, lastAgo: lastAgo - 1, count: pulls };
  const backingOff = { firstAgo: firstAgo - 2, lastAgo: lastBackOffAgo, count: backOffs };
  const failed = (message: string, times: Pick<EventDef, 'firstAgo' | 'lastAgo' | 'count'>): EventDef => ({ ...source, reason: 'Failed', type: 'Warning', message, ...times });
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
export function nodeStartEvents(node: BuiltNode, joinedAgo: number, { startedBefore, lastStatusBefore }: { startedBefore: number; lastStatusBefore: number }): EventDef[] {
  const name = node.metadata.name;
  const kubelet = (reason: string, message: string, before: number, extra: Partial<EventDef> = {}): EventDef => ({ object: node, reason, message, component: 'kubelet', host: name, firstAgo: joinedAgo + before, ...extra });
  const status = (condition: string) => kubelet(condition, `Node ${name} status is now: ${condition}`, startedBefore - 1, { count: 2, lastAgo: joinedAgo + lastStatusBefore });
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
export function makeNamespace(name: string, createdAgo: number, { uidKey = `Namespace/${name}`, labels = {} }: { uidKey?: string; labels?: Record<string, string> } = {}): Namespace & { metadata: { name: string } } {
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
export function systemPriorityClasses(createdAgo: number): (PriorityClass & { metadata: { name: string } })[] {
  const pc = (name: string, description: string) => ({
    apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', description,
    metadata: { creationTimestamp: at(createdAgo), generation: 1, name, resourceVersion: '', uid: uid(`PriorityClass/${name}`) },
    preemptionPolicy: 'PreemptLowerPriority', value: PRIORITIES[name],
  });
  return [
    pc('system-cluster-critical', 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'),
    pc('system-node-critical', 'Used for system critical pods that must not be moved from their current node.'),
  ];
}
