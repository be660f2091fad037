/**
 * One answer from several clusters (`--context` repeated, `--all-contexts`): each context's
 * result with its rows marked by context, in the order the contexts were read, and the exit code
 * rule: the highest of the codes each context would give alone (3 when a cluster could not be
 * read, 2 for a kubeconfig entry that cannot work, 1 for problems found, else 0).
 */
import type { ContextOutcome, LintReport, ScanReport } from '../model/results.js';
import { SEVERITY_ORDER } from '../model/severity.js';
import { API_VERSION } from '../model/results.js';

/** What one context gave: its result, or the error that kept it from being read. */
export interface ContextPart<T> {
  context: string;
  result?: T;
  exitCode: number;
  /** The one error line (exit 2 or 3), when the context could not be read. */
  error?: string;
}

/** The exit code of several contexts: the highest any of them gives alone. */
export function worstExitCode(parts: { exitCode: number }[]): number {
  return parts.reduce((worst, p) => Math.max(worst, p.exitCode), 0);
}

/** Each context's outcome, for the `contexts` list of a document. */
export function contextOutcomes<T>(
  parts: ContextPart<T>[],
  count: (result: T) => number,
  scope?: (result: T) => string,
): ContextOutcome[] {
  return parts.map((p) => ({
    context: p.context,
    ...(p.result !== undefined && scope ? { scope: scope(p.result) } : {}),
    daemonSets: p.result === undefined ? 0 : count(p.result),
    exitCode: p.exitCode,
    ...(p.error !== undefined ? { error: p.error } : {}),
  }));
}

/** "namespace default" when every context read the same scope, else each context's. */
function combinedScope(parts: ContextPart<ScanReport>[]): string {
  const read = parts.filter((p) => p.result);
  const scopes = [...new Set(read.map((p) => p.result!.scope))];
  if (scopes.length <= 1) return `${scopes[0] ?? 'nothing'} in ${parts.length} contexts`;
  return read.map((p) => `${p.context}: ${p.result!.scope}`).join('; ');
}

/** The scans of several contexts as one ScanReport: every row, cause and note says its context. */
export function combineScans(parts: ContextPart<ScanReport>[]): ScanReport {
  return {
    apiVersion: API_VERSION,
    kind: 'ScanReport',
    scope: combinedScope(parts),
    daemonSets: parts.flatMap((p) => (p.result?.daemonSets ?? []).map((d) => ({ context: p.context, ...d }))),
    causes: parts.flatMap((p) => (p.result?.causes ?? []).map((c) => ({ context: p.context, ...c }))),
    notes: parts.flatMap((p) => (p.result?.notes ?? []).map((n) => `context "${p.context}": ${n}`)),
    contexts: contextOutcomes(
      parts,
      (r) => r.daemonSets.length,
      (r) => r.scope,
    ),
  };
}

/**
 * The lints of several contexts as one LintReport: findings and suppressions say their context;
 * a rule not checked is listed once per reason; counts are summed.
 */
export function combineLints(parts: ContextPart<LintReport>[]): LintReport {
  const read = parts.filter((p) => p.result).map((p) => ({ context: p.context, report: p.result! }));
  const notChecked = new Map<string, { rule: string; why: string }>();
  for (const { report } of read) for (const n of report.notChecked) notChecked.set(`${n.rule}\u0000${n.why}`, n);
  const summaries = read.map((r) => r.report.summary).filter((s) => s !== undefined);
  const notes = read.flatMap(({ context, report }) => (report.notes ?? []).map((n) => `context "${context}": ${n}`));
  return {
    apiVersion: API_VERSION,
    kind: 'LintReport',
    findings: read.flatMap(({ context, report }) => report.findings.map((f) => ({ context, ...f }))),
    suppressed: read.flatMap(({ context, report }) => report.suppressed.map((s) => ({ context, ...s }))),
    notChecked: [...notChecked.values()],
    daemonSets: read.reduce((n, r) => n + r.report.daemonSets, 0),
    ...(summaries.length
      ? {
          summary: Object.fromEntries(
            SEVERITY_ORDER.map((s) => [s, summaries.reduce((n, x) => n + x[s], 0)]),
          ) as LintReport['summary'],
        }
      : {}),
    ...(notes.length ? { notes } : {}),
    contexts: contextOutcomes(parts, (r) => r.daemonSets),
  };
}
