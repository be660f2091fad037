/**
 * Normalisation shared by every loader: objects go to the snapshot list of their kind,
 * newer API shapes are mapped to the ones analyses read, duplicates are dropped.
 */
import type { KubeEvent, KubeObject } from '../model/k8s-types.js';
import { SNAPSHOT_KINDS, type ClusterSnapshot, type SnapshotKind, type SourceLocation } from '../model/snapshot.js';

/** events.k8s.io/v1 Events carry `regarding`/`note`; analyses read the core/v1 names. */
function normalizeEvent(e: KubeEvent): KubeEvent {
  if (!e.involvedObject && e.regarding) e.involvedObject = e.regarding;
  if (e.message === undefined && e.note !== undefined) e.message = e.note;
  if (e.count === undefined) e.count = e.series?.count ?? e.deprecatedCount ?? 1;
  if (!e.lastTimestamp) e.lastTimestamp = e.series?.lastObservedTime ?? e.deprecatedLastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? null;
  if (!e.firstTimestamp) e.firstTimestamp = e.deprecatedFirstTimestamp ?? e.eventTime ?? null;
  return e;
}

/** Adds an object to its kind's list; false when ds-doctor does not use that kind. */
export function addObject(snapshot: ClusterSnapshot, obj: KubeObject, origin?: SourceLocation): boolean {
  const kind = obj.kind as SnapshotKind;
  const meta = SNAPSHOT_KINDS[kind];
  if (!meta) return false;
  const target = snapshot[meta.field] as KubeObject[];
  target.push(kind === 'Event' ? normalizeEvent(obj as KubeEvent) : obj);
  if (origin) snapshot.origins.set(obj, origin);
  return true;
}

/** Drops duplicate objects (same kind, namespace and name; the last one read wins) and sorts nothing. */
export function finishSnapshot(snapshot: ClusterSnapshot): void {
  for (const [kind, meta] of Object.entries(SNAPSHOT_KINDS)) {
    if (kind === 'Event') continue;
    const list = snapshot[meta.field] as KubeObject[];
    const seen = new Map<string, number>();
    let duplicates = 0;
    list.forEach((o, i) => {
      const key = `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
      if (seen.has(key)) duplicates++;
      seen.set(key, i);
    });
    if (duplicates) {
      const keep = new Set(seen.values());
      (snapshot[meta.field] as KubeObject[]) = list.filter((_, i) => keep.has(i));
      snapshot.warnings.push(`${duplicates} duplicate ${kind} object(s) in the input: the last one read was kept`);
    }
  }
}
