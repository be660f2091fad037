/**
 * The world around the real control plane that a scenario needs: node heartbeats (Leases in
 * kube-node-lease, renewed every second for the nodes whose kubelet is alive, so the real node
 * lifecycle controller keeps them Ready and lets the others go stale), a simulated kubelet that
 * reports pod status through the status subresource, node changes, and "settled" detection.
 */
import type { DaemonSet, KubeEvent, Node, Pod, PodCondition, Taint } from '../../src/model/k8s-types.js';
import type { Api } from './api.js';
import { ApiError, paths } from './api.js';
import type { KubeletPlan, KubeletState, NodeChange, Scenario } from './scenario.js';

/** RFC 3339 with microseconds, as metav1.MicroTime wants it. */
export function microTime(d = new Date()): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function isoTime(d = new Date()): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Renews the Lease of every node whose kubelet is alive, once a second. */
export class Heartbeats {
  private readonly alive = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  failures = 0;

  constructor(private readonly api: Api) {}

  start(): void {
    this.timer = setInterval(() => void this.beat(), 1000);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async add(node: string): Promise<void> {
    await this.api.create(paths.leases, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: node, namespace: 'kube-node-lease' },
      spec: { holderIdentity: node, leaseDurationSeconds: 40, renewTime: microTime() },
    });
    this.alive.add(node);
  }

  remove(node: string): void {
    this.alive.delete(node);
  }

  isAlive(node: string): boolean {
    return this.alive.has(node);
  }

  private async beat(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = microTime();
      await Promise.all(
        [...this.alive].map(async (n) => {
          try {
            await this.api.patch(paths.lease(n), { spec: { renewTime: now } }, 'merge');
          } catch (e) {
            if (!(e instanceof ApiError && e.status === 404)) this.failures++;
          }
        }),
      );
    } finally {
      this.busy = false;
    }
  }
}

/** Condition → NoSchedule taint key, as the node lifecycle controller maps them (nodeConditionToTaintKeyStatusMap). */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: 'node.kubernetes.io/not-ready', Unknown: 'node.kubernetes.io/unreachable' },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const CONDITION_TAINT_KEYS = new Set([
  ...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)),
  'node.kubernetes.io/unschedulable',
]);

/** True when the lifecycle controller's NoSchedule taints on the node match its conditions and cordon. */
export function conditionTaintsSettled(node: Node): boolean {
  const want = new Set<string>();
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key) want.add(key);
  }
  if (node.spec?.unschedulable) want.add('node.kubernetes.io/unschedulable');
  const have = new Set(
    (node.spec?.taints ?? [])
      .filter((t) => t.effect === 'NoSchedule' && CONDITION_TAINT_KEYS.has(t.key))
      .map((t) => t.key),
  );
  return want.size === have.size && [...want].every((k) => have.has(k));
}

export function readyStatus(node: Node): string {
  return node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? '';
}

function metric(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

export interface WorldPorts {
  scheduler: number;
  controllerManager: number;
}

/** The pods, DaemonSets and nodes of a scenario as the API server has them now. */
export interface ObservedState {
  nodes: Node[];
  pods: Pod[];
  daemonSets: DaemonSet[];
  events: KubeEvent[];
}

/** One scenario's scope on the cluster. */
export interface Scope {
  namespaces: string[];
  nodes: string[];
}

export function scenarioScope(s: Scenario, extraNamespaces: string[] = []): Scope {
  return {
    namespaces: [...s.namespaces.map((n) => n.metadata!.name!), ...extraNamespaces],
    nodes: s.nodes.map((n) => n.object.metadata!.name!),
  };
}

export interface SettleOptions {
  /** How long nothing may change. */
  quietMs?: number;
  timeoutMs?: number;
  /** Nodes whose heartbeat stopped: wait until the lifecycle controller marks them Ready=Unknown. */
  expectUnknown?: string[];
  /** Wait (bounded) for a FailedCreate event when a DaemonSet reports fewer pods than desired. */
  waitFailedCreate?: boolean;
}

export interface SettleResult {
  ms: number;
  /** Conditions that never held, when the timeout hit. */
  unsettled: string[];
}

/** The cluster as the runner drives it. */
export class World {
  constructor(
    readonly api: Api,
    readonly heartbeats: Heartbeats,
    readonly ports: WorldPorts,
  ) {}

  async observe(scope: Scope): Promise<ObservedState> {
    const nodeSet = new Set(scope.nodes);
    const [nodes, perNs] = await Promise.all([
      this.api.list<Node>(paths.nodes),
      Promise.all(
        scope.namespaces.map(async (ns) => {
          try {
            const [pods, daemonSets, events] = await Promise.all([
              this.api.list<Pod>(paths.pods(ns)),
              this.api.list<DaemonSet>(paths.daemonSets(ns)),
              this.api.list<KubeEvent>(paths.events(ns)),
            ]);
            return { pods, daemonSets, events };
          } catch (e) {
            if (e instanceof ApiError && e.status === 404) return { pods: [], daemonSets: [], events: [] };
            throw e;
          }
        }),
      ),
    ]);
    return {
      nodes: nodes.filter((n) => nodeSet.has(n.metadata?.name ?? '')),
      pods: perNs.flatMap((x) => x.pods),
      daemonSets: perNs.flatMap((x) => x.daemonSets),
      events: perNs.flatMap((x) => x.events),
    };
  }

  /** Work still queued in the scheduler and the DaemonSet controller, from their /metrics. */
  async queues(): Promise<string[]> {
    const busy: string[] = [];
    const [sched, kcm] = await Promise.all([
      this.api.metrics(this.ports.scheduler),
      this.api.metrics(this.ports.controllerManager),
    ]);
    for (const q of ['active', 'backoff']) {
      const n = metric(sched, 'scheduler_pending_pods', `queue="${q}"`);
      if (n > 0) busy.push(`scheduler ${q} queue: ${n}`);
    }
    for (const q of ['daemonset', 'daemonset-node-updates']) {
      const depth = metric(kcm, 'workqueue_depth', `name="${q}"`);
      const unfinished = metric(kcm, 'workqueue_unfinished_work_seconds', `name="${q}"`);
      if (depth > 0 || unfinished > 0) busy.push(`controller queue ${q}: depth ${depth}, in progress ${unfinished}s`);
    }
    return busy;
  }

  /**
   * Waits until the controllers have settled: every DaemonSet observed, the lifecycle
   * controller's condition taints in place, every unbound daemon pod tried by the scheduler, the
   * scheduler's and DaemonSet controller's queues empty, and nothing changed for `quietMs`.
   */
  async settle(scope: Scope, o: SettleOptions = {}): Promise<SettleResult> {
    const quietMs = o.quietMs ?? 1200;
    const timeoutMs = o.timeoutMs ?? 60_000;
    const t0 = Date.now();
    let lastPrint = '';
    let stableSince = Date.now();
    let failedCreateWaitUntil = 0;
    let unsettled: string[];
    for (;;) {
      const state = await this.observe(scope);
      unsettled = [];
      for (const ds of state.daemonSets) {
        if ((ds.status?.observedGeneration ?? 0) < (ds.metadata?.generation ?? 0))
          unsettled.push(`daemonset ${ds.metadata?.name} not observed`);
      }
      for (const n of state.nodes) {
        if (!conditionTaintsSettled(n)) unsettled.push(`node ${n.metadata?.name}: condition taints not reconciled`);
        if (o.expectUnknown?.includes(n.metadata?.name ?? '') && readyStatus(n) !== 'Unknown')
          unsettled.push(`node ${n.metadata?.name}: not yet Ready=Unknown`);
      }
      for (const p of state.pods) {
        if (p.spec?.nodeName || p.metadata?.deletionTimestamp) continue;
        const cond = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
        if (!cond || cond.status !== 'False') unsettled.push(`pod ${p.metadata?.name}: not yet tried by the scheduler`);
      }
      if (o.waitFailedCreate) {
        const short = state.daemonSets.filter(
          (ds) =>
            (ds.status?.currentNumberScheduled ?? 0) < (ds.status?.desiredNumberScheduled ?? 0) &&
            !state.events.some((e) => e.reason === 'FailedCreate' && e.involvedObject?.uid === ds.metadata?.uid),
        );
        if (short.length) {
          failedCreateWaitUntil ||= Date.now() + 8000;
          if (Date.now() < failedCreateWaitUntil)
            unsettled.push(
              `daemonset ${short.map((d) => d.metadata?.name).join(', ')}: fewer pods than desired and no FailedCreate event yet`,
            );
        }
      }
      unsettled.push(...(await this.queues()));
      const print = JSON.stringify([
        state.nodes.map((n) => n.metadata?.resourceVersion),
        state.pods.map((p) => p.metadata?.resourceVersion),
        state.daemonSets.map((d) => d.metadata?.resourceVersion),
      ]);
      if (print !== lastPrint) {
        lastPrint = print;
        stableSince = Date.now();
      }
      if (!unsettled.length && Date.now() - stableSince >= quietMs) return { ms: Date.now() - t0, unsettled: [] };
      if (Date.now() - t0 > timeoutMs)
        return { ms: Date.now() - t0, unsettled: unsettled.length ? unsettled : ['objects kept changing'] };
      await sleep(250);
    }
  }

  /**
   * Deletes every daemon pod the scheduler has given up on, so that the controller creates it
   * again and the scheduler judges it against the cluster as it is now. A PodScheduled message
   * is written when the scheduler last tried, and an unschedulable pod is only tried again on
   * events that may help it: pods bound to its node since then (which make things worse) leave
   * the message stale. Returns how many pods were deleted.
   */
  async refreshPending(scope: Scope): Promise<number> {
    const state = await this.observe(scope);
    let n = 0;
    for (const p of state.pods) {
      if (p.spec?.nodeName || p.metadata?.deletionTimestamp) continue;
      if (p.metadata?.ownerReferences?.find((r) => r.controller)?.kind !== 'DaemonSet') continue;
      const cond = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
      if (cond?.reason !== 'Unschedulable') continue;
      await this.api.delete(paths.pod(p.metadata.namespace!, p.metadata.name!), { gracePeriodSeconds: 0 });
      n++;
    }
    return n;
  }

  /** Applies one node change. */
  async applyChange(c: NodeChange): Promise<void> {
    switch (c.kind) {
      case 'stop-heartbeat':
        this.heartbeats.remove(c.node);
        return;
      case 'condition': {
        const now = isoTime();
        await this.api.patch(
          paths.nodeStatus(c.node),
          { status: { conditions: [{ ...c.condition, lastHeartbeatTime: now, lastTransitionTime: now }] } },
          'strategic',
        );
        return;
      }
      case 'cordon':
        await this.api.patch(paths.node(c.node), { spec: { unschedulable: c.unschedulable } }, 'merge');
        return;
      case 'label':
        await this.api.patch(paths.node(c.node), { metadata: { labels: { [c.key]: c.value } } }, 'merge');
        return;
      case 'add-taint':
      case 'remove-taint':
        await this.updateTaints(c.node, (taints) =>
          c.kind === 'add-taint'
            ? [
                ...taints.filter((t) => !(t.key === c.taint.key && t.effect === c.taint.effect)),
                { ...c.taint, timeAdded: isoTime() },
              ]
            : taints.filter((t) => !(t.key === c.key && t.effect === c.effect)),
        );
        return;
    }
  }

  private async updateTaints(node: string, edit: (taints: Taint[]) => Taint[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const n = await this.api.get<Node>(paths.node(node));
      n.spec = { ...(n.spec ?? {}), taints: edit(n.spec?.taints ?? []) };
      try {
        await this.api.put(paths.node(node), n);
        return;
      } catch (e) {
        if (e instanceof ApiError && e.status === 409 && attempt < 10) continue;
        throw e;
      }
    }
  }
}

/** The kubelet state a plan gives a node. */
export function kubeletStateFor(plan: KubeletPlan, node: string): KubeletState {
  return plan.nodes[node] ?? plan.default;
}

function condition(type: string, status: string, now: string, reason?: string): PodCondition {
  return { type, status, lastTransitionTime: now, lastProbeTime: null, ...(reason ? { reason } : {}) };
}

/**
 * The status a kubelet would write for `state`. Returns undefined for `none` (the pod stays
 * ContainerCreating).
 */
export function kubeletStatus(pod: Pod, state: KubeletState, hostIP: string): Pod['status'] | undefined {
  if (state === 'none') return undefined;
  const now = isoTime();
  const spec = pod.spec ?? {};
  const ready = state === 'ready';
  const main = spec.containers ?? [];
  const containerStatuses = main.map((c, i) => {
    const image = c.image ?? '';
    const base = { name: c.name, image, imageID: '', restartCount: 0 };
    if (i > 0 || state === 'ready')
      return { ...base, ready: true, started: true, state: { running: { startedAt: now } } };
    switch (state) {
      case 'crash':
        return {
          ...base,
          ready: false,
          started: false,
          restartCount: 4,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: `back-off 1m20s restarting failed container=${c.name} pod=${pod.metadata?.name}_${pod.metadata?.namespace}`,
            },
          },
          lastState: { terminated: { reason: 'Error', exitCode: 1, startedAt: now, finishedAt: now } },
        };
      case 'imagepull':
        return {
          ...base,
          ready: false,
          started: false,
          state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` } },
        };
      default:
        return { ...base, ready: false, started: true, state: { running: { startedAt: now } } };
    }
  });
  const initContainerStatuses = (spec.initContainers ?? []).map((c) =>
    c.restartPolicy === 'Always'
      ? {
          name: c.name,
          image: c.image ?? '',
          imageID: '',
          restartCount: 0,
          ready: true,
          started: true,
          state: { running: { startedAt: now } },
        }
      : {
          name: c.name,
          image: c.image ?? '',
          imageID: '',
          restartCount: 0,
          ready: true,
          started: false,
          state: { terminated: { reason: 'Completed', exitCode: 0, startedAt: now, finishedAt: now } },
        },
  );
  return {
    phase: state === 'imagepull' ? 'Pending' : 'Running',
    hostIP,
    podIP: hostIP,
    startTime: now,
    conditions: [
      condition('Initialized', 'True', now),
      condition('Ready', ready ? 'True' : 'False', now, ready ? undefined : 'ContainersNotReady'),
      condition('ContainersReady', ready ? 'True' : 'False', now, ready ? undefined : 'ContainersNotReady'),
    ],
    containerStatuses,
    ...(initContainerStatuses.length ? { initContainerStatuses } : {}),
  };
}

/** The simulated kubelets of a scenario: report status once for every bound daemon pod on a node whose kubelet works. */
export class Kubelets {
  private readonly done = new Set<string>();

  constructor(private readonly world: World) {}

  /**
   * Reports status for pods not reported yet. `planFor` gives the plan of a pod (by its
   * DaemonSet and template). Returns how many pods were reported.
   */
  async step(scope: Scope, planFor: (pod: Pod) => KubeletPlan | undefined): Promise<number> {
    const state = await this.world.observe(scope);
    const nodes = new Map(state.nodes.map((n) => [n.metadata?.name ?? '', n]));
    let reported = 0;
    const ips = new Map(state.nodes.map((n, i) => [n.metadata?.name ?? '', `10.0.${i}.1`]));
    for (const pod of state.pods) {
      const uid = pod.metadata?.uid ?? '';
      const nodeName = pod.spec?.nodeName;
      if (!nodeName) continue;
      const owner = pod.metadata?.ownerReferences?.find((r) => r.controller)?.kind;
      if (owner !== 'DaemonSet') continue;
      const node = nodes.get(nodeName);
      // A kubelet that is alive stops containers and confirms deletions, even on a NotReady
      // node; only one that is also Ready starts containers.
      if (!node || !this.world.heartbeats.isAlive(nodeName)) continue;
      if (pod.metadata?.deletionTimestamp) {
        await this.world.api.delete(paths.pod(pod.metadata.namespace!, pod.metadata.name!), { gracePeriodSeconds: 0 });
        reported++;
        continue;
      }
      if (readyStatus(node) !== 'True' || this.done.has(uid)) continue;
      const plan = planFor(pod);
      if (!plan) continue;
      this.done.add(uid);
      const status = kubeletStatus(pod, kubeletStateFor(plan, nodeName), ips.get(nodeName) ?? '10.0.0.1');
      if (!status) continue;
      try {
        await this.world.api.patch(
          paths.podStatus(pod.metadata!.namespace!, pod.metadata!.name!),
          { status },
          'strategic',
        );
        reported++;
      } catch (e) {
        if (!(e instanceof ApiError && (e.status === 404 || e.status === 409))) throw e;
      }
    }
    return reported;
  }
}
