/**
 * Label selectors: `metav1.LabelSelectorAsSelector` and `labels.Requirement.Matches`
 * (k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go, pkg/labels/selector.go).
 */
import type { LabelSelector, LabelSelectorRequirement } from '../model/k8s-types.js';

export type Labels = Record<string, string> | undefined;

/** A parsed selector: a predicate over labels, or the parse error. */
export type CompiledSelector =
  { ok: true; empty: boolean; matches: (labels: Labels) => boolean } | { ok: false; error: string };

function requirementMatches(req: LabelSelectorRequirement, labels: Labels): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, req.key);
  const value = has ? labels[req.key] : undefined;
  switch (req.operator) {
    case 'In':
      return has && (req.values ?? []).includes(value!);
    case 'NotIn':
      return !has || !(req.values ?? []).includes(value!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false;
  }
}

function validateRequirement(req: LabelSelectorRequirement): string | undefined {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
    case 'NotIn':
      return values.length === 0
        ? `for 'in', 'notin' operators, values set can't be empty (key "${req.key}")`
        : undefined;
    case 'Exists':
    case 'DoesNotExist':
      return values.length > 0
        ? `values set must be empty for exists and does not exist (key "${req.key}")`
        : undefined;
    default:
      return `"${req.operator}" is not a valid label selector operator`;
  }
}

/**
 * Compiles a LabelSelector. `undefined` selects nothing (as LabelSelectorAsSelector(nil));
 * `{}` selects everything.
 */
export function compileLabelSelector(selector: LabelSelector | undefined | null): CompiledSelector {
  if (selector === undefined || selector === null) {
    return { ok: true, empty: false, matches: () => false };
  }
  const matchLabels = selector.matchLabels ?? {};
  const exprs = selector.matchExpressions ?? [];
  for (const req of exprs) {
    const err = validateRequirement(req);
    if (err) return { ok: false, error: err };
  }
  const pairs = Object.entries(matchLabels);
  const empty = pairs.length === 0 && exprs.length === 0;
  return {
    ok: true,
    empty,
    matches: (labels) =>
      pairs.every(([k, v]) => labels !== undefined && Object.hasOwn(labels, k) && labels[k] === v) &&
      exprs.every((req) => requirementMatches(req, labels)),
  };
}

/** True when `selector` selects `labels`; a selector that does not parse selects nothing. */
export function selectorMatches(selector: LabelSelector | undefined, labels: Labels): boolean {
  const compiled = compileLabelSelector(selector);
  return compiled.ok && compiled.matches(labels);
}

/** Formats a selector the way kubectl prints it: `app=x,tier in (a,b),!gone`. */
export function formatLabelSelector(selector: LabelSelector | undefined): string {
  if (!selector) return '<none>';
  const parts = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const req of selector.matchExpressions ?? []) {
    const values = (req.values ?? []).join(',');
    switch (req.operator) {
      case 'In':
        parts.push(`${req.key} in (${values})`);
        break;
      case 'NotIn':
        parts.push(`${req.key} notin (${values})`);
        break;
      case 'Exists':
        parts.push(req.key);
        break;
      case 'DoesNotExist':
        parts.push(`!${req.key}`);
        break;
      default:
        parts.push(`${req.key} ${req.operator} (${values})`);
    }
  }
  return parts.length ? parts.join(',') : '<all>';
}

/**
 * Parses a kubectl `-l` selector string (`a=b,c!=d,e in (x,y),f notin (z),g,!h`) into a
 * LabelSelector, as `labels.Parse` accepts it. Throws an Error with a readable message.
 */
export function parseSelectorString(text: string): LabelSelector {
  const selector: Required<LabelSelector> = { matchLabels: {}, matchExpressions: [] };
  // Split on commas that are not inside parentheses.
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  for (const raw of parts.map((p) => p.trim())) {
    if (!raw) throw new Error(`invalid selector "${text}": empty requirement`);
    let m: RegExpExecArray | null;
    if ((m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(raw))) {
      const values = m[3]!
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      selector.matchExpressions.push({ key: m[1]!, operator: m[2] === 'in' ? 'In' : 'NotIn', values });
    } else if ((m = /^([\w./-]+)\s*!=\s*([\w.-]*)$/.exec(raw))) {
      selector.matchExpressions.push({ key: m[1]!, operator: 'NotIn', values: [m[2]!] });
    } else if ((m = /^([\w./-]+)\s*==?\s*([\w.-]*)$/.exec(raw))) {
      // An own property even for `__proto__`, which plain assignment would turn into a prototype.
      Object.defineProperty(selector.matchLabels, m[1]!, {
        value: m[2]!,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else if ((m = /^!([\w./-]+)$/.exec(raw))) {
      selector.matchExpressions.push({ key: m[1]!, operator: 'DoesNotExist' });
    } else if ((m = /^([\w./-]+)$/.exec(raw))) {
      selector.matchExpressions.push({ key: m[1]!, operator: 'Exists' });
    } else {
      throw new Error(`invalid selector "${text}": cannot parse "${raw}"`);
    }
  }
  return selector;
}
