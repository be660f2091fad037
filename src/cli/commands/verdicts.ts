/** Exit-code inputs from placement results: which severities were found. */
import type { Reason, RootCause, Verdict } from '../../model/results.js';

/**
 * The worst severities in a set of node results. A node without a healthy pod is an error
 * unless every reason for it is milder (a node that joined seconds ago, a pod still starting).
 */
export function severitiesOf(
  rows: { verdict: Verdict; reasons: Reason[] }[],
  causes: readonly RootCause[] = [],
): { error: boolean; warning: boolean } {
  // A root cause counts as what it is: a device plugin at 0/0 behind a labeller kept off its
  // nodes is an error although every node is Excluded by design.
  let error = causes.some((c) => c.severity === 'error');
  let warning = causes.some((c) => c.severity === 'warning');
  for (const r of rows) {
    const problem = r.verdict === 'Missing' || r.verdict === 'Pending' || r.verdict === 'Unhealthy';
    if (problem && !r.reasons.length) error = true;
    if (problem || r.verdict === 'Misscheduled') warning = true;
    for (const x of r.reasons) {
      if (x.severity === 'error') error = true;
      if (x.severity === 'warning') warning = true;
    }
  }
  return { error, warning };
}
