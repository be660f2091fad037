/**
 * How serious a finding is, and the order of severities: the one definition every sort and every
 * --fail-on gate uses. Its own module so that results.ts and the reason registries both import it
 * without importing each other.
 */
export type Severity = 'error' | 'warning' | 'info';

/** Severities from the most to the least severe. */
export const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'info'];

/** Negative when `a` is more severe than `b`, 0 when equal: a comparator, most severe first. */
export function compareSeverity(a: Severity, b: Severity): number {
  return SEVERITY_ORDER.indexOf(a) - SEVERITY_ORDER.indexOf(b);
}

/** Whether `severity` is `level` or more severe (`warning` is at or above `warning` and `info`). */
export function atOrAbove(severity: Severity, level: Severity): boolean {
  return compareSeverity(severity, level) <= 0;
}

/** The items most severe first, keeping the given order among equals. */
export function bySeverity<T extends { severity: Severity }>(items: readonly T[]): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => compareSeverity(a.item.severity, b.item.severity) || a.i - b.i)
    .map(({ item }) => item);
}
