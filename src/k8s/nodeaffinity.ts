/**
 * Required node affinity: `nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)` and the
 * LazyErrorNodeSelector it uses (k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go).
 * Besides the yes/no, it explains which selector key or affinity term failed.
 */
import type { Node, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, PodSpec } from '../model/k8s-types.js';

/** Why a node selector entry does not match. */
export interface SelectorMismatch {
  key: string;
  want: string;
  /** The node's value, or undefined when the label is absent. */
  have: string | undefined;
}

/** Why one required-affinity term does not match. */
export interface TermMismatch {
  index: number;
  /** Each failed requirement, as text ("zone In [a b]: node has zone=c"), or the parse error. */
  failures: string[];
}

export interface AffinityMatch {
  matches: boolean;
  /** nodeSelector entries that fail (the selector is ANDed with the affinity). */
  selectorMismatches: SelectorMismatch[];
  /** Set when required node affinity is present and no term matches. */
  affinityFailed: boolean;
  termMismatches: TermMismatch[];
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * `strconv.ParseInt(s, 10, 64)`, which Gt/Lt use for both the requirement's value and the
 * node's label: an optional sign and decimal digits within int64, else no number.
 */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

function requirementText(r: NodeSelectorRequirement): string {
  const values = r.values ?? [];
  return values.length ? `${r.key} ${r.operator} [${values.join(' ')}]` : `${r.key} ${r.operator}`;
}

/** Parse error of a label requirement (labels.NewRequirement), or undefined. */
function labelRequirementError(r: NodeSelectorRequirement): string | undefined {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      return values.length === 0 ? `${r.key}: values must be non-empty for ${r.operator}` : undefined;
    case 'Exists':
    case 'DoesNotExist':
      return values.length !== 0 ? `${r.key}: values must be empty for ${r.operator}` : undefined;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) return `${r.key}: ${r.operator} needs exactly one value`;
      return parseInt64(values[0]!) !== undefined
        ? undefined
        : `${r.key}: ${r.operator} value "${values[0]}" is not a 64-bit integer`;
    default:
      return `${r.key}: "${r.operator}" is not a valid node selector operator`;
  }
}

function labelRequirementMatches(r: NodeSelectorRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(v!);
    case 'NotIn':
      return !has || !values.includes(v!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      const lhs = has ? parseInt64(v!) : undefined;
      const rhs = parseInt64(values[0]!);
      if (lhs === undefined || rhs === undefined) return false;
      return r.operator === 'Gt' ? lhs > rhs : lhs < rhs;
    }
    default:
      return false;
  }
}

/** Field requirements: only In/NotIn with exactly one value (nodeSelectorRequirementsAsFieldSelector). */
function fieldRequirementError(r: NodeSelectorRequirement): string | undefined {
  if (r.operator !== 'In' && r.operator !== 'NotIn') {
    return `matchFields ${r.key}: operator "${r.operator}" is not supported`;
  }
  if ((r.values ?? []).length !== 1) {
    return `matchFields ${r.key} ${r.operator}: must have one element (has ${(r.values ?? []).length})`;
  }
  return undefined;
}

function fieldRequirementMatches(r: NodeSelectorRequirement, fields: Record<string, string>): boolean {
  const v = fields[r.key] ?? '';
  return r.operator === 'In' ? v === r.values![0] : v !== r.values![0];
}

/** Evaluates one term; returns the failures (empty when it matches). */
function termFailures(
  term: NodeSelectorTerm,
  labels: Record<string, string>,
  fields: Record<string, string>,
): string[] {
  const exprs = term.matchExpressions ?? [];
  const fieldReqs = term.matchFields ?? [];
  const parseErrors = [...exprs.map(labelRequirementError), ...fieldReqs.map(fieldRequirementError)].filter(
    (e): e is string => e !== undefined,
  );
  // A term with a parse error never matches; the other terms still count (lazy errors).
  if (parseErrors.length) return parseErrors.map((e) => `invalid: ${e}`);
  const failures: string[] = [];
  for (const r of exprs) {
    if (!labelRequirementMatches(r, labels)) {
      const have = Object.prototype.hasOwnProperty.call(labels, r.key)
        ? `${r.key}=${labels[r.key]}`
        : `no label ${r.key}`;
      failures.push(`${requirementText(r)}: node has ${have}`);
    }
  }
  for (const r of fieldReqs) {
    if (!fieldRequirementMatches(r, fields)) {
      failures.push(`${requirementText(r)}: node has ${r.key}=${fields[r.key] ?? ''}`);
    }
  }
  return failures;
}

/** Evaluates a NodeSelector (terms ORed; empty terms dropped; none left → no match). */
export function matchNodeSelector(
  selector: NodeSelector,
  node: Node,
): { matches: boolean; termMismatches: TermMismatch[] } {
  const labels = node.metadata?.labels ?? {};
  const name = node.metadata?.name ?? '';
  const fields: Record<string, string> = name ? { 'metadata.name': name } : {};
  const termMismatches: TermMismatch[] = [];
  let any = false;
  (selector.nodeSelectorTerms ?? []).forEach((term, index) => {
    if (!term.matchExpressions?.length && !term.matchFields?.length) return;
    const failures = termFailures(term, labels, fields);
    if (failures.length === 0) any = true;
    else termMismatches.push({ index, failures });
  });
  return { matches: any, termMismatches: any ? [] : termMismatches };
}

/** `GetRequiredNodeAffinity(pod).Match(node)`: spec.nodeSelector ANDed with required node affinity. */
export function matchRequiredNodeAffinity(spec: PodSpec | undefined, node: Node): AffinityMatch {
  const labels = node.metadata?.labels ?? {};
  const selectorMismatches: SelectorMismatch[] = [];
  for (const [key, want] of Object.entries(spec?.nodeSelector ?? {})) {
    const have = Object.prototype.hasOwnProperty.call(labels, key) ? labels[key] : undefined;
    if (have !== want) selectorMismatches.push({ key, want, have });
  }
  const required = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  let affinityFailed = false;
  let termMismatches: TermMismatch[] = [];
  if (required) {
    const m = matchNodeSelector(required, node);
    affinityFailed = !m.matches;
    termMismatches = m.termMismatches;
  }
  return {
    matches: selectorMismatches.length === 0 && !affinityFailed,
    selectorMismatches,
    affinityFailed,
    termMismatches,
  };
}
