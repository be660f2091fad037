/**
 * Turning rules off per DaemonSet with annotations: `ds-doctor.io/ignore: rule-a,rule-b` (the
 * brief's form, like kube-score's `kube-score/ignore`), and `ignore-check.ds-doctor.io/<rule>:
 * "<reason>"` (kube-linter's form, which carries the reason; peer-tools §15).
 */
import type { DaemonSet } from '../model/k8s-types.js';

/** Annotation listing rule ids to turn off, comma-separated. */
export const IGNORE_ANNOTATION = 'ds-doctor.io/ignore';
/** Prefix of the per-rule annotation whose value is the reason. */
export const IGNORE_CHECK_PREFIX = 'ignore-check.ds-doctor.io/';

/** The rules an annotation turns off, each with its reason when one was given. */
export interface Suppressions {
  /** Rule id → reason ('' when the annotation gives none). */
  rules: Map<string, string>;
  /** Ids in the annotations that name no rule (typos would otherwise silently do nothing). */
  unknown: string[];
}

/** Reads the suppression annotations of a DaemonSet against the known rule ids. */
export function suppressionsOf(ds: DaemonSet, known: ReadonlySet<string>): Suppressions {
  const rules = new Map<string, string>();
  const unknown: string[] = [];
  const note = (id: string, reason: string) => {
    if (!known.has(id)) {
      if (!unknown.includes(id)) unknown.push(id);
      return;
    }
    if (!rules.get(id)) rules.set(id, reason);
  };
  const annotations = ds.metadata?.annotations ?? {};
  for (const id of (annotations[IGNORE_ANNOTATION] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean))
    note(id, '');
  for (const [key, value] of Object.entries(annotations)) {
    if (key.startsWith(IGNORE_CHECK_PREFIX)) note(key.slice(IGNORE_CHECK_PREFIX.length), String(value ?? '').trim());
  }
  return { rules, unknown: unknown.sort() };
}
