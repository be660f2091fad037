/**
 * Text order: what `String.prototype.localeCompare` answers, without building ICU's collator for
 * the strings most compared. The collator costs tens of milliseconds the first time a process
 * compares text, a large part of the start-up of a one-file `lint`. Strings of lowercase ASCII
 * letters, digits, `-` and `.` (Kubernetes names and namespaces, rule ids, reason codes) sort by
 * their code points in the collator's order too (test/unit/order.test.ts checks this against
 * localeCompare), so they are compared directly; any other string goes to localeCompare.
 */
const PLAIN = /^[a-z0-9.-]*$/;

/** Negative when `a` sorts before `b`, positive after, 0 when equal, as `a.localeCompare(b)`. */
export function compareText(a: string, b: string): number {
  if (PLAIN.test(a) && PLAIN.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return a.localeCompare(b);
}
