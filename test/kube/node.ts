/** Nodes: `node('n1').taint('k', 'v', 'NoSchedule').build()`, plain API JSON as a dump holds it. */
import type { Node, Taint } from '../../src/model/k8s-types.js';
import { ago } from './time.js';

export class NodeBuilder {
  readonly obj: Node;
  constructor(name: string) {
    this.obj = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        uid: `uid-node-${name}`,
        creationTimestamp: ago(86400 * 30),
        labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' },
      },
      spec: {},
      status: {
        allocatable: { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' },
        capacity: { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' },
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      },
    };
  }
  label(key: string, value: string): this {
    this.obj.metadata!.labels![key] = value;
    return this;
  }
  unlabel(key: string): this {
    delete this.obj.metadata!.labels![key];
    return this;
  }
  taint(key: string, value: string | undefined, effect: string): this {
    const t: Taint = { key, effect, ...(value !== undefined ? { value } : {}) };
    (this.obj.spec!.taints ??= []).push(t);
    return this;
  }
  allocatable(resources: Record<string, string>): this {
    Object.assign(this.obj.status!.allocatable!, resources);
    return this;
  }
  notReady(status: 'False' | 'Unknown' = 'False', message = ''): this {
    this.obj.status!.conditions = [{ type: 'Ready', status, reason: 'KubeletNotReady', message }];
    return this;
  }
  cordon(): this {
    this.obj.spec!.unschedulable = true;
    return this.taint('node.kubernetes.io/unschedulable', undefined, 'NoSchedule');
  }
  created(seconds: number): this {
    this.obj.metadata!.creationTimestamp = ago(seconds);
    return this;
  }
  build(): Node {
    return this.obj;
  }
}

export function node(name: string): NodeBuilder {
  return new NodeBuilder(name);
}
