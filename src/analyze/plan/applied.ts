/**
 * The DaemonSet as the API server would hold it after `kubectl apply`: the template in its stored
 * form (defaults filled in, empty values dropped as Go's decoder and omitempty drop them), on the
 * existing object, and the revision hash the new template gets (an existing revision's on a rollback).
 */
import type { DaemonSet, PodTemplateSpec } from '../../model/k8s-types.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import { defaultedPodTemplate } from '../../k8s/defaults.js';
import { semanticEqual, revisionTemplate, revisionHash } from '../../k8s/revision.js';

/**
 * A template as the API server stores and returns it: Go decodes an empty string, an empty list
 * and null as the zero value, and encoding/json's `omitempty` leaves them out, so
 * `tolerations: [{key: k, value: ""}]` in a manifest is stored as `[{key: k}]` and hashes the same.
 */
export function storedForm<T>(value: T): T {
  if (Array.isArray(value)) return value.map(storedForm) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== '' && v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0))
        .map(([k, v]) => [k, storedForm(v)]),
    ) as T;
  }
  return value;
}

/** The template the API server stores for `template`: its defaults filled in, empty values dropped. */
export function storedTemplate(template: PodTemplateSpec | undefined): PodTemplateSpec {
  return storedForm(defaultedPodTemplate(template));
}

/** The hash the new template gets: an existing revision's when the template matches one (a rollback), else a new one. */
export function newRevisionHash(
  index: SnapshotIndex,
  current: DaemonSet | undefined,
  template: PodTemplateSpec,
): { hash: string; reused: boolean } {
  if (!current) return { hash: '', reused: false };
  const name = current.metadata?.name ?? '';
  const match = index
    .revisionsFor(current)
    .filter((r) => semanticEqual(storedTemplate(revisionTemplate(r)), template))
    .sort((a, b) => (b.revision ?? 0) - (a.revision ?? 0))[0];
  return match ? { hash: revisionHash(match, name), reused: true } : { hash: '', reused: false };
}

/** A copy with every object's keys in order, so lists of unnamed objects (tolerations) compare by content, not by key order. */
export function sortedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortedKeys) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
    ) as T;
  }
  return value;
}

/** The DaemonSet as the cluster would hold it after the apply: the manifest's spec, defaulted, on the existing object. */
export function appliedDaemonSet(manifest: DaemonSet, current: DaemonSet | undefined): DaemonSet {
  const spec = { ...(manifest.spec ?? {}), template: storedTemplate(manifest.spec?.template) };
  if (!current) return { ...manifest, spec };
  return {
    ...manifest,
    metadata: { ...current.metadata, labels: manifest.metadata?.labels, annotations: manifest.metadata?.annotations },
    spec,
    status: current.status,
  };
}
