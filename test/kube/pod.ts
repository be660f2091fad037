/** Pods: `pod('p').on('n1').ready().build()`, or a daemon pod with `.ofDaemonSet(ds, node)`; plain API JSON. */
import type { DaemonSet, Pod, PodSpec } from '../../src/model/k8s-types.js';
import { ago } from './time.js';

export class PodBuilder {
  readonly obj: Pod;
  constructor(name: string, namespace = 'default') {
    this.obj = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace, uid: `uid-pod-${namespace}-${name}`, creationTimestamp: ago(3600), labels: {} },
      spec: { containers: [{ name: 'main', image: 'example/app:1.0' }] },
      status: { phase: 'Pending', conditions: [] },
    };
  }
  /** A pod as the DaemonSet controller creates it for `nodeName` (owner, labels, pinned affinity, tolerations). */
  ofDaemonSet(ds: DaemonSet, nodeName: string, hash = 'hash1', gen = '1'): this {
    const tpl = ds.spec!.template!;
    this.obj.metadata!.namespace = ds.metadata!.namespace;
    this.obj.metadata!.labels = {
      ...(tpl.metadata?.labels ?? {}),
      'controller-revision-hash': hash,
      'pod-template-generation': gen,
    };
    this.obj.metadata!.ownerReferences = [
      {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        name: ds.metadata!.name!,
        uid: ds.metadata!.uid!,
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
    this.obj.spec = JSON.parse(JSON.stringify(tpl.spec)) as PodSpec;
    this.obj.spec.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
        },
      },
    };
    return this;
  }
  on(nodeName: string): this {
    this.obj.spec!.nodeName = nodeName;
    return this;
  }
  labels(l: Record<string, string>): this {
    Object.assign(this.obj.metadata!.labels!, l);
    return this;
  }
  requests(resources: Record<string, string>): this {
    this.obj.spec!.containers![0]!.resources = { requests: resources };
    return this;
  }
  priority(p: number): this {
    this.obj.spec!.priority = p;
    return this;
  }
  phase(phase: string): this {
    this.obj.status!.phase = phase;
    return this;
  }
  ready(sinceSecondsAgo = 600): this {
    this.obj.status = {
      ...this.obj.status,
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: ago(sinceSecondsAgo) },
        { type: 'PodScheduled', status: 'True' },
      ],
      containerStatuses: (this.obj.spec!.containers ?? []).map((c) => ({
        name: c.name,
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: ago(sinceSecondsAgo) } },
      })),
    };
    return this;
  }
  waiting(
    reason: string,
    message = '',
    extra: { restartCount?: number; lastTerminated?: { reason: string; exitCode: number } } = {},
  ): this {
    this.obj.status = {
      ...this.obj.status,
      phase: this.obj.spec?.nodeName ? 'Running' : 'Pending',
      conditions: [{ type: 'Ready', status: 'False' }],
      containerStatuses: (this.obj.spec!.containers ?? []).map((c) => ({
        name: c.name,
        ready: false,
        restartCount: extra.restartCount ?? 0,
        state: { waiting: { reason, message } },
        ...(extra.lastTerminated ? { lastState: { terminated: extra.lastTerminated } } : {}),
      })),
    };
    return this;
  }
  unschedulable(message: string): this {
    this.obj.status = {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }],
    };
    return this;
  }
  terminating(secondsAgo: number, grace = 30): this {
    this.obj.metadata!.deletionTimestamp = ago(secondsAgo);
    this.obj.metadata!.deletionGracePeriodSeconds = grace;
    return this;
  }
  created(secondsAgo: number): this {
    this.obj.metadata!.creationTimestamp = ago(secondsAgo);
    return this;
  }
  with(fn: (p: Pod) => void): this {
    fn(this.obj);
    return this;
  }
  build(): Pod {
    return this.obj;
  }
}

export function pod(name: string, namespace = 'default'): PodBuilder {
  return new PodBuilder(name, namespace);
}
