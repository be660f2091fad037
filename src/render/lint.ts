/**
 * Human rendering of a LintReport: the summary first, then the findings at or above
 * `--min-severity` grouped by DaemonSet (wide: with paths and fixes), or Markdown; how many
 * findings the threshold hides is said. JSON, YAML and SARIF keep every finding.
 */
import type { LintFinding, LintReport, ObjectRef, Severity } from '../model/results.js';
import { atOrAbove, SEVERITY_ORDER } from '../model/severity.js';
import type { RenderContext } from './context.js';
import { renderMarkdownTable, renderTable } from './table.js';
import { indent, severityMark } from './style.js';

function colorSeverity(ctx: RenderContext, s: Severity): string {
  const c = ctx.chalk;
  const text = s.padEnd(7);
  switch (s) {
    case 'error':
      return c.red(text);
    case 'warning':
      return c.yellow(text);
    default:
      return c.blue(text);
  }
}

/** What the human outputs show: findings at or above this severity (default: all). */
export interface LintRenderOptions {
  minSeverity?: Severity;
}

/** Findings grouped by DaemonSet (and context, when several were read), in report order. */
function groups(findings: LintFinding[]): { ds: ObjectRef; title: string; findings: LintFinding[] }[] {
  const out: { ds: ObjectRef; title: string; findings: LintFinding[] }[] = [];
  for (const f of findings) {
    const last = out[out.length - 1];
    if (
      last &&
      last.ds.namespace === f.daemonSet.namespace &&
      last.ds.name === f.daemonSet.name &&
      last.findings[0]!.context === f.context
    )
      last.findings.push(f);
    else
      out.push({
        ds: f.daemonSet,
        title: `${f.context !== undefined ? `${f.context}: ` : ''}${f.daemonSet.namespace}/${f.daemonSet.name}`,
        findings: [f],
      });
  }
  return out;
}

function where(f: LintFinding): string {
  return f.location ? `${f.location.file}:${f.location.line}` : '';
}

/** "3 findings (1 error, 1 warning, 1 info) in 2 DaemonSets". */
export function lintSummary(report: LintReport): string {
  const count = (s: Severity) => report.findings.filter((f) => f.severity === s).length;
  const ds = `${report.daemonSets} DaemonSet${report.daemonSets === 1 ? '' : 's'}`;
  if (!report.findings.length) return `no findings in ${ds}`;
  const n = report.findings.length;
  return `${n} finding${n === 1 ? '' : 's'} (${count('error')} error${count('error') === 1 ? '' : 's'}, ${count('warning')} warning${count('warning') === 1 ? '' : 's'}, ${count('info')} info) in ${ds}`;
}

/** The sentence of a fix and its YAML snippet (the lines after the first), when it has one. */
function splitFix(fix: string): { sentence: string; snippet?: string } {
  const nl = fix.indexOf('\n');
  return nl < 0 ? { sentence: fix } : { sentence: fix.slice(0, nl), snippet: fix.slice(nl + 1) };
}

/** The findings shown at `min`, and a sentence for those hidden ("20 info findings not shown: --min-severity info shows them"). */
function shown(report: LintReport, min: Severity): { findings: LintFinding[]; hidden?: string } {
  const findings = report.findings.filter((f) => atOrAbove(f.severity, min));
  const hiddenCount = report.findings.length - findings.length;
  if (!hiddenCount) return { findings };
  const below = SEVERITY_ORDER.filter((s) => !atOrAbove(s, min));
  const counts = below
    .map((s) => [s, report.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0);
  const what = counts.map(([s, n]) => `${n} ${s}`).join(' and ');
  const lowest = counts[counts.length - 1]![0];
  return {
    findings,
    hidden: `${what} finding${hiddenCount === 1 ? '' : 's'} not shown (--min-severity ${lowest} shows ${hiddenCount === 1 ? 'it' : 'them'})`,
  };
}

function renderHuman(report: LintReport, ctx: RenderContext, min: Severity): string {
  const { findings, hidden } = shown(report, min);
  // --no-headers: one line per finding shown (namespace/name, severity, rule, message; -o wide
  // adds the path), without the summary or the footers, as kubectl get --no-headers prints rows.
  if (ctx.noHeaders) {
    const rows = findings.map((f) => [
      `${f.daemonSet.namespace}/${f.daemonSet.name}`,
      f.severity,
      f.rule,
      ...(ctx.wide ? [f.path] : []),
      f.message,
    ]);
    return rows.length
      ? renderTable(ctx, ['DAEMONSET', 'SEVERITY', 'RULE', ...(ctx.wide ? ['PATH'] : []), 'MESSAGE'], rows)
      : '';
  }
  const out: string[] = [
    ctx.para('', lintSummary(report) + (findings.length && !ctx.wide ? '; -o wide shows paths and fixes' : ''), '  '),
  ];
  if (hidden) out.push(ctx.para('', ctx.chalk.dim(hidden), '  '));
  out.push('');
  const ruleWidth = Math.max(0, ...findings.map((f) => f.rule.length));
  for (const g of groups(findings)) {
    const file = where(g.findings[0]!);
    out.push(`${ctx.chalk.bold(g.title)}${file ? `  ${ctx.chalk.dim(file)}` : ''}`);
    for (const f of g.findings) {
      out.push(
        ctx.para(
          `  ${severityMark(ctx, f.severity)} ${colorSeverity(ctx, f.severity)}  ${f.rule.padEnd(ruleWidth)}  `,
          f.message,
        ),
      );
      if (!ctx.wide) continue;
      const { sentence, snippet } = splitFix(f.fix);
      out.push(ctx.para(`      ${ctx.chalk.dim('at')} `, f.path));
      out.push(ctx.para(`      ${ctx.chalk.cyan('fix:')} `, sentence));
      if (snippet) out.push(indent(snippet, '        '));
    }
    out.push('');
  }
  out.push(...footer(report, false, ctx));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

function footer(report: LintReport, markdown: boolean, ctx?: RenderContext): string[] {
  const out: string[] = [];
  const heading = (title: string) => (markdown ? `\n#### ${title}\n` : `${ctx!.chalk.bold(`${title}:`)}`);
  const item = (text: string) => (markdown ? `- ${text}` : ctx!.para('  - ', text));
  if (report.suppressed.length) {
    out.push(heading('Turned off by annotation'));
    for (const s of report.suppressed) {
      const reasons = s.reasons ?? {};
      const rules = s.rules.map((r) => (reasons[r] ? `${r} ("${reasons[r]}")` : r)).join(', ');
      out.push(
        item(
          `${s.context !== undefined ? `${s.context}: ` : ''}${s.daemonSet.namespace}/${s.daemonSet.name}: ${rules}${s.hiddenFindings ? ` (${s.hiddenFindings} finding${s.hiddenFindings === 1 ? '' : 's'} hidden)` : ''}`,
        ),
      );
    }
    if (!markdown) out.push('');
  }
  if (report.notChecked.length) {
    out.push(heading('Not checked'));
    // Rules held back by the same missing input share one line (three node-based rules, one reason).
    const byWhy = new Map<string, string[]>();
    for (const n of report.notChecked) byWhy.set(n.why, [...(byWhy.get(n.why) ?? []), n.rule]);
    for (const [why, rules] of byWhy) out.push(item(`${rules.join(', ')}: ${why}`));
    if (!markdown) out.push('');
  }
  const unread = (report.contexts ?? []).filter((c) => c.error !== undefined);
  if (unread.length) {
    out.push(heading('Contexts not read'));
    for (const c of unread) out.push(item(`${c.context}: ${c.error!} (exit ${c.exitCode})`));
    if (!markdown) out.push('');
  }
  if (report.notes?.length) {
    out.push(heading('Notes'));
    for (const n of report.notes) out.push(item(n));
    if (!markdown) out.push('');
  }
  if (markdown) out.push(`\n${lintSummary(report)}`);
  return out;
}

function renderMarkdown(report: LintReport, min: Severity): string {
  const { findings, hidden } = shown(report, min);
  const out: string[] = ['## DaemonSet lint'];
  if (hidden) out.push('', `${hidden[0]!.toUpperCase()}${hidden.slice(1)}.`);
  for (const g of groups(findings)) {
    const file = where(g.findings[0]!);
    out.push('', `### ${g.title}${file ? ` (\`${file}\`)` : ''}`, '');
    out.push(
      renderMarkdownTable(
        ['Severity', 'Rule', 'Path', 'Message'],
        g.findings.map((f) => [f.severity, f.rule, `\`${f.path}\``, f.message]),
      ).replace(/\n$/, ''),
    );
    out.push('', '<details><summary>Fixes</summary>', '');
    for (const f of g.findings) {
      const { sentence, snippet } = splitFix(f.fix);
      out.push(`- **${f.rule}** (\`${f.path}\`): ${sentence}`);
      if (snippet) out.push('', '  ```yaml', indent(snippet, '  '), '  ```');
    }
    out.push('', '</details>');
  }
  out.push(...footer(report, true));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/** Renders a LintReport for people: grouped text (table/wide) or Markdown. */
export function renderLint(
  report: LintReport,
  ctx: RenderContext,
  markdown: boolean,
  options: LintRenderOptions = {},
): string {
  const min = options.minSeverity ?? 'info';
  return markdown ? renderMarkdown(report, min) : renderHuman(report, ctx, min);
}
