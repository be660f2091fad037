/**
 * "Did you mean" for every name looked up (DaemonSet, node, kubeconfig context): Levenshtein
 * distance, as kubectl's completion hints.
 */
import { compareText } from './order.js';
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** The closest candidates to `name` (at most three), best first. */
export function suggest(name: string, candidates: Iterable<string>): string[] {
  const scored = [...new Set(candidates)]
    .map((c) => ({ c, d: c.includes(name) || name.includes(c) ? 1 : editDistance(name, c) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(Math.max(name.length, c.length) / 3)))
    .sort((x, y) => x.d - y.d || compareText(x.c, y.c));
  return scored.slice(0, 3).map(({ c }) => c);
}

/** ` (did you mean "a" or "b"?)`, or "". */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const s = suggest(name, candidates);
  if (!s.length) return '';
  return ` (did you mean ${s.map((x) => `"${x}"`).join(' or ')}?)`;
}
