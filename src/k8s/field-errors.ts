/**
 * The API server's validation errors as it prints them: k8s.io/apimachinery
 * pkg/util/validation/field (`Error`, `Error.Error`, `ErrorList.ToAggregate`, `Required`,
 * `Invalid`, `Forbidden`, `NotSupported`), pkg/util/validation#RegexError, and pkg/api/errors
 * (`NewInvalid`): the paths, types, values and texts `kubectl apply` shows.
 */
import type { LabelSelector } from '../model/k8s-types.js';

/** field.ErrorType as `ErrorType.String` prints it. */
export type FieldErrorType = 'Required value' | 'Invalid value' | 'Unsupported value' | 'Forbidden' | 'Duplicate value';

/** One field.Error: the path, the type, the offending value (JSON as the API server holds it), the detail. */
export interface FieldError {
  field: string;
  type: FieldErrorType;
  /** The bad value (an int or bool prints with %v, a string with %q, anything else as JSON); absent for Required and Forbidden, which print none. */
  value?: unknown;
  /** The text after the value; may be empty. */
  detail: string;
}

/** Go's `%q` of a string, close enough for the API's texts: JSON string quoting. */
function quote(s: string): string {
  return JSON.stringify(s);
}

/**
 * `json.Marshal` of a value built in Go's field order (structs keep their field order; maps are
 * sorted where they are built, see `sortedMap`), with `<`, `>`, `&` escaped as Go's encoder does.
 */
export function goJson(value: unknown): string {
  return (JSON.stringify(value ?? null) ?? 'null')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

/** A Go map as json.Marshal writes it: keys sorted. */
export function sortedMap(m: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!m) return undefined;
  return Object.fromEntries(
    Object.keys(m)
      .sort()
      .map((k) => [k, m[k]]),
  );
}

/** A metav1.LabelSelector in its field order (matchLabels, matchExpressions; key, operator, values), empty fields omitted. */
export function orderedSelector(sel: LabelSelector): Record<string, unknown> {
  const exprs = (sel.matchExpressions ?? []).map((r) => ({
    key: r.key,
    operator: r.operator,
    ...((r.values ?? []).length ? { values: r.values } : {}),
  }));
  return {
    ...(Object.keys(sel.matchLabels ?? {}).length ? { matchLabels: sortedMap(sel.matchLabels) } : {}),
    ...(exprs.length ? { matchExpressions: exprs } : {}),
  };
}

/** `field.Error.ErrorBody`: an int or bool with %v, a string with %q, anything else as JSON. */
function printValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return quote(value);
  return goJson(value);
}

/** `field.Error.Error()`: `<field>: <type>[: <value>][: <detail>]`. */
export function formatFieldError(e: FieldError): string {
  let s = e.type;
  if (e.type !== 'Required value' && e.type !== 'Forbidden') s += `: ${printValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return `${e.field}: ${s}`;
}

/**
 * `apierrors.NewInvalid(DaemonSet.apps, name, errs)`'s message, the one `kubectl apply` prints
 * after "The DaemonSet … is invalid": one error as is, several in brackets, a repeated text once
 * (`ErrorList.ToAggregate`).
 */
export function invalidMessage(name: string, errs: FieldError[]): string {
  const texts = [...new Set(errs.map(formatFieldError))];
  const body = texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
  return `DaemonSet.apps ${quote(name)} is invalid: ${body}`;
}

export const required = (field: string, detail = ''): FieldError => ({ field, type: 'Required value', detail });
export const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  field,
  type: 'Invalid value',
  value,
  detail,
});
export const forbidden = (field: string, detail: string): FieldError => ({ field, type: 'Forbidden', detail });
export const notSupported = (field: string, value: unknown, valid: string[]): FieldError => ({
  field,
  type: 'Unsupported value',
  value,
  detail: valid.length ? `supported values: ${valid.map(quote).join(', ')}` : '',
});

/** validation.RegexError. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (!examples.length) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}
