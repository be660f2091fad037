/**
 * The mutation fuzzer's pure parts: a seeded PRNG, the corpus of dumps it mutates, and the
 * mutations (delete a field, null, wrong type, huge number, long string, duplicate, unicode and
 * control characters). Everything is a function of (seed, mutant index): no Math.random.
 */
import yaml from 'js-yaml';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** mulberry32: a small, fast, well-distributed 32-bit PRNG. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
}

/** The PRNG of one mutant: independent of every other mutant, so one can be replayed alone. */
export function mutantRng(seed: number, index: number): Rng {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  return new Rng(h ^ (h >>> 15));
}

/** One dump to mutate: its objects, and a DaemonSet and node it names. */
export interface Corpus {
  name: string;
  items: Record<string, unknown>[];
  daemonSets: string[];
  nodes: string[];
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) return yamlFiles(p);
      return /\.ya?ml$/.test(f) ? [p] : [];
    });
}

function flatten(doc: unknown): Record<string, unknown>[] {
  if (typeof doc !== 'object' || doc === null) return [];
  const o = doc as Record<string, unknown>;
  if (typeof o['kind'] === 'string' && o['kind'].endsWith('List') && Array.isArray(o['items'])) {
    const itemKind = o['kind'] === 'List' ? undefined : o['kind'].slice(0, -4);
    return (o['items'] as Record<string, unknown>[]).map((it) =>
      it['kind'] || !itemKind ? it : { kind: itemKind, ...it },
    );
  }
  return [o];
}

function names(items: Record<string, unknown>[], kind: string, namespaced: boolean): string[] {
  return items
    .filter((o) => o['kind'] === kind)
    .map((o) => {
      const m = o['metadata'] as { name: string; namespace?: string };
      return namespaced ? `${m.namespace}/${m.name}` : m.name;
    });
}

/** Reads a dump directory (demo) or a scenario's dump into one corpus. */
export function readCorpus(name: string, dir: string): Corpus {
  const items = yamlFiles(dir).flatMap((f) =>
    yaml.loadAll(readFileSync(f, 'utf8'), undefined, { schema: yaml.CORE_SCHEMA }).flatMap(flatten),
  );
  return { name, items, daemonSets: names(items, 'DaemonSet', true), nodes: names(items, 'Node', false) };
}

/** A step of a path into a value: a key of an object or an index of a list. */
type Step = string | number;

/** The path as `items[3].spec.template`. */
export function formatPath(path: Step[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

const LONG = 'x'.repeat(200_000);
const HOSTILE = 'a\u202e\u0000\u001b[2J\u001b]0;t\u0007\u009b\r\ud800é\u2066z';

/** Replacement values of every type, for "wrong type" mutations. */
const WRONG_TYPES: readonly (() => unknown)[] = [
  () => 'x',
  () => '',
  () => '123',
  () => 'true',
  () => '-1',
  () => 0,
  () => -1,
  () => 1.5,
  () => 123,
  () => true,
  () => false,
  () => [],
  () => [null],
  () => ['x'],
  () => [1],
  () => ({}),
  () => ({ x: 'y' }),
  () => JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'),
];
const HUGE: readonly unknown[] = [
  1e308,
  -1e308,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 63),
  4294967297,
  1e-320,
  '9999999999999999999999Ei',
  '1e400',
  '-5m',
];

export interface Mutation {
  op: string;
  path: string;
}

/** Picks a path into an item: descends into a random child until it stops (or meets a leaf). */
function randomPath(rng: Rng, items: unknown[]): Step[] {
  const path: Step[] = ['items', rng.int(items.length)];
  let v: unknown = items[path[1] as number];
  for (;;) {
    if (typeof v !== 'object' || v === null) return path;
    const keys: Step[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
    if (keys.length === 0) return path;
    if (path.length > 2 && rng.next() < 0.25) return path;
    const k = rng.pick(keys);
    path.push(k);
    v = (v as Record<string | number, unknown>)[k];
  }
}

function at(root: unknown, path: Step[]): unknown {
  return path.reduce<unknown>((v, s) => (v as Record<string | number, unknown>)[s], root);
}

/** The value that replaces the one at the path, by mutation kind. */
const REPLACE: Record<string, (rng: Rng, old: unknown) => unknown> = {
  null: () => null,
  'wrong-type': (rng) => rng.pick(WRONG_TYPES)(),
  huge: (rng) => rng.pick(HUGE),
  'long-string': (rng, old) => (typeof old === 'string' ? old + LONG : rng.next() < 0.5 ? LONG : `${LONG}.${LONG}`),
  unicode: (rng, old) => (typeof old === 'string' && rng.next() < 0.5 ? `${old}${HOSTILE}` : HOSTILE),
  'list-of-nulls': () => [null, null],
  deep: (rng) => nest(rng.pick([50, 200, 3000])),
  // Names of Object.prototype members, where a lookup table keyed by input text would find them.
  'prototype-name': (rng) => rng.pick(PROTOTYPE_NAMES),
  'number-text': (rng) => rng.pick(['0x10', '1e3', '-0', 'NaN', 'Infinity', '00', '1_000', ' 1 ']),
  'long-list': (rng, old) =>
    Array.from({ length: rng.pick([1000, 5000]) }, (_, i) =>
      typeof old === 'object' && old !== null ? structuredClone(Array.isArray(old) ? (old[0] ?? {}) : old) : `${i}`,
    ),
};
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

function nest(depth: number): unknown {
  let v: unknown = { leaf: 'x' };
  for (let i = 0; i < depth; i++) v = i % 2 ? { spec: v } : [v];
  return v;
}

const OPS = [
  'delete',
  'delete',
  'duplicate',
  'prototype-key',
  ...Object.keys(REPLACE),
  'null',
  'wrong-type',
  'wrong-type',
];

/** Applies one random mutation to `root` ({items}) in place and says what it did. */
export function mutateOnce(rng: Rng, root: { items: unknown[] }): Mutation {
  const path = randomPath(rng, root.items);
  const op = rng.pick(OPS);
  const key = path[path.length - 1]!;
  const parent = at(root, path.slice(0, -1)) as Record<string | number, unknown>;
  const old = parent[key];
  if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else if (op === 'prototype-key') {
    // A map gains a member named after an Object.prototype member (as JSON.parse makes it: own).
    const target =
      typeof old === 'object' && old !== null && !Array.isArray(old) ? (old as Record<string, unknown>) : parent;
    if (!Array.isArray(target))
      Object.defineProperty(target, rng.pick(PROTOTYPE_NAMES), {
        value: rng.pick(['x', 1, null, {}, []]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  } else if (op === 'duplicate') {
    const copy = structuredClone(old);
    if (Array.isArray(parent)) parent.splice(key as number, 0, copy);
    else root.items.push(structuredClone(root.items[path[1] as number]));
  } else {
    parent[key] = REPLACE[op]!(rng, old);
  }
  return { op, path: formatPath(path) };
}

/** One mutant: a deep copy of the corpus with 1–4 mutations, as JSON or YAML text. */
export function makeMutant(rng: Rng, corpus: Corpus): { text: string; format: 'json' | 'yaml'; mutations: Mutation[] } {
  const root = { apiVersion: 'v1', kind: 'List', items: structuredClone(corpus.items) as unknown[] };
  const mutations: Mutation[] = [];
  const n = 1 + rng.int(4);
  for (let i = 0; i < n && root.items.length > 0; i++) mutations.push(mutateOnce(rng, root));
  // js-yaml's dump recurses: very deep values are written as JSON (the loader's depth bound is tested by hand).
  const format = rng.next() < 0.5 || mutations.some((m) => m.op === 'deep') ? 'json' : 'yaml';
  const text = format === 'json' ? JSON.stringify(root) : yaml.dump(root, { noRefs: true, lineWidth: -1 });
  return { text, format, mutations };
}

/** Sets (or, with `undefined`, deletes) the value at a path such as ['metadata', 'labels'] of an object. */
export function setPath(obj: Record<string, unknown>, path: readonly Step[], value: unknown): void {
  const parent = at(obj, path.slice(0, -1)) as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  if (value === undefined) delete parent[key];
  else parent[key] = value;
}
