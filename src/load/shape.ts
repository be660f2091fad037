/**
 * Shape validation at load: the fields the analyses read (src/model/k8s-types.ts), described as
 * data (src/load/shape-fields.ts), checked once per object as it enters a snapshot, from files and
 * from a live cluster. The description and the types agree field by field
 * (test/unit/shape-types.test.ts).
 * Analyses can then trust the types: a field of the wrong type is removed (treated as absent)
 * with one issue naming its path, as the API server's decoder would refuse it
 * (kubernetes v1.35 staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json: Go's
 * encoding/json rejects a number where a string is expected, and so on). Departures, chosen so a
 * hand-written manifest can still be read: a number or boolean where a string is expected is read
 * as its text (`namespace: 123` is "123"), with an issue; `null` is absent without an issue, as Go
 * decodes it; a `null` or malformed list entry or map value is dropped. Fields ds-doctor does not
 * read are left as they are. The walk follows the description, never the input, so its depth is
 * that of the description.
 */
import { isQuantity } from '../k8s/quantity.js';
import { COMMON, KIND_SHAPES, S_NULL, type Fields, type Shape } from './shape-fields.js';

/** One field that did not have its shape: its path and what was done with it. */
export interface ShapeIssue {
  path: string;
  message: string;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number')
    return Number.isFinite(v) ? (Number.isInteger(v) ? 'an integer' : 'a fraction') : 'a non-finite number';
  return `a ${typeof v}`;
}

/** What a scalar field must hold, as a warning says it. */
function expected(shape: Exclude<Shape, object>): string {
  return {
    string: 'a string',
    stringOrNull: 'a string',
    boolean: 'a boolean',
    int32: 'a 32-bit integer',
    int64: 'an integer',
    quantity: 'a quantity',
    intOrString: 'an integer or a string',
    object: 'a map',
  }[shape];
}

/** A map of JSON: an object that is not an array. */
export function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

function isInt32(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX;
}

/** A number or boolean where a string is expected is read as its text. */
function asText(v: unknown): string | undefined {
  return (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean' ? String(v) : undefined;
}

/** The issues found in one object, and the path to the value being checked (joined only for an issue). */
class Issues {
  readonly list: ShapeIssue[] = [];
  readonly path: (string | number)[] = [];

  private pathText(): string {
    let out = '';
    for (const step of this.path) {
      if (typeof step === 'number') out += `[${step}]`;
      // A map key comes from the input: cut to a length fit for a warning line.
      else out += `${out ? '.' : ''}${step.length > 100 ? `${step.slice(0, 100)}…` : step}`;
    }
    return out;
  }

  add(message: string): void {
    this.list.push({ path: this.pathText(), message });
  }

  /** A value without its shape, to be removed. */
  wrong(expectedText: string, v: unknown): false {
    this.add(`expected ${expectedText}, found ${describe(v)}; ignored`);
    return false;
  }
}

/**
 * Checks `holder[key]` (neither null nor undefined) against one shape; false when the value is to
 * be removed. The description is compiled into these once, so checking an object costs no
 * dispatch on the description's own structure.
 */
type Check = (holder: Record<string | number, unknown>, key: string | number, issues: Issues) => boolean;
/** Checks the fields of a map: returns it, or a copy of it without the fields to be removed. */
type FieldsCheck = (m: Record<string, unknown>, issues: Issues) => Record<string, unknown>;

/**
 * A string field that holds something else, the path already naming it: read as its text (a
 * number or boolean), with an issue; false when it is to be removed.
 */
function readAsString(h: Record<string | number, unknown>, k: string | number, v: unknown, is: Issues): boolean {
  const read = asText(v);
  if (read === undefined) return is.wrong('a string', v);
  is.add(`expected a string, found ${describe(v)}; read as "${read}"`);
  h[k] = read;
  return true;
}

function isQuantityValue(v: unknown): boolean {
  return (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) && isQuantity(v);
}

function scalarCheck(shape: Exclude<Shape, object>): Check {
  const text = expected(shape);
  // One function per type, so each keeps its own type feedback.
  switch (shape) {
    case 'string':
    case 'stringOrNull':
      return (h, k, is) => {
        const v = h[k];
        return typeof v === 'string' || readAsString(h, k, v, is);
      };
    case 'boolean':
      return (h, k, is) => typeof h[k] === 'boolean' || is.wrong(text, h[k]);
    case 'int32':
      return (h, k, is) => isInt32(h[k]) || is.wrong(text, h[k]);
    case 'int64':
      return (h, k, is) => Number.isSafeInteger(h[k]) || is.wrong(text, h[k]);
    case 'intOrString':
      return (h, k, is) => typeof h[k] === 'string' || isInt32(h[k]) || is.wrong(text, h[k]);
    case 'quantity':
      return (h, k, is) => isQuantityValue(h[k]) || is.wrong(text, h[k]);
    case 'object':
      return (h, k, is) => isMap(h[k]) || is.wrong(text, h[k]);
  }
}

function listCheck(item: Check): Check {
  return (h, k, is) => {
    const value = h[k];
    if (!Array.isArray(value)) return is.wrong('a list', value);
    const items = value as unknown[];
    let kept = 0;
    for (let i = 0; i < items.length; i++) {
      is.path.push(i);
      let keep = false;
      if (items[i] === null || items[i] === undefined) is.add('a null entry; ignored');
      else keep = item(items as unknown as Record<number, unknown>, i, is);
      is.path.pop();
      if (keep) {
        if (kept !== i) items[kept] = items[i];
        kept++;
      }
    }
    if (kept !== items.length) items.length = kept;
    return true;
  };
}

function mapCheck(value: Check): Check {
  return (h, k, is) => {
    const m = h[k];
    if (!isMap(m)) return is.wrong('a map', m);
    for (const key of Object.keys(m)) {
      is.path.push(key);
      if (m[key] === null || m[key] === undefined) {
        is.add('null; ignored');
        delete m[key];
      } else if (!value(m, key, is)) {
        delete m[key];
      }
      is.path.pop();
    }
    return true;
  };
}

/**
 * A copy of `m` without the fields in `gone`, in the same order. Deleting a field other than the
 * last one added turns a V8 object into a slower and larger dictionary, and dumps hold `null` in
 * the middle of objects (a pod template's `creationTimestamp: null`, as kubectl writes it): a
 * copy keeps the fast layout.
 */
function without(m: Record<string, unknown>, gone: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(m)) {
    if (gone.includes(key)) continue;
    // An own `__proto__` key (JSON.parse makes one) is data, never the copy's prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: m[key], writable: true, enumerable: true, configurable: true });
    else out[key] = m[key];
  }
  return out;
}

/**
 * The check of a map's described fields: a loop over the names, each field checked by the closure
 * `compile` makes for its shape. (A second copy of this check generated as straight-line code with
 * `new Function` was measured against it and dropped: on 30,000 pods in one-item-per-line JSON,
 * a median 2.09 s of CPU to load generated against 1.95 s for the loop, five runs each, and no
 * gain at 300 nodes in kubectl's JSON or YAML either; docs/performance.md.)
 */
function fieldsCheck(described: Fields, where: string): FieldsCheck {
  const names = Object.keys(described);
  const checks = names.map((k) => compile(described[k]!, `${where}.${k}`));
  return (m, is) => {
    let gone: string[] | undefined;
    for (let i = 0; i < names.length; i++) {
      // No field name of the description is a member of Object.prototype, so `m[k]` is own data.
      const k = names[i]!;
      const v = m[k];
      if (v === undefined) continue;
      // null is an absent field, as Go's decoder reads it (or kept, for a nullable field).
      if (v === null) {
        if (described[k] !== S_NULL) (gone ??= []).push(k);
        continue;
      }
      is.path.push(k);
      const keep = checks[i]!(m, k, is);
      is.path.pop();
      if (!keep) (gone ??= []).push(k);
    }
    return gone === undefined ? m : without(m, gone);
  };
}

function compile(shape: Shape, where: string): Check {
  if (typeof shape === 'string') return scalarCheck(shape);
  if ('list' in shape) return listCheck(compile(shape.list, `${where}[]`));
  if ('map' in shape) return mapCheck(compile(shape.map, `${where}{}`));
  const check = fieldsCheck(shape.fields, where);
  return (h, k, is) => {
    const m = h[k];
    if (!isMap(m)) return is.wrong('a map', m);
    const checked = check(m, is);
    if (checked !== m) h[k] = checked;
    return true;
  };
}

// Compiled when a kind is first checked, so that a command reading a few kinds compiles only theirs.
let checkCommon: FieldsCheck | undefined;
const checkKinds = new Map<string, FieldsCheck | undefined>();

function kindCheck(kind: string): FieldsCheck | undefined {
  let check = checkKinds.get(kind);
  if (check === undefined && !checkKinds.has(kind)) {
    check = Object.prototype.hasOwnProperty.call(KIND_SHAPES, kind) ? fieldsCheck(KIND_SHAPES[kind]!, kind) : undefined;
    checkKinds.set(kind, check);
  }
  return check;
}

/** Makes `obj` hold what a check returned for it (the object a caller holds stays the same). */
function takeBack(obj: Record<string, unknown>, checked: Record<string, unknown>): void {
  if (checked === obj) return;
  for (const key of Object.keys(obj)) if (!Object.prototype.hasOwnProperty.call(checked, key)) delete obj[key];
}

/**
 * Checks an API object of a snapshot kind against the fields the analyses read, in place: a field
 * of the wrong type is removed, a number or boolean where a string is expected becomes its text.
 * Returns one issue per such field, in the order of the description.
 */
export function checkShape(obj: Record<string, unknown>, kind: string): ShapeIssue[] {
  const issues = new Issues();
  checkCommon ??= fieldsCheck(COMMON, '*');
  takeBack(obj, checkCommon(obj, issues));
  const check = kindCheck(kind);
  if (check) takeBack(obj, check(obj, issues));
  return issues.list;
}
