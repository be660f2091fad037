/**
 * Label keys, values and selectors as the API server validates them: k8s.io/apimachinery
 * pkg/util/validation (IsQualifiedName, IsValidLabelValue), pkg/apis/meta/v1/validation
 * (ValidateLabels, ValidateLabelSelector), and the selector's match against the template's labels.
 */
import { forbidden, invalid, regexError, required, type FieldError } from './field-errors.js';
import type { LabelSelector } from '../model/k8s-types.js';
import { isDNS1123Subdomain } from './names.js';

const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY = new RegExp(`^${LABEL_KEY_FMT}$`);
const LABEL_KEY_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE = new RegExp(`^(${LABEL_KEY_FMT})?$`);
const bytes = (s: string): number => new TextEncoder().encode(s).length;

/** apimachinery pkg/api/validate/content/kube.go#IsLabelKey (IsQualifiedName). */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (!prefix) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m.replace('253 characters', '253 bytes')}`));
  } else {
    return [
      `a valid label key ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (!name) errs.push('name part must be non-empty');
  else if (bytes(name) > 63) errs.push('name part must be no more than 63 bytes');
  if (!LABEL_KEY.test(name))
    errs.push(`name part ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** apimachinery pkg/api/validate/content/kube.go#IsLabelValue. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (bytes(value) > 63) errs.push('must be no more than 63 bytes');
  if (!LABEL_VALUE.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        `(${LABEL_KEY_FMT})?`,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/** meta/v1/validation#ValidateLabels (map order: by key). */
export function validateLabels(labels: Record<string, unknown> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const m of isQualifiedName(k)) errs.push(invalid(path, k, m));
    for (const m of isValidLabelValue(typeof v === 'string' ? v : String(v))) errs.push(invalid(path, v, m));
  }
  return errs;
}

/** meta/v1/validation#ValidateLabelSelector. */
export function validateLabelSelector(sel: LabelSelector | undefined, path: string): FieldError[] {
  if (!sel) return [];
  const errs = validateLabels(sel.matchLabels, `${path}.matchLabels`);
  (sel.matchExpressions ?? []).forEach((r, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = r.values ?? [];
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (!values.length) errs.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (values.length)
        errs.push(forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(invalid(`${p}.operator`, r.operator ?? '', 'not a valid selector operator'));
    }
    for (const m of isQualifiedName(r.key ?? '')) errs.push(invalid(`${p}.key`, r.key ?? '', m));
    values.forEach((v, j) => {
      for (const m of isValidLabelValue(v)) errs.push(invalid(`${p}.values[${j}]`, v, m));
    });
  });
  return errs;
}

/** `metav1.LabelSelectorAsSelector(sel).Matches(labels)`, or undefined when the selector does not convert (no error is reported then). */
export function selectorMatches(sel: LabelSelector | undefined, labels: Record<string, string>): boolean | undefined {
  if (!sel) return false; // labels.Nothing()
  for (const r of sel.matchExpressions ?? []) {
    const values = r.values ?? [];
    if ((r.operator === 'In' || r.operator === 'NotIn') && !values.length) return undefined;
    if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && values.length) return undefined;
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(r.operator)) return undefined;
    if (isQualifiedName(r.key ?? '').length || values.some((v) => isValidLabelValue(v).length)) return undefined;
  }
  for (const [k, v] of Object.entries(sel.matchLabels ?? {}))
    if (isQualifiedName(k).length || isValidLabelValue(v).length) return undefined;
  const has = (k: string): boolean => Object.hasOwn(labels, k);
  return (
    Object.entries(sel.matchLabels ?? {}).every(([k, v]) => has(k) && labels[k] === v) &&
    (sel.matchExpressions ?? []).every((r) => {
      const values = r.values ?? [];
      if (r.operator === 'In') return has(r.key) && values.includes(labels[r.key]!);
      if (r.operator === 'NotIn') return !has(r.key) || !values.includes(labels[r.key]!);
      if (r.operator === 'Exists') return has(r.key);
      return !has(r.key);
    })
  );
}
