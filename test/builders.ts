/**
 * Small builders for test objects: `node('n1').taint('k', 'v', 'NoSchedule').build()`,
 * `daemonSet('fluent-bit').tolerate({operator: 'Exists'}).build()`, `pod('p').on('n1').ready().build()`.
 * Each produces plain API JSON, as a dump would hold.
 */
import type {
  Container, DaemonSet, KubeEvent, Node, Pod, PodSpec, Taint, Toleration,
} from '../src/model/k8s-types.js';
import { emptySnapshot, type ClusterSnapshot } from '../src/model/snapshot.js';
import { SnapshotIndex } from '../src/model/snapshot-index.js';

export const NOW = new Date('2026-11-29T12:00:00Z');

/** An RFC 3339 time `seconds` before NOW. */
export function ago(seconds: number): string {
  return new Date(NOW.getTime() - seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

export class NodeBuilder {
  readonly obj: Node;
  constructor(name: string) {
    this.obj = {
      apiVersion: 'v1', kind: 'Node',
      metadata: { name, uid: `uid-node-${name}`, creationTimestamp: ago(86400 * 30), labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' } },
      spec: {},
      status: {
        allocatable: { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' },
        capacity: { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' },
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      },
    };
  }
  label(key: string, value: string): this { this.obj.metadata!.labels![key] = value; return this; }
  unlabel(key: string): this { delete this.obj.metadata!.labels![key]; return this; }
  taint(key: string, value: string | undefined, effect: string): this {
    const t: Taint = { key, effect, ...(value !== undefined ? { value } : {}) };
    (this.obj.spec!.taints ??= []).push(t);
    return this;
  }
  allocatable(resources: Record<string, string>): this { Object.assign(this.obj.status!.allocatable!, resources); return this; }
  notReady(status: 'False' | 'Unknown' = 'False', message = ''): this {
    this.obj.status!.conditions = [{ type: 'Ready', status, reason: 'KubeletNotReady', message }];
    return this;
  }
  cordon(): this {
    this.obj.spec!.unschedulable = true;
    return this.taint('node.kubernetes.io/unschedulable', undefined, 'NoSchedule');
  }
  created(seconds: number): this { this.obj.metadata!.creationTimestamp = ago(seconds); return this; }
  build(): Node { return this.obj; }
}

export function node(name: string): NodeBuilder {
  return new NodeBuilder(name);
}

export class DaemonSetBuilder {
  readonly obj: DaemonSet;
  constructor(name: string, namespace = 'default') {
    this.obj = {
      apiVersion: 'apps/v1', kind: 'DaemonSet',
      metadata: { name, namespace, uid: `uid-ds-${namespace}-${name}`, generation: 1, creationTimestamp: ago(86400), annotations: { 'deprecated.daemonset.template.generation': '1' } },
      spec: {
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: `example/${name}:1.0` }] } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      },
      status: { observedGeneration: 1 },
    };
  }
  get spec(): PodSpec { return this.obj.spec!.template!.spec!; }
  tolerate(...t: Toleration[]): this { (this.spec.tolerations ??= []).push(...t); return this; }
  nodeSelector(sel: Record<string, string>): this { this.spec.nodeSelector = sel; return this; }
  affinity(terms: NonNullable<NonNullable<PodSpec['affinity']>['nodeAffinity']>['requiredDuringSchedulingIgnoredDuringExecution']): this {
    this.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms! } };
    return this;
  }
  hostNetwork(on = true): this { this.spec.hostNetwork = on; return this; }
  container(c: Partial<Container> & { name: string }): this { this.spec.containers = [...(this.spec.containers ?? []).filter((x) => x.name !== c.name), c]; return this; }
  requests(resources: Record<string, string>): this { this.spec.containers![0]!.resources = { ...(this.spec.containers![0]!.resources ?? {}), requests: resources }; return this; }
  with(fn: (ds: DaemonSet) => void): this { fn(this.obj); return this; }
  generation(gen: number, templateGeneration = gen): this {
    this.obj.metadata!.generation = gen;
    this.obj.metadata!.annotations!['deprecated.daemonset.template.generation'] = String(templateGeneration);
    return this;
  }
  build(): DaemonSet { return this.obj; }
}

export function daemonSet(name: string, namespace = 'default'): DaemonSetBuilder {
  return new DaemonSetBuilder(name, namespace);
}

export class PodBuilder {
  readonly obj: Pod;
  constructor(name: string, namespace = 'default') {
    this.obj = {
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name, namespace, uid: `uid-pod-${namespace}-${name}`, creationTimestamp: ago(3600), labels: {} },
      spec: { containers: [{ name: 'main', image: 'example/app:1.0' }] },
      status: { phase: 'Pending', conditions: [] },
    };
  }
  /** A pod as the DaemonSet controller creates it for `nodeName` (owner, labels, pinned affinity, tolerations). */
  ofDaemonSet(ds: DaemonSet, nodeName: string, hash = 'hash1', gen = '1'): this {
    const tpl = ds.spec!.template!;
    this.obj.metadata!.namespace = ds.metadata!.namespace;
    this.obj.metadata!.labels = { ...(tpl.metadata?.labels ?? {}), 'controller-revision-hash': hash, 'pod-template-generation': gen };
    this.obj.metadata!.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata!.name!, uid: ds.metadata!.uid!, controller: true, blockOwnerDeletion: true }];
    this.obj.spec = JSON.parse(JSON.stringify(tpl.spec)) as PodSpec;
    this.obj.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] } } };
    return this;
  }
  on(nodeName: string): this { this.obj.spec!.nodeName = nodeName; return this; }
  labels(l: Record<string, string>): this { Object.assign(this.obj.metadata!.labels!, l); return this; }
  requests(resources: Record<string, string>): this { this.obj.spec!.containers![0]!.resources = { requests: resources }; return this; }
  priority(p: number): this { this.obj.spec!.priority = p; return this; }
  phase(phase: string): this { this.obj.status!.phase = phase; return this; }
  ready(sinceSecondsAgo = 600): this {
    this.obj.status = {
      ...this.obj.status, phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(sinceSecondsAgo) }, { type: 'PodScheduled', status: 'True' }],
      containerStatuses: (this.obj.spec!.containers ?? []).map((c) => ({ name: c.name, ready: true, restartCount: 0, state: { running: { startedAt: ago(sinceSecondsAgo) } } })),
    };
    return this;
  }
  waiting(reason: string, message = '', extra: { restartCount?: number; lastTerminated?: { reason: string; exitCode: number } } = {}): this {
    this.obj.status = {
      ...this.obj.status, phase: this.obj.spec?.nodeName ? 'Running' : 'Pending',
      conditions: [{ type: 'Ready', status: 'False' }],
      containerStatuses: (this.obj.spec!.containers ?? []).map((c) => ({
        name: c.name, ready: false, restartCount: extra.restartCount ?? 0, state: { waiting: { reason, message } },
        ...(extra.lastTerminated ? { lastState: { terminated: extra.lastTerminated } } : {}),
      })),
    };
    return this;
  }
  unschedulable(message: string): this {
    this.obj.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }] };
    return this;
  }
  terminating(secondsAgo: number, grace = 30): this {
    this.obj.metadata!.deletionTimestamp = ago(secondsAgo);
    this.obj.metadata!.deletionGracePeriodSeconds = grace;
    return this;
  }
  created(secondsAgo: number): this { this.obj.metadata!.creationTimestamp = ago(secondsAgo); return this; }
  with(fn: (p: Pod) => void): this { fn(this.obj); return this; }
  build(): Pod { return this.obj; }
}

export function pod(name: string, namespace = 'default'): PodBuilder {
  return new PodBuilder(name, namespace);
}

/** A core/v1 Event about an object. */
export function event(kind: string, obj: { metadata?: { name?: string; namespace?: string; uid?: string } }, reason: string, message: string, type = 'Warning', secondsAgo = 60): KubeEvent {
  return {
    apiVersion: 'v1', kind: 'Event',
    metadata: { name: `${obj.metadata?.name}.${reason.toLowerCase()}`, namespace: obj.metadata?.namespace ?? 'default' },
    involvedObject: { kind, name: obj.metadata?.name, namespace: obj.metadata?.namespace, uid: obj.metadata?.uid },
    reason, message, type, count: 1, firstTimestamp: ago(secondsAgo), lastTimestamp: ago(secondsAgo),
  };
}

/** A snapshot of the given objects (every kind present, none missing). */
export function snapshotOf(objects: { nodes?: Node[]; daemonSets?: DaemonSet[]; pods?: Pod[]; events?: KubeEvent[] } & Partial<ClusterSnapshot>): ClusterSnapshot {
  return { ...emptySnapshot(), ...objects };
}

export function indexOf(objects: Parameters<typeof snapshotOf>[0]): SnapshotIndex {
  return new SnapshotIndex(snapshotOf(objects));
}
