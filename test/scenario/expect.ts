/**
 * Machine-readable expectations of the golden cases: test/scenario/expect/<case>.json holds the
 * exit code and the part of the `-o json` document that the case's story is about, written by
 * hand from the scenario's README (never by UPDATE_GOLDEN). The schema beside this file says how
 * a partial document matches.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';

export interface Expectation {
  exit: 0 | 1 | 2 | 3;
  /** A partial `-o json` document: always its `kind`, then what the story is about. */
  json: { kind: string } & Record<string, unknown>;
}

export const EXPECT_DIR = 'test/scenario/expect';
const validate = new Ajv({ allErrors: true }).compile<Expectation>(
  JSON.parse(readFileSync('test/scenario/expect.schema.json', 'utf8')) as object,
);

/** Reads and validates test/scenario/expect/<name>.json; a file that breaks the schema throws naming it. */
export function readExpectation(name: string): Expectation {
  const path = `${EXPECT_DIR}/${name}.json`;
  const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (!validate(value))
    throw new Error(
      `${path}: ${validate.errors?.map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ')}`,
    );
  return value;
}

const isIncludes = (v: unknown): v is { $includes: unknown[] } =>
  v !== null && typeof v === 'object' && Array.isArray((v as { $includes?: unknown }).$includes);

const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? 'nothing' : s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

/**
 * The first place where `actual` does not match `expected`, as "<field>: expected <x>, got <y>",
 * or undefined when it matches. Objects match partially (only the listed keys), arrays in full
 * (same length, entry by entry), `{ "$includes": [...] }` an array holding entries that match
 * those listed, in that order, among others; everything else exactly.
 */
export function firstMismatch(expected: unknown, actual: unknown, field = ''): string | undefined {
  const differ = `${field || '(document)'}: expected ${show(expected)}, got ${show(actual)}`;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return differ;
    for (const [i, e] of expected.entries()) {
      const m = firstMismatch(e, actual[i], `${field}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (isIncludes(expected)) {
    if (!Array.isArray(actual)) return differ;
    let from = 0;
    for (const e of expected.$includes) {
      const at = actual.findIndex((a, i) => i >= from && firstMismatch(e, a) === undefined);
      if (at < 0)
        return `${field}: expected entries matching ${show(e)} (in the order listed), got ${show(actual.slice(from))}`;
      from = at + 1;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return differ;
    for (const [key, e] of Object.entries(expected)) {
      const m = firstMismatch(e, (actual as Record<string, unknown>)[key], field ? `${field}.${key}` : key);
      if (m) return m;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : differ;
}
