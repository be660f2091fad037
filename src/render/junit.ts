/**
 * JUnit XML of a LintReport or a ScanReport, the test-report format CI systems read (Jenkins,
 * GitLab, GitHub test reporters): one <testsuite> per DaemonSet, one <testcase> per rule (lint)
 * or per health check and problem (scan). A finding or problem at or above --fail-on is a
 * <failure>; one below it passes with its text in <system-out>; a rule the input could not check
 * or an annotation turned off is <skipped>. Every string is XML-escaped, and characters XML 1.0
 * cannot hold (terminal escapes among them) are written as \uXXXX text.
 */
import type { LintFinding, LintReport, ObjectRef, ScanEntry, ScanReport, Severity } from '../model/results.js';
import { atOrAbove } from '../model/severity.js';

/** Text as XML character data or an attribute value: markup escaped, characters XML cannot hold as \uXXXX. */
export function xmlText(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const legal =
      c === 0x9 ||
      c === 0xa ||
      c === 0xd ||
      (c >= 0x20 && c <= 0xd7ff && !(c >= 0x7f && c <= 0x9f)) ||
      (c >= 0xe000 && c <= 0xfffd) ||
      c >= 0x10000;
    // Bidirectional overrides and isolates are legal XML but reorder what a reader sees.
    const bidi = (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    if (!legal || bidi) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    else out += ch;
  }
  return out;
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join('');
}

interface Case {
  name: string;
  classname: string;
  failure?: { type: string; message: string; text: string };
  skipped?: string;
  out?: string;
}

function caseXml(c: Case): string {
  const open = `    <testcase${attrs({ name: c.name, classname: c.classname, time: 0 })}`;
  const inner: string[] = [];
  if (c.failure)
    inner.push(
      `      <failure${attrs({ type: c.failure.type, message: c.failure.message })}>${xmlText(c.failure.text)}</failure>`,
    );
  if (c.skipped !== undefined) inner.push(`      <skipped${attrs({ message: c.skipped })}/>`);
  if (c.out) inner.push(`      <system-out>${xmlText(c.out)}</system-out>`);
  return inner.length ? `${open}>\n${inner.join('\n')}\n    </testcase>` : `${open}/>`;
}

function suiteXml(name: string, cases: Case[], timestamp: string): string {
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  return [
    `  <testsuite${attrs({ name, tests: cases.length, failures, errors: 0, skipped, timestamp, time: 0 })}>`,
    ...cases.map(caseXml),
    '  </testsuite>',
  ].join('\n');
}

function document(name: string, suites: { name: string; cases: Case[] }[], timestamp: string): string {
  const all = suites.flatMap((s) => s.cases);
  const head = `<testsuites${attrs({ name, tests: all.length, failures: all.filter((c) => c.failure).length, errors: 0, time: 0 })}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${[head, ...suites.map((s) => suiteXml(s.name, s.cases, timestamp)), '</testsuites>'].join('\n')}\n`;
}

/** The bar a finding or problem must reach to fail its test case: --fail-on (none: nothing fails). */
export type FailLevel = 'error' | 'warning' | 'none';

function fails(severity: Severity, failOn: FailLevel): boolean {
  return failOn !== 'none' && atOrAbove(severity, failOn);
}

const refName = (r: ObjectRef): string => `${r.namespace}/${r.name}`;

/**
 * lint as JUnit: per DaemonSet a suite, per rule a test case, its findings the failure (or,
 * below --fail-on, the case's output).
 */
export function renderLintJunit(
  report: LintReport,
  daemonSets: ObjectRef[],
  rules: readonly string[],
  opts: { failOn: FailLevel; now: Date },
): string {
  const suites = daemonSets.map((ds) => {
    const name = refName(ds);
    const suppressed = report.suppressed.find((s) => refName(s.daemonSet) === name);
    const cases = rules.map((rule): Case => {
      const found: LintFinding[] = report.findings.filter((f) => f.rule === rule && refName(f.daemonSet) === name);
      const notChecked = report.notChecked.find((n) => n.rule === rule);
      if (suppressed?.rules.includes(rule))
        return {
          name: rule,
          classname: name,
          skipped: `turned off by annotation${suppressed.reasons?.[rule] ? `: ${suppressed.reasons[rule]}` : ''}`,
        };
      if (!found.length && notChecked)
        return { name: rule, classname: name, skipped: `not checked: ${notChecked.why}` };
      if (!found.length) return { name: rule, classname: name };
      const text = found
        .map(
          (f) =>
            `${f.severity}: ${f.message}${f.path ? ` (${f.path})` : ''}${f.location ? ` at ${f.location.file}:${f.location.line}` : ''}\nfix: ${f.fix}`,
        )
        .join('\n\n');
      const worst =
        found.find((f) => f.severity === 'error') ?? found.find((f) => f.severity === 'warning') ?? found[0]!;
      return fails(worst.severity, opts.failOn)
        ? { name: rule, classname: name, failure: { type: worst.severity, message: worst.message, text } }
        : { name: rule, classname: name, out: text };
    });
    return { name, cases };
  });
  return document('ds-doctor lint', suites, opts.now.toISOString());
}

/** Whether a DaemonSet's scan entry counts as an error or a warning (the exit code's rule). */
function scanSeverity(d: ScanEntry): Severity | undefined {
  if (d.health !== 'Healthy' && d.health !== 'RollingOut') return 'error';
  return d.health === 'RollingOut' || d.coverageGaps.length ? 'warning' : undefined;
}

/**
 * scan as JUnit: per DaemonSet a suite with a `health` test case (failed when the health counts
 * at or above --fail-on, as the exit code counts it), one case per problem code seen and one per
 * coverage gap.
 */
export function renderScanJunit(report: ScanReport, opts: { failOn: FailLevel; now: Date }): string {
  const suites = report.daemonSets.map((d) => {
    const name = `${d.namespace}/${d.name}`;
    const severity = scanSeverity(d);
    const failing = severity !== undefined && fails(severity, opts.failOn);
    const detail = [d.topProblem, ...d.statusMismatch].filter(Boolean).join('\n');
    const counts = `${d.ready}/${d.desired} ready, ${d.updated} updated, ${d.available} available`;
    const health: Case = failing
      ? {
          name: 'health',
          classname: name,
          failure: {
            type: d.health,
            message: `${d.health}: ${d.topProblem || counts}`,
            text: `${counts}\n${detail}`.trimEnd(),
          },
        }
      : { name: 'health', classname: name, out: `${d.health}: ${counts}${detail ? `\n${detail}` : ''}` };
    const problems = Object.entries(d.problemCounts).map(([code, n]): Case => {
      const text = `${code} on ${n} node${n === 1 ? '' : 's'} or pod${n === 1 ? '' : 's'}`;
      return failing && severity === 'error'
        ? { name: `problem ${code}`, classname: name, failure: { type: code, message: text, text } }
        : { name: `problem ${code}`, classname: name, out: text };
    });
    const gaps = d.coverageGaps.map((g): Case => {
      const text = `${g.message} (${g.nodes.join(', ')})`;
      return fails('warning', opts.failOn)
        ? { name: `coverage ${g.code}`, classname: name, failure: { type: g.code, message: g.message, text } }
        : { name: `coverage ${g.code}`, classname: name, out: text };
    });
    return { name, cases: [health, ...problems, ...gaps] };
  });
  return document(`ds-doctor scan (${report.scope})`, suites, opts.now.toISOString());
}
