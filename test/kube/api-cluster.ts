/**
 * Cluster-wide objects every cluster has: namespaces and the built-in priority classes.
 */
import type { Namespace, PriorityClass } from '../../src/model/k8s-types.js';
import { PRIORITIES } from './api-pod.js';
import { uid } from './ids.js';
import { at } from './time.js';

/** A Namespace (register it in the caller's Versions). */
export function makeNamespace(
  name: string,
  createdAgo: number,
  {
    uidKey = `Namespace/${name}`,
    uid: id,
    labels = {},
  }: { uidKey?: string; uid?: string; labels?: Record<string, string> } = {},
): Namespace & { metadata: { name: string } } {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: id ?? uid(uidKey),
      resourceVersion: '',
      creationTimestamp: at(createdAgo),
      labels: { 'kubernetes.io/metadata.name': name, ...labels },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

/** The two built-in PriorityClasses, created `createdAgo` seconds before NOW. */
export function systemPriorityClasses(createdAgo: number): (PriorityClass & { metadata: { name: string } })[] {
  const pc = (name: string, description: string) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    description,
    metadata: {
      creationTimestamp: at(createdAgo),
      generation: 1,
      name,
      resourceVersion: '',
      uid: uid(`PriorityClass/${name}`),
    },
    preemptionPolicy: 'PreemptLowerPriority',
    value: PRIORITIES[name],
  });
  return [
    pc(
      'system-cluster-critical',
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
    ),
    pc('system-node-critical', 'Used for system critical pods that must not be moved from their current node.'),
  ];
}
