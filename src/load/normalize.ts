/**
 * Normalisation shared by every loader: objects go to the snapshot list of their kind,
 * newer API shapes are mapped to the ones analyses read, duplicates are dropped.
 */
import type { KubeEvent, KubeObject } from '../model/k8s-types.js';
import { newestObjectTime } from '../model/snapshot-time.js';
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

/** A resourceVersion as a number when it is one (etcd's revision, as every API server writes it). */
function revisionNumber(obj: KubeObject): bigint | undefined {
  const rv = obj.metadata?.resourceVersion;
  return typeof rv === 'string' && /^\d{1,30}$/.test(rv) ? BigInt(rv) : undefined;
}

/**
 * Whether `a` is a newer copy of an object than `b`: the higher resourceVersion, else the newer
 * timestamps; identical ranks fall back to the text, so the choice never depends on input order.
 */
export function isNewerCopy(a: KubeObject, b: KubeObject): boolean {
  const ra = revisionNumber(a);
  const rb = revisionNumber(b);
  if (ra !== undefined && rb !== undefined && ra !== rb) return ra > rb;
  const ta = newestObjectTime(a);
  const tb = newestObjectTime(b);
  if (ta !== tb) return ta > tb;
  return JSON.stringify(a) > JSON.stringify(b);
}

/**
 * Drops duplicate objects (same kind, namespace and name; several snapshots of one cluster in one
 * folder), keeping the newest copy of each, and says so in one warning.
 */
export function finishSnapshot(snapshot: ClusterSnapshot): void {
  const counts: string[] = [];
  for (const [kind, meta] of Object.entries(SNAPSHOT_KINDS)) {
    if (kind === 'Event') continue;
    const list = snapshot[meta.field] as KubeObject[];
    const newest = new Map<string, number>();
    let duplicates = 0;
    list.forEach((o, i) => {
      const key = `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
      const kept = newest.get(key);
      if (kept === undefined) {
        newest.set(key, i);
        return;
      }
      duplicates++;
      if (isNewerCopy(o, list[kept]!)) newest.set(key, i);
    });
    if (duplicates) {
      const keep = new Set(newest.values());
      (snapshot[meta.field] as KubeObject[]) = list.filter((_, i) => keep.has(i));
      counts.push(`${duplicates} ${kind}`);
    }
  }
  if (counts.length) {
    snapshot.warnings.push(`duplicate objects in the input (same namespace and name): ${counts.join(', ')}; the newest copy of each (highest resourceVersion, then newest timestamps) was kept`);
  }
}
