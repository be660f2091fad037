/**
 * The YAML 1.2 core schema's resolution of a plain scalar (YAML 1.2.2 §10.3.2 "Tag Resolution"),
 * as js-yaml's CORE_SCHEMA applies it (js-yaml README, "CORE_SCHEMA"; its types null, bool, int,
 * float, tried in that order): our own code, so that nothing depends on js-yaml's private fields.
 *
 * - null: `~`, `null`, `Null`, `NULL` (the empty scalar is the translator's own case);
 * - bool: `true`, `True`, `TRUE`, `false`, `False`, `FALSE` (not YAML 1.1's yes/no/on/off);
 * - int: `[-+]?[0-9]+`, and js-yaml's `0b`, `0o`, `0x` forms with an optional sign (the spec has
 *   `0o` and `0x` unsigned, and no `0b`); a value a double cannot hold (Infinity) is no int;
 * - float: `[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?`, `\.[0-9]+([eE][-+]?[0-9]+)?` without a sign
 *   (js-yaml does not take the spec's `-.5`), `[-+]?\.(inf|Inf|INF)`, `\.(nan|NaN|NAN)`; a value
 *   that overflows to Infinity is no float (a string), unlike `.inf`.
 *
 * Everything else is a string (timestamps included: CORE_SCHEMA has none). The values are those
 * js-yaml builds, quirks included: `-0` is 0 while `-00` and `-0.0` are -0. Tested against js-yaml
 * on a table and on seeded random scalars (test/unit/yaml-core.test.ts).
 */

const INT = /^([-+]?)(?:0([box])([0-9a-fA-F]+)|([0-9]+))$/;
const FLOAT = /^(?:[-+]?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?)$/;
const INF = /^([-+]?)\.(?:inf|Inf|INF)$/;
const NAN = /^\.(?:nan|NaN|NAN)$/;
const DIGITS: Record<string, RegExp> = { b: /^[01]+$/, o: /^[0-7]+$/, x: /^[0-9a-fA-F]+$/ };
const RADIX: Record<string, number> = { b: 2, o: 8, x: 16 };

/** The scalar as an integer of the core schema, or undefined. */
function resolveInt(s: string): number | undefined {
  const m = INT.exec(s);
  if (!m) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  let value: number;
  if (m[2] !== undefined) {
    if (!DIGITS[m[2]]!.test(m[3]!)) return undefined;
    value = sign * parseInt(m[3]!, RADIX[m[2]]);
  } else {
    // A lone `0` is 0 whatever its sign; `-00` is -0 (js-yaml's int construction).
    value = m[4] === '0' ? 0 : sign * parseInt(m[4]!, 10);
  }
  return Number.isFinite(value) ? value : undefined;
}

/** The scalar as a float of the core schema, or undefined. */
function resolveFloat(s: string): number | undefined {
  if (FLOAT.test(s)) {
    const value = parseFloat(s);
    return Number.isFinite(value) ? value : undefined;
  }
  const inf = INF.exec(s);
  if (inf) return inf[1] === '-' ? -Infinity : Infinity;
  return NAN.test(s) ? NaN : undefined;
}

/** What a plain scalar resolves to under the core schema: null, a boolean, a number, or the string itself. */
export function resolveCoreScalar(s: string): null | boolean | number | string {
  switch (s) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
  }
  const int = resolveInt(s);
  if (int !== undefined) return int;
  const float = resolveFloat(s);
  return float !== undefined ? float : s;
}
