/**
 * Identical parts of pods held once. The pods of one controller carry the same containers,
 * volumes, tolerations, labels and owner reference, each parsed into its own objects: in a dump
 * of a large cluster, most of the memory the pods take. As each pod is added to a snapshot (from
 * files or a live cluster: src/load/stage.ts#add), or read as an item of a List or as
 * one of concatenated JSON documents (stage.ts#read: both are held until the input
 * ends), every part of its spec and metadata that equals the same part of a pod read shortly
 * before is replaced by that pod's part. Pods of one controller sit together in a dump (kubectl
 * lists pods by namespace and name), so a few recent parts per field find almost every match. The
 * text any output is written from is the same.
 *
 * Sharing needs the analyses never to change the objects they read (src/model/memo.ts rests on
 * the same); `test/cli/neighbour-pods.test.ts` freezes every shared part and runs every command
 * over the fixtures and real dumps, which fails on any write to one.
 */
import type { KubeObject } from '../model/k8s-types.js';

type Loose = Record<string, unknown>;

/** Distinct recent parts compared per field: pods of a few controllers interleave at most. */
const RECENT = 4;

/**
 * Levels below a section a part with no equal is looked into: `spec.volumes[].projected` (the
 * service-account token volume's sources, the same in every pod, under a name of its own in each).
 */
const DEPTH = 3;

/**
 * Fields never shared. A pod's affinity holds the node name the DaemonSet controller pins it to,
 * which ObjectStage#finish rewrites in place (src/load/stage.ts#shareNodeNames); no other pod
 * has the same pin.
 */
const UNSHARED: Readonly<Record<string, readonly string[]>> = { spec: ['affinity'] };

/**
 * The parts of a pod looked at: the object-valued fields of these. A status is the pod's own
 * (times, addresses, container IDs): sharing it saved 1% of the pods' memory in the benchmark.
 */
const SECTIONS = ['metadata', 'spec'] as const;

function isObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

/** Whether two parsed values are the same JSON, keys in the same order (so that output written from either is the same text). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isObject(a) || !isObject(b)) return false;
  const arrays = Array.isArray(a);
  if (arrays !== Array.isArray(b)) return false;
  if (arrays) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameJson(x[i], y[i])) return false;
    return true;
  }
  // One array of keys, not two: a's are walked with for-in (no copy), in order, against b's.
  const kb = Object.keys(b);
  let i = 0;
  for (const k in a) {
    if (kb[i++] !== k || !sameJson((a as Loose)[k], (b as Loose)[k])) return false;
  }
  return i === kb.length;
}

function deepFreeze(v: object): void {
  if (Object.isFrozen(v)) return;
  Object.freeze(v);
  for (const child of Object.values(v)) if (isObject(child)) deepFreeze(child);
}

/** One field's place in a pod (`spec.containers[].env`): its recent distinct parts, and its fields' places. */
interface Place {
  /** The most recent distinct parts seen here, newest first. */
  recent: object[];
  /** The places of an object's fields, by name. */
  fields?: Map<string, Place>;
  /** The place of an array's items. */
  items?: Place;
}

function place(): Place {
  return { recent: [] };
}

/** The parts kept for sharing while one snapshot is loaded. */
export class PartSharer {
  private readonly root = new Map<string, Place>();
  /** Parts replaced by an earlier pod's (for tests). */
  shared = 0;

  /**
   * Sharing starts with a snapshot's first pod: the parts a pod leaves behind then die young,
   * before they reach the old generation (a threshold of 50,000 pods left every copy read before it
   * to a full collection: on 60,000 pods, 351 MiB peak RSS against 235 MiB). With `freeze` (the
   * guard test), each part kept is frozen, inner parts and all, so that any later write throws.
   */
  constructor(private readonly freeze = false) {}

  /**
   * Replaces each part of the pod's sections that equals a recent pod's part at the same place
   * by that part. A part with no equal is looked into, down to DEPTH levels: the volumes of two
   * pods differ by the name of one, but the service-account token volume's sources are the same
   * in every pod. Changes the pod in place.
   */
  sharePod(pod: KubeObject): void {
    const loose = pod as unknown as Loose;
    for (const section of SECTIONS) {
      const part = loose[section];
      if (!isObject(part) || Array.isArray(part)) continue;
      let at = this.root.get(section);
      if (!at) this.root.set(section, (at = place()));
      this.shareFields(part as Loose, at, 1, UNSHARED[section]);
    }
  }

  private shareFields(obj: Loose, at: Place, depth: number, skip?: readonly string[]): void {
    const fields = (at.fields ??= new Map<string, Place>());
    for (const key in obj) {
      const value = obj[key];
      if (!isObject(value) || (skip !== undefined && skip.includes(key))) continue;
      let child = fields.get(key);
      if (!child) fields.set(key, (child = place()));
      const kept = this.share(value, child, depth);
      if (kept !== value) obj[key] = kept;
    }
  }

  /** The part to hold for `value` at `at`: an equal recent one, or `value` with its inner parts shared. */
  private share(value: object, at: Place, depth: number): object {
    const list = at.recent;
    for (let i = 0; i < list.length; i++) {
      const candidate = list[i]!;
      if (!sameJson(candidate, value)) continue;
      if (i > 0) {
        list.splice(i, 1);
        list.unshift(candidate);
      }
      this.shared++;
      return candidate;
    }
    if (depth < DEPTH) {
      if (Array.isArray(value)) {
        const items = (at.items ??= place());
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (!isObject(item)) continue;
          const kept = this.share(item, items, depth + 1);
          if (kept !== item) value[i] = kept;
        }
      } else {
        this.shareFields(value as Loose, at, depth + 1);
      }
    }
    if (this.freeze) deepFreeze(value);
    list.unshift(value);
    if (list.length > RECENT) list.pop();
    return value;
  }
}
