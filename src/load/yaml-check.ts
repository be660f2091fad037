/**
 * `DS_DOCTOR_CHECK_YAML=1`: every YAML text read through its JSON translation (yaml-json.ts) is
 * also parsed with js-yaml, and a difference in the values fails the load with one line naming the
 * file, the line and the first path where they differ. A self-check for users who doubt the
 * translator, and for the property tests; it costs a second parse of every text.
 */
import { isDeepStrictEqual } from 'node:util';
import { InputError } from '../model/errors.js';
import { loadYamlDocument } from './parse.js';

/** The first path where `a` and `b` differ (`$` when at the top), for the message. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return path;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length || ka.some((k) => !Object.hasOwn(b, k))) return `${path} (keys)`;
  for (const k of ka) {
    const d = firstDifference(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
      Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`,
    );
    if (d) return d;
  }
  return path;
}

/**
 * Throws when `value`, read from `yaml` through its translation, is not what js-yaml reads from
 * `yaml` (which starts at `line` of `file`).
 */
export function checkTranslation(value: unknown, yaml: string, file: string, line: number): void {
  const expected = loadYamlDocument(yaml, file, line);
  const at = firstDifference(value, expected);
  if (at !== undefined) {
    throw new InputError(
      `${file}:${line}: the YAML translated to JSON differs from js-yaml's reading at ${at.slice(0, 200)} (DS_DOCTOR_CHECK_YAML=1)`,
    );
  }
}
