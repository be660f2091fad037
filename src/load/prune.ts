/**
 * What the file loader drops from each object as it reads it, so that a dump of a large cluster
 * fits in memory: fields no analysis, lint rule or renderer reads.
 */
import type { KubeObject } from '../model/k8s-types.js';

/**
 * Drops `metadata.managedFields` (server-side apply bookkeeping: often a third of a dumped
 * object, and read by nothing in ds-doctor). Returns the same object, changed in place.
 */
export function pruneObject<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const meta = (value as KubeObject).metadata as Record<string, unknown> | undefined;
  if (meta && typeof meta === 'object' && 'managedFields' in meta) {
    // A copy without the key keeps the object's fast property layout (delete would not).
    const { managedFields: _dropped, ...rest } = meta;
    (value as KubeObject).metadata = rest;
  }
  return value;
}
