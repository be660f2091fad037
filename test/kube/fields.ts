/**
 * Plain JSON under construction: deep copies, and fields put in the order the API serializes them.
 */
import type { PodSpec } from '../../src/model/k8s-types.js';

/** A plain JSON object under construction (fields are filled in API order, then typed by the caller). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** Any built object, as the listing and versioning helpers see it. */
export type Listed = { kind?: string; metadata?: { name?: string; namespace?: string; resourceVersion?: string } };

/** A deep copy through JSON (drops undefined fields). */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

/** Returns a copy of `obj` with the keys listed in `order` first (in that order), the rest after; undefined fields are left out. */
export function ordered<T extends object>(obj: T, order: readonly string[]): T {
  const src = obj as Json;
  const out: Json = {};
  for (const k of order) if (src[k] !== undefined) out[k] = src[k];
  for (const k of Object.keys(src)) if (!(k in out) && src[k] !== undefined) out[k] = src[k];
  return out as T;
}

/** Go struct field order of PodSpec, so serialized specs read like the API's. */
export const POD_SPEC_ORDER = [
  'volumes',
  'initContainers',
  'containers',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'dnsPolicy',
  'nodeSelector',
  'serviceAccountName',
  'serviceAccount',
  'automountServiceAccountToken',
  'nodeName',
  'hostNetwork',
  'hostPID',
  'hostIPC',
  'securityContext',
  'imagePullSecrets',
  'hostname',
  'subdomain',
  'affinity',
  'schedulerName',
  'tolerations',
  'hostAliases',
  'priorityClassName',
  'priority',
  'dnsConfig',
  'readinessGates',
  'runtimeClassName',
  'enableServiceLinks',
  'preemptionPolicy',
];

/** Go struct field order of Container. */
export const CONTAINER_ORDER = [
  'name',
  'image',
  'command',
  'args',
  'workingDir',
  'ports',
  'envFrom',
  'env',
  'resources',
  'volumeMounts',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'imagePullPolicy',
  'securityContext',
];

/** Puts the containers' and the spec's fields in API order. */
export function finishPodSpec<T extends PodSpec>(spec: T): T {
  for (const key of ['initContainers', 'containers'] as const) {
    const list = spec[key];
    if (list) spec[key] = list.map((c) => ordered(c, CONTAINER_ORDER));
  }
  return ordered(spec, POD_SPEC_ORDER);
}

/** Sort as the API server lists: by namespace, then name. */
export function byKey(a: Listed, b: Listed): number {
  const ka = `${a.metadata?.namespace ?? ''}/${a.metadata?.name}`;
  const kb = `${b.metadata?.namespace ?? ''}/${b.metadata?.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
