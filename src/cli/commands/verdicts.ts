/** Exit-code inputs from placement results: which severities were found. */
import type { Reason, Verdict } from '../../model/results.js';

export function severitiesOf(rows: { verdict: Verdict; reasons: Reason[] }[]): { error: boolean; warning: boolean } {
  let error = false;
  let warning = false;
  for (const r of rows) {
    if (r.verdict === 'Missing' || r.verdict === 'Pending' || r.verdict === 'Unhealthy') error = true;
    if (r.verdict === 'Misscheduled') warning = true;
    for (const x of r.reasons) {
      if (x.severity === 'error') error = true;
      if (x.severity === 'warning') warning = true;
    }
  }
  return { error, warning };
}
