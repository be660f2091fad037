/**
 * Manifests: objects as a client submits them to the API server (no uid, no timestamps, no
 * status), for the tests that create them on a real cluster (test/diff). Each carries only what
 * is given, so the server's defaulting is what the cluster under test does.
 */
import type {
  DaemonSet,
  DaemonSetSpec,
  KubeObject,
  Namespace,
  Node,
  Pod,
  PodSpec,
  ResourceQuota,
} from '../../src/model/k8s-types.js';

/** A Namespace, labelled when `labels` has any. */
export function namespaceManifest(name: string, labels: Record<string, string> = {}): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(Object.keys(labels).length ? { labels } : {}) } };
}

/** A ResourceQuota with `hard` limits. */
export function resourceQuotaManifest(namespace: string, hard: Record<string, string>, name = 'quota'): ResourceQuota {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace }, spec: { hard } };
}

/** A LimitRange with one `limits` list. */
export function limitRangeManifest(namespace: string, limits: unknown[], name = 'limits'): KubeObject {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { name, namespace }, spec: { limits } };
}

/** A DaemonSet selecting and labelling its pods `app: <name>`; the server's default strategy unless `strategy`. */
export function daemonSetManifest(
  name: string,
  namespace: string,
  spec: PodSpec,
  strategy?: DaemonSetSpec['updateStrategy'],
): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec },
      ...(strategy ? { updateStrategy: strategy } : {}),
    },
  };
}

/** A Node as registered: labels, the given spec, and a status. */
export function nodeManifest(
  name: string,
  labels: Record<string, string>,
  spec: NonNullable<Node['spec']>,
  status: NonNullable<Node['status']>,
): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec, status };
}

/** A Pod with labels and a spec. */
export function podManifest(name: string, namespace: string, labels: Record<string, string>, spec: PodSpec): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels }, spec };
}
