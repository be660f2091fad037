/**
 * Plan scenarios: `generatePlanScenario(seed, index)` draws a base (a placement scenario, or a
 * rollout scenario's cluster and DaemonSet without its rollout), then one change of one
 * DaemonSet — a nodeSelector narrowed or widened, tolerations added or removed, requests raised
 * (so that some nodes cannot fit the pod) or lowered, a host port that collides with another pod
 * or DaemonSet, a new strategy with a new image (sometimes with raised requests), a
 * metadata-only change (nothing rolls), or a new DaemonSet. Deterministic, like the base.
 */
import type { ContainerPort, DaemonSet, PodSpec } from '../../src/model/k8s-types.js';
import { daemonSetManifest as daemonSet } from '../kube/manifests.js';
import {
  Draw,
  drawNamespace,
  drawPodSpec,
  drawScenario,
  drawTolerations,
  LABEL_VALUES,
  SELECTOR_KEYS,
} from './generate.js';
import { Rng } from './rng.js';
import type { PlanChange, PlanChangeKind, Scenario } from './scenario.js';

const CHANGE_WEIGHTS: readonly (readonly [PlanChangeKind, number])[] = [
  ['selector-narrow', 1.5],
  ['selector-widen', 1],
  ['tolerations-add', 1.2],
  ['tolerations-remove', 1],
  ['requests-raise', 1.5],
  ['requests-lower', 0.8],
  ['hostPort', 1.2],
  ['strategy', 1.5],
  ['metadata', 0.8],
  ['create', 1],
  ['strategy-unblock', 1],
];

const RAISED = { cpu: ['900m', '1500m', '3'], memory: ['1Gi', '3Gi'] };

function clone<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

/** The manifest a user would apply: the object as created, without what the API server adds. */
function manifestOf(ds: DaemonSet): DaemonSet {
  return clone({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { ...ds.metadata }, spec: ds.spec });
}

function narrowSelector(d: Draw, s: Scenario, spec: PodSpec): string {
  const node = d.rng.pick(s.nodes).object.metadata!.labels!;
  const key = d.rng.pick(SELECTOR_KEYS.filter((k) => node[k] !== undefined).concat(['kubernetes.io/hostname']));
  spec.nodeSelector = { ...(spec.nodeSelector ?? {}), [key]: node[key] ?? d.rng.pick(LABEL_VALUES[key] ?? ['x']) };
  return `nodeSelector += ${key}=${spec.nodeSelector[key]}`;
}

function widenSelector(spec: PodSpec): string {
  const had = [spec.nodeSelector ? 'nodeSelector' : '', spec.affinity ? 'affinity' : ''].filter(Boolean);
  delete spec.nodeSelector;
  delete spec.affinity;
  return had.length
    ? `${had.join(' and ')} removed`
    : 'no nodeSelector or affinity to remove (the template is unchanged)';
}

/**
 * Host ports other pods and DaemonSets of the scenario use, so that the new one collides; never
 * one the container already has (the API refuses a duplicate port).
 */
function collidingPort(d: Draw, s: Scenario, dsIndex: number | undefined, own: ContainerPort[]): ContainerPort {
  const used: ContainerPort[] = [
    ...s.others.flatMap(
      (o) =>
        o.object.spec?.containers?.flatMap((c) =>
          (c.ports ?? []).map((p) => (o.object.spec?.hostNetwork ? { ...p, hostPort: p.containerPort } : p)),
        ) ?? [],
    ),
    ...s.daemonSets
      .filter((_, i) => i !== dsIndex)
      .flatMap((x) => {
        const spec = x.object.spec?.template?.spec;
        return [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])].flatMap((c) =>
          (c.ports ?? []).map((p) => (spec?.hostNetwork ? { ...p, hostPort: p.containerPort } : p)),
        );
      }),
  ].filter((p) => p.hostPort);
  const taken = (p: ContainerPort) =>
    own.some((o) => (o.hostPort ?? o.containerPort) === p.hostPort && (o.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
  const free = used.filter((p) => !taken(p));
  const fallback = [9100, 9200]
    .map((n): ContainerPort => ({ containerPort: n, hostPort: n, protocol: 'TCP' }))
    .find((p) => !taken(p))!;
  const p: ContainerPort = free.length ? d.rng.pick(free) : fallback;
  return {
    containerPort: p.hostPort!,
    hostPort: p.hostPort!,
    protocol: p.protocol ?? 'TCP',
    ...(p.hostIP && d.rng.chance(0.5) ? { hostIP: p.hostIP } : {}),
  };
}

function raiseRequests(d: Draw, spec: PodSpec): string {
  const main = spec.containers![0]!;
  main.resources = { requests: { cpu: d.rng.pick(RAISED.cpu), memory: d.rng.pick(RAISED.memory) } };
  // Pod-level requests must stay at least the containers' sum.
  delete spec.resources;
  return `requests → ${JSON.stringify(main.resources.requests)}`;
}

function newStrategy(d: Draw): NonNullable<DaemonSet['spec']>['updateStrategy'] {
  return d.rng.weighted<NonNullable<NonNullable<DaemonSet['spec']>['updateStrategy']>>([
    [{ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }, 2],
    [{ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: d.rng.pick([2, '50%', '100%']) } }, 2],
    [{ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: d.rng.pick([1, 2, '50%']) } }, 2],
    [{ type: 'OnDelete' }, 1],
  ]);
}

/** Changes the DaemonSet `manifest` (template or metadata) as `kind` says; returns the words for it. */
function changeExisting(d: Draw, s: Scenario, kind: PlanChangeKind, index: number, manifest: DaemonSet): string {
  const r = d.rng;
  const spec = manifest.spec!.template!.spec!;
  const main = spec.containers![0]!;
  switch (kind) {
    case 'selector-narrow':
      return narrowSelector(d, s, spec);
    case 'selector-widen':
      return widenSelector(spec);
    case 'tolerations-add': {
      const tol = drawTolerations(
        d,
        s.nodes.flatMap((n) => n.object.spec?.taints ?? []),
      ) ?? [{ operator: 'Exists' }];
      spec.tolerations = [...(spec.tolerations ?? []), ...tol];
      return `tolerations += ${JSON.stringify(tol)}`;
    }
    case 'tolerations-remove': {
      const had = spec.tolerations?.length ?? 0;
      delete spec.tolerations;
      return had ? `${had} toleration(s) removed` : 'no tolerations to remove (the template is unchanged)';
    }
    case 'requests-raise':
      return raiseRequests(d, spec);
    case 'requests-lower':
      main.resources = { requests: { cpu: '10m', memory: '16Mi' } };
      delete spec.resources;
      return 'requests → {"cpu":"10m","memory":"16Mi"}';
    case 'hostPort': {
      const port = collidingPort(d, s, index, main.ports ?? []);
      main.ports = [...(main.ports ?? []), port];
      return `host port ${port.hostPort}/${port.protocol}${port.hostIP ? ` on ${port.hostIP}` : ''} added`;
    }
    case 'strategy': {
      manifest.spec!.updateStrategy = newStrategy(d);
      main.image = 'registry.invalid/agent:2';
      const more = r.chance(0.5) ? `, ${raiseRequests(d, spec)}` : '';
      return `updateStrategy → ${JSON.stringify(manifest.spec!.updateStrategy)}, image → :2${more}`;
    }
    case 'metadata':
      manifest.metadata = {
        ...manifest.metadata,
        labels: { ...(manifest.metadata?.labels ?? {}), team: 'b' },
        annotations: { 'example.com/owner': 'team-b' },
      };
      return 'DaemonSet labels and annotations only (nothing rolls)';
    default:
      throw new Error(`not a change of an existing DaemonSet: ${kind}`);
  }
}

/** A new DaemonSet in a namespace of its own (created with the base, empty until the change). */
function createNew(d: Draw, s: Scenario): PlanChange {
  const nsName = `${s.id}-z`;
  const { ns, quota, limitRange } = drawNamespace(d, nsName);
  s.namespaces.push(ns);
  if (quota) s.quotas.push(quota);
  if (limitRange) s.limitRanges.push(limitRange);
  const manifest = daemonSet('agent-z', nsName, drawPodSpec(d, s.nodes, { rollout: false }));
  return { kind: 'create', text: `new DaemonSet ${nsName}/agent-z`, manifest };
}

/**
 * A rollout stuck on surge and a host port, then unblocked by a strategy-only change: the
 * DaemonSet `index0` gets a host port of its own in the base, the prelude rolls a new image with
 * `maxSurge: 1` (its surge pods cannot be scheduled beside the old pods, which hold the port), and
 * the change, with the same template, sets `maxSurge: 0, maxUnavailable: 50%`: the controller
 * deletes the waiting surge pods (no surge: only the oldest pod stays) and replaces the old pods
 * within maxUnavailable (half the nodes, so that nodes already unavailable leave room). Only where Pod Security allows host ports and no quota refuses the surge pods.
 */
function strategyUnblock(s: Scenario, index0: number): PlanChange {
  const base = s.daemonSets[index0]!.object;
  const spec = base.spec!.template!.spec!;
  const port = 19300 + index0;
  const main = spec.containers![0]!;
  main.ports = [...(main.ports ?? []), { containerPort: port, hostPort: port, protocol: 'TCP' }];
  const prelude = manifestOf(base);
  prelude.spec!.template!.spec!.containers![0]!.image = 'registry.invalid/agent:2';
  prelude.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } };
  const manifest = clone(prelude);
  manifest.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%', maxSurge: 0 } };
  const key = `${base.metadata?.namespace}/${base.metadata?.name}`;
  return {
    kind: 'strategy-unblock',
    text: `${key}: stuck on surge with host port ${port} (image → :2, maxSurge 1), then updateStrategy → {maxUnavailable: 50%, maxSurge: 0} with the same template`,
    manifest,
    daemonSet: index0,
    prelude: {
      text: `host port ${port}/TCP in the base; image → :2 with maxSurge 1, maxUnavailable 0`,
      manifest: prelude,
    },
  };
}

/** DaemonSets whose namespace lets a pod use a host port and has no quota to refuse a surge pod. */
function hostPortAllowed(s: Scenario): number[] {
  return s.daemonSets
    .map((x, i) => ({ ns: x.object.metadata?.namespace, i }))
    .filter(({ ns }) => {
      const level = s.namespaces.find((n) => n.metadata?.name === ns)?.metadata?.labels?.[
        'pod-security.kubernetes.io/enforce'
      ];
      return (level === undefined || level === 'privileged') && !s.quotas.some((q) => q.metadata?.namespace === ns);
    })
    .map(({ i }) => i);
}

/** The plan scenario `index` of `seed`: the same on every run. */
export function generatePlanScenario(seed: number, index: number): Scenario {
  const d = new Draw(new Rng(seed, index, 0x91a4));
  const s = drawScenario(d, seed, index, d.rng.chance(0.4) ? 'rollout' : 'placement');
  const base = s.kind;
  delete s.rollout;
  s.kind = 'plan';
  // The base's own drawing tagged its features; its rollout's change is not made here.
  for (const f of [...d.features]) if (f.startsWith('rollout:change-')) d.features.delete(f);
  let kind = d.rng.weighted(CHANGE_WEIGHTS);
  const allowed = hostPortAllowed(s);
  if (kind === 'strategy-unblock' && !allowed.length) kind = 'strategy';
  if (kind === 'strategy-unblock') {
    s.change = strategyUnblock(s, d.rng.pick(allowed));
  } else if (kind === 'create') {
    s.change = createNew(d, s);
  } else {
    // Removing needs something to remove: a DaemonSet that has it, else another change.
    const has = (i: number) => {
      const spec = s.daemonSets[i]!.object.spec?.template?.spec;
      return kind === 'selector-widen'
        ? Boolean(spec?.nodeSelector || spec?.affinity)
        : kind === 'tolerations-remove'
          ? Boolean(spec?.tolerations?.length)
          : true;
    };
    const candidates = s.daemonSets.map((_, i) => i).filter(has);
    if (!candidates.length) kind = kind === 'selector-widen' ? 'tolerations-add' : 'selector-narrow';
    const index0 = candidates.length ? d.rng.pick(candidates) : d.rng.int(0, s.daemonSets.length - 1);
    const manifest = manifestOf(s.daemonSets[index0]!.object);
    s.change = {
      kind,
      text: `${manifest.metadata?.namespace}/${manifest.metadata?.name}: ${changeExisting(d, s, kind, index0, manifest)}`,
      manifest,
      daemonSet: index0,
    };
  }
  d.tag(`plan:${kind}`);
  d.tag(`plan:base-${base}`);
  s.features = [...d.features].sort();
  return s;
}
