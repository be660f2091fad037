/**
 * What every part of a generated dump draws from: the seeded random source (the same seed gives
 * the same dump), the resourceVersion counter, and the JSON types of the objects.
 */
import { SAFE } from '../../test/kube/ids.js';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Obj = { [key: string]: Json };

// mulberry32: small, fast and good enough for picking shapes; the same seed gives the same dump.
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Hex digits (container ids, digests, machine ids). */
export const HEX = '0123456789abcdef';

/** The seeded random source; every object of a dump draws from one, in the order they are made. */
export class Random {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  float(): number {
    return this.next();
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  chars(alphabet: string, n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
  /** A generated-name suffix, in the alphabet of k8s.io/apimachinery/pkg/util/rand (no vowels, no 0/1/3). */
  suffix(n = 5): string {
    return this.chars(SAFE, n);
  }
  /** `prefix` + a random suffix not used before: the API server refuses a second pod of a name. */
  uniqueName(prefix: string, used: Set<string>): string {
    let name = `${prefix}${this.suffix()}`;
    while (used.has(name)) name = `${prefix}${this.suffix()}`;
    used.add(name);
    return name;
  }
  uid(): string {
    const h = this.chars(HEX, 32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(4)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
  /** An image digest. */
  digest(): string {
    return `sha256:${this.chars(HEX, 64)}`;
  }
}

/** What the builders of one dump share: the random source, the resourceVersion counter, and whether to write managedFields. */
export interface Gen {
  r: Random;
  /** The next resourceVersion, increasing in the order objects are made. */
  rv: () => string;
  managedFields: boolean;
}

/** A Gen for `seed`, resourceVersions from 4100000. */
export function newGen(seed: number, managedFields: boolean): Gen {
  let resourceVersion = 4_100_000;
  return { r: new Random(seed), rv: () => String(resourceVersion++), managedFields };
}

/** Keys sorted recursively, as kubectl prints unstructured objects. */
export function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]!);
  return out;
}
