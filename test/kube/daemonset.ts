/** DaemonSets: `daemonSet('fluent-bit').tolerate({operator: 'Exists'}).build()`, plain API JSON. */
import type { Container, DaemonSet, PodSpec, Toleration } from '../../src/model/k8s-types.js';
import { ago } from './time.js';

export class DaemonSetBuilder {
  readonly obj: DaemonSet;
  constructor(name: string, namespace = 'default') {
    this.obj = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name,
        namespace,
        uid: `uid-ds-${namespace}-${name}`,
        generation: 1,
        creationTimestamp: ago(86400),
        annotations: { 'deprecated.daemonset.template.generation': '1' },
      },
      spec: {
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name, image: `example/${name}:1.0` }] },
        },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      },
      status: { observedGeneration: 1 },
    };
  }
  get spec(): PodSpec {
    return this.obj.spec!.template!.spec!;
  }
  tolerate(...t: Toleration[]): this {
    (this.spec.tolerations ??= []).push(...t);
    return this;
  }
  nodeSelector(sel: Record<string, string>): this {
    this.spec.nodeSelector = sel;
    return this;
  }
  affinity(
    terms: NonNullable<
      NonNullable<PodSpec['affinity']>['nodeAffinity']
    >['requiredDuringSchedulingIgnoredDuringExecution'],
  ): this {
    this.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms! } };
    return this;
  }
  hostNetwork(on = true): this {
    this.spec.hostNetwork = on;
    return this;
  }
  container(c: Partial<Container> & { name: string }): this {
    this.spec.containers = [...(this.spec.containers ?? []).filter((x) => x.name !== c.name), c];
    return this;
  }
  requests(resources: Record<string, string>): this {
    this.spec.containers![0]!.resources = { ...(this.spec.containers![0]!.resources ?? {}), requests: resources };
    return this;
  }
  with(fn: (ds: DaemonSet) => void): this {
    fn(this.obj);
    return this;
  }
  generation(gen: number, templateGeneration = gen): this {
    this.obj.metadata!.generation = gen;
    this.obj.metadata!.annotations!['deprecated.daemonset.template.generation'] = String(templateGeneration);
    return this;
  }
  build(): DaemonSet {
    return this.obj;
  }
}

export function daemonSet(name: string, namespace = 'default'): DaemonSetBuilder {
  return new DaemonSetBuilder(name, namespace);
}
