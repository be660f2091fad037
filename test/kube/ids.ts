/**
 * Stable identities for built objects: uids, generated-name suffixes, hex ids and template
 * hashes, all derived from a key (sha256 / FNV-32a), never from the clock or Math.random, so
 * generated fixtures are byte-identical on every run.
 */
import crypto from 'node:crypto';

/** Hex sha256 of a string. */
export function sha(s: string): string {
  return crypto.createHash('sha256').update(s).digest('hex');
}

/** A stable RFC 4122 v4-shaped uid derived from a key such as "Pod/ns/name". */
export function uid(key: string): string {
  const h = sha(`uid/${key}`);
  const variant = '89ab'[parseInt(h[16]!, 16) % 4];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The alphabet of k8s.io/apimachinery/pkg/util/rand (no vowels, no 0/1/3). */
export const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/** `n` random-looking lowercase characters, as generateName produces, derived from `key`. */
export function suffix(key: string, n = 5): string {
  const h = sha(`suffix/${key}`);
  let out = '';
  for (let i = 0; i < n; i++) out += SAFE[parseInt(h.slice(i * 2, i * 2 + 2), 16) % SAFE.length];
  return out;
}

/** `n` hex digits derived from `key` (container ids, image digests, machine ids). */
export function hex(key: string, n: number): string {
  let out = '';
  for (let i = 0; out.length < n; i++) out += sha(`hex/${key}/${i}`);
  return out.slice(0, n);
}

/** FNV-32a of the UTF-8 bytes of `str`, as an unsigned integer. */
export function fnv32a(str: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(str, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Like controller.ComputeHash: FNV-32a of the template, printed in decimal, then
 * rand.SafeEncodeString (each byte mapped into SAFE). Real hashes look the same
 * (e.g. "5dd5756b68") because only ten digits are ever encoded. (Not upstream's exact hash:
 * that hashes Go's spew dump of the struct; ds-doctor never recomputes it.)
 */
export function templateHash(template: unknown): string {
  return [...String(fnv32a(JSON.stringify(template)))].map((c) => SAFE[c.charCodeAt(0) % SAFE.length]).join('');
}

/**
 * `n` characters of the alphabet of generated names derived from `seed` by chained FNV-32a
 * (the scheme of the impact fixtures; the other generators use `suffix`).
 */
export function fnvSuffix(seed: string, n = 5): string {
  let h = fnv32a(seed);
  let out = '';
  for (let i = 0; i < n; i++) {
    out += SAFE[h % SAFE.length];
    h = fnv32a(`${seed}${i}${h}`);
  }
  return out;
}

/** A stable uid for kind/namespace/name from four FNV-32a words (the impact fixtures' scheme; the others use `uid`). */
export function fnvUid(kind: string, ns: string, name: string): string {
  const hex = [0, 1, 2, 3].map((i) => fnv32a(`${kind}/${ns}/${name}/${i}`).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
