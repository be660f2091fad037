/**
 * The object stage of the loader's pipeline (docs/design.md, "The loader"): every object a source
 * yields, from files or a live cluster, goes through it once, in this order: pruned (prune.ts),
 * its shape checked (shape.ts; refused when nested deeper than MAX_DEPTH), a pod's equal parts
 * shared with recent pods (share.ts), then added to its kind's list. `finish` then drops
 * duplicates and shares node names. A decoder hands each item of a List, and each of concatenated
 * JSON documents, to `read` as soon as it is parsed, while the List is still held (its `kind`
 * comes after its items): the item is pruned, checked and shared then, so that a large input's
 * copies die young; `add` later only places it. What the stage does is set by StageOptions,
 * passed in by the caller: there are no module-level switches.
 */
import type { KubeEvent, KubeObject } from '../model/k8s-types.js';
import { newestObjectTime } from '../model/snapshot-time.js';
import { InputError } from '../model/errors.js';
import { SNAPSHOT_KINDS, type ClusterSnapshot, type SnapshotKind, type SourceLocation } from '../model/snapshot.js';
import { compareText } from '../model/order.js';
import { MAX_DEPTH, nestedDeeperThan } from './bounds.js';
import { pruneObject, slimNeighbourPod } from './prune.js';
import { checkShape, type ShapeIssue } from './shape.js';
import { PartSharer } from './share.js';

/** What the object stage does to each object; every optimisation on unless turned off. */
export interface StageOptions {
  /** Pods of other controllers slimmed to what they are read for (prune.ts); `false` keeps them whole. Live objects are never slimmed. */
  slim?: boolean;
  /** Equal parts of pods held once (share.ts). */
  share?: boolean;
  /** For tests: each slimmed part reports every read of a field slimming dropped. */
  watchSlimmed?: (path: string) => void;
  /** For tests: each part kept for sharing is frozen, so that a write to it throws. */
  freezeShared?: boolean;
}

/** Shape warnings shown per object, and per snapshot, before the rest are only counted. */
const ISSUES_PER_OBJECT = 5;
const SHAPE_WARNINGS_SHOWN = 20;

/** events.k8s.io/v1 Events carry `regarding`/`note`; analyses read the core/v1 names. */
function normalizeEvent(e: KubeEvent): KubeEvent {
  if (!e.involvedObject && e.regarding) e.involvedObject = e.regarding;
  if (e.message === undefined && e.note !== undefined) e.message = e.note;
  if (e.count === undefined) e.count = e.series?.count ?? e.deprecatedCount ?? 1;
  if (!e.lastTimestamp)
    e.lastTimestamp =
      e.series?.lastObservedTime ?? e.deprecatedLastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? null;
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

/** One snapshot being loaded: the objects go in through `read` (optional, early) and `add`, and out through `finish`. */
export class ObjectStage {
  private readonly sharer: PartSharer | undefined;
  /** Objects read (pruned, and a pod checked and shared) before they were added, with the shape issues found then. */
  private readonly early = new WeakMap<object, ShapeIssue[]>();
  private shown = 0;
  private unshown = 0;
  /** Objects of kinds ds-doctor does not use, by kind. */
  private readonly ignored = new Map<string, number>();

  /** `slim` says whether pods of other controllers may be slimmed: files yes, a live cluster's never (`--dump` writes what it returned). */
  constructor(
    readonly snapshot: ClusterSnapshot,
    private readonly options: StageOptions = {},
    private readonly slim = true,
  ) {
    this.sharer = options.share === false ? undefined : new PartSharer(options.freezeShared);
  }

  /**
   * An object read while its source still holds it (an item of a List, one of concatenated JSON
   * documents): pruned now and, when it is a pod, shape-checked and shared, so that its copies
   * die young; `add` reports the issues found here. Returns the object (changed in place).
   */
  read<T>(value: T): T {
    if (typeof value !== 'object' || value === null || this.early.has(value)) return value;
    const obj = pruneObject(value) as KubeObject;
    if (this.slim && this.options.slim !== false) {
      const dropped = slimNeighbourPod(obj, this.options.watchSlimmed);
      if (dropped !== undefined) this.snapshot.prunedTimes.set(obj, dropped);
    }
    // Other kinds wait for add, as a pod nested too deep does (add refuses it).
    if (obj.kind !== 'Pod' || nestedDeeperThan(obj, MAX_DEPTH)) return value;
    this.early.set(obj, checkShape(obj, 'Pod'));
    this.sharer?.sharePod(obj);
    return value;
  }

  /**
   * Adds an object to its kind's list; false when ds-doctor does not use that kind (counted for
   * one warning). Malformed fields are dropped with a warning, an object without a name is
   * skipped with a warning, one nested deeper than MAX_DEPTH is refused.
   */
  add(value: KubeObject, origin?: SourceLocation): boolean {
    const kind = value.kind as SnapshotKind;
    const meta = Object.prototype.hasOwnProperty.call(SNAPSHOT_KINDS, kind) ? SNAPSHOT_KINDS[kind] : undefined;
    if (!meta) {
      this.ignored.set(kind, (this.ignored.get(kind) ?? 0) + 1);
      return false;
    }
    const obj = this.read(value);
    // `file:line: Kind namespace/name`, made only for a warning or an error.
    const label = () => `${origin ? `${origin.file}:${origin.line}: ` : ''}${objectLabel(obj, kind)}`;
    let issues = this.early.get(obj);
    if (!issues) {
      if (nestedDeeperThan(obj, MAX_DEPTH))
        throw new InputError(`${label()}: nested deeper than ${MAX_DEPTH} levels (no Kubernetes object is); refused`);
      issues = checkShape(obj, kind);
    }
    this.early.delete(obj);
    for (const issue of issues.slice(0, ISSUES_PER_OBJECT)) this.warn(`${label()}: ${issue.path}: ${issue.message}`);
    if (issues.length > ISSUES_PER_OBJECT)
      this.warn(`${label()}: ${issues.length - ISSUES_PER_OBJECT} more field(s) of the wrong type ignored`);
    if (!obj.metadata?.name) {
      this.warn(`${label()}: no metadata.name; skipped`);
      return true;
    }
    (this.snapshot[meta.field] as KubeObject[]).push(kind === 'Event' ? normalizeEvent(obj) : obj);
    if (origin) this.snapshot.origins.set(obj, origin);
    return true;
  }

  private warn(line: string): void {
    if (this.shown++ < SHAPE_WARNINGS_SHOWN) this.snapshot.warnings.push(line);
    else this.unshown++;
  }

  /**
   * Ends the snapshot: the objects of unused kinds and the warnings not shown counted, duplicate objects (same kind, namespace and name;
   * several snapshots of one cluster in one folder) dropped, keeping the newest copy of each, and
   * node names shared. Returns the snapshot.
   */
  finish(): ClusterSnapshot {
    const snapshot = this.snapshot;
    if (this.ignored.size) {
      const total = [...this.ignored.values()].reduce((a, b) => a + b, 0);
      const kinds = [...this.ignored.entries()]
        .sort(([a], [b]) => compareText(a, b))
        .map(([k, n]) => `${k} (${n})`)
        .join(', ');
      snapshot.warnings.push(`ignored ${total} object(s) of kinds ds-doctor does not use: ${kinds}`);
    }
    if (this.unshown) snapshot.warnings.push(`${this.unshown} more warning(s) about malformed fields not shown`);
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
        if (isNewerCopy(o, list[kept]!, snapshot.prunedTimes)) newest.set(key, i);
      });
      if (duplicates) {
        const keep = new Set(newest.values());
        (snapshot[meta.field] as KubeObject[]) = list.filter((_, i) => keep.has(i));
        counts.push(`${duplicates} ${kind}`);
      }
    }
    if (counts.length) {
      snapshot.warnings.push(
        `duplicate objects in the input (same namespace and name): ${counts.join(', ')}; the newest copy of each (highest resourceVersion, then newest timestamps) was kept`,
      );
    }
    shareNodeNames(snapshot);
    return snapshot;
  }
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
    for (const term of spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ??
      []) {
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
