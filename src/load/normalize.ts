/**
 * Normalisation shared by every loader: objects go to the snapshot list of their kind,
 * newer API shapes are mapped to the ones analyses read, duplicates are dropped.
 */
import type { KubeEvent, KubeObject } from '../model/k8s-types.js';
import { newestObjectTime } from '../model/snapshot-time.js';
import { InputError } from '../model/errors.js';
import { SNAPSHOT_KINDS, type ClusterSnapshot, type SnapshotKind, type SourceLocation } from '../model/snapshot.js';
import { MAX_DEPTH, nestedDeeperThan } from './bounds.js';
import { droppedTime } from './prune.js';
import { checkShape, type ShapeIssue } from './shape.js';
import { PartSharer, sharesParts } from './share.js';

/** Shape warnings shown per object, and per snapshot, before the rest are only counted. */
const ISSUES_PER_OBJECT = 5;
const SHAPE_WARNINGS_SHOWN = 20;
/** Shape warnings not shown, per snapshot (reported once by finishSnapshot). */
const unshown = new WeakMap<ClusterSnapshot, number>();
const shown = new WeakMap<ClusterSnapshot, number>();
/** The pod parts each snapshot being loaded shares (src/load/share.ts); dropped when it is finished. */
const sharers = new WeakMap<ClusterSnapshot, PartSharer>();

/** events.k8s.io/v1 Events carry `regarding`/`note`; analyses read the core/v1 names. */
function normalizeEvent(e: KubeEvent): KubeEvent {
  if (!e.involvedObject && e.regarding) e.involvedObject = e.regarding;
  if (e.message === undefined && e.note !== undefined) e.message = e.note;
  if (e.count === undefined) e.count = e.series?.count ?? e.deprecatedCount ?? 1;
  if (!e.lastTimestamp) e.lastTimestamp = e.series?.lastObservedTime ?? e.deprecatedLastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? null;
  if (!e.firstTimestamp) e.firstTimestamp = e.deprecatedFirstTimestamp ?? e.eventTime ?? null;
  return e;
}

/** A cluster string cut to a length fit for one warning line. */
function clip(s: string): string {
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}

/** `Kind namespace/name` (or `Kind name`), for warnings about an object whose shape was checked. */
function objectLabel(obj: KubeObject, kind: string): string {
  const name = obj.metadata?.name;
  const ns = obj.metadata?.namespace;
  if (!name) return `${kind} (no name)`;
  return `${kind} ${ns ? `${clip(ns)}/` : ''}${clip(name)}`;
}

function warnShape(snapshot: ClusterSnapshot, line: string): void {
  const n = shown.get(snapshot) ?? 0;
  if (n < SHAPE_WARNINGS_SHOWN) {
    snapshot.warnings.push(line);
    shown.set(snapshot, n + 1);
  } else {
    unshown.set(snapshot, (unshown.get(snapshot) ?? 0) + 1);
  }
}

/** One warning per malformed field (the first few of an object), naming file, object and field path. */
function reportShape(snapshot: ClusterSnapshot, label: string, issues: ShapeIssue[]): void {
  for (const issue of issues.slice(0, ISSUES_PER_OBJECT)) warnShape(snapshot, `${label}: ${issue.path}: ${issue.message}`);
  if (issues.length > ISSUES_PER_OBJECT) warnShape(snapshot, `${label}: ${issues.length - ISSUES_PER_OBJECT} more field(s) of the wrong type ignored`);
}

/**
 * Adds an object to its kind's list; false when ds-doctor does not use that kind. The object's
 * shape is checked first (src/load/shape.ts): malformed fields are dropped with a warning, an
 * object without a name is skipped with a warning, one nested deeper than MAX_DEPTH is refused.
 */
export function addObject(snapshot: ClusterSnapshot, obj: KubeObject, origin?: SourceLocation): boolean {
  const kind = obj.kind as SnapshotKind;
  const meta = Object.prototype.hasOwnProperty.call(SNAPSHOT_KINDS, kind) ? SNAPSHOT_KINDS[kind] : undefined;
  if (!meta) return false;
  // `file:line: Kind namespace/name`, made only for a warning or an error.
  const label = () => `${origin ? `${origin.file}:${origin.line}: ` : ''}${objectLabel(obj, kind)}`;
  // A pod checked while the loader held it (readHeldItem) passed the depth check then.
  const early = readEarly.get(obj);
  if (early) readEarly.delete(obj);
  const issues = early ?? checkShape(obj, kind);
  if (!early && nestedDeeperThan(obj, MAX_DEPTH)) {
    throw new InputError(`${label()}: nested deeper than ${MAX_DEPTH} levels (no Kubernetes object is); refused`);
  }
  if (issues.length) reportShape(snapshot, label(), issues);
  if (!obj.metadata?.name) {
    warnShape(snapshot, `${label()}: no metadata.name; skipped`);
    return true;
  }
  const target = snapshot[meta.field] as KubeObject[];
  target.push(kind === 'Event' ? normalizeEvent(obj) : obj);
  if (kind === 'Pod') {
    // After the shape check: a malformed field is dropped, with its note, from every pod that has it.
    if (!early) sharerFor(snapshot)?.sharePod(obj);
  }
  if (origin) snapshot.origins.set(obj, origin);
  const dropped = droppedTime(obj);
  if (dropped !== undefined) snapshot.prunedTimes.set(obj, dropped);
  return true;
}

/** The shape issues of pods checked, and their parts shared, while the loader held them (readHeldItem); until each is added. */
const readEarly = new WeakMap<object, ShapeIssue[]>();

/**
 * A pod read as an item of a List, before the List ends (a loader holds a List's items until
 * then, and kubectl writes `kind: List` after them), or as one of concatenated JSON documents,
 * before the input ends (the JSON loader holds them until then): its shape is checked and its
 * parts shared now, so that a large input's duplicates are dropped as it is read rather than held
 * to its end. addObject later reports the issues found here. Other items, and a pod nested deeper
 * than MAX_DEPTH (addObject refuses it), wait for addObject.
 */
export function readHeldItem(snapshot: ClusterSnapshot, item: unknown): void {
  if (typeof item !== 'object' || item === null || (item as KubeObject).kind !== 'Pod' || readEarly.has(item)) return;
  const sharer = sharerFor(snapshot);
  const pod = item as KubeObject;
  if (!sharer || nestedDeeperThan(pod, MAX_DEPTH)) return;
  readEarly.set(pod, checkShape(pod, 'Pod'));
  sharer.sharePod(pod);
}

/** The snapshot's sharer of pod parts (src/load/share.ts), started with its first pod; undefined when sharing is off. */
function sharerFor(snapshot: ClusterSnapshot): PartSharer | undefined {
  let sharer = sharers.get(snapshot);
  if (sharer || !sharesParts()) return sharer;
  sharers.set(snapshot, (sharer = new PartSharer()));
  return sharer;
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
export function isNewerCopy(a: KubeObject, b: KubeObject, prunedTimes?: WeakMap<object, number>): boolean {
  const ra = revisionNumber(a);
  const rb = revisionNumber(b);
  if (ra !== undefined && rb !== undefined && ra !== rb) return ra > rb;
  const ta = newestObjectTime(a, prunedTimes?.get(a));
  const tb = newestObjectTime(b, prunedTimes?.get(b));
  if (ta !== tb) return ta > tb;
  return JSON.stringify(a) > JSON.stringify(b);
}

/**
 * Drops duplicate objects (same kind, namespace and name; several snapshots of one cluster in one
 * folder), keeping the newest copy of each, and says so in one warning.
 */
export function finishSnapshot(snapshot: ClusterSnapshot): void {
  sharers.delete(snapshot);
  const counts: string[] = [];
  const more = unshown.get(snapshot);
  if (more) snapshot.warnings.push(`${more} more warning(s) about malformed fields not shown`);
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
      if (isNewerCopy(o, list[kept]!, snapshot.prunedTimes)) newest.set(key, i);
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
  shareNodeNames(snapshot);
}

/**
 * Makes each pod's node name (`spec.nodeName`, and the `metadata.name` term the DaemonSet
 * controller pins its pods with) the very string of the node's own name. The text is the same;
 * but the analyses look pods up by node name in maps several times per pod, and a lookup whose
 * key is the same string needs no comparison of characters.
 */
function shareNodeNames(snapshot: ClusterSnapshot): void {
  const names = new Map<string, string>();
  for (const n of snapshot.nodes) {
    const name = n.metadata?.name;
    if (typeof name === 'string') names.set(name, name);
  }
  if (!names.size) return;
  for (const p of snapshot.pods) {
    const spec = p.spec;
    if (!spec) continue;
    if (typeof spec.nodeName === 'string') spec.nodeName = names.get(spec.nodeName) ?? spec.nodeName;
    for (const term of spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
      for (const req of term.matchFields ?? []) {
        const values = req.values;
        if (req.key !== 'metadata.name' || !Array.isArray(values)) continue;
        for (let i = 0; i < values.length; i++) {
          const v = values[i];
          if (typeof v === 'string') values[i] = names.get(v) ?? v;
        }
      }
    }
  }
}
