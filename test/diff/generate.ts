/**
 * The seeded scenario generator: `generateScenario(seed, index)` always returns the same
 * cluster situation. It draws nodes (labels, user taints, health and condition taints, cordon,
 * allocatable including an extended resource), other pods bound to them (requests, host ports,
 * hostNetwork, terminal phases), namespaces (PodSecurity level, ResourceQuota) and DaemonSets
 * (nodeSelector, required node affinity with every operator and matchFields, tolerations of every
 * shape, hostNetwork, host ports, init containers, sidecars, pod-level requests, priority,
 * scheduling gates), then either node changes after placement or a template change (rollout).
 */
import type {
  Affinity,
  Container,
  ContainerPort,
  IntOrString,
  KubeObject,
  Namespace,
  Node,
  NodeCondition,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PodSpec,
  PodTemplateSpec,
  ResourceQuota,
  Taint,
  Toleration,
} from '../../src/model/k8s-types.js';
import { podRequests } from '../../src/k8s/resources.js';
import {
  daemonSetManifest as daemonSet,
  limitRangeManifest,
  namespaceManifest,
  nodeManifest,
  podManifest,
  resourceQuotaManifest,
} from '../kube/manifests.js';
import { isoTime } from './cluster.js';
import { Rng } from './rng.js';
import {
  othersNamespace,
  type DaemonSetPlan,
  type KubeletPlan,
  type KubeletState,
  type NodeChange,
  type NodePlan,
  type OtherPodPlan,
  type RolloutPlan,
  type Scenario,
} from './scenario.js';

const ZONE = 'topology.kubernetes.io/zone';
const ARCH = 'kubernetes.io/arch';
export const LABEL_VALUES: Record<string, readonly string[]> = {
  [ZONE]: ['zone-a', 'zone-b', 'zone-c'],
  pool: ['general', 'gpu', 'infra'],
  [ARCH]: ['amd64', 'arm64'],
  ssd: ['true'],
  rank: ['0', '3', '5', '7', '10', '12'],
};
export const SELECTOR_KEYS = [ZONE, 'pool', ARCH, 'ssd'];
const AFFINITY_KEYS = [ZONE, 'pool', ARCH, 'ssd', 'rank', 'example.com/absent'];
/** Label values that are valid but parse as no integer, or overflow int64 (strconv.ParseInt fails). */
const ODD_RANKS = ['high', '9223372036854775808'];
const EXT = 'example.com/dev';

const NOT_READY_MESSAGES = [
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
  'PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s',
];

const USER_TAINTS: readonly Omit<Taint, 'effect'>[] = [
  { key: 'dedicated', value: 'infra' },
  { key: 'dedicated', value: 'gpu' },
  { key: 'ds-diff/special' },
  { key: 'example.com/maint', value: 'true' },
];
const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** Toleration shapes, from narrow to blanket, including the condition taints' keys. */
const TOLERATIONS: readonly (readonly [string, Toleration])[] = [
  ['toleration:Equal', { key: 'dedicated', operator: 'Equal', value: 'infra', effect: 'NoSchedule' }],
  ['toleration:Equal', { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoExecute' }],
  ['toleration:Equal-empty-effect', { key: 'dedicated', operator: 'Equal', value: 'infra' }],
  ['toleration:operator-omitted', { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
  ['toleration:Equal-wrong-value', { key: 'dedicated', operator: 'Equal', value: 'other', effect: 'NoSchedule' }],
  ['toleration:Exists', { key: 'dedicated', operator: 'Exists' }],
  ['toleration:Exists', { key: 'ds-diff/special', operator: 'Exists', effect: 'NoSchedule' }],
  ['toleration:Equal-empty-value', { key: 'ds-diff/special', operator: 'Equal', value: '', effect: 'NoExecute' }],
  ['toleration:Exists', { key: 'example.com/maint', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
  ['toleration:empty-key', { operator: 'Exists', effect: 'NoSchedule' }],
  ['toleration:empty-key', { operator: 'Exists', effect: 'NoExecute' }],
  ['toleration:blanket', { operator: 'Exists' }],
  [
    'toleration:not-ready-NoSchedule',
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
  ],
  [
    'toleration:unreachable-NoSchedule',
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' },
  ],
  ['toleration:not-ready-any-effect', { key: 'node.kubernetes.io/not-ready', operator: 'Exists' }],
  [
    'toleration:network-unavailable',
    { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' },
  ],
  [
    'toleration:default-with-seconds',
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ],
  ['toleration:PreferNoSchedule', { key: 'ds-diff/special', operator: 'Exists', effect: 'PreferNoSchedule' }],
];

export const PORTS: readonly ContainerPort[] = [
  { containerPort: 8080, hostPort: 8080, protocol: 'TCP' },
  { containerPort: 9100, hostPort: 9100, protocol: 'TCP' },
  { containerPort: 53, hostPort: 53, protocol: 'UDP' },
  { containerPort: 8080, hostPort: 8080, protocol: 'TCP', hostIP: '127.0.0.1' },
  { containerPort: 8080, hostPort: 8080, protocol: 'UDP' },
];

const CPU = ['0', '50m', '100m', '250m', '600m', '1', '1500m'];
const MEMORY = ['0', '32Mi', '128Mi', '512Mi', '1Gi', '3Gi'];

/** Collects feature tags while drawing. */
export class Draw {
  readonly features = new Set<string>();
  constructor(readonly rng: Rng) {}
  tag(feature: string): void {
    this.features.add(feature);
  }
}

/** Node conditions for a health state; timestamps are filled in when the node is created. */
export function readyCondition(health: 'ready' | 'notready' | 'unreachable', d: Draw): NodeCondition {
  switch (health) {
    case 'ready':
      return { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' };
    case 'notready':
      return { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: d.rng.pick(NOT_READY_MESSAGES) };
    case 'unreachable':
      return {
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      };
  }
}

function pressure(type: string, status: string): NodeCondition {
  return {
    type,
    status,
    reason: status === 'True' ? `KubeletHas${type}` : `KubeletHasNo${type}`,
    message: `${type} is ${status}`,
  };
}

function drawNode(d: Draw, name: string, rollout: boolean): NodePlan {
  const r = d.rng;
  const labels: Record<string, string> = {
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
    [ARCH]: r.chance(0.8) ? 'amd64' : 'arm64',
  };
  if (r.chance(0.8)) labels[ZONE] = r.pick(LABEL_VALUES[ZONE]!);
  if (r.chance(0.7)) labels['pool'] = r.pick(LABEL_VALUES['pool']!);
  if (r.chance(0.3)) labels['ssd'] = 'true';
  if (r.chance(0.6)) labels['rank'] = String(r.int(0, 12));
  else if (r.chance(0.15)) {
    labels['rank'] = r.pick(ODD_RANKS);
    d.tag('node:rank-not-int64');
  }

  const taints: Taint[] = [];
  if (r.chance(rollout ? 0.12 : 0.3)) {
    for (const t of r.sample(USER_TAINTS, r.int(1, 3))) {
      const effect = r.pick(EFFECTS);
      // A node holds one taint per key and effect.
      if (taints.some((x) => x.key === t.key && x.effect === effect)) continue;
      if (taints.some((x) => x.key === t.key)) d.tag('taint:same-key-two-effects');
      taints.push({ ...t, effect });
      d.tag(`taint:${effect}`);
    }
  }
  const health = r.weighted<'ready' | 'notready' | 'unreachable'>(
    rollout
      ? [
          ['ready', 12],
          ['notready', 1],
          ['unreachable', 1],
        ]
      : [
          ['ready', 12],
          ['notready', 1.5],
          ['unreachable', 1],
        ],
  );
  d.tag(`node:${health}`);
  const conditions: NodeCondition[] = [readyCondition(health, d)];
  if (health !== 'unreachable') {
    for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      const on = r.chance(rollout ? 0.02 : 0.05);
      if (on) d.tag(`node:${type}`);
      conditions.push(pressure(type, on ? 'True' : 'False'));
    }
  }
  if (r.chance(rollout ? 0.02 : 0.07)) {
    conditions.push({
      type: 'NetworkUnavailable',
      status: 'True',
      reason: 'NoRouteCreated',
      message: 'Node created without a route',
    });
    d.tag('node:NetworkUnavailable');
  }
  const unschedulable = r.chance(rollout ? 0.05 : 0.1);
  if (unschedulable) d.tag('node:cordoned');

  const allocatable: Record<string, string> = {
    cpu: r.weighted([
      ['500m', 1],
      ['1', 2],
      ['2', 3],
      ['4', 2],
    ]),
    memory: r.weighted([
      ['512Mi', 1],
      ['1Gi', 2],
      ['2Gi', 3],
      ['4Gi', 2],
    ]),
    pods: rollout
      ? r.weighted([
          ['110', 12],
          ['2', 1],
        ])
      : r.weighted([
          ['110', 12],
          ['4', 2],
          ['2', 1],
          ['1', 1],
        ]),
    'ephemeral-storage': '20Gi',
  };
  if (allocatable.pods !== '110') d.tag('node:few-pod-slots');
  if (r.chance(0.4)) {
    allocatable[EXT] = r.pick(['0', '1', '2']);
    d.tag('node:extended-resource');
  }
  const node = nodeManifest(
    name,
    labels,
    { ...(taints.length ? { taints } : {}), ...(unschedulable ? { unschedulable: true } : {}) },
    { capacity: { ...allocatable }, allocatable, conditions },
  );
  return { object: node, heartbeat: health !== 'unreachable' };
}

function requests(d: Draw, scale = 1): Record<string, string> {
  const r = d.rng;
  const out: Record<string, string> = {};
  const cpu = r.pick(CPU.slice(0, 4 + scale));
  const mem = r.pick(MEMORY.slice(0, 3 + scale));
  if (cpu !== '0') out['cpu'] = cpu;
  if (mem !== '0') out['memory'] = mem;
  if (r.chance(0.05)) {
    out['ephemeral-storage'] = r.pick(['1Gi', '30Gi']);
    d.tag('resources:ephemeral-storage');
  }
  return out;
}

/** Requests written as requests, or as limits only (the API server copies limits into requests). */
function resources(d: Draw, req: Record<string, string>, ext: number): Container['resources'] {
  const limitsOnly = d.rng.chance(0.25);
  if (limitsOnly) d.tag('resources:limits-only');
  const extPart: Record<string, string> = ext > 0 ? { [EXT]: String(ext) } : {};
  if (ext > 0) d.tag('resources:extended');
  if (limitsOnly) return { limits: { ...req, ...extPart } };
  return {
    ...(Object.keys(req).length ? { requests: { ...req, ...extPart } } : {}),
    ...(ext > 0 ? { limits: { ...extPart } } : {}),
  };
}

function drawOtherPods(d: Draw, s: { id: string }, nodes: NodePlan[], rollout: boolean): OtherPodPlan[] {
  const r = d.rng;
  const out: OtherPodPlan[] = [];
  let n = 0;
  for (const node of nodes) {
    if (!r.chance(rollout ? 0.2 : 0.45)) continue;
    for (let i = r.int(1, 3); i > 0; i--) {
      const phase = r.weighted<OtherPodPlan['phase']>([
        ['Running', 7],
        ['Pending', 1],
        ['Succeeded', 1],
        ['Failed', 1],
      ]);
      const hostNetwork = r.chance(0.1);
      const ports: ContainerPort[] = [];
      if (hostNetwork) {
        ports.push({ containerPort: 9100, protocol: 'TCP' });
        d.tag('other:hostNetwork-port');
      } else if (r.chance(0.3)) {
        const p = r.pick(PORTS);
        ports.push(r.chance(0.2) ? { ...p, hostIP: '10.0.0.7' } : { ...p });
        d.tag('other:hostPort');
      }
      const ext = r.chance(0.15) ? 1 : 0;
      const pod = podManifest(
        `other-${n++}`,
        othersNamespace(s as Scenario),
        { app: 'other' },
        {
          nodeName: node.object.metadata!.name!,
          terminationGracePeriodSeconds: 0,
          ...(hostNetwork ? { hostNetwork: true } : {}),
          containers: [
            {
              name: 'app',
              image: 'registry.invalid/app:1',
              resources: resources(d, requests(d, 3), ext),
              ...(ports.length ? { ports } : {}),
            },
          ],
        },
      );
      if (phase === 'Succeeded' || phase === 'Failed') d.tag('other:terminal');
      d.tag('other:pod');
      out.push({ object: pod, phase });
    }
  }
  return out;
}

/**
 * Pods that match a DaemonSet's selector but have no owner, bound to a node before the
 * DaemonSet exists: the controller adopts them (and, lacking its revision hash, replaces them).
 */
function drawOrphans(d: Draw, s: Scenario): OtherPodPlan[] {
  const r = d.rng;
  if (!r.chance(0.12)) return [];
  const open = s.daemonSets.filter((ds) => {
    const ns = s.namespaces.find((n) => n.metadata?.name === ds.object.metadata?.namespace);
    return !ns?.metadata?.labels && !s.quotas.some((q) => q.metadata?.namespace === ds.object.metadata?.namespace);
  });
  if (!open.length) return [];
  const ds = r.pick(open).object;
  d.tag('other:orphan-adopted');
  const node = r.pick(s.nodes).object.metadata!.name!;
  return [
    {
      phase: 'Running',
      object: podManifest(
        `orphan-${ds.metadata!.name}`,
        ds.metadata!.namespace!,
        { ...ds.spec!.selector!.matchLabels! },
        {
          nodeName: node,
          terminationGracePeriodSeconds: 0,
          containers: [{ name: 'agent', image: 'registry.invalid/agent:0' }],
        },
      ),
    },
  ];
}

function affinityRequirement(d: Draw): NodeSelectorRequirement {
  const r = d.rng;
  const op = r.weighted([
    ['In', 3],
    ['NotIn', 2],
    ['Exists', 2],
    ['DoesNotExist', 1.5],
    ['Gt', 2],
    ['Lt', 2],
  ] as const);
  d.tag(`affinity:${op}`);
  if (op === 'Gt' || op === 'Lt') {
    const key = r.chance(0.85) ? 'rank' : r.pick(['pool', 'example.com/absent']);
    const value = r.weighted([
      [String(r.int(0, 12)), 10],
      ['007', 1],
      ['high', 1],
      ['9223372036854775808', 1],
    ]);
    if (!/^\d+$/.test(value) || value.length > 18) d.tag('affinity:Gt-Lt-unparsable-value');
    return { key, operator: op, values: [value] };
  }
  const key = r.pick(AFFINITY_KEYS);
  if (op === 'Exists' || op === 'DoesNotExist') return { key, operator: op };
  const vocab = [...(LABEL_VALUES[key] ?? []), 'nowhere'];
  return { key, operator: op, values: r.sample(vocab, r.int(1, 2)) };
}

function drawAffinity(d: Draw, nodeNames: string[]): Affinity | undefined {
  const r = d.rng;
  if (!r.chance(0.38)) return undefined;
  const terms: NodeSelectorTerm[] = [];
  const count = r.weighted([
    [1, 5],
    [2, 3],
    [3, 1],
  ]);
  if (count > 1) d.tag('affinity:several-terms');
  for (let i = 0; i < count; i++) {
    if (r.chance(0.06)) {
      terms.push({});
      d.tag('affinity:empty-term');
      continue;
    }
    const term: NodeSelectorTerm = {};
    const exprs = r.weighted([
      [0, 1],
      [1, 4],
      [2, 3],
      [3, 1],
    ]);
    if (exprs) term.matchExpressions = Array.from({ length: exprs }, () => affinityRequirement(d));
    if (!exprs || r.chance(0.25)) {
      const fields = r.weighted([
        [1, 4],
        [2, 1],
      ]);
      term.matchFields = Array.from({ length: fields }, () => ({
        key: 'metadata.name',
        operator: r.weighted([
          ['In', 3],
          ['NotIn', 1],
        ]),
        values: [r.chance(0.9) ? r.pick(nodeNames) : 'no-such-node'],
      }));
      d.tag(fields > 1 ? 'affinity:matchFields-several' : 'affinity:matchFields');
      if (term.matchFields.some((f) => f.operator === 'NotIn')) d.tag('affinity:matchFields-NotIn');
    }
    terms.push(term);
  }
  const affinity: Affinity = {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  };
  if (r.chance(0.2)) {
    affinity.nodeAffinity!.preferredDuringSchedulingIgnoredDuringExecution = [
      { weight: 10, preference: { matchExpressions: [{ key: 'pool', operator: 'In', values: ['gpu'] }] } },
    ];
    d.tag('affinity:preferred');
  }
  return affinity;
}

export function drawTolerations(d: Draw, nodeTaints: Taint[] = []): Toleration[] | undefined {
  const r = d.rng;
  if (!r.chance(0.6)) return undefined;
  const picked = r.sample(
    TOLERATIONS,
    r.weighted([
      [1, 4],
      [2, 3],
      [3, 2],
      [4, 1],
    ]),
  );
  for (const [tag] of picked) d.tag(tag);
  const out = picked.map(([, t]) => ({ ...t }));
  // Often tolerate one of the taints the nodes really carry, exactly or by key.
  if (nodeTaints.length && r.chance(0.5)) {
    const t = r.pick(nodeTaints);
    out.push(
      r.chance(0.5)
        ? { key: t.key, operator: 'Exists', effect: t.effect }
        : { key: t.key, operator: 'Equal', value: t.value ?? '', effect: t.effect },
    );
    d.tag('toleration:matches-node-taint');
  }
  return out;
}

const RESTRICTED_CONTEXT = {
  runAsNonRoot: true,
  runAsUser: 1000,
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

export function drawPodSpec(d: Draw, nodes: NodePlan[], opts: { rollout: boolean }): PodSpec {
  const nodeNames = nodes.map((n) => n.object.metadata!.name!);
  const r = d.rng;
  const hostNetwork = r.chance(0.2);
  if (hostNetwork) d.tag('ds:hostNetwork');
  const ports: ContainerPort[] = [];
  if (hostNetwork && r.chance(0.7)) {
    ports.push(
      r.chance(0.5)
        ? { containerPort: 9100, protocol: 'TCP' }
        : { containerPort: 9100, hostPort: 9100, protocol: 'TCP' },
    );
    d.tag('ds:hostNetwork-port');
  } else if (!hostNetwork && r.chance(0.3)) {
    ports.push({ ...r.pick(PORTS) });
    d.tag('ds:hostPort');
  }
  const security = r.weighted([
    ['none', 7],
    ['privileged', 1.5],
    ['restricted', 1.5],
  ] as const);
  if (security !== 'none') d.tag(`ds:security-${security}`);
  const secCtx =
    security === 'privileged'
      ? { privileged: true }
      : security === 'restricted'
        ? { ...RESTRICTED_CONTEXT }
        : undefined;
  const ext = r.chance(0.12) ? 1 : 0;
  const main: Container = {
    name: 'agent',
    image: 'registry.invalid/agent:1',
    resources: resources(d, opts.rollout ? requests(d, 0) : requests(d, 3), opts.rollout ? 0 : ext),
    ...(ports.length ? { ports } : {}),
    ...(secCtx ? { securityContext: secCtx } : {}),
  };
  const initContainers: Container[] = [];
  if (r.chance(0.3)) {
    initContainers.push({
      name: 'init',
      image: 'registry.invalid/init:1',
      resources: resources(d, requests(d, 3), 0),
      ...(secCtx ? { securityContext: secCtx } : {}),
    });
    d.tag('ds:init-container');
  }
  if (r.chance(0.25)) {
    const sidecarPorts = r.chance(0.3) && !hostNetwork ? [{ ...r.pick(PORTS) }] : [];
    if (sidecarPorts.length) d.tag('ds:sidecar-hostPort');
    const sidecar: Container = {
      name: 'sidecar',
      image: 'registry.invalid/sidecar:1',
      restartPolicy: 'Always',
      resources: resources(d, requests(d, 2), 0),
      ...(sidecarPorts.length ? { ports: sidecarPorts } : {}),
      ...(secCtx ? { securityContext: secCtx } : {}),
    };
    // A sidecar may come before or after the plain init container: the init-time sum differs.
    if (r.chance(0.5)) initContainers.unshift(sidecar);
    else initContainers.push(sidecar);
    d.tag('ds:sidecar');
  }
  // A grace period makes deleted pods wait for their kubelet: on a dead node, forever.
  const grace = r.chance(opts.rollout ? 0.25 : 0.12) ? 30 : 0;
  if (grace) d.tag('ds:termination-grace');
  const spec: PodSpec = {
    terminationGracePeriodSeconds: grace,
    containers: [main],
    ...(initContainers.length ? { initContainers } : {}),
  };
  if (hostNetwork) spec.hostNetwork = true;
  if (r.chance(0.3)) {
    // Mostly one node's own labels (so some nodes match), sometimes any value.
    const model = r.pick(nodes).object.metadata!.labels!;
    const sel: Record<string, string> = {};
    for (const key of r.sample(
      SELECTOR_KEYS,
      r.weighted([
        [1, 3],
        [2, 1],
      ]),
    )) {
      sel[key] = model[key] !== undefined && r.chance(0.8) ? model[key] : r.pick(LABEL_VALUES[key]!);
    }
    spec.nodeSelector = sel;
    d.tag('ds:nodeSelector');
  }
  const affinity = drawAffinity(d, nodeNames);
  if (affinity) spec.affinity = affinity;
  const tolerations = drawTolerations(
    d,
    nodes.flatMap((n) => n.object.spec?.taints ?? []),
  );
  if (tolerations) spec.tolerations = tolerations;
  if (r.chance(0.15)) {
    spec.priorityClassName = 'system-node-critical';
    d.tag('ds:priority-critical');
  }
  if (r.chance(opts.rollout ? 0 : 0.04)) {
    spec.schedulingGates = [{ name: 'example.com/wait' }];
    d.tag('ds:scheduling-gate');
  }
  if (r.chance(0.08)) {
    // Pod-level requests (PodLevelResources, beta and on in 1.34+) replace the containers' cpu/memory
    // sum; validation wants them at least as large as that sum.
    const agg = podRequests(spec);
    const cpu = agg.get('cpu') ?? 0;
    const memoryMi = Math.ceil((agg.get('memory') ?? 0) / 2 ** 20);
    spec.resources = {
      requests: { cpu: `${cpu + r.pick([0, 100, 1000])}m`, memory: `${memoryMi + r.pick([0, 64, 1024])}Mi` },
    };
    d.tag('ds:pod-level-resources');
  }
  return spec;
}

export function kubeletPlan(
  d: Draw,
  nodeNames: string[],
  weights: readonly (readonly [KubeletState, number])[],
): KubeletPlan {
  const r = d.rng;
  const plan: KubeletPlan = { default: r.weighted(weights), nodes: {} };
  if (r.chance(0.15) && nodeNames.length) plan.nodes[r.pick(nodeNames)] = r.weighted(weights);
  for (const s of [plan.default, ...Object.values(plan.nodes)]) d.tag(`kubelet:${s}`);
  return plan;
}

export function drawNamespace(
  d: Draw,
  name: string,
): { ns: Namespace; quota?: ResourceQuota; limitRange?: KubeObject } {
  const r = d.rng;
  const labels: Record<string, string> = {};
  const level = r.weighted([
    ['none', 6],
    ['baseline', 2],
    ['restricted', 1],
    ['privileged', 1],
  ] as const);
  if (level !== 'none') {
    labels['pod-security.kubernetes.io/enforce'] = level;
    d.tag(`psa:${level}`);
  }
  const ns = namespaceManifest(name, labels);
  let limitRange: KubeObject | undefined;
  if (r.chance(0.1)) {
    // Defaults fill in what containers leave out (the scheduler sees the filled-in pod); max refuses big ones.
    limitRange = limitRangeManifest(name, [
      {
        type: 'Container',
        max: { cpu: r.pick(['1', '2']) },
        defaultRequest: { cpu: '200m', memory: '64Mi' },
        default: { cpu: '1', memory: '1Gi' },
      },
    ]);
    d.tag('limitrange');
  }
  const q = r.weighted([
    ['none', 7],
    ['pods', 1.5],
    ['requests.cpu', 1],
    ['limits.memory', 0.5],
  ] as const);
  if (q === 'none') return { ns, ...(limitRange ? { limitRange } : {}) };
  d.tag(`quota:${q}`);
  const hard: Record<string, string> =
    q === 'pods'
      ? { pods: r.pick(['0', '1', '2']) }
      : q === 'requests.cpu'
        ? { 'requests.cpu': r.pick(['100m', '300m', '1']) }
        : { 'limits.memory': '512Mi' };
  return { ns, quota: resourceQuotaManifest(name, hard), ...(limitRange ? { limitRange } : {}) };
}

function drawChanges(d: Draw, nodes: NodePlan[]): NodeChange[] {
  const r = d.rng;
  if (!r.chance(0.45)) return [];
  const out: NodeChange[] = [];
  for (const node of r.sample(nodes, r.int(1, 2))) {
    const name = node.object.metadata!.name!;
    const ready = node.object.status!.conditions!.find((c) => c.type === 'Ready')!.status;
    const options: (readonly [NodeChange, number])[] = [
      [{ node: name, kind: 'add-taint', taint: { key: 'ds-diff/later', effect: r.pick(EFFECTS) } }, 3],
      [{ node: name, kind: 'cordon', unschedulable: !node.object.spec?.unschedulable }, 1],
      [
        {
          node: name,
          kind: 'label',
          key: r.pick([ZONE, 'pool', 'rank', 'ssd']),
          value: r.chance(0.5) ? null : r.pick(['zone-b', 'gpu', '4']),
        },
        2.5,
      ],
      [
        {
          node: name,
          kind: 'condition',
          condition: pressure(r.pick(['MemoryPressure', 'DiskPressure', 'PIDPressure']), 'True'),
        },
        1,
      ],
      [
        {
          node: name,
          kind: 'condition',
          condition: { type: 'NetworkUnavailable', status: 'True', reason: 'NoRouteCreated', message: 'route deleted' },
        },
        0.7,
      ],
    ];
    if (node.heartbeat && ready === 'True') {
      options.push([{ node: name, kind: 'stop-heartbeat' }, 1.5]);
      options.push([{ node: name, kind: 'condition', condition: readyCondition('notready', d) }, 1.5]);
    }
    if (ready === 'False') options.push([{ node: name, kind: 'condition', condition: readyCondition('ready', d) }, 2]);
    const userTaint = node.object.spec?.taints?.[0];
    if (userTaint)
      options.push([{ node: name, kind: 'remove-taint', key: userTaint.key, effect: userTaint.effect }, 1.5]);
    const change = r.weighted(options);
    d.tag(
      `change:${change.kind === 'condition' ? `${change.condition.type}=${change.condition.status}` : change.kind}${change.kind === 'add-taint' ? `-${change.taint.effect}` : ''}`,
    );
    out.push(change);
  }
  return out;
}

function drawNodes(d: Draw, id: string, count: number, rollout: boolean): NodePlan[] {
  return Array.from({ length: count }, (_, i) => drawNode(d, `${id}-n${i}`, rollout));
}

function placementScenario(d: Draw, seed: number, index: number): Scenario {
  const r = d.rng;
  const id = `d${seed}-${index}`;
  const nodes = drawNodes(d, id, r.int(3, 6), false);
  const nodeNames = nodes.map((n) => n.object.metadata!.name!);
  const namespaces: Namespace[] = [namespaceManifest(`${id}-o`)];
  const quotas: ResourceQuota[] = [];
  const limitRanges: KubeObject[] = [];
  const daemonSets: DaemonSetPlan[] = [];
  const dsCount = r.weighted([
    [1, 3],
    [2, 4],
    [3, 2],
  ]);
  const shared = dsCount > 1 && r.chance(0.3);
  for (let i = 0; i < dsCount; i++) {
    const letter = String.fromCharCode(97 + i);
    const nsName = shared ? `${id}-a` : `${id}-${letter}`;
    if (!namespaces.some((n) => n.metadata?.name === nsName)) {
      const { ns, quota, limitRange } = drawNamespace(d, nsName);
      namespaces.push(ns);
      if (quota) quotas.push(quota);
      if (limitRange) limitRanges.push(limitRange);
    }
    const spec = drawPodSpec(d, nodes, { rollout: false });
    daemonSets.push({
      object: daemonSet(`agent-${letter}`, nsName, spec),
      kubelet: kubeletPlan(d, nodeNames, [
        ['ready', 7],
        ['crash', 1],
        ['imagepull', 1],
        ['probe-failing', 0.5],
        ['none', 1],
      ]),
    });
  }
  if (dsCount > 1) d.tag('scenario:several-daemonsets');
  const scenario: Scenario = {
    id,
    seed,
    index,
    kind: 'placement',
    features: [],
    namespaces,
    quotas,
    limitRanges,
    nodes,
    others: [],
    daemonSets,
    changes: [],
  };
  scenario.others = [...drawOtherPods(d, scenario, nodes, false), ...drawOrphans(d, scenario)];
  scenario.changes = drawChanges(d, nodes);
  return scenario;
}

/**
 * Sometimes a quota in the rollout's namespace: exactly one pod per node (a surge pod is refused)
 * or a cpu budget the old pods fit in and bigger new ones may not.
 */
function rolloutQuota(d: Draw, namespace: string, nodes: number): ResourceQuota[] {
  const r = d.rng;
  if (!r.chance(0.15)) return [];
  const pods = r.chance(0.5);
  d.tag(pods ? 'rollout:quota-pods' : 'rollout:quota-cpu');
  const hard: Record<string, string> = pods ? { pods: String(nodes) } : { 'requests.cpu': `${nodes * 300}m` };
  return [resourceQuotaManifest(namespace, hard)];
}

function rolloutScenario(d: Draw, seed: number, index: number): Scenario {
  const r = d.rng;
  const id = `d${seed}-${index}`;
  const nodes = drawNodes(d, id, r.int(3, 7), true);
  const nodeNames = nodes.map((n) => n.object.metadata!.name!);
  const nsName = `${id}-a`;
  const namespaces: Namespace[] = [namespaceManifest(`${id}-o`), namespaceManifest(nsName)];
  const spec = drawPodSpec(d, nodes, { rollout: true });
  // Rollouts are about the budget: keep most nodes eligible.
  if (r.chance(0.75)) delete spec.affinity;
  if (r.chance(0.75)) delete spec.nodeSelector;
  // Some agents run on nodes that are down too (one node here is): an old pod there is
  // replaced only when its deletion completes, which a dead kubelet never confirms.
  if (r.chance(0.15)) {
    spec.tolerations = [
      ...(spec.tolerations ?? []),
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
    ];
    spec.terminationGracePeriodSeconds = 30;
    const down = r.pick(nodes);
    const state = r.chance(0.6) ? 'unreachable' : 'notready';
    down.object.status!.conditions = [readyCondition(state, d)];
    down.heartbeat = state !== 'unreachable';
    d.tag('rollout:runs-on-down-nodes');
  }
  const strategy = r.weighted<NonNullable<RolloutPlan['updateStrategy']>>([
    [{ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }, 3],
    [{ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } }, 1.5],
    [{ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: r.pick(['25%', '34%', '50%']) } }, 2],
    [
      { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: r.pick<IntOrString>([1, 2, '50%']) } },
      2.5,
    ],
    [{ type: 'OnDelete' }, 0.7],
  ]);
  d.tag(
    `rollout:${strategy.type === 'OnDelete' ? 'OnDelete' : strategy.rollingUpdate?.maxSurge ? 'surge' : typeof strategy.rollingUpdate?.maxUnavailable === 'string' ? 'maxUnavailable-percent' : 'maxUnavailable-int'}`,
  );
  const ds: DaemonSetPlan = {
    object: daemonSet('agent-a', nsName, spec, strategy),
    kubelet: kubeletPlan(d, nodeNames, [
      ['ready', 12],
      ['crash', 1],
      ['none', 0.5],
    ]),
  };
  const newSpec: PodSpec = JSON.parse(JSON.stringify(spec)) as PodSpec;
  const main = newSpec.containers![0]!;
  const change = r.weighted([
    ['image', 4],
    ['requests', 2],
    ['tolerations', 1.5],
    ['hostPort', 1],
    ['labels', 0.5],
  ] as const);
  main.image = 'registry.invalid/agent:2';
  let changeText = 'image registry.invalid/agent:1 → :2';
  if (change === 'requests') {
    main.resources = {
      requests: { cpu: r.pick(['100m', '900m', '1500m', '3']), memory: r.pick(['64Mi', '1Gi', '3Gi']) },
    };
    // Pod-level requests must stay at least the containers' sum.
    delete newSpec.resources;
    changeText += `, requests → ${JSON.stringify(main.resources.requests)}`;
  } else if (change === 'tolerations') {
    const tol = drawTolerations(
      d,
      nodes.flatMap((n) => n.object.spec?.taints ?? []),
    );
    if (tol && r.chance(0.5)) newSpec.tolerations = tol;
    else delete newSpec.tolerations;
    changeText += `, tolerations → ${JSON.stringify(newSpec.tolerations ?? [])}`;
  } else if (change === 'hostPort') {
    main.ports = [{ containerPort: 9100, hostPort: 9100, protocol: 'TCP' }];
    delete newSpec.hostNetwork;
    changeText += ', hostPort 9100';
  }
  const template: PodTemplateSpec = {
    metadata: { labels: { app: 'agent-a', ...(change === 'labels' ? { release: 'two' } : {}) } },
    spec: newSpec,
  };
  d.tag(`rollout:change-${change}`);
  const rollout: RolloutPlan = {
    daemonSet: 0,
    change: changeText,
    template,
    kubelet: kubeletPlan(d, nodeNames, [
      ['ready', 6],
      ['imagepull', 1.5],
      ['crash', 1],
      ['probe-failing', 0.5],
    ]),
  };
  const scenario: Scenario = {
    id,
    seed,
    index,
    kind: 'rollout',
    features: [],
    namespaces,
    quotas: rolloutQuota(d, nsName, nodes.length),
    limitRanges: [],
    nodes,
    others: [],
    daemonSets: [ds],
    changes: [],
    rollout,
  };
  scenario.others = drawOtherPods(d, scenario, nodes, true);
  return scenario;
}

/** The scenario `index` of `seed`: the same on every run. `kind` forces placement or rollout. */
export function generateScenario(seed: number, index: number, kind?: 'placement' | 'rollout'): Scenario {
  const d = new Draw(new Rng(seed, index));
  const s = drawScenario(d, seed, index, kind);
  s.features = [...d.features].sort();
  return s;
}

/** The scenario a Draw makes next (the features stay in the Draw). */
export function drawScenario(d: Draw, seed: number, index: number, kind?: 'placement' | 'rollout'): Scenario {
  // Drawn even when forced, so that `--kind` picks out the same scenario a mixed run made.
  const drawn = d.rng.chance(0.3) ? 'rollout' : 'placement';
  const k = kind ?? drawn;
  return k === 'rollout' ? rolloutScenario(d, seed, index) : placementScenario(d, seed, index);
}

/** Fills the timestamps a kubelet would report into a node's conditions. */
export function stampConditions(node: Node): Node {
  const now = isoTime();
  const copy = JSON.parse(JSON.stringify(node)) as Node;
  for (const c of copy.status?.conditions ?? []) {
    c.lastHeartbeatTime = now;
    c.lastTransitionTime = now;
  }
  return copy;
}
