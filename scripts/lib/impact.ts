/**
 * The builders of the `impact` dumps (scripts/make-impact.ts): thin wrappers over test/kube's
 * (makeNode, makeDaemonSet, daemonPod, makePod, podStatus, makeService, makeEndpointSlice,
 * makeNamespace, systemPriorityClasses) with the dumps' FNV identities, and the writer of a dump.
 */
import yaml from 'js-yaml';
import type { Container, NodeCondition, Taint, Volume } from '../../src/model/k8s-types.js';
import { fnvSuffix, fnvUid } from '../../test/kube/ids.js';
import type { BuiltDaemonSet, BuiltNode, BuiltPod } from '../../test/kube/types.js';
import {
  admitPodSpec,
  ago,
  controllerRef,
  DAY,
  daemonPod as makeDaemonPod,
  kubeletConditions,
  type Json,
  M5_XLARGE,
  type MadeDaemonSet,
  makeDaemonSet,
  makeEndpointSlice,
  makeNamespace,
  makeNode,
  makePod,
  makeService,
  nodeCondition,
  podStatus,
  rolling,
  type ServicePort,
  systemPriorityClasses,
  Versions,
  writeFile,
} from './fixtures.js';

/** The objects of these dumps: plain API JSON, read back only for names, labels and specs. */
export type Obj = Json;
/** A pod spec as written here (containers, volumes, host namespaces, tolerations…). */
export type Spec = Json & { containers: Container[]; volumes?: Volume[]; hostNetwork?: boolean };

interface NodeOptions {
  ready?: string;
  labels?: Record<string, string>;
  allocatable?: Record<string, string>;
  taints?: Taint[];
}
interface DaemonSetOptions {
  labels?: Record<string, string>;
  template: Spec;
  generation?: number;
  strategy?: Json;
}
export interface AppPodOptions {
  labels?: Record<string, string>;
  owner?: string;
  containers?: Container[];
  volumes?: Volume[];
  hostNetwork?: boolean;
  phase?: string;
}
interface ServiceOptions {
  selector?: Record<string, string>;
  type?: string;
  clusterIP?: string;
  ports?: ServicePort[];
  extra?: Json;
}

const suffix = fnvSuffix;
export const uid = fnvUid;
const NODE_AGE = 40 * DAY;
const POD_AGE = 2 * DAY;

// Node IPs 10.0.1.10, .11… in the order the nodes are first named; pod IPs from 192.168.0.10 on.
const nodeIndex = new Map<string, number>();
function nodeNumber(nodeName: string): number {
  if (!nodeIndex.has(nodeName)) nodeIndex.set(nodeName, 10 + nodeIndex.size);
  return nodeIndex.get(nodeName)!;
}
let podCounter = 0;
const podIP = () => `192.168.${Math.floor(podCounter / 200)}.${10 + (podCounter++ % 200)}`;

/** A bare-metal node (test/kube's makeNode); `ready: 'Unknown'`: its kubelet stopped posting status 10 minutes ago. */
export function node(
  name: string,
  { ready = 'True', labels = {}, allocatable = {}, taints }: NodeOptions = {},
): BuiltNode {
  const alloc = { ...M5_XLARGE.allocatable, ...allocatable };
  const lost = (type: string): NodeCondition =>
    nodeCondition(type, 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.', 640, 600);
  return makeNode({
    name,
    ip: `10.0.1.${nodeNumber(name)}`,
    joinedAgo: NODE_AGE,
    conditions:
      ready === 'True'
        ? kubeletConditions({ heartbeatAgo: 20, joinedAgo: NODE_AGE })
        : ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map(lost),
    type: {
      instanceType: M5_XLARGE.instanceType,
      capacity: Object.keys(allocatable).length ? alloc : M5_XLARGE.capacity,
      allocatable: alloc,
    },
    podCIDR: `10.244.${nodeNumber(name)}.0/24`,
    labels,
    taints,
    uid: uid('Node', '', name),
  });
}

const made = new Map<BuiltDaemonSet, MadeDaemonSet>();

/** A DaemonSet with its one ControllerRevision (test/kube's makeDaemonSet), selecting `labels`. */
export function daemonSet(
  ns: string,
  name: string,
  { labels, template, generation = 1, strategy }: DaemonSetOptions,
): BuiltDaemonSet {
  const selector = labels ?? { 'app.kubernetes.io/name': name };
  const hash = suffix(`${name}-rev1`, 10).replace(/[^a-z0-9]/g, 'x');
  const m = makeDaemonSet(
    {
      namespace: ns,
      name,
      createdAgo: 30 * DAY,
      labels: selector,
      selector,
      updateStrategy: strategy ?? rolling(1),
      revs: [
        {
          generation,
          template: { metadata: { labels: selector }, spec: template },
          createdAgo: 30 * DAY,
          hash,
          uid: uid('ControllerRevision', ns, hash),
        },
      ],
      uid: uid('DaemonSet', ns, name),
    },
    new Versions(0),
  );
  made.set(m.ds, m);
  return m.ds;
}

/** The ControllerRevision of `ds`. */
export const revision = (ds: BuiltDaemonSet): Obj => made.get(ds)!.revisions[0]!;

/** The Running and Ready pod of `ds` on `nodeName` (test/kube's daemonPod), created two days ago. */
export function daemonPod(ds: BuiltDaemonSet, nodeName: string): BuiltPod {
  const name = `${ds.metadata.name}-${suffix(`${ds.metadata.name}/${nodeName}`)}`;
  const t = { created: POD_AGE, scheduled: POD_AGE - 1, started: POD_AGE - 3, ready: POD_AGE - 20 };
  return makeDaemonPod(ds, made.get(ds)!.revs[0]!, node(nodeName), {
    state: { kind: 'Running' },
    t,
    ipFor: podIP,
    name,
    uid: uid('Pod', ds.metadata.namespace, name),
  });
}

/** A workload pod: owned by a ReplicaSet (`app-<hash>-<suffix>`) or a StatefulSet (`name-0`). */
export function appPod(
  ns: string,
  name: string,
  nodeName: string | undefined,
  { labels = {}, owner = 'ReplicaSet', containers, volumes, hostNetwork, phase = 'Running' }: AppPodOptions = {},
): BuiltPod {
  const ownerName =
    owner === 'StatefulSet'
      ? name.replace(/-\d+$/, '')
      : name.split('-').slice(0, -2).join('-') + '-' + name.split('-').slice(-2, -1)[0];
  const key = `Pod/${ns}/${name}`;
  const spec: Spec = {
    containers: containers ?? [
      {
        name: 'app',
        image: `registry.example.com/${ns}/${ownerName.split('-')[0]}:1.4.2`,
        resources: { requests: { cpu: '100m', memory: '128Mi' } },
      },
    ],
    ...(volumes ? { volumes } : {}),
    ...(hostNetwork ? { hostNetwork: true } : {}),
    ...(nodeName ? { nodeName } : {}),
  };
  const pod = makePod({
    name,
    namespace: ns,
    key,
    uid: uid('Pod', ns, name),
    createdAgo: DAY,
    labels: { app: ownerName.split('-')[0]!, ...labels },
    ownerReferences: controllerRef(owner, ownerName, uid(owner, ns, ownerName)),
    spec: admitPodSpec(spec, key),
  });
  const t = { created: DAY, scheduled: DAY - 1, started: DAY - 3, ready: DAY - 20 };
  if (phase === 'Pending') {
    const message =
      "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.";
    pod.status = podStatus(pod, { kind: 'Unschedulable', message }, { ...t, scheduled: 900 }, undefined, undefined);
  } else {
    const host = node(nodeName!);
    pod.status = podStatus(
      pod,
      { kind: 'Running' },
      t,
      host,
      hostNetwork ? `10.0.1.${nodeNumber(nodeName!)}` : podIP(),
    );
  }
  return pod;
}

/** A Service (test/kube's makeService) with the FNV uid of these dumps. */
export const service = (ns: string, name: string, opts: ServiceOptions = {}): Obj =>
  makeService(ns, name, { ...opts, uid: uid('Service', ns, name) });
export const endpointSlice = (svc: Obj, pods: BuiltPod[], port: ServicePort): Obj =>
  makeEndpointSlice(svc, pods, port, {
    suffix,
    uid: (name) => uid('EndpointSlice', (svc as Named).metadata.namespace ?? '', name),
  });
export const namespace = (name: string): Obj => makeNamespace(name, 90 * DAY, { uid: uid('Namespace', '', name) });

export const PRIORITY_CLASSES = systemPriorityClasses(90 * DAY);

export const KUBERNETES_SVC = service('default', 'kubernetes', {
  clusterIP: '10.96.0.1',
  ports: [{ name: 'https', port: 443, targetPort: 6443, protocol: 'TCP' }],
});

/** What write reads of an object. */
interface Named {
  kind: string;
  metadata: { name: string; namespace?: string; creationTimestamp?: string; resourceVersion?: string };
}

const LIST_ORDER = [
  'Namespace',
  'Node',
  'PriorityClass',
  'DaemonSet',
  'ControllerRevision',
  'Pod',
  'Event',
  'Service',
  'EndpointSlice',
  'PodDisruptionBudget',
  'CSIDriver',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
];

/**
 * Writes one dump: every kind in LIST_ORDER not in `omit` as a typed List, objects sorted by
 * namespace and name, resourceVersions in the order of their creation.
 */
export function write(scenario: string, objects: Obj[], { omit = [] }: { omit?: string[] } = {}): void {
  const named = objects as Named[];
  const versions = new Versions(5_200_000);
  for (const o of named) versions.add(o, o.metadata.creationTimestamp ? ago(o.metadata.creationTimestamp) : 90 * DAY);
  const listVersion = versions.assign();
  const docs: string[] = [];
  for (const kind of LIST_ORDER) {
    if (omit.includes(kind)) continue;
    const items = named
      .filter((o) => o.kind === kind)
      .sort((a, b) =>
        `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(
          `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
        ),
      );
    docs.push(
      yaml.dump(
        { apiVersion: 'v1', kind: `${kind}List`, metadata: { resourceVersion: listVersion }, items },
        { noRefs: true, lineWidth: -1, sortKeys: false },
      ),
    );
  }
  writeFile(
    `fixtures/impact/${scenario}/cluster.yaml`,
    `# Generated by scripts/make-impact.ts (npm run fixtures): do not edit by hand.\n${docs.map((d) => `---\n${d}`).join('')}`,
  );
}
