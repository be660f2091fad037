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
// DaemonSet .status is computed from the nodes and pods written (docs/semantics.md §3.8), and
// scheduler messages are checked against the requests, allocatable and host ports of
// the objects written. Run with:   npm run fixtures   (or node dist/scripts/make-scenarios.js after a build)

import {
  CONTAINER_DEFAULTS,
  DAY,
  clearGenerated,
  EBS_NODE_VOLUMES,
  HOUR,
  M5_XLARGE,
  MIN,
  NODE_EXPORTER_SELECTOR,
  NOT_READY_TOLERATIONS,
  NOW_ISO,
  Versions,
  admitPodSpec,
  ago,
  at,
  controllerRef,
  crashLoop,
  daemonPod,
  daemonSetStatus,
  ebsNodeLabels,
  ebsPluginContainer,
  ebsRegistrarContainer,
  failedPullEvents,
  failedSchedulingMessage,
  fieldEnv,
  filterReasons,
  finishEvents,
  finishTemplate,
  freeResource,
  hostPath,
  httpProbe,
  imageNotFound,
  isTerminal,
  kubeProxyTemplate,
  kubeletConditions,
  kubeletSource,
  lifecycleTaints,
  listYaml,
  makeDaemonSet,
  makeEvent,
  makeNamespace,
  makeNode,
  makePod,
  nodeCondition,
  nodeExporterLabels,
  nodeExporterTemplate,
  nodeImages,
  nodeStartEvents,
  podAvailable,
  podIPAllocator,
  podRequest,
  podSpecDefaults,
  podStatus,
  pulledMessage,
  resourceAmount,
  rolling,
  shouldRun,
  suffix,
  systemPriorityClasses,
  targetNode,
  templateHash,
  uid,
  writeFile,
  type BuiltEvent,
  type CrashLoop,
  type DaemonSetDef,
  type EventDef,
  type IPAllocator,
  type InstanceType,
  type Json,
  type MadeDaemonSet,
  type PodState,
  type PodTimeline,
} from './lib/fixtures.js';
import type { NodeCondition, Taint } from '../src/model/k8s-types.js';
import type { BuiltNode, BuiltPod, BuiltTemplate } from '../test/kube/types.js';

/** What a scenario's README says the tool finds: a verdict per node, the rollout verdict, a note. */
interface Expectation {
  nodes: Record<string, string>;
  rollout?: string;
  note?: string;
}

/** A scenario node: makeNode's fields plus its health (see makeScenarioNode). */
interface ScenarioNodeDef {
  name: string;
  ip: string;
  zone: string;
  podNet: number;
  podCIDR: string;
  joinedAgo: number;
  heartbeatAgo: number;
  type?: InstanceType;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  health?: 'Ready' | 'NotReady' | 'Unknown';
  notReadyMessage?: string;
  unknownSince?: number;
  lastHeartbeatAgo?: number;
  memoryPressureSince?: number;
  readySinceAgo?: number;
}

/** A scenario DaemonSet: makeDaemonSet's definition plus its last status write and observed generation. */
type ScenarioDsDef = DaemonSetDef & { statusWrittenAgo?: number; observedGeneration?: number };

/** A DaemonSet of a scenario, with its definition and its pods per node. */
interface ScenarioDs extends Omit<MadeDaemonSet, 'revisions'> {
  def: ScenarioDsDef;
  lastWrite: number;
  podsOf: Record<string, BuiltPod[]>;
}

/** A daemon pod of a scenario (see Cluster.daemonPod). */
interface DaemonPodDef {
  state: PodState;
  created: number;
  t?: Partial<PodTimeline>;
  lastWrite?: number;
  pull?: number;
  deletedAgo?: number;
  grace?: number;
}

const OUT = 'fixtures/scenarios';

// ---------------------------------------------------------------------------
// Nodes
// ---------------------------------------------------------------------------

const CLUSTER_AGE = 120 * DAY;
const REGION = 'us-east-1';
const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];

const M5 = M5_XLARGE;
const M5_16X: InstanceType = {
  instanceType: 'm5.16xlarge',
  capacity: {
    cpu: '64',
    'ephemeral-storage': '101430960Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '261196992Ki',
    pods: '737',
  },
  allocatable: {
    cpu: '63770m',
    'ephemeral-storage': '93478772582',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '255212224Ki',
    pods: '737',
  },
};
// EKS t3.micro: 2 ENIs x 2 IPs -> max pods 4; kube-reserved 70m cpu and 11*4+255 = 299Mi
// memory, eviction threshold 100Mi: 980068Ki - 408576Ki = 571492Ki (558Mi) allocatable.
const T3_MICRO: InstanceType = {
  instanceType: 't3.micro',
  capacity: {
    cpu: '2',
    'ephemeral-storage': '20959212Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '980068Ki',
    pods: '4',
  },
  allocatable: {
    cpu: '1930m',
    'ephemeral-storage': '18242267924',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '571492Ki',
    pods: '4',
  },
};

/**
 * An EC2 Node. `n`: name, ip, zone, type, joinedAgo, heartbeatAgo, labels, annotations, taints,
 * unschedulable, and `health`: 'Ready' (default), 'NotReady' (never ready: notReadyMessage),
 * 'Unknown' (kubelet stopped posting since unknownSince, last heartbeat lastHeartbeatAgo),
 * plus memoryPressureSince for MemoryPressure=True.
 */
function makeScenarioNode(n: ScenarioNodeDef): BuiltNode {
  const unknown = (type: string): NodeCondition =>
    nodeCondition(
      type,
      'Unknown',
      'NodeStatusUnknown',
      'Kubelet stopped posting node status.',
      n.lastHeartbeatAgo!,
      n.unknownSince!,
    );
  return makeNode({
    ...n,
    region: REGION,
    type: n.type ?? M5,
    annotations: { 'alpha.kubernetes.io/provided-node-ip': n.ip, ...n.annotations },
    conditions:
      n.health === 'Unknown'
        ? ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map(unknown)
        : kubeletConditions({ ...n, ready: n.health !== 'NotReady' }),
  });
}

// ---------------------------------------------------------------------------
// A scenario cluster
// ---------------------------------------------------------------------------

class Cluster {
  readonly idPrefix: string; // keeps the uids and names of separate scenarios apart
  readonly versions: Versions;
  readonly namespaces: Json[] = [];
  readonly nodes: BuiltNode[] = [];
  readonly nodesByName: Record<string, BuiltNode> = {};
  readonly nodeDefs: Record<string, ScenarioNodeDef> = {};
  readonly dss: ScenarioDs[] = [];
  readonly crs: Json[] = [];
  readonly pods: BuiltPod[] = [];
  readonly events: BuiltEvent[] = [];
  readonly quotas: Json[] = [];
  readonly webhooks: Json[] = [];
  readonly extraImages: Record<string, Set<string>> = {};
  readonly ipFor: IPAllocator;
  readonly pulls = new Map<BuiltPod, number>();

  constructor(
    readonly name: string,
    rvStart: number,
  ) {
    this.idPrefix = `${name}/`;
    this.versions = new Versions(rvStart);
    this.ipFor = podIPAllocator((nodeName) => this.nodeDefs[nodeName]!.podNet);
    for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) this.namespace(ns, CLUSTER_AGE);
  }

  namespace(name: string, createdAgo: number, labels: Record<string, string> = {}): void {
    this.namespaces.push(
      this.versions.add(
        makeNamespace(name, createdAgo, { uidKey: `Namespace/${this.name}/${name}`, labels }),
        createdAgo,
      ),
    );
  }

  /** Adds a node; its def gets ip/zone/podCIDR from its index unless given. */
  node(def: Partial<ScenarioNodeDef> & { name: string }): BuiltNode {
    const i = this.nodes.length;
    const n: ScenarioNodeDef = {
      podCIDR: '',
      zone: ZONES[i % 3]!,
      ip: `10.0.${(i % 3) + 1}.${21 + i}`,
      podNet: 100 + i,
      joinedAgo: CLUSTER_AGE - 6 * MIN - i * 61,
      heartbeatAgo: 15 + ((i * 37) % 40),
      ...def,
    };
    n.podCIDR = `192.168.${n.podNet}.0/24`;
    const node = makeScenarioNode(n);
    this.nodeDefs[n.name] = n;
    this.nodes.push(node);
    this.nodesByName[n.name] = node;
    this.versions.add(node, n.health === 'Unknown' ? n.unknownSince! : n.heartbeatAgo);
    return node;
  }

  /** A DaemonSet and its ControllerRevisions (see makeDaemonSet); `d.statusWrittenAgo`: last status write. */
  daemonSet(d: ScenarioDsDef): ScenarioDs {
    const { ds, revs, revisions } = makeDaemonSet(d, this.versions, this.idPrefix);
    this.crs.push(...revisions);
    const b: ScenarioDs = { ds, def: d, revs, lastWrite: d.statusWrittenAgo ?? 60, podsOf: {} };
    this.dss.push(b);
    return b;
  }

  /**
   * A pod created by the DaemonSet controller for `nodeName` from revision `revIdx`
   * (docs/semantics.md §1.6, §2.1–2.3). `p`: state, created (ago), optional timeline overrides `t`,
   * lastWrite, pull (seconds the image pull took: delays the start; see startEvents),
   * deletedAgo + grace (graceful deletion requested `deletedAgo` seconds ago).
   */
  daemonPod(b: ScenarioDs, revIdx: number, nodeName: string, p: DaemonPodDef): BuiltPod {
    const pull = p.pull ? Math.ceil(p.pull) : 0;
    const t: PodTimeline = {
      created: p.created,
      scheduled: p.created - 1,
      started: p.created - 4 - pull,
      ready: p.created - 12 - pull,
      ...p.t,
    };
    t.sandbox ??= pull ? p.created - 2 : t.started;
    const pod = daemonPod(b.ds, b.revs[revIdx]!, this.nodesByName[nodeName]!, {
      state: p.state,
      t,
      ipFor: this.ipFor,
      idPrefix: this.idPrefix,
      deletedAgo: p.deletedAgo,
      grace: p.grace,
    });
    if (p.pull) this.pulls.set(pod, p.pull);
    this.versions.add(pod, p.lastWrite ?? (p.deletedAgo !== undefined ? p.deletedAgo : Math.max(0, t.ready)));
    this.pods.push(pod);
    (b.podsOf[nodeName] ??= []).push(pod);
    return pod;
  }

  /** A pod owned by a ReplicaSet (a Deployment's pod), bound to `p.node`, Running and Ready. */
  deploymentPod(p: Json): BuiltPod {
    const podTemplateHash = templateHash({ app: p.app, image: p.image, ns: p.namespace });
    const rsName = `${p.app}-${podTemplateHash}`;
    const name = `${rsName}-${suffix(`${this.idPrefix}deploy/${p.namespace}/${p.app}/${p.node}/${p.index ?? 0}`)}`;
    const key = `${this.idPrefix}Pod/${p.namespace}/${name}`;
    const spec = admitPodSpec(
      {
        containers: [
          {
            name: p.container ?? p.app,
            image: p.image,
            args: p.args,
            ports: p.ports,
            resources: p.resources,
            readinessProbe: p.readinessProbe,
            ...CONTAINER_DEFAULTS,
            securityContext: p.containerSecurityContext,
          },
        ],
        ...podSpecDefaults(p.serviceAccount ?? 'default', { dnsPolicy: p.dnsPolicy ?? 'ClusterFirst' }),
        nodeSelector: p.nodeSelector,
        nodeName: p.node,
        affinity: p.affinity,
        tolerations: [...(p.tolerations ?? []), ...NOT_READY_TOLERATIONS],
        priorityClassName: p.priorityClassName,
      },
      key,
    );
    const pod = makePod({
      name,
      generateName: `${rsName}-`,
      namespace: p.namespace,
      key,
      createdAgo: p.created,
      labels: { ...p.labels, 'pod-template-hash': podTemplateHash },
      ownerReferences: controllerRef('ReplicaSet', rsName, uid(`${this.idPrefix}ReplicaSet/${p.namespace}/${rsName}`)),
      spec,
    });
    const t = { created: p.created, scheduled: p.created - 1, started: p.created - 3, ready: p.created - 20 };
    pod.status = podStatus(pod, { kind: 'Running' }, t, this.nodesByName[p.node], this.ipFor(p.node, key));
    this.versions.add(pod, t.ready);
    this.pods.push(pod);
    return pod;
  }

  /** Two CoreDNS replicas (kube-system), Running and Ready on the given nodes. */
  coredns(nodes: string[], createdAgo = CLUSTER_AGE - 10 * MIN): BuiltPod[] {
    return nodes.map((n, i) =>
      this.deploymentPod({
        namespace: 'kube-system',
        app: 'coredns',
        container: 'coredns',
        index: i,
        node: n,
        created: createdAgo - 2 * i,
        labels: { 'k8s-app': 'kube-dns' },
        image: 'registry.k8s.io/coredns/coredns:v1.12.1',
        args: ['-conf', '/etc/coredns/Corefile'],
        ports: [
          { name: 'dns', containerPort: 53, protocol: 'UDP' },
          { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
          { name: 'metrics', containerPort: 9153, protocol: 'TCP' },
        ],
        resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
        readinessProbe: httpProbe('/ready', 8181),
        containerSecurityContext: {
          capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
        },
        dnsPolicy: 'Default',
        serviceAccount: 'coredns',
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        tolerations: [
          { key: 'CriticalAddonsOnly', operator: 'Exists' },
          { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
        ],
        priorityClassName: 'system-cluster-critical',
      }),
    );
  }

  /** A core/v1 Event (see makeEvent); events older than the 1 h event TTL would be gone. */
  event(e: EventDef): BuiltEvent {
    if ((e.lastAgo ?? e.firstAgo) > HOUR)
      throw new Error(`${this.name}: event ${e.reason} older than the 1h event TTL`);
    const ev = makeEvent(e, this.versions, this.idPrefix);
    this.events.push(ev);
    return ev;
  }

  /** Kubelet events on a container of `pod` (on the pod, without `container`) on its node. */
  kubeletEvent(pod: BuiltPod, container: string | undefined, e: Omit<EventDef, 'object' | 'component'>): BuiltEvent {
    return this.event({ ...kubeletSource(pod, container), ...e });
  }

  /** The scheduler's Scheduled event of `pod`, a second after it was created. */
  scheduledEvent(pod: BuiltPod): void {
    const { namespace, name } = pod.metadata;
    this.event({
      object: pod,
      reason: 'Scheduled',
      message: `Successfully assigned ${namespace}/${name} to ${pod.spec.nodeName}`,
      component: 'default-scheduler',
      firstAgo: ago(pod.metadata.creationTimestamp!) - 1,
    });
  }

  /** Pulling at `pullingAgo` and Pulled at `pulledAgo` events of a pull that took `seconds`. */
  pullEvents(pod: BuiltPod, container: string, pullingAgo: number, seconds: number, pulledAgo: number): void {
    const image = pod.spec.containers.find((x) => x.name === container)!.image!;
    this.kubeletEvent(pod, container, { reason: 'Pulling', message: `Pulling image "${image}"`, firstAgo: pullingAgo });
    this.kubeletEvent(pod, container, {
      reason: 'Pulled',
      message: pulledMessage(image, seconds),
      firstAgo: pulledAgo,
    });
  }

  /** The events of a pod created, scheduled and started normally (image pulled if the pod was built with `pull`). */
  startEvents(pod: BuiltPod): void {
    const created = ago(pod.metadata.creationTimestamp!);
    const pulled = this.pulls.get(pod);
    this.scheduledEvent(pod);
    for (const c of pod.spec.containers) {
      const startedAgo = ago(pod.status.containerStatuses!.find((s) => s.name === c.name)!.state!.running!.startedAt!);
      if (pulled) {
        this.pullEvents(pod, c.name, created - 3, pulled, created - 3 - Math.ceil(pulled));
      } else {
        this.kubeletEvent(pod, c.name, {
          reason: 'Pulled',
          message: `Container image "${c.image}" already present on machine`,
          firstAgo: startedAgo + 2,
        });
      }
      if (pulled && created - 3 - Math.ceil(pulled) < startedAgo + 1)
        throw new Error(`${this.name}: ${pod.metadata.name} starts before its image is pulled`);
      this.kubeletEvent(pod, c.name, {
        reason: 'Created',
        message: `Created container: ${c.name}`,
        firstAgo: startedAgo + 1,
      });
      this.kubeletEvent(pod, c.name, {
        reason: 'Started',
        message: `Started container ${c.name}`,
        firstAgo: startedAgo,
      });
    }
  }

  dsEvent(b: ScenarioDs, reason: string, message: string, firstAgo: number, extra: Partial<EventDef> = {}): BuiltEvent {
    return this.event({
      object: b.ds,
      reason,
      message,
      component: 'daemonset-controller',
      firstAgo,
      type: reason.startsWith('Failed') ? 'Warning' : 'Normal',
      ...extra,
    });
  }

  /** The controller's SuccessfulCreate event for `pod`, when it was created. */
  createdEvent(b: ScenarioDs, pod: BuiltPod): BuiltEvent {
    return this.dsEvent(
      b,
      'SuccessfulCreate',
      `Created pod: ${pod.metadata.name}`,
      ago(pod.metadata.creationTimestamp!),
    );
  }

  resourceQuota(q: Json): void {
    this.quotas.push(
      this.versions.add(
        {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: {
            name: q.name,
            namespace: q.namespace,
            uid: uid(`${this.idPrefix}ResourceQuota/${q.namespace}/${q.name}`),
            resourceVersion: '',
            creationTimestamp: at(q.createdAgo),
          },
          spec: { hard: q.hard },
          status: { hard: q.hard, used: q.used },
        },
        q.usedSinceAgo,
      ),
    );
  }

  /** A MutatingWebhookConfiguration, as `kubectl get mutatingwebhookconfigurations -o yaml` writes it. */
  mutatingWebhook(name: string, createdAgo: number, webhooks: Json[]): void {
    this.webhooks.push(
      this.versions.add(
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'MutatingWebhookConfiguration',
          metadata: {
            name,
            uid: uid(`${this.idPrefix}MutatingWebhookConfiguration/${name}`),
            resourceVersion: '',
            creationTimestamp: at(createdAgo),
            generation: 1,
          },
          webhooks,
        },
        createdAgo,
      ),
    );
  }

  /** An image pulled on a node earlier (e.g. the previous revision's image). */
  nodeImage(nodeName: string, image: string): void {
    (this.extraImages[nodeName] ??= new Set()).add(image);
  }

  /** Statuses, node images, resourceVersions; then writes dump.yaml and README.md. */
  write(readme: string | (() => string), { statusNodes }: { statusNodes?: BuiltNode[] } = {}): this {
    for (const b of this.dss) {
      const synced = b.revs[b.revs.length - 1 - (b.def.unobservedRevisions ?? 0)]!;
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
        for (const cs of p.status.containerStatuses ?? [])
          if (cs.imageID) images.add(p.spec.containers.find((c) => c.name === cs.name)!.image!);
      }
      node.status.images = nodeImages(images);
    }
    this.versions.assign();
    finishEvents(this.events);
    // The priority classes were created with the cluster, before anything else here.
    const priorityClasses = systemPriorityClasses(CLUSTER_AGE + 30);
    priorityClasses.forEach((pc, i) => {
      pc.metadata.resourceVersion = String(74 + i);
    });
    const lists = (
      [
        ['namespaces', this.namespaces],
        ['nodes', this.nodes],
        ['priorityclasses', priorityClasses],
        ['daemonsets', this.dss.map((b) => b.ds)],
        ['controllerrevisions', this.crs],
        ['pods', this.pods],
        ['events', this.events],
        ['resourcequotas', this.quotas],
        ['mutatingwebhookconfigurations', this.webhooks],
      ] as [string, readonly Json[]][]
    ).filter(
      ([kind, items]) => items.length || (kind !== 'resourcequotas' && kind !== 'mutatingwebhookconfigurations'),
    );
    const header =
      `# Scenario ${this.name}: \`kubectl get <kind> -A -o yaml\` for ${lists.map(([k]) => k).join(', ')}.\n` +
      `# Generated by scripts/make-scenarios.ts (npm run fixtures). Evaluation instant: ${NOW_ISO}.\n`;
    const docs = lists.map(([, items]) => listYaml(items));
    writeFile(`${OUT}/${this.name}/dump.yaml`, `${header}---\n${docs.join('---\n')}`);
    const text = typeof readme === 'function' ? readme() : readme;
    writeFile(`${OUT}/${this.name}/README.md`, `${text.trim()}\n`);
    return this;
  }
}

// ---------------------------------------------------------------------------
// DaemonSet templates
// ---------------------------------------------------------------------------

const FLUENT_BIT_SELECTOR = { 'app.kubernetes.io/instance': 'fluent-bit', 'app.kubernetes.io/name': 'fluent-bit' };

/** fluent-bit as the Helm chart ships it. */
function fluentBitTemplate({
  version = '3.1',
  envFrom,
  priorityClassName = 'system-node-critical',
}: { version?: string; envFrom?: Json[]; priorityClassName?: string } = {}): BuiltTemplate {
  return finishTemplate({
    metadata: { creationTimestamp: null, labels: { ...FLUENT_BIT_SELECTOR } },
    spec: {
      volumes: [
        { name: 'config', configMap: { name: 'fluent-bit', defaultMode: 420 } },
        hostPath('varlog', '/var/log'),
        hostPath('varlibdockercontainers', '/var/lib/docker/containers'),
        hostPath('etcmachineid', '/etc/machine-id', 'File'),
      ],
      containers: [
        {
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
          ...CONTAINER_DEFAULTS,
        },
      ],
      ...podSpecDefaults('fluent-bit'),
      tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName,
    },
  });
}

/** Grafana promtail (Helm chart): readiness on /ready, port http-metrics 3101. */
function promtailTemplate(version: string): BuiltTemplate {
  return finishTemplate({
    metadata: {
      creationTimestamp: null,
      labels: { 'app.kubernetes.io/instance': 'promtail', 'app.kubernetes.io/name': 'promtail' },
    },
    spec: {
      volumes: [
        { name: 'config', secret: { secretName: 'promtail', defaultMode: 420 } },
        hostPath('run', '/run/promtail'),
        hostPath('containers', '/var/lib/docker/containers'),
        hostPath('pods', '/var/log/pods'),
      ],
      containers: [
        {
          name: 'promtail',
          image: `docker.io/grafana/promtail:${version}`,
          args: ['-config.file=/etc/promtail/promtail.yaml'],
          ports: [{ name: 'http-metrics', containerPort: 3101, protocol: 'TCP' }],
          env: [fieldEnv('HOSTNAME')],
          resources: {},
          volumeMounts: [
            { name: 'config', mountPath: '/etc/promtail' },
            { name: 'run', mountPath: '/run/promtail' },
            { name: 'containers', readOnly: true, mountPath: '/var/lib/docker/containers' },
            { name: 'pods', readOnly: true, mountPath: '/var/log/pods' },
          ],
          readinessProbe: httpProbe('/ready', 'http-metrics', {
            initialDelaySeconds: 10,
            timeoutSeconds: 1,
            periodSeconds: 10,
            failureThreshold: 5,
          }),
          ...CONTAINER_DEFAULTS,
          securityContext: {
            capabilities: { drop: ['ALL'] },
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
          },
        },
      ],
      ...podSpecDefaults('promtail', { securityContext: { runAsUser: 0, runAsGroup: 0 } }),
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

const READY: PodState = { kind: 'Running' };

/** `n` ordinary m5.xlarge workers worker-1..n, all Ready. */
function workers(c: Cluster, n: number, overrides: Record<string, Partial<ScenarioNodeDef>> = {}): void {
  for (let i = 1; i <= n; i++) c.node({ name: `worker-${i}`, ...(overrides[`worker-${i}`] ?? {}) });
}

/** Creation time of a daemon pod created with its DaemonSet (staggered by node). */
function stagger(base: number, i: number): number {
  return base - 1 - (i % 3);
}

function assertFilter(c: Cluster, pod: BuiltPod, expected: string[]): void {
  const got = filterReasons(pod, c.nodesByName[targetNode(pod)!]!, c.pods);
  if (JSON.stringify(got) !== JSON.stringify(expected)) {
    throw new Error(
      `${c.name}: filters on ${targetNode(pod)} give ${JSON.stringify(got)}, story says ${JSON.stringify(expected)}`,
    );
  }
}

/** A pod Pending on its target node with a FailedScheduling event (re-checked against the filters). */
function unschedulable(reason: string, nodeCount: number): PodState {
  return { kind: 'Unschedulable', message: failedSchedulingMessage(nodeCount, reason) };
}

function failedSchedulingEvent(c: Cluster, pod: BuiltPod, count: number, lastAgo = 45): void {
  c.event({
    object: pod,
    reason: 'FailedScheduling',
    type: 'Warning',
    component: 'default-scheduler',
    message: pod.status.conditions![0]!.message!,
    firstAgo: ago(pod.metadata.creationTimestamp!) - 1,
    lastAgo,
    count,
  });
}

function crashEvents(
  c: Cluster,
  pod: BuiltPod,
  container: string,
  loop: CrashLoop,
  { pulledFresh = false } = {},
): void {
  const image = pod.spec.containers.find((x) => x.name === container)!.image;
  const first = loop.starts[0]!;
  const n = loop.starts.length;
  const last = loop.lastStartedAgo;
  c.kubeletEvent(pod, container, {
    reason: 'Created',
    message: `Created container: ${container}`,
    firstAgo: first + 1,
    lastAgo: last + 1,
    count: n,
  });
  c.kubeletEvent(pod, container, {
    reason: 'Started',
    message: `Started container ${container}`,
    firstAgo: first,
    lastAgo: last,
    count: n,
  });
  const already = pulledFresh ? loop.starts.slice(1) : loop.starts;
  if (already.length) {
    c.kubeletEvent(pod, container, {
      reason: 'Pulled',
      message: `Container image "${image}" already present on machine`,
      firstAgo: already[0]! + 2,
      lastAgo: last + 2,
      count: already.length,
    });
  }
  // The kubelet records BackOff on pod syncs that hit the back-off (about every 20 s).
  c.kubeletEvent(pod, container, {
    reason: 'BackOff',
    type: 'Warning',
    message: `Back-off restarting failed container ${container} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
    firstAgo: first - loop.run - 1,
    lastAgo: Math.min(6, loop.lastFinishedAgo - 1),
    count: Math.max(1, Math.round(loop.waited / 20)),
  });
}

/** `kubectl get ds`-style summary of a computed status. */
function statusText(b: ScenarioDs): string {
  const s = b.ds.status;
  return (
    `desired ${s.desiredNumberScheduled}, current ${s.currentNumberScheduled}, ready ${s.numberReady}, ` +
    `up-to-date ${s.updatedNumberScheduled ?? 0}, available ${s.numberAvailable ?? 0}, unavailable ${s.numberUnavailable ?? 0}, ` +
    `misscheduled ${s.numberMisscheduled}; generation ${b.ds.metadata.generation}, observedGeneration ${s.observedGeneration}`
  );
}

/**
 * The README of a scenario: title, story (two or three sentences), expected diagnosis.
 * `expect.nodes` maps node -> verdict text; `expect.rollout` is the rollout verdict, if any.
 */
function readme(c: Cluster, b: ScenarioDs, story: string, expect: Expectation): string {
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

const SUMMARY: { name: string; ds: string; nodes: Record<string, string>; rollout?: string | undefined }[] = [];

// ---------------------------------------------------------------------------
// Placement scenarios
// ---------------------------------------------------------------------------

function oomKilled() {
  const c = new Cluster('oom-killed', 2_310_000);
  const JOINED = 50 * MIN;
  c.namespace('monitoring', 60 * DAY + 60);
  c.node({ name: 'worker-1' });
  c.node({
    name: 'worker-2',
    type: M5_16X,
    joinedAgo: JOINED,
    readySinceAgo: JOINED - 35,
    labels: { 'node-pool': 'compute-xl' },
  });
  c.node({ name: 'worker-3' });
  const CREATED = 60 * DAY;
  const b = c.daemonSet({
    namespace: 'monitoring',
    name: 'node-exporter',
    createdAgo: CREATED,
    labels: nodeExporterLabels('v1.8.2'),
    selector: NODE_EXPORTER_SELECTOR,
    statusWrittenAgo: 150,
    template: nodeExporterTemplate({ memoryLimit: '50Mi' }),
  });
  c.daemonPod(b, 0, 'worker-1', { state: READY, created: CREATED - 2 });
  c.daemonPod(b, 0, 'worker-3', { state: READY, created: CREATED - 3 });
  const created = JOINED - 8;
  const loop = crashLoop(created - 9, 9);
  const pod = c.daemonPod(b, 0, 'worker-2', {
    created,
    lastWrite: loop.lastFinishedAgo - 1,
    state: {
      kind: 'CrashLoopBackOff',
      exitCode: 137,
      reason: 'OOMKilled',
      restarts: loop.restarts,
      backoff: loop.backoff,
      lastStartedAgo: loop.lastStartedAgo,
      lastFinishedAgo: loop.lastFinishedAgo,
    },
  });
  c.createdEvent(b, pod);
  c.scheduledEvent(pod);
  c.pullEvents(pod, 'node-exporter', created - 4, 3.412, created - 8);
  crashEvents(c, pod, 'node-exporter', loop, { pulledFresh: true });
  return c.write(() =>
    readme(
      c,
      b,
      `
    monitoring/node-exporter (kube-prometheus, memory limit 50Mi, request 30Mi) runs on three workers.
    worker-2 is a new m5.16xlarge (64 vCPUs) that joined 50 minutes ago; there node-exporter needs more
    than 50Mi, so its pod ${pod.metadata.name} is killed at start-up (lastState terminated reason OOMKilled,
    exit code 137, ${loop.restarts} restarts) and waits in CrashLoopBackOff.`,
      {
        nodes: {
          'worker-1': 'Healthy',
          'worker-2': 'Unhealthy — CrashLoopBackOff and its cause OOMKilled (raise the 50Mi memory limit)',
          'worker-3': 'Healthy',
        },
      },
    ),
  );
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
    namespace: 'logging',
    name: 'fluent-bit',
    createdAgo: CREATED,
    labels: { ...FLUENT_BIT_SELECTOR, 'app.kubernetes.io/version': '3.1.9' },
    selector: FLUENT_BIT_SELECTOR,
    statusWrittenAgo: JOINED - 60,
    template: fluentBitTemplate({ version: '3.1.9', envFrom }),
  });
  c.daemonPod(b, 0, 'worker-1', { state: READY, created: 9 * DAY });
  c.daemonPod(b, 0, 'worker-2', { state: READY, created: 9 * DAY - 40 });
  const created = JOINED - 41;
  const message = 'configmap "fluent-bit-config" not found';
  const pod = c.daemonPod(b, 0, 'worker-3', {
    created,
    lastWrite: created - 12,
    state: { kind: 'CreateContainerConfigError', message },
  });
  const image = pod.spec.containers[0]!.image;
  c.createdEvent(b, pod);
  c.scheduledEvent(pod);
  c.pullEvents(pod, 'fluent-bit', created - 4, 5.118, created - 10);
  c.kubeletEvent(pod, 'fluent-bit', {
    reason: 'Failed',
    type: 'Warning',
    message: `Error: ${message}`,
    firstAgo: created - 10,
    lastAgo: 9,
    count: 17,
  });
  c.kubeletEvent(pod, 'fluent-bit', {
    reason: 'Pulled',
    message: `Container image "${image}" already present on machine`,
    firstAgo: created - 22,
    lastAgo: 9,
    count: 16,
  });
  return c.write(() =>
    readme(
      c,
      b,
      `
    logging/fluent-bit takes its output settings from the ConfigMap fluent-bit-config through envFrom; that
    ConfigMap has been deleted. The pods on worker-1 and worker-2 started before and keep running, but
    ${pod.metadata.name} on worker-3 (joined 25 minutes ago) cannot create its container: waiting
    CreateContainerConfigError, \`${message}\`, with kubelet \`Failed\` events \`Error: ${message}\`.`,
      {
        nodes: {
          'worker-1': 'Healthy',
          'worker-2': 'Healthy',
          'worker-3': 'Unhealthy — CreateContainerConfigError (ConfigMap fluent-bit-config missing)',
        },
      },
    ),
  );
}

function podSecurityFailedCreate() {
  const c = new Cluster('podsecurity-failedcreate', 1_905_000);
  const CREATED = 3 * HOUR;
  c.namespace('agents', CREATED + 5 * MIN, { 'pod-security.kubernetes.io/enforce': 'baseline' });
  workers(c, 3);
  c.coredns(['worker-1', 'worker-2']);
  const labels = { 'app.kubernetes.io/name': 'node-agent' };
  const template = nodeAgentTemplate(
    'ghcr.io/acme-platform/node-agent:1.12.0',
    labels,
    {
      tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName: 'system-node-critical',
    },
    { securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false } },
  );
  const b = c.daemonSet({
    namespace: 'agents',
    name: 'node-agent',
    createdAgo: CREATED,
    labels,
    selector: labels,
    statusWrittenAgo: CREATED - 1,
    template,
  });
  const message =
    'Error creating: pods "node-agent-" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), hostPath volumes (volumes "proc", "sys")';
  c.dsEvent(b, 'FailedCreate', message, CREATED - 1, { lastAgo: 4 * MIN + 12, count: 30 });
  return c.write(() =>
    readme(
      c,
      b,
      `
    agents/node-agent is a hostNetwork agent with hostPath volumes proc and sys, created three hours ago in
    the namespace agents, which is labelled pod-security.kubernetes.io/enforce: baseline. PodSecurity
    admission rejects every pod the controller tries to create, so there are no pods at all and the
    DaemonSet carries a FailedCreate Warning (x30): \`${message}\`.`,
      {
        nodes: {
          'worker-1': 'Missing — FailedCreate (PodSecurity baseline)',
          'worker-2': 'Missing — FailedCreate (PodSecurity baseline)',
          'worker-3': 'Missing — FailedCreate (PodSecurity baseline)',
        },
      },
    ),
  );
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
      containers: [
        {
          name: 'vector',
          image: 'docker.io/timberio/vector:0.42.0-distroless-libc',
          args: ['--config-dir', '/etc/vector/'],
          ports: [{ name: 'prom-exporter', containerPort: 9090, protocol: 'TCP' }],
          env: [
            fieldEnv('VECTOR_SELF_NODE_NAME'),
            fieldEnv('VECTOR_SELF_POD_NAME', 'metadata.name'),
            fieldEnv('VECTOR_SELF_POD_NAMESPACE', 'metadata.namespace'),
          ],
          resources: { limits: { memory: '400Mi' }, requests: { cpu: '100m', memory: '200Mi' } },
          volumeMounts: [
            { name: 'config', readOnly: true, mountPath: '/etc/vector/' },
            { name: 'data', mountPath: '/vector-data-dir' },
            { name: 'var-log', readOnly: true, mountPath: '/var/log/' },
            { name: 'var-lib', readOnly: true, mountPath: '/var/lib' },
          ],
          ...CONTAINER_DEFAULTS,
        },
      ],
      ...podSpecDefaults('log-agent', { terminationGracePeriodSeconds: 60 }),
    },
  });
  const CREATED = 30 * DAY;
  const b = c.daemonSet({
    namespace: 'logging',
    name: 'log-agent',
    createdAgo: CREATED,
    labels,
    selector: labels,
    statusWrittenAgo: 4 * MIN,
    template,
  });
  c.daemonPod(b, 0, 'worker-1', { state: READY, created: CREATED - 1 });
  c.daemonPod(b, 0, 'worker-2', { state: READY, created: CREATED - 2 });
  c.resourceQuota({
    namespace: 'logging',
    name: 'compute-quota',
    createdAgo: 10 * DAY,
    usedSinceAgo: 10 * DAY - 5,
    hard: { pods: '10', 'requests.cpu': '1', 'requests.memory': '512Mi' },
    used: { pods: '2', 'requests.cpu': '200m', 'requests.memory': '400Mi' },
  });
  // The DaemonSet is requeued with exponential back-off (capped at 1000 s) after each failed
  // create; every attempt generates a new pod name, so each is its own Event (1 h TTL).
  const quotaMsg = (name: string) =>
    `Error creating: pods "${name}" is forbidden: exceeded quota: compute-quota, requested: requests.memory=200Mi, used: requests.memory=400Mi, limited: requests.memory=512Mi`;
  const names = ['log-agent-m9wzq', 'log-agent-5hbtl', 'log-agent-qf8rd', 'log-agent-x7k2p'];
  names.forEach((n, i) => c.dsEvent(b, 'FailedCreate', quotaMsg(n), 54 * MIN + 40 - i * 1000));
  // Self-check of the quota arithmetic: used = the namespace's non-terminal pods.
  const used = c.pods
    .filter((p) => p.metadata.namespace === 'logging' && !isTerminal(p))
    .reduce((s, p) => s + podRequest(p, 'memory'), 0);
  if (
    used !== resourceAmount('memory', '400Mi') ||
    used + resourceAmount('memory', '200Mi') <= resourceAmount('memory', '512Mi')
  )
    throw new Error('quota story broken');
  return c.write(() =>
    readme(
      c,
      b,
      `
    The namespace logging has a ResourceQuota compute-quota with requests.memory 512Mi, sized for two nodes:
    logging/log-agent (vector, requests 200Mi) uses 400Mi with its pods on worker-1 and worker-2. worker-3
    joined two hours ago and every create for it is rejected, most recently
    \`${quotaMsg('log-agent-x7k2p')}\`.`,
      {
        nodes: {
          'worker-1': 'Healthy',
          'worker-2': 'Healthy',
          'worker-3': 'Missing — FailedCreate (exceeded quota compute-quota, requests.memory)',
        },
      },
    ),
  );
}

function hostPortConflict() {
  const c = new Cluster('hostport-conflict', 2_870_000);
  const CREATED = 30 * MIN;
  c.namespace('edge', 31 * MIN);
  workers(c, 3);
  c.deploymentPod({
    namespace: 'default',
    app: 'legacy-api',
    node: 'worker-2',
    created: 12 * DAY,
    labels: { app: 'legacy-api' },
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
      containers: [
        {
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
          ...CONTAINER_DEFAULTS,
        },
      ],
      ...podSpecDefaults('envoy'),
    },
  });
  const b = c.daemonSet({
    namespace: 'edge',
    name: 'envoy',
    createdAgo: CREATED,
    labels,
    selector: labels,
    statusWrittenAgo: CREATED - 20,
    template,
  });
  const p1 = c.daemonPod(b, 0, 'worker-1', { state: READY, created: CREATED - 1, pull: 2.874 });
  const reason = "node(s) didn't have free ports for the requested pod ports";
  const p2 = c.daemonPod(b, 0, 'worker-2', {
    state: unschedulable(reason, 3),
    created: CREATED - 1,
    lastWrite: CREATED - 2,
  });
  const p3 = c.daemonPod(b, 0, 'worker-3', { state: READY, created: CREATED - 2, pull: 3.06 });
  assertFilter(c, p2, [reason]);
  for (const p of [p1, p2, p3]) c.createdEvent(b, p);
  c.startEvents(p1);
  c.startEvents(p3);
  failedSchedulingEvent(c, p2, 8, 2 * MIN + 30);
  return c.write(() =>
    readme(
      c,
      b,
      `
    edge/envoy (created 30 minutes ago) listens on hostPort 8080. On worker-2 the Deployment pod
    default/legacy-api already holds hostPort 8080, so ${p2.metadata.name} stays Pending, unbound, with
    PodScheduled=False reason Unschedulable and a FailedScheduling event: \`${p2.status.conditions![0]!.message}\`.`,
      {
        nodes: {
          'worker-1': 'Healthy',
          'worker-2': 'Pending — HostPortConflict (port 8080/TCP held by default/legacy-api)',
          'worker-3': 'Healthy',
        },
      },
    ),
  );
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
      namespace: 'default',
      app: 'web',
      index: i,
      node: 'worker-3',
      created: 5 * DAY - 30 * i,
      labels: { app: 'web' },
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
      volumes: [
        {
          name: 'opentelemetry-collector-configmap',
          configMap: { name: 'otel-agent', items: [{ key: 'relay', path: 'relay.yaml' }], defaultMode: 420 },
        },
      ],
      containers: [
        {
          name: 'opentelemetry-collector',
          image: 'docker.io/otel/opentelemetry-collector-contrib:0.112.0',
          args: ['--config=/conf/relay.yaml'],
          ports: [
            { name: 'otlp', containerPort: 4317, protocol: 'TCP' },
            { name: 'otlp-http', containerPort: 4318, protocol: 'TCP' },
          ],
          env: [fieldEnv('MY_POD_IP', 'status.podIP')],
          resources: { limits: { memory: '256Mi' }, requests: { cpu: '50m', memory: '64Mi' } },
          volumeMounts: [{ name: 'opentelemetry-collector-configmap', mountPath: '/conf' }],
          livenessProbe: httpProbe('/', 13133),
          readinessProbe: httpProbe('/', 13133),
          ...CONTAINER_DEFAULTS,
        },
      ],
      ...podSpecDefaults('otel-agent'),
    },
  });
  const b = c.daemonSet({
    namespace: 'observability',
    name: 'otel-agent',
    createdAgo: CREATED,
    labels,
    selector: labels,
    statusWrittenAgo: CREATED - 18,
    template,
  });
  const p1 = c.daemonPod(b, 0, 'worker-1', { state: READY, created: CREATED - 1, pull: 7.52 });
  const p2 = c.daemonPod(b, 0, 'worker-2', { state: READY, created: CREATED - 2, pull: 6.981 });
  const p3 = c.daemonPod(b, 0, 'worker-3', {
    state: unschedulable('Too many pods', 3),
    created: CREATED - 1,
    lastWrite: CREATED - 2,
  });
  assertFilter(c, p3, ['Too many pods']);
  for (const p of [p1, p2, p3]) c.createdEvent(b, p);
  c.startEvents(p1);
  c.startEvents(p2);
  failedSchedulingEvent(c, p3, 9, 4 * MIN);
  return c.write(() =>
    readme(
      c,
      b,
      `
    worker-3 is a t3.micro whose allocatable pods is "4", and it already runs four pods (two coredns, two
    default/web). observability/otel-agent (created 35 minutes ago) has no priority class, so at priority 0 it
    finds no lower-priority pod to preempt; its cpu and memory requests fit on worker-3 but the pod count does not: ${p3.metadata.name} is Pending with
    \`${p3.status.conditions![0]!.message}\`.`,
      {
        nodes: {
          'worker-1': 'Healthy',
          'worker-2': 'Healthy',
          'worker-3': 'Pending — TooManyPods (4 of 4 pod slots used)',
        },
      },
    ),
  );
}

function misscheduledLabelRemoved() {
  const c = new Cluster('misscheduled-label-removed', 4_050_000);
  const CREATED = 20 * DAY;
  const LABEL_REMOVED = 90;
  const TAINTED = 2 * HOUR;
  c.namespace('ingress-nginx', 20 * DAY + 300);
  c.node({ name: 'ingress-1', labels: { role: 'ingress' } });
  c.node({ name: 'ingress-2' });
  c.node({
    name: 'ingress-3',
    labels: { role: 'ingress' },
    taints: [{ key: 'maintenance', value: 'true', effect: 'NoSchedule' }],
  });
  c.node({ name: 'worker-1' });
  const selector = {
    'app.kubernetes.io/component': 'controller',
    'app.kubernetes.io/instance': 'ingress-nginx',
    'app.kubernetes.io/name': 'ingress-nginx',
  };
  const template = finishTemplate({
    metadata: {
      creationTimestamp: null,
      labels: { ...selector, 'app.kubernetes.io/part-of': 'ingress-nginx', 'app.kubernetes.io/version': '1.11.3' },
    },
    spec: {
      volumes: [{ name: 'webhook-cert', secret: { secretName: 'ingress-nginx-admission', defaultMode: 420 } }],
      containers: [
        {
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
            fieldEnv('POD_NAME', 'metadata.name'),
            fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
            { name: 'LD_PRELOAD', value: '/usr/local/lib/libmimalloc.so' },
          ],
          resources: { requests: { cpu: '100m', memory: '90Mi' } },
          volumeMounts: [{ name: 'webhook-cert', readOnly: true, mountPath: '/usr/local/certificates/' }],
          livenessProbe: httpProbe('/healthz', 10254, { initialDelaySeconds: 10, failureThreshold: 5 }),
          readinessProbe: httpProbe('/healthz', 10254, { initialDelaySeconds: 10 }),
          lifecycle: { preStop: { exec: { command: ['/wait-shutdown'] } } },
          ...CONTAINER_DEFAULTS,
          securityContext: {
            capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
            runAsUser: 101,
            runAsNonRoot: true,
            readOnlyRootFilesystem: false,
            allowPrivilegeEscalation: false,
            seccompProfile: { type: 'RuntimeDefault' },
          },
        },
      ],
      ...podSpecDefaults('ingress-nginx', { terminationGracePeriodSeconds: 300 }),
      nodeSelector: { 'kubernetes.io/os': 'linux', role: 'ingress' },
    },
  });
  const b = c.daemonSet({
    namespace: 'ingress-nginx',
    name: 'ingress-nginx-controller',
    createdAgo: CREATED,
    labels: { ...selector, 'app.kubernetes.io/part-of': 'ingress-nginx', 'app.kubernetes.io/version': '1.11.3' },
    selector,
    statusWrittenAgo: LABEL_REMOVED - 1,
    template,
  });
  c.daemonPod(b, 0, 'ingress-1', { state: READY, created: CREATED - 1 });
  const gone = c.daemonPod(b, 0, 'ingress-2', {
    state: { ...READY, observedGeneration: 2 },
    created: CREATED - 2,
    deletedAgo: LABEL_REMOVED,
    grace: 300,
  });
  const kept = c.daemonPod(b, 0, 'ingress-3', { state: READY, created: CREATED - 1 });
  c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${gone.metadata.name}`, LABEL_REMOVED);
  c.kubeletEvent(gone, 'controller', {
    reason: 'Killing',
    message: 'Stopping container controller',
    firstAgo: LABEL_REMOVED - 1,
  });
  const placements: [string, { shouldRun: boolean; shouldContinueRunning: boolean }][] = [
    ['ingress-2', { shouldRun: false, shouldContinueRunning: false }],
    ['ingress-3', { shouldRun: false, shouldContinueRunning: true }],
  ];
  for (const [n, run] of placements) {
    if (JSON.stringify(shouldRun(b.ds, c.nodesByName[n]!)) !== JSON.stringify(run))
      throw new Error(`${c.name}: ${n} placement story broken`);
  }
  void TAINTED;
  return c.write(() =>
    readme(
      c,
      b,
      `
    ingress-nginx/ingress-nginx-controller runs on nodes labelled role=ingress. ingress-2 lost that label
    90 seconds ago, so the controller deleted its pod ${gone.metadata.name} (shouldContinueRunning=false);
    it is still Terminating within its 300 s grace period. ingress-3 got the taint
    maintenance=true:NoSchedule after its pod ${kept.metadata.name} started: no new pod would be created
    there, but a NoSchedule taint does not evict, so the pod keeps running; both count in numberMisscheduled.`,
      {
        nodes: {
          'ingress-1': 'Healthy',
          'ingress-2':
            'Misscheduled — NodeSelectorMismatch (role=ingress removed; the controller deletes the pod, already Terminating)',
          'ingress-3': 'Misscheduled — UntoleratedTaint (maintenance=true:NoSchedule; pod left running)',
          'worker-1': 'Excluded — NodeSelectorMismatch (no role=ingress label; not a problem)',
        },
      },
    ),
  );
}

function cordonedNode() {
  const c = new Cluster('cordoned-node', 2_215_000);
  const CORDONED = 40 * MIN;
  c.namespace('monitoring', 60 * DAY + 60);
  workers(c, 3, {
    'worker-2': {
      unschedulable: true,
      taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: at(CORDONED) }],
    },
  });
  const CREATED = 60 * DAY;
  const b = c.daemonSet({
    namespace: 'monitoring',
    name: 'node-exporter',
    createdAgo: CREATED,
    labels: nodeExporterLabels('v1.8.2'),
    selector: NODE_EXPORTER_SELECTOR,
    statusWrittenAgo: 12 * DAY,
    template: nodeExporterTemplate(),
  });
  for (let i = 1; i <= 3; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const w2 = c.nodesByName['worker-2']!;
  c.event({
    object: w2,
    reason: 'NodeNotSchedulable',
    message: 'Node worker-2 status is now: NodeNotSchedulable',
    component: 'kubelet',
    host: 'worker-2',
    firstAgo: CORDONED - 1,
  });
  return c.write(() =>
    readme(
      c,
      b,
      `
    worker-2 was cordoned 40 minutes ago (spec.unschedulable: true and the taint
    node.kubernetes.io/unschedulable:NoSchedule). Every daemon pod tolerates that taint, so
    monitoring/node-exporter still counts worker-2 as desired and its pod there is Running and Ready:
    a cordon is not a DaemonSet problem.`,
      {
        nodes: { 'worker-1': 'Healthy', 'worker-2': 'Healthy (cordoned; nothing to fix)', 'worker-3': 'Healthy' },
      },
    ),
  );
}

function newNode() {
  const c = new Cluster('new-node', 5_502_000);
  const JOINED = 20;
  const NOT_READY_MSG =
    'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
  c.node({ name: 'worker-1' });
  c.node({ name: 'worker-2' });
  c.node({
    name: 'worker-3',
    joinedAgo: JOINED,
    heartbeatAgo: 9,
    health: 'NotReady',
    notReadyMessage: NOT_READY_MSG,
    taints: lifecycleTaints('not-ready', JOINED - 1, JOINED - 5),
  });
  const CREATED = CLUSTER_AGE - 40;
  const b = c.daemonSet({
    namespace: 'kube-system',
    name: 'kube-proxy',
    createdAgo: CREATED,
    labels: { 'k8s-app': 'kube-proxy' },
    selector: { 'k8s-app': 'kube-proxy' },
    statusWrittenAgo: 9 * DAY,
    template: kubeProxyTemplate('v1.34.2'),
  });
  for (const n of ['worker-1', 'worker-2'])
    c.daemonPod(b, 0, n, { state: READY, created: c.nodeDefs[n]!.joinedAgo - 9 });
  c.coredns(['worker-1', 'worker-2']);
  const w3 = c.nodesByName['worker-3']!;
  for (const e of nodeStartEvents(w3, JOINED, { startedBefore: 3, lastStatusBefore: 0 })) c.event(e);
  // The controller has not synced since the node was added: its last status was written over
  // worker-1 and worker-2 only (a sync that counted worker-3 would also have created its pod).
  const known = c.nodes.filter((n) => n.metadata.name !== 'worker-3');
  const result = c.write(
    () =>
      readme(
        c,
        b,
        `
    worker-3 registered 20 seconds ago (still NotReady: cni plugin not initialized, with the not-ready
    taints). kube-system/kube-proxy tolerates every taint, so the controller should run a pod there,
    but none exists yet: the controller has not synced since the node was added.`,
        {
          nodes: {
            'worker-1': 'Healthy',
            'worker-2': 'Healthy',
            'worker-3':
              'Missing — NotYetCreated (info: the node is 20 s old; the node is also NotReady, which does not stop kube-proxy)',
          },
          note: `The DaemonSet status is the one the controller wrote before worker-3 appeared
      (desired 2): a sync that counted worker-3 would also have created its pod. Computing it from
      the dumped nodes gives desired 3, current 2, unavailable 1.`,
        },
      ),
    { statusNodes: known },
  );
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
    namespace: 'logging',
    name: 'promtail',
    createdAgo: CREATED,
    labels: { ...selector, 'app.kubernetes.io/version': '3.2.1' },
    selector,
    statusWrittenAgo: JOINED - 60,
    template: promtailTemplate('3.2.1'),
  });
  c.daemonPod(b, 0, 'worker-1', { state: READY, created: CREATED - 3 });
  c.daemonPod(b, 0, 'worker-2', { state: READY, created: CREATED - 4 });
  const created = JOINED - 45;
  const pod = c.daemonPod(b, 0, 'worker-3', {
    state: { kind: 'NotReady' },
    created,
    lastWrite: created - 10,
    pull: 4.407,
  });
  c.createdEvent(b, pod);
  c.startEvents(pod);
  const started = ago(pod.status.containerStatuses![0]!.state!.running!.startedAt!);
  c.kubeletEvent(pod, 'promtail', {
    reason: 'Unhealthy',
    type: 'Warning',
    message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
    firstAgo: started - 10,
    lastAgo: 4,
    count: Math.floor((started - 14) / 10),
  });
  return c.write(() =>
    readme(
      c,
      b,
      `
    worker-3 joined 35 minutes ago with its kubelet configured to write pod logs under /data/log/pods
    (podLogsDir) instead of /var/log/pods, so logging/promtail there finds nothing to tail and its /ready
    endpoint answers 503. The container of ${pod.metadata.name} is running (no restarts) but Ready=False,
    with Unhealthy events \`Readiness probe failed: HTTP probe failed with statuscode: 503\`.`,
      {
        nodes: {
          'worker-1': 'Healthy',
          'worker-2': 'Healthy',
          'worker-3': 'Unhealthy — ReadinessProbeFailing (HTTP 503 on /ready)',
        },
      },
    ),
  );
}

function evictedPod() {
  const c = new Cluster('evicted-pod', 2_999_000);
  const PRESSURE = 3 * MIN;
  const EVICTED = 6;
  const message = 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 85Mi.';
  c.namespace('logging', 90 * DAY + 120);
  c.namespace('batch', 30 * DAY);
  workers(c, 3, {
    'worker-2': {
      memoryPressureSince: PRESSURE,
      taints: [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule', timeAdded: at(PRESSURE - 2) }],
    },
  });
  c.deploymentPod({
    namespace: 'batch',
    app: 'report-builder',
    node: 'worker-2',
    created: 50 * MIN,
    labels: { app: 'report-builder' },
    image: 'ghcr.io/acme-shop/report-builder:2.3.0',
    resources: { requests: { cpu: '500m', memory: '1Gi' } },
  });
  const CREATED = 90 * DAY;
  const b = c.daemonSet({
    namespace: 'logging',
    name: 'fluent-bit',
    createdAgo: CREATED,
    labels: { ...FLUENT_BIT_SELECTOR, 'app.kubernetes.io/version': '3.1.9' },
    selector: FLUENT_BIT_SELECTOR,
    statusWrittenAgo: EVICTED - 1,
    template: fluentBitTemplate({ version: '3.1.9', priorityClassName: undefined }),
  });
  c.daemonPod(b, 0, 'worker-1', { state: READY, created: 9 * DAY });
  const pod = c.daemonPod(b, 0, 'worker-2', {
    state: { kind: 'Evicted', message, evictedAgo: EVICTED },
    created: 9 * DAY - 40,
    lastWrite: EVICTED - 2,
  });
  c.daemonPod(b, 0, 'worker-3', { state: READY, created: 9 * DAY - 80 });
  const w2 = c.nodesByName['worker-2']!;
  c.event({
    object: w2,
    reason: 'NodeHasInsufficientMemory',
    message: 'Node worker-2 status is now: NodeHasInsufficientMemory',
    component: 'kubelet',
    host: 'worker-2',
    firstAgo: PRESSURE,
  });
  c.event({
    object: w2,
    reason: 'EvictionThresholdMet',
    type: 'Warning',
    message: 'Attempting to reclaim memory',
    component: 'kubelet',
    host: 'worker-2',
    firstAgo: PRESSURE - 1,
    lastAgo: EVICTED + 1,
    count: 4,
  });
  c.kubeletEvent(pod, undefined, { reason: 'Evicted', type: 'Warning', message, firstAgo: EVICTED });
  c.kubeletEvent(pod, 'fluent-bit', { reason: 'Killing', message: 'Stopping container fluent-bit', firstAgo: EVICTED });
  return c.write(() =>
    readme(
      c,
      b,
      `
    worker-2 has been under memory pressure for three minutes (a batch pod without a memory limit).
    Six seconds before the dump the kubelet evicted logging/fluent-bit's pod ${pod.metadata.name}
    (no priority class, so not protected as critical): phase Failed, reason Evicted, \`${message}\`. The
    controller will delete the failed pod and create a replacement (daemon pods tolerate the
    memory-pressure taint).`,
      {
        nodes: {
          'worker-1': 'Healthy',
          'worker-2': 'Unhealthy — PodFailed (Evicted: node low on memory)',
          'worker-3': 'Healthy',
        },
        note: `The status counts the failed pod as current and not ready (docs/semantics.md §3.8). The controller
      deletes a Failed daemon pod (FailedDaemonPod event, subject to the failed-pod back-off of §1.7)
      and creates the replacement on a later sync.`,
      },
    ),
  );
}

// ---------------------------------------------------------------------------
// Rollout scenarios
// ---------------------------------------------------------------------------

/** Name of a pod that was deleted before the dump (it appears only in events). */
function deletedPodName(c: Cluster, dsName: string, nodeName: string): string {
  return `${dsName}-${suffix(`${c.name}/deleted/${dsName}/${nodeName}`)}`;
}

function rolloutCrashloop() {
  const c = new Cluster('rollout-crashloop', 6_120_000);
  const CREATED = 60 * DAY;
  const ROLLOUT = 25 * MIN;
  c.namespace('monitoring', CREATED + 60);
  workers(c, 6);
  const b = c.daemonSet({
    namespace: 'monitoring',
    name: 'node-exporter',
    createdAgo: CREATED,
    labels: nodeExporterLabels('v1.9.0'),
    selector: NODE_EXPORTER_SELECTOR,
    updateStrategy: rolling(1),
    statusWrittenAgo: ROLLOUT - 5,
    revs: [
      { generation: 1, template: nodeExporterTemplate({ version: 'v1.8.2' }), createdAgo: CREATED },
      { generation: 2, template: nodeExporterTemplate({ version: 'v1.9.0' }), createdAgo: ROLLOUT },
    ],
  });
  for (let i = 2; i <= 6; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const created = ROLLOUT - 3;
  const loop = crashLoop(created - 9, 1);
  const pod = c.daemonPod(b, 1, 'worker-1', {
    created,
    pull: 3.927,
    lastWrite: loop.lastFinishedAgo - 1,
    state: {
      kind: 'CrashLoopBackOff',
      exitCode: 1,
      reason: 'Error',
      restarts: loop.restarts,
      backoff: loop.backoff,
      lastStartedAgo: loop.lastStartedAgo,
      lastFinishedAgo: loop.lastFinishedAgo,
    },
  });
  c.nodeImage('worker-1', 'quay.io/prometheus/node-exporter:v1.8.2');
  c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${deletedPodName(c, 'node-exporter', 'worker-1')}`, ROLLOUT);
  c.createdEvent(b, pod);
  c.scheduledEvent(pod);
  c.pullEvents(pod, 'node-exporter', created - 3, 3.927, created - 7);
  crashEvents(c, pod, 'node-exporter', loop, { pulledFresh: true });
  return c.write(() =>
    readme(
      c,
      b,
      `
    monitoring/node-exporter was updated 25 minutes ago from quay.io/prometheus/node-exporter:v1.8.2 to
    v1.9.0 (generation 2, RollingUpdate maxUnavailable 1). The controller replaced the pod on worker-1
    first; the new pod ${pod.metadata.name} exits with code 1 right after start (${loop.restarts} restarts,
    CrashLoopBackOff), which uses up the whole unavailability budget, so the five other nodes keep their
    Ready v1.8.2 pods.`,
      {
        nodes: {
          'worker-1': 'Unhealthy — CrashLoopBackOff (new revision, exit code 1)',
          ...Object.fromEntries([2, 3, 4, 5, 6].map((i) => [`worker-${i}`, 'Healthy (OutdatedRevision, info)'])),
        },
        rollout: 'Stuck (blocking node worker-1: CrashLoopBackOff; 1 of 6 updated, maxUnavailable 1 used up)',
      },
    ),
  );
}

function rolloutBadTag() {
  const c = new Cluster('rollout-bad-tag', 5_330_000);
  const CREATED = 75 * DAY;
  const ROLLOUT = 18 * MIN;
  c.namespace('platform', CREATED + 600);
  workers(c, 4);
  const labels = { 'app.kubernetes.io/name': 'telemetry-agent', 'app.kubernetes.io/part-of': 'platform' };
  const template = (tag: string) =>
    finishTemplate({
      metadata: { creationTimestamp: null, labels },
      spec: {
        volumes: [
          { name: 'config', configMap: { name: 'telemetry-agent', defaultMode: 420 } },
          hostPath('proc', '/proc'),
          hostPath('varlog', '/var/log'),
        ],
        containers: [
          {
            name: 'agent',
            image: `ghcr.io/acme-platform/telemetry-agent:${tag}`,
            args: ['--config=/etc/telemetry-agent/agent.yaml', '--node=$(NODE_NAME)'],
            ports: [{ name: 'metrics', containerPort: 9464, protocol: 'TCP' }],
            env: [fieldEnv('NODE_NAME')],
            resources: { limits: { memory: '256Mi' }, requests: { cpu: '50m', memory: '128Mi' } },
            volumeMounts: [
              { name: 'config', readOnly: true, mountPath: '/etc/telemetry-agent' },
              { name: 'proc', readOnly: true, mountPath: '/host/proc' },
              { name: 'varlog', readOnly: true, mountPath: '/var/log' },
            ],
            readinessProbe: httpProbe('/healthz', 'metrics'),
            ...CONTAINER_DEFAULTS,
            securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
          },
        ],
        ...podSpecDefaults('telemetry-agent'),
        tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }],
        priorityClassName: 'system-node-critical',
      },
    });
  const b = c.daemonSet({
    namespace: 'platform',
    name: 'telemetry-agent',
    createdAgo: CREATED,
    labels,
    selector: labels,
    updateStrategy: rolling('25%'),
    statusWrittenAgo: ROLLOUT - 4,
    revs: [
      { generation: 1, template: template('v1.4.2'), createdAgo: CREATED },
      { generation: 2, template: template('v2.0.0-does-not-exist'), createdAgo: ROLLOUT },
    ],
  });
  for (const i of [1, 2, 4]) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const created = ROLLOUT - 3;
  const pod = c.daemonPod(b, 1, 'worker-3', { state: { kind: 'ImagePullBackOff' }, created, lastWrite: created - 6 });
  c.nodeImage('worker-3', 'ghcr.io/acme-platform/telemetry-agent:v1.4.2');
  const image = pod.spec.containers[0]!.image!;
  // Pull attempts back off like container restarts (10 s doubling to 5 min); each takes ~1 s.
  const attempts = crashLoop(created - 5, 1);
  c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${deletedPodName(c, 'telemetry-agent', 'worker-3')}`, ROLLOUT);
  c.createdEvent(b, pod);
  c.scheduledEvent(pod);
  const backOffs = Math.max(1, Math.round(attempts.waited / 20)); // pod syncs in back-off, about every 20 s
  for (const e of failedPullEvents(pod, 'agent', {
    firstAgo: attempts.starts[0]!,
    lastAgo: attempts.lastStartedAgo,
    pulls: attempts.starts.length,
    backOffs,
    lastBackOffAgo: 8,
  }))
    c.event(e);
  return c.write(() =>
    readme(
      c,
      b,
      `
    platform/telemetry-agent was updated 18 minutes ago to the tag v2.0.0-does-not-exist (generation 2,
    RollingUpdate maxUnavailable 25% = 1 of 4 nodes). The new pod ${pod.metadata.name} on worker-3 is in
    ImagePullBackOff, with Failed events \`Failed to pull image "${image}": ${imageNotFound(image)}\`; the other three
    nodes keep their Ready v1.4.2 pods.`,
      {
        nodes: {
          'worker-1': 'Healthy (OutdatedRevision, info)',
          'worker-2': 'Healthy (OutdatedRevision, info)',
          'worker-3': 'Unhealthy — ImagePullBackOff (tag v2.0.0-does-not-exist not found)',
          'worker-4': 'Healthy (OutdatedRevision, info)',
        },
        rollout: 'Stuck (blocking node worker-3: ImagePullBackOff; 1 of 4 updated, maxUnavailable 25% = 1 used up)',
      },
    ),
  );
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
  shop.forEach((a, i) =>
    c.deploymentPod({
      namespace: 'shop',
      app: a.app,
      node: 'worker-2',
      created: 9 * DAY - 20 * i,
      labels: { app: a.app, 'app.kubernetes.io/part-of': 'shop' },
      image: `ghcr.io/acme-shop/${a.app}:2.${i + 3}.0`,
      ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
      resources: { limits: { memory: a.memory }, requests: { cpu: a.cpu, memory: a.memory } },
      readinessProbe: httpProbe('/healthz/ready', 'http'),
    }),
  );
  const labels = { 'app.kubernetes.io/name': 'fluentd', 'app.kubernetes.io/instance': 'fluentd' };
  const template = (memory: string, limit: string) =>
    finishTemplate({
      metadata: { creationTimestamp: null, labels },
      spec: {
        volumes: [
          hostPath('varlog', '/var/log'),
          hostPath('varlibdockercontainers', '/var/lib/docker/containers'),
          { name: 'buffer', emptyDir: {} },
        ],
        containers: [
          {
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
            ...CONTAINER_DEFAULTS,
          },
        ],
        ...podSpecDefaults('fluentd'),
        tolerations: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
      },
    });
  const b = c.daemonSet({
    namespace: 'logging',
    name: 'fluentd',
    createdAgo: CREATED,
    labels,
    selector: labels,
    updateStrategy: rolling(1),
    statusWrittenAgo: ROLLOUT - 4,
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
  const free = freeResource(c.nodesByName['worker-2']!, c.pods, 'memory');
  if (!(free >= resourceAmount('memory', '256Mi') && free < resourceAmount('memory', '2Gi')))
    throw new Error(`${c.name}: worker-2 free memory ${free}`);
  c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${deletedPodName(c, 'fluentd', 'worker-2')}`, ROLLOUT);
  c.createdEvent(b, pod);
  failedSchedulingEvent(c, pod, 7, 3 * MIN + 10);
  const freeMi = free / 2 ** 20;
  return c.write(() =>
    readme(
      c,
      b,
      `
    logging/fluentd was updated 14 minutes ago to request 2Gi of memory instead of 256Mi (generation 2,
    maxUnavailable 1, no priority class). The controller deleted the old pod on worker-2 first, but the
    shop pods there request 13824Mi of its 15128Mi allocatable, leaving ${freeMi}Mi: the new pod
    ${pod.metadata.name} stays Pending with \`${pod.status.conditions![0]!.message}\`.`,
      {
        nodes: {
          'worker-1': 'Healthy (OutdatedRevision, info)',
          'worker-2': `Pending — InsufficientResource (Insufficient memory: requests 2Gi, ${freeMi}Mi free)`,
          'worker-3': 'Healthy (OutdatedRevision, info)',
        },
        rollout:
          'Stuck (blocking node worker-2: InsufficientResource; the old pod there is already gone; 1 of 3 updated)',
      },
    ),
  );
}

function rolloutSurgeHostPort() {
  const c = new Cluster('rollout-surge-hostport', 3_050_000);
  const CREATED = 60 * DAY;
  const ROLLOUT = 12 * MIN;
  c.namespace('monitoring', CREATED + 60);
  workers(c, 3);
  const b = c.daemonSet({
    namespace: 'monitoring',
    name: 'node-exporter',
    createdAgo: CREATED,
    labels: nodeExporterLabels('v1.9.0'),
    selector: NODE_EXPORTER_SELECTOR,
    updateStrategy: rolling(0, 1),
    statusWrittenAgo: ROLLOUT - 2,
    revs: [
      {
        generation: 1,
        template: nodeExporterTemplate({ version: 'v1.8.2', explicitHostPort: false }),
        createdAgo: CREATED,
      },
      {
        generation: 2,
        template: nodeExporterTemplate({ version: 'v1.9.0', explicitHostPort: false }),
        createdAgo: ROLLOUT,
      },
    ],
  });
  for (let i = 1; i <= 3; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const reason = "node(s) didn't have free ports for the requested pod ports";
  const created = ROLLOUT - 1;
  const pod = c.daemonPod(b, 1, 'worker-1', { state: unschedulable(reason, 3), created, lastWrite: created - 1 });
  assertFilter(c, pod, [reason]);
  c.createdEvent(b, pod);
  failedSchedulingEvent(c, pod, 6, 2 * MIN + 5);
  const old = b.podsOf['worker-1']![0]!;
  return c.write(() =>
    readme(
      c,
      b,
      `
    monitoring/node-exporter uses hostNetwork with containerPort 9100, so its pods get hostPort 9100 by
    defaulting; it was updated 12 minutes ago to v1.9.0 with RollingUpdate maxSurge 1, maxUnavailable 0.
    The surge pod ${pod.metadata.name} for worker-1 must run next to the old pod ${old.metadata.name},
    which holds port 9100, so it stays Pending with \`${pod.status.conditions![0]!.message}\`; the old pod
    is only deleted once the new one is available, which never happens.`,
      {
        nodes: {
          'worker-1': `Healthy (the old pod serves, OutdatedRevision; its surge pod ${pod.metadata.name} is Pending — HostPortConflict)`,
          'worker-2': 'Healthy (OutdatedRevision, info)',
          'worker-3': 'Healthy (OutdatedRevision, info)',
        },
        rollout:
          'Stuck (blocking node worker-1: HostPortConflict of the surge pod; maxSurge 1 used up; 0 of 3 updated — a DaemonSet with host ports cannot surge)',
      },
    ),
  );
}

/** The aws-ebs-csi-driver node plugin as its Helm chart ships it. */
function ebsTemplate(version: string): BuiltTemplate {
  return finishTemplate({
    metadata: { creationTimestamp: null, labels: ebsNodeLabels(version) },
    spec: {
      volumes: EBS_NODE_VOLUMES,
      containers: [
        ebsPluginContainer(version, '40Mi'),
        ebsRegistrarContainer('public.ecr.aws/eks-distro/kubernetes-csi/node-driver-registrar:v2.12.0-eks-1-31-7'),
      ],
      ...podSpecDefaults('ebs-csi-node-sa', {
        securityContext: { runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, fsGroup: 0 },
      }),
      nodeSelector: { 'kubernetes.io/os': 'linux' },
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
    namespace: 'kube-system',
    name: 'ebs-csi-node',
    createdAgo: CREATED,
    labels: {
      'app.kubernetes.io/component': 'csi-driver',
      'app.kubernetes.io/managed-by': 'Helm',
      'app.kubernetes.io/name': 'aws-ebs-csi-driver',
      'app.kubernetes.io/version': '1.36.0',
      'helm.sh/chart': 'aws-ebs-csi-driver-2.36.0',
    },
    annotations: { 'meta.helm.sh/release-name': 'aws-ebs-csi-driver', 'meta.helm.sh/release-namespace': 'kube-system' },
    selector,
    updateStrategy: { type: 'OnDelete' },
    statusWrittenAgo: CHANGED - 1,
    revs: [
      { generation: 1, template: ebsTemplate('v1.35.0'), createdAgo: CREATED },
      { generation: 2, template: ebsTemplate('v1.36.0'), createdAgo: CHANGED },
    ],
  });
  for (let i = 1; i <= 3; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  c.coredns(['worker-1', 'worker-3']);
  // The same Helm upgrade rolled the driver's controller Deployment (RollingUpdate) at once.
  const deploy = {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata: {
      name: 'ebs-csi-controller',
      namespace: 'kube-system',
      uid: uid(`${c.name}/Deployment/kube-system/ebs-csi-controller`),
    },
  };
  const rsOld = `ebs-csi-controller-${templateHash({ v: 'v1.35.0' })}`;
  const rsNew = `ebs-csi-controller-${templateHash({ v: 'v1.36.0' })}`;
  (
    [
      [`Scaled up replica set ${rsNew} from 0 to 1`, 0],
      [`Scaled down replica set ${rsOld} from 2 to 1`, 24],
      [`Scaled up replica set ${rsNew} from 1 to 2`, 24],
      [`Scaled down replica set ${rsOld} from 1 to 0`, 47],
    ] as [string, number][]
  ).forEach(([message, dt]) =>
    c.event({
      object: deploy,
      reason: 'ScalingReplicaSet',
      message,
      component: 'deployment-controller',
      firstAgo: CHANGED - 1 - dt,
    }),
  );
  return c.write(() =>
    readme(
      c,
      b,
      `
    kube-system/ebs-csi-node uses updateStrategy OnDelete. Its template was changed 50 minutes ago from
    aws-ebs-csi-driver v1.35.0 to v1.36.0 (generation 2, a second ControllerRevision), but the controller
    replaces a pod only when someone deletes it, so all three nodes still run Ready v1.35.0 pods (the same
    Helm upgrade rolled the ebs-csi-controller Deployment right away: ScalingReplicaSet events).`,
      {
        nodes: {
          'worker-1': 'Healthy (OutdatedRevision, info)',
          'worker-2': 'Healthy (OutdatedRevision, info)',
          'worker-3': 'Healthy (OutdatedRevision, info)',
        },
        rollout: 'Manual (OnDelete: 0 of 3 updated; delete the pods node by node to roll)',
      },
    ),
  );
}

function rolloutTerminatingUnreachable() {
  const c = new Cluster('rollout-terminating-unreachable', 8_640_000);
  const LOST = 46 * MIN;
  const UNKNOWN = LOST - 40;
  const ROLLOUT = 40 * MIN + 30;
  workers(c, 4, {
    'worker-3': {
      health: 'Unknown',
      lastHeartbeatAgo: LOST,
      unknownSince: UNKNOWN,
      taints: lifecycleTaints('unreachable', UNKNOWN - 1, UNKNOWN - 5),
    },
  });
  const CREATED = CLUSTER_AGE - 40;
  const b = c.daemonSet({
    namespace: 'kube-system',
    name: 'kube-proxy',
    createdAgo: CREATED,
    labels: { 'k8s-app': 'kube-proxy' },
    selector: { 'k8s-app': 'kube-proxy' },
    updateStrategy: rolling(1),
    statusWrittenAgo: ROLLOUT - 1,
    revs: [
      { generation: 1, template: kubeProxyTemplate('v1.34.1'), createdAgo: CREATED },
      { generation: 2, template: kubeProxyTemplate('v1.34.2'), createdAgo: ROLLOUT + 1 },
    ],
  });
  for (const i of [1, 2, 4])
    c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: c.nodeDefs[`worker-${i}`]!.joinedAgo - 9 });
  const pod = c.daemonPod(b, 0, 'worker-3', {
    state: { kind: 'NodeLost', markedAgo: UNKNOWN - 5 },
    created: c.nodeDefs['worker-3']!.joinedAgo - 9,
    deletedAgo: ROLLOUT,
    grace: 30,
  });
  c.coredns(['worker-1', 'worker-2']);
  const w3 = c.nodesByName['worker-3']!;
  c.event({
    object: w3,
    reason: 'NodeNotReady',
    message: 'Node worker-3 status is now: NodeNotReady',
    component: 'node-controller',
    firstAgo: UNKNOWN,
  });
  c.event({
    object: pod,
    reason: 'NodeNotReady',
    type: 'Warning',
    message: 'Node is not ready',
    component: 'node-controller',
    firstAgo: UNKNOWN - 5,
  });
  c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`, ROLLOUT);
  return c.write(() =>
    readme(
      c,
      b,
      `
    worker-3 stopped reporting 46 minutes ago (Ready=Unknown, taints node.kubernetes.io/unreachable
    NoSchedule and NoExecute; kube-proxy tolerates both). kube-system/kube-proxy was then updated from
    v1.34.1 to v1.34.2 (maxUnavailable 1): the controller deleted the unavailable old pod
    ${pod.metadata.name} on worker-3 at once, but the kubelet is gone, so the pod has been Terminating
    for 40 minutes (deletionTimestamp 40 minutes ago, grace 30 s), which holds the only unavailability
    slot; no other node is updated.`,
      {
        nodes: {
          'worker-1': 'Healthy (OutdatedRevision, info)',
          'worker-2': 'Healthy (OutdatedRevision, info)',
          'worker-3': 'Unhealthy — PodTerminating (stuck 40 min; the node is NodeNotReady: Ready=Unknown)',
          'worker-4': 'Healthy (OutdatedRevision, info)',
        },
        rollout:
          'Stuck (blocking node worker-3: PodTerminating on an unreachable node; 0 of 4 updated; force-delete the pod or remove the node)',
      },
    ),
  );
}

function rolloutNotObserved() {
  const c = new Cluster('rollout-not-observed', 9_102_000);
  const CREATED = 90 * DAY;
  const V31 = 20 * DAY;
  const CHANGED = 3 * MIN;
  c.namespace('logging', CREATED + 120);
  workers(c, 3);
  const b = c.daemonSet({
    namespace: 'logging',
    name: 'fluent-bit',
    createdAgo: CREATED,
    labels: { ...FLUENT_BIT_SELECTOR, 'app.kubernetes.io/version': '3.2.2' },
    selector: FLUENT_BIT_SELECTOR,
    updateStrategy: rolling(1),
    statusWrittenAgo: V31 - 200,
    unobservedRevisions: 1,
    observedGeneration: 2,
    revs: [
      { generation: 1, template: fluentBitTemplate({ version: '3.0.7' }), createdAgo: CREATED },
      { generation: 2, template: fluentBitTemplate({ version: '3.1.9' }), createdAgo: V31 },
      { generation: 3, template: fluentBitTemplate({ version: '3.2.2' }), createdAgo: CHANGED },
    ],
  });
  for (let i = 1; i <= 3; i++) c.daemonPod(b, 1, `worker-${i}`, { state: READY, created: V31 - 40 * i });
  return c.write(() =>
    readme(
      c,
      b,
      `
    logging/fluent-bit was changed three minutes ago from fluent-bit 3.1.9 to 3.2.2 (generation 3), but the
    DaemonSet controller has not processed it: observedGeneration is still 2, there is no
    ControllerRevision for the new template yet, and the status still describes the finished 3.1.9
    rollout (3 of 3 updated and available).`,
      {
        nodes: {
          'worker-1': 'Healthy (pods of the last observed revision, 3.1.9)',
          'worker-2': 'Healthy (pods of the last observed revision, 3.1.9)',
          'worker-3': 'Healthy (pods of the last observed revision, 3.1.9)',
        },
        rollout:
          'Pending (ControllerNotObserved: generation 3 > observedGeneration 2; `kubectl rollout status` waits for the spec update to be observed)',
      },
    ),
  );
}

function rolloutComplete() {
  const c = new Cluster('rollout-complete', 5_870_000);
  const CREATED = 45 * DAY;
  const ROLLOUT = 24 * MIN;
  c.namespace('logging', CREATED + 200);
  workers(c, 3);
  const selector = { 'app.kubernetes.io/instance': 'promtail', 'app.kubernetes.io/name': 'promtail' };
  const b = c.daemonSet({
    namespace: 'logging',
    name: 'promtail',
    createdAgo: CREATED,
    labels: { ...selector, 'app.kubernetes.io/version': '3.2.1' },
    selector,
    updateStrategy: rolling(1),
    statusWrittenAgo: ROLLOUT - 2 * 45 - 30,
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
    c.createdEvent(b, pod);
    c.startEvents(pod);
  }
  return c.write(() =>
    readme(
      c,
      b,
      `
    logging/promtail was updated 24 minutes ago from 3.2.0 to 3.2.1 (generation 2, maxUnavailable 1). The
    controller replaced the three pods one after the other, each new pod becoming Ready about twenty
    seconds after it was created; all pods now run the new revision and are available.`,
      {
        nodes: { 'worker-1': 'Healthy', 'worker-2': 'Healthy', 'worker-3': 'Healthy' },
        rollout: 'Complete (3 of 3 updated and available)',
      },
    ),
  );
}

function rolloutInProgress() {
  const c = new Cluster('rollout-in-progress', 6_660_000);
  const CREATED = 30 * DAY;
  c.namespace('security', CREATED + 400);
  workers(c, 5);
  const labels = { 'app.kubernetes.io/instance': 'falco', 'app.kubernetes.io/name': 'falco' };
  const template = (version: string) =>
    finishTemplate({
      metadata: { creationTimestamp: null, labels },
      spec: {
        volumes: [
          hostPath('root-falco-fs', '/root/.falco'),
          hostPath('boot-fs', '/boot'),
          hostPath('lib-modules', '/lib/modules'),
          hostPath('usr-fs', '/usr'),
          hostPath('etc-fs', '/etc'),
          hostPath('proc-fs', '/proc'),
          {
            name: 'config-volume',
            configMap: { name: 'falco', items: [{ key: 'falco.yaml', path: 'falco.yaml' }], defaultMode: 420 },
          },
        ],
        containers: [
          {
            name: 'falco',
            image: `docker.io/falcosecurity/falco:${version}`,
            args: ['/usr/bin/falco', '-o', 'engine.kind=modern_ebpf'],
            ports: [{ name: 'web', containerPort: 8765, protocol: 'TCP' }],
            env: [
              { name: 'HOST_ROOT', value: '/host' },
              fieldEnv('FALCO_HOSTNAME'),
              {
                name: 'FALCO_K8S_NODE_NAME',
                valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } },
              },
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
            livenessProbe: httpProbe('/healthz', 8765, {
              initialDelaySeconds: 60,
              timeoutSeconds: 5,
              periodSeconds: 15,
            }),
            readinessProbe: httpProbe('/healthz', 8765, {
              initialDelaySeconds: 35,
              timeoutSeconds: 5,
              periodSeconds: 15,
            }),
            ...CONTAINER_DEFAULTS,
            securityContext: { privileged: true },
          },
        ],
        ...podSpecDefaults('falco'),
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
    namespace: 'security',
    name: 'falco',
    createdAgo: CREATED,
    labels,
    selector: labels,
    minReadySeconds: 30,
    updateStrategy: rolling(1),
    statusWrittenAgo: B.t.ready,
    revs: [
      { generation: 1, template: template('0.39.1'), createdAgo: CREATED },
      { generation: 2, template: template('0.39.2'), createdAgo: A.deleted + 1 },
    ],
  });
  for (let i = 3; i <= 5; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const pods: Record<string, BuiltPod> = {};
  const replaced: [string, typeof A, number][] = [
    ['worker-1', A, 4.213],
    ['worker-2', B, 3.874],
  ];
  for (const [n, x, pull] of replaced) {
    const pod = c.daemonPod(b, 1, n, { state: READY, created: x.created, pull, t: x.t });
    pods[n] = pod;
    c.nodeImage(n, 'docker.io/falcosecurity/falco:0.39.1');
    c.dsEvent(b, 'SuccessfulDelete', `Deleted pod: ${deletedPodName(c, 'falco', n)}`, x.deleted);
    c.createdEvent(b, pod);
    c.startEvents(pod);
  }
  if (podAvailable(pods['worker-2']!, 30) || !podAvailable(pods['worker-1']!, 30))
    throw new Error(`${c.name}: availability story broken`);
  return c.write(() =>
    readme(
      c,
      b,
      `
    security/falco (minReadySeconds 30, maxUnavailable 1, five nodes) is being updated from 0.39.1 to
    0.39.2. worker-1's new pod has been Ready for 86 s and is available; worker-2's new pod
    ${pods['worker-2']!.metadata.name} became Ready 10 s ago, so it is not available yet and holds the
    unavailability budget; worker-3 to worker-5 still run Ready 0.39.1 pods. Nothing is failing: the
    controller continues 20 s from now.`,
      {
        nodes: {
          'worker-1': 'Healthy',
          'worker-2': 'Healthy — NotAvailableYet (info: Ready for 10 s, minReadySeconds 30)',
          'worker-3': 'Healthy (OutdatedRevision, info)',
          'worker-4': 'Healthy (OutdatedRevision, info)',
          'worker-5': 'Healthy (OutdatedRevision, info)',
        },
        rollout: 'Progressing (2 of 5 updated, 4 available; no blocking node)',
      },
    ),
  );
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// Root-cause scenarios: the symptom in one object, its cause in another
// ---------------------------------------------------------------------------

/** The platform team's hostNetwork node agent (podsecurity-failedcreate and the root-cause scenarios), with the story's additions to its pod spec and container. */
function nodeAgentTemplate(
  image: string,
  labels: Record<string, string>,
  extra: Json = {},
  container: Json = {},
): BuiltTemplate {
  return finishTemplate({
    metadata: { creationTimestamp: null, labels },
    spec: {
      volumes: [hostPath('proc', '/proc'), hostPath('sys', '/sys')],
      containers: [
        {
          name: 'node-agent',
          image,
          args: ['--procfs=/host/proc', '--sysfs=/host/sys', '--listen=127.0.0.1:9810'],
          env: [fieldEnv('NODE_NAME')],
          resources: { limits: { memory: '128Mi' }, requests: { cpu: '50m', memory: '64Mi' } },
          volumeMounts: [
            { name: 'proc', readOnly: true, mountPath: '/host/proc' },
            { name: 'sys', readOnly: true, mountPath: '/host/sys' },
          ],
          ...CONTAINER_DEFAULTS,
          ...container,
        },
      ],
      ...podSpecDefaults('node-agent', { dnsPolicy: 'ClusterFirstWithHostNet' }),
      hostNetwork: true,
      ...extra,
    },
  });
}

const M7G: InstanceType = {
  instanceType: 'm7g.xlarge',
  capacity: M5.capacity,
  allocatable: M5.allocatable,
};

/** Pods crash on exactly the arm64 nodes: an image published for amd64 only (the arm64 node pools' classic). */
function crashArm64() {
  const c = new Cluster('crash-arm64', 7_310_000);
  const JOINED = 50 * MIN;
  const CREATED = 30 * DAY;
  c.namespace('agents', CREATED + 5 * MIN);
  workers(c, 3);
  for (const name of ['arm-1', 'arm-2']) {
    const n = c.node({
      name,
      type: M7G,
      joinedAgo: JOINED,
      readySinceAgo: JOINED - 40,
      labels: {
        'kubernetes.io/arch': 'arm64',
        'beta.kubernetes.io/arch': 'arm64',
        'eks.amazonaws.com/nodegroup': 'graviton',
      },
    });
    (n.status.nodeInfo as Json).architecture = 'arm64';
    (n.status.nodeInfo as Json).kernelVersion = '6.8.0-1019-aws';
  }
  const labels = { 'app.kubernetes.io/name': 'node-agent' };
  const b = c.daemonSet({
    namespace: 'agents',
    name: 'node-agent',
    createdAgo: CREATED,
    labels,
    selector: labels,
    statusWrittenAgo: 20,
    template: nodeAgentTemplate('ghcr.io/acme-platform/node-agent:1.12.0', labels),
  });
  for (let i = 1; i <= 3; i++) c.daemonPod(b, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const pods: BuiltPod[] = [];
  for (const name of ['arm-1', 'arm-2']) {
    const created = JOINED - 5 * MIN;
    const loop = crashLoop(created - 9, 1);
    const pod = c.daemonPod(b, 0, name, {
      created,
      pull: 2.114,
      lastWrite: loop.lastFinishedAgo - 1,
      state: {
        kind: 'CrashLoopBackOff',
        exitCode: 255,
        reason: 'Error',
        restarts: loop.restarts,
        backoff: loop.backoff,
        lastStartedAgo: loop.lastStartedAgo,
        lastFinishedAgo: loop.lastFinishedAgo,
      },
    });
    c.createdEvent(b, pod);
    c.scheduledEvent(pod);
    c.pullEvents(pod, 'node-agent', created - 4, 2.114, created - 7);
    crashEvents(c, pod, 'node-agent', loop, { pulledFresh: true });
    pods.push(pod);
  }
  return c.write(() =>
    readme(
      c,
      b,
      `
    agents/node-agent ran on the three amd64 workers for a month. 50 minutes ago a Graviton node group
    (m7g.xlarge, arm64) joined; the image ghcr.io/acme-platform/node-agent:1.12.0 is published for amd64
    only, so on both arm64 nodes the container exits at once (exit code 255: the kernel refuses an amd64
    binary, which the container log calls "exec format error") and waits in CrashLoopBackOff, while every
    amd64 node is Healthy. The shape of many arm64 node-pool threads ("standard_init_linux.go: exec user
    process caused: exec format error").`,
      {
        nodes: {
          ...Object.fromEntries([1, 2, 3].map((i) => [`worker-${i}`, 'Healthy'])),
          'arm-1': 'Unhealthy — CrashLoopBackOff; root cause NodeAttributeSplit (architecture arm64)',
          'arm-2': 'Unhealthy — CrashLoopBackOff; root cause NodeAttributeSplit (architecture arm64)',
        },
      },
    ),
  );
}

const GPU_FEATURE = 'feature.node.kubernetes.io/pci-10de.present';
const G5: InstanceType = {
  instanceType: 'g5.xlarge',
  capacity: { ...M5.capacity, 'nvidia.com/gpu': '1' },
  allocatable: { ...M5.allocatable, 'nvidia.com/gpu': '1' },
};

/**
 * The GPU device plugin at 0/0: it selects nodes by the PCI label node-feature-discovery writes,
 * and the NFD worker is kept off the tainted GPU nodes by a toleration with the taint's key and the
 * wrong value (the shape of NVIDIA GPU operator threads about "no nvidia.com/gpu allocatable").
 */
function gpuLabellerToleration() {
  const c = new Cluster('gpu-labeller-toleration', 7_520_000);
  const CREATED = 14 * DAY;
  const JOINED = 2 * HOUR;
  c.namespace('node-feature-discovery', CREATED + 10 * MIN);
  c.namespace('gpu', CREATED + 5 * MIN);
  workers(c, 2);
  for (const name of ['gpu-1', 'gpu-2'])
    c.node({
      name,
      type: G5,
      joinedAgo: JOINED,
      readySinceAgo: JOINED - 45,
      taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
    });
  const nfdLabels = { 'app.kubernetes.io/name': 'node-feature-discovery', role: 'worker' };
  const nfd = c.daemonSet({
    namespace: 'node-feature-discovery',
    name: 'nfd-worker',
    createdAgo: CREATED,
    labels: nfdLabels,
    selector: nfdLabels,
    statusWrittenAgo: JOINED - 1,
    template: finishTemplate({
      metadata: { creationTimestamp: null, labels: nfdLabels },
      spec: {
        volumes: [
          hostPath('host-sys', '/sys'),
          hostPath('host-usr-lib', '/usr/lib'),
          hostPath('nfd-worker-conf', '/etc/kubernetes/node-feature-discovery'),
        ],
        containers: [
          {
            name: 'worker',
            image: 'registry.k8s.io/nfd/node-feature-discovery:v0.16.4',
            command: ['nfd-worker'],
            args: ['-server=nfd-master:8080'],
            env: [fieldEnv('NODE_NAME')],
            resources: { limits: { memory: '512Mi' }, requests: { cpu: '5m', memory: '64Mi' } },
            volumeMounts: [
              { name: 'host-sys', readOnly: true, mountPath: '/host-sys' },
              { name: 'host-usr-lib', readOnly: true, mountPath: '/host-usr/lib' },
              { name: 'nfd-worker-conf', readOnly: true, mountPath: '/etc/kubernetes/node-feature-discovery' },
            ],
            ...CONTAINER_DEFAULTS,
          },
        ],
        ...podSpecDefaults('nfd-worker'),
        tolerations: [{ key: 'nvidia.com/gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' }],
      },
    }),
  });
  for (let i = 1; i <= 2; i++) c.daemonPod(nfd, 0, `worker-${i}`, { state: READY, created: stagger(CREATED, i) });
  const dpLabels = { 'app.kubernetes.io/name': 'nvidia-device-plugin' };
  const dp = c.daemonSet({
    namespace: 'gpu',
    name: 'nvidia-device-plugin',
    createdAgo: CREATED,
    labels: dpLabels,
    selector: dpLabels,
    statusWrittenAgo: JOINED - 1,
    template: finishTemplate({
      metadata: { creationTimestamp: null, labels: dpLabels },
      spec: {
        volumes: [hostPath('device-plugin', '/var/lib/kubelet/device-plugins')],
        containers: [
          {
            name: 'nvidia-device-plugin-ctr',
            image: 'nvcr.io/nvidia/k8s-device-plugin:v0.17.0',
            env: [{ name: 'FAIL_ON_INIT_ERROR', value: 'false' }],
            resources: {},
            volumeMounts: [{ name: 'device-plugin', mountPath: '/var/lib/kubelet/device-plugins' }],
            ...CONTAINER_DEFAULTS,
            securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
          },
        ],
        ...podSpecDefaults('nvidia-device-plugin'),
        priorityClassName: 'system-node-critical',
        tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: GPU_FEATURE, operator: 'In', values: ['true'] }] }],
            },
          },
        },
      },
    }),
  });
  return c.write(() =>
    readme(
      c,
      dp,
      `
    gpu/nvidia-device-plugin selects nodes labelled ${GPU_FEATURE}=true, as its Helm chart does; the label
    is written by node-feature-discovery's worker (node-feature-discovery/nfd-worker). Two g5.xlarge GPU
    nodes joined two hours ago with the taint nvidia.com/gpu=present:NoSchedule. The NFD worker tolerates
    nvidia.com/gpu with value "true", so the controller keeps it off both GPU nodes, nobody labels them,
    and the device plugin selects no node at all: desired 0, "Healthy 0/0" in kubectl. The root cause is
    the labeller's near-miss toleration (${nfd.ds.metadata.namespace}/${nfd.ds.metadata.name}).`,
      {
        nodes: {
          'worker-1': 'Excluded — NodeAffinityMismatch',
          'worker-2': 'Excluded — NodeAffinityMismatch',
          'gpu-1': 'Excluded — NodeAffinityMismatch; root cause LabellerNotRunning (nfd-worker, near-miss toleration)',
          'gpu-2': 'Excluded — NodeAffinityMismatch; root cause LabellerNotRunning (nfd-worker, near-miss toleration)',
        },
      },
    ),
  );
}

/**
 * FailedCreate "Pod is invalid" at a mount the template does not have: a mutating webhook that
 * injects a sidecar's container into every pod of labelled namespaces, its volume left out of the
 * patch (the shape of sidecar-injector threads where a DaemonSet in an injected namespace fails).
 */
function webhookFailedCreate() {
  const c = new Cluster('webhook-failedcreate', 7_730_000);
  const CREATED = 40 * MIN;
  c.namespace('agents', 30 * DAY, { 'sidecar-injection': 'enabled' });
  workers(c, 3);
  c.coredns(['worker-1', 'worker-2']);
  c.mutatingWebhook('acme-sidecar-injector', 5 * DAY, [
    {
      name: 'inject.sidecar.acme.io',
      admissionReviewVersions: ['v1'],
      clientConfig: { service: { namespace: 'sidecar-system', name: 'sidecar-injector', path: '/inject', port: 443 } },
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: { matchLabels: { 'sidecar-injection': 'enabled' } },
      objectSelector: {},
      reinvocationPolicy: 'Never',
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: '*' }],
      sideEffects: 'None',
      timeoutSeconds: 10,
    },
  ]);
  const labels = { 'app.kubernetes.io/name': 'node-agent' };
  const b = c.daemonSet({
    namespace: 'agents',
    name: 'node-agent',
    createdAgo: CREATED,
    labels,
    selector: labels,
    statusWrittenAgo: CREATED - 1,
    template: nodeAgentTemplate('ghcr.io/acme-platform/node-agent:1.12.0', labels),
  });
  const message =
    'Error creating: Pod "node-agent-7xk2p" is invalid: spec.containers[1].volumeMounts[0].name: Not found: "sidecar-certs"';
  c.dsEvent(b, 'FailedCreate', message, CREATED - 1, { lastAgo: 3 * MIN + 40, count: 17 });
  return c.write(() =>
    readme(
      c,
      b,
      `
    agents/node-agent was created 40 minutes ago in the namespace agents, which is labelled
    sidecar-injection: enabled. The MutatingWebhookConfiguration acme-sidecar-injector adds a sidecar
    container to every pod created there, with a mount of a volume "sidecar-certs" its patch does not add,
    so the API server refuses every pod the controller tries to create: \`${message}\` (x17). The template
    has one container and no such volume: the webhook is the root cause, not the template.`,
      {
        nodes: Object.fromEntries(
          [1, 2, 3].map((i) => [
            `worker-${i}`,
            'Missing — FailedCreate; root cause WebhookInjectedField (acme-sidecar-injector)',
          ]),
        ),
      },
    ),
  );
}

const SCENARIOS = [
  oomKilled,
  configError,
  podSecurityFailedCreate,
  quotaFailedCreate,
  hostPortConflict,
  tooManyPods,
  misscheduledLabelRemoved,
  cordonedNode,
  newNode,
  readinessFailing,
  evictedPod,
  rolloutCrashloop,
  rolloutBadTag,
  rolloutRequestsDontFit,
  rolloutSurgeHostPort,
  rolloutOnDelete,
  rolloutTerminatingUnreachable,
  rolloutNotObserved,
  rolloutComplete,
  rolloutInProgress,
  crashArm64,
  gpuLabellerToleration,
  webhookFailedCreate,
];

function writeIndex() {
  const lines = [
    '# Scenario fixtures',
    '',
    'One small cluster dump per DaemonSet failure mode (or non-failure), each in',
    '`<name>/dump.yaml` with its story and expected diagnosis in `<name>/README.md`.',
    `Evaluation instant of every dump: \`${NOW_ISO}\` (run the tool with \`--now ${NOW_ISO}\`).`,
    '',
    'The files are generated (except a hand-written `expect.json`): change `scripts/make-scenarios.ts` and run `npm run fixtures`',
    '(deterministic; regenerating without changes gives byte-identical files). Each `dump.yaml` holds one',
    '`kind: List` document per kind, as `kubectl get <kind> -A -o yaml` writes it, joined with `---`.',
    'DaemonSet `.status` is computed from the dumped nodes and pods (docs/semantics.md §3.8) unless a README says',
    'otherwise; FailedScheduling messages are checked against the requests, allocatable and host ports in the dump.',
    '',
    '| Scenario | DaemonSet | Expected (per node) | Rollout |',
    '|---|---|---|---|',
  ];
  for (const s of SUMMARY) {
    const nodes = Object.entries(s.nodes)
      .map(([n, v]) => `${n}: ${v.split(' (')[0]}`)
      .join('; ');
    const rollout = s.rollout ? s.rollout.split(';')[0]!.replace(/\((?!.*\))(.*)$/, '($1)') : '–';
    lines.push(`| [${s.name}](${s.name}/README.md) | ${s.ds} | ${nodes} | ${rollout} |`);
  }
  writeFile(`${OUT}/README.md`, `${lines.join('\n')}\n`);
}

clearGenerated(OUT);
for (const f of SCENARIOS) f();
writeIndex();
console.log(`wrote ${SCENARIOS.length} scenarios under ${OUT}`);
