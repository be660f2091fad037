/**
 * Fix scenarios: `generateFixScenario(seed, index)` draws a cluster left stuck or broken in one of
 * the ways ds-doctor's fixes address — a rollout stuck on a revision that crashes, cannot pull its
 * image or fails its readiness probe (`rollout undo`); a rolling update whose budget is held by a
 * node that went unreachable (delete the Node, or raise maxUnavailable); nodes kept off by a taint
 * the DaemonSet does not tolerate (a toleration); nodes without the label the nodeSelector wants
 * (label the node); a surge rollout whose new pods need the host port the old ones hold
 * (maxSurge 0); an OnDelete template change (delete the pod); pods refused by Pod Security or a
 * quota (label the namespace; raise the quota); a new template whose requests fit on no node (roll
 * back). Deterministic, like the other generators.
 *
 * The simulated kubelets play each pod by its image, not by its DaemonSet: after `rollout undo`
 * the old image is healthy again, and a pod created by a fix runs like any pod of its image.
 */
import type {
  Container,
  DaemonSet,
  IntOrString,
  Namespace,
  Node,
  PodTemplateSpec,
  ResourceQuota,
  Taint,
} from '../../src/model/k8s-types.js';
import { daemonSetManifest, namespaceManifest, nodeManifest, resourceQuotaManifest } from '../kube/manifests.js';
import { Rng } from './rng.js';
import type { KubeletState, NodeChange, Scenario } from './scenario.js';

export type FixProblem =
  | 'bad-revision'
  | 'dead-budget'
  | 'taint'
  | 'selector'
  | 'surge-hostport'
  | 'ondelete'
  | 'podsecurity'
  | 'quota'
  | 'requests'
  | 'dead-terminating';

export const FIX_PROBLEMS: readonly FixProblem[] = [
  'bad-revision',
  'dead-budget',
  'taint',
  'selector',
  'surge-hostport',
  'ondelete',
  'podsecurity',
  'quota',
  'requests',
  'dead-terminating',
];

export const OLD_IMAGE = 'registry.invalid/agent:1';
export const NEW_IMAGE = 'registry.invalid/agent:2';

export interface FixScenario {
  /** The objects (kind `placement`: no rollout or change of the other modes). */
  scenario: Scenario;
  problem: FixProblem;
  /** What was drawn, in words. */
  text: string;
  /** What the simulated kubelet does with a pod, by its first container's image; `ready` when absent. */
  images: Record<string, KubeletState>;
  /** Node changes after the first placement settled (a heartbeat that stops). */
  later: NodeChange[];
  /** A template change after that (index into the scenario's DaemonSets). */
  rollout?: { daemonSet: number; template: PodTemplateSpec };
  /**
   * Which way to apply a fix that offers several (taken modulo their number): the cycle number,
   * plus one for dead-terminating, so that one cycle deletes one Node (the pod GC takes a minute).
   */
  pick: number;
}

function node(name: string, labels: Record<string, string>, taints: Taint[] = []): Node {
  return nodeManifest(
    name,
    { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', ...labels },
    taints.length ? { taints } : {},
    {
      capacity: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '20Gi' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '20Gi' },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
        ...['MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
          type,
          status: 'False',
          reason: `KubeletHasNo${type}`,
          message: `${type} is False`,
        })),
      ],
    },
  );
}

function agent(extra: Partial<Container> = {}): Container {
  return { name: 'agent', image: OLD_IMAGE, resources: { requests: { cpu: '50m', memory: '32Mi' } }, ...extra };
}

const TAINTS: readonly Taint[] = [
  { key: 'dedicated', value: 'infra', effect: 'NoSchedule' },
  { key: 'ds-diff/special', effect: 'NoSchedule' },
  { key: 'example.com/maint', value: 'true', effect: 'NoExecute' },
];

type Strategy = NonNullable<NonNullable<DaemonSet['spec']>['updateStrategy']>;

export function generateFixScenario(seed: number, index: number): FixScenario {
  const r = new Rng(seed, index, 0xf1c5);
  const id = `d${seed}-${index}`;
  // Every run of eight consecutive indexes has each problem once; what else is drawn varies.
  const problem = FIX_PROBLEMS[index % FIX_PROBLEMS.length]!;
  const ns = `${id}-a`;
  const namespaces: Namespace[] = [namespaceManifest(`${id}-o`), namespaceManifest(ns)];
  const quotas: ResourceQuota[] = [];
  const count = r.int(3, problem === 'dead-budget' ? 5 : 4);
  const names = Array.from({ length: count }, (_, i) => `${id}-n${i}`);
  const labels: Record<string, string>[] = names.map(() => ({}));
  const taints: Taint[][] = names.map(() => []);
  const images: Record<string, KubeletState> = { [OLD_IMAGE]: 'ready', [NEW_IMAGE]: 'ready' };
  const later: NodeChange[] = [];
  const spec = { terminationGracePeriodSeconds: 0, containers: [agent()] } as NonNullable<PodTemplateSpec['spec']>;
  let strategy: Strategy | undefined;
  let rollout = false;
  let requests: Record<string, string> | undefined;
  let text: string;

  switch (problem) {
    case 'bad-revision': {
      const state = r.pick<KubeletState>(['crash', 'imagepull', 'probe-failing']);
      images[NEW_IMAGE] = state;
      strategy = r.pick<Strategy>([
        { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } },
        { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      ]);
      rollout = true;
      text = `image → :2, whose pods are ${state}; ${JSON.stringify(strategy.rollingUpdate)}`;
      break;
    }
    case 'dead-budget': {
      // The agent runs everywhere (tolerates every taint); one node stops answering, then the
      // template changes: its replacement pod there never becomes available and holds the budget.
      spec.tolerations = [{ operator: 'Exists' }];
      strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } };
      later.push({ node: names[count - 1]!, kind: 'stop-heartbeat' });
      rollout = true;
      text = `${names[count - 1]} stops answering, then image → :2; maxUnavailable 1`;
      break;
    }
    case 'dead-terminating': {
      // As dead-budget, with a termination grace period: the old pod there is deleted and its
      // deletion never confirmed, so it stays Terminating.
      spec.tolerations = [{ operator: 'Exists' }];
      spec.terminationGracePeriodSeconds = 5;
      strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } };
      later.push({ node: names[count - 1]!, kind: 'stop-heartbeat' });
      rollout = true;
      text = `${names[count - 1]} stops answering, then image → :2; grace period 5s, maxUnavailable 1`;
      break;
    }
    case 'taint': {
      const tainted = r.sample(names.slice(1), r.int(1, Math.min(2, count - 1)));
      for (const n of tainted) taints[names.indexOf(n)] = [{ ...r.pick(TAINTS) }];
      text = `taints the DaemonSet does not tolerate on ${tainted.map((n) => `${n} (${JSON.stringify(taints[names.indexOf(n)]![0])})`).join(', ')}`;
      break;
    }
    case 'selector': {
      const key = r.pick(['pool', 'topology.kubernetes.io/zone']);
      const want = key === 'pool' ? 'gpu' : 'zone-a';
      const others = key === 'pool' ? ['general', 'infra', undefined] : ['zone-b', undefined];
      names.forEach((_, i) => {
        const v = i === 0 ? want : r.chance(0.3) ? want : r.pick(others);
        if (v !== undefined) labels[i]![key] = v;
      });
      if (labels.every((l) => l[key] === want)) delete labels[count - 1]![key];
      spec.nodeSelector = { [key]: want };
      text = `nodeSelector ${key}=${want}; ${labels.filter((l) => l[key] !== want).length} node(s) without it`;
      break;
    }
    case 'surge-hostport': {
      spec.containers = [agent({ ports: [{ containerPort: 9100, hostPort: 9100, protocol: 'TCP' }] })];
      const maxSurge = r.pick<IntOrString>([1, '50%']);
      strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge } };
      rollout = true;
      text = `host port 9100, maxSurge ${maxSurge}, image → :2`;
      break;
    }
    case 'ondelete':
      strategy = { type: 'OnDelete' };
      rollout = true;
      text = 'OnDelete, image → :2';
      break;
    case 'podsecurity':
      namespaces[1] = namespaceManifest(ns, {
        'pod-security.kubernetes.io/enforce': r.pick(['baseline', 'restricted']),
      });
      spec.hostNetwork = true;
      text = `hostNetwork in a namespace that enforces ${namespaces[1].metadata?.labels?.['pod-security.kubernetes.io/enforce']}`;
      break;
    case 'requests': {
      // Nodes have 4 cpu and 8Gi: the new template's request fits on none of them.
      requests = r.pick<Record<string, string>>([{ cpu: '6' }, { memory: '12Gi' }, { cpu: '5', memory: '10Gi' }]);
      strategy = r.pick<Strategy>([
        { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } },
      ]);
      rollout = true;
      text = `image → :2 with requests ${JSON.stringify(requests)} that fit on no node; ${JSON.stringify(strategy.rollingUpdate)}`;
      break;
    }
    case 'quota':
      quotas.push(resourceQuotaManifest(ns, { pods: String(r.int(0, count - 1)) }));
      text = `a pod quota of ${quotas[0]!.spec?.hard?.['pods']} for ${count} nodes`;
      break;
  }

  const ds = daemonSetManifest('agent-a', ns, spec, strategy);
  const scenario: Scenario = {
    id,
    seed,
    index,
    kind: 'placement',
    features: [`fix:${problem}`],
    namespaces,
    quotas,
    limitRanges: [],
    nodes: names.map((n, i) => ({ object: node(n, labels[i]!, taints[i]), heartbeat: true })),
    others: [],
    daemonSets: [{ object: ds, kubelet: { default: 'ready', nodes: {} } }],
    changes: [],
  };
  const template = JSON.parse(JSON.stringify(ds.spec!.template)) as PodTemplateSpec;
  template.spec!.containers![0]!.image = NEW_IMAGE;
  if (requests) template.spec!.containers![0]!.resources = { requests };
  return {
    scenario,
    problem,
    text,
    images,
    later,
    ...(rollout ? { rollout: { daemonSet: 0, template } } : {}),
    pick: Math.floor(index / FIX_PROBLEMS.length) + (problem === 'dead-terminating' ? 1 : 0),
  };
}

/** The scenario under another id (every object name, node change and namespace follows). */
export function renameFixScenario(f: FixScenario, id: string): FixScenario {
  const old = f.scenario.id;
  return JSON.parse(
    JSON.stringify(f).split(`"${old}-`).join(`"${id}-`).split(`"${old}"`).join(`"${id}"`),
  ) as FixScenario;
}
