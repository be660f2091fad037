/** Exit-code inputs from placement results: which severities were found. */
import type { Reason, Verdict } from '../../model/results.js';

/**
 * The worst severities in a set of node results. A node without a healthy pod is an error
 * unless every reason for it is milder (a node that joined seconds ago, a pod still starting).
 */
export function severitiesOf(rows: { verdict: Verdict; reasons: Reason[] }[]): { error: boolean; warning: boolean } {
  let error = false;
  let warning = false;
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
