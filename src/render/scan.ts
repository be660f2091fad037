/** Human rendering of a ScanReport. */
import type { ScanEntry, ScanHealth, ScanReport } from '../model/results.js';
import type { RenderContext } from './context.js';
import { renderMarkdownTable, renderTable } from './table.js';
import { colorHealth } from './style.js';
import { causeLines } from './causes.js';
import { compareText } from '../model/order.js';
import { displayWidth } from './wrap.js';

function problemText(counts: Record<string, number>): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
  return entries.length ? entries.map(([c, n]) => `${c}(${n})`).join(', ') : '-';
}

/** How urgently a DaemonSet's health asks for a look: the worst first. */
const URGENCY: Record<ScanHealth, number> = { Failing: 0, Stuck: 1, Degraded: 2, RollingOut: 3, Healthy: 4 };

/**
 * The commands to run next, for the DaemonSet in the worst health (the first in report order
 * among equals): its per-node reasons, and its rollout when that is stuck. Each command stands on
 * its own line, to copy.
 */
function nextSteps(problems: ScanEntry[], wrapWidth: number): string[] {
  const worst = [...problems].sort((a, b) => URGENCY[a.health] - URGENCY[b.health])[0];
  if (!worst) return [];
  const name = `${worst.namespace}/${worst.name}${worst.context !== undefined ? ` --context ${worst.context}` : ''}`;
  const lines = [
    [`ds-doctor why ${name}`, worst.health === 'Healthy' ? '# the nodes it warns about' : '# the reason on each node'],
  ];
  if (worst.health === 'Stuck' || worst.health === 'RollingOut')
    lines.unshift([`ds-doctor rollout ${name}`, '# what holds its rollout']);
  const pad = Math.max(...lines.map(([cmd]) => cmd!.length));
  const beside = lines.map(([cmd, comment]) => `  ${cmd!.padEnd(pad)}  ${comment!}`);
  // On a terminal too narrow for a comment beside its command, the comment goes on the line above.
  if (beside.every((l) => displayWidth(l) <= wrapWidth)) return ['Next:', ...beside];
  return ['Next:', ...lines.flatMap(([cmd, comment]) => [`  ${comment!}`, `  ${cmd!}`])];
}

/**
 * With several contexts (`report.contexts`), each row starts with its CONTEXT, in the order the
 * contexts were read; a context that could not be read is one row of its own (HEALTH `Error`),
 * its error line under "Contexts not read".
 */
function withContexts(
  report: ScanReport,
  headers: string[],
  rows: string[][],
  errorCell: string,
): { headers: string[]; rows: string[][] } {
  const contexts = report.contexts;
  if (!contexts) return { headers, rows };
  const out: string[][] = [];
  for (const c of contexts) {
    report.daemonSets.forEach((d, i) => {
      if (d.context === c.context) out.push([c.context, ...rows[i]!]);
    });
    if (c.error !== undefined) out.push([c.context, '-', '-', errorCell, ...headers.slice(3).map(() => '-')]);
  }
  return { headers: ['CONTEXT', ...headers], rows: out };
}

export function renderScan(report: ScanReport, ctx: RenderContext, markdown: boolean): string {
  const baseHeaders = ctx.wide
    ? [
        'NAMESPACE',
        'NAME',
        'HEALTH',
        'DESIRED',
        'CURRENT',
        'READY',
        'UP-TO-DATE',
        'AVAILABLE',
        'MISSCHEDULED',
        'PROBLEMS',
      ]
    : ['NAMESPACE', 'NAME', 'HEALTH', 'READY', 'UPDATED', 'AVAIL'];
  const baseRows = report.daemonSets.map((d) =>
    ctx.wide
      ? [
          d.namespace,
          d.name,
          colorHealth(ctx, d.health),
          String(d.desired),
          String(d.current),
          String(d.ready),
          String(d.updated),
          String(d.available),
          String(d.misscheduled),
          problemText(d.problemCounts),
        ]
      : [
          d.namespace,
          d.name,
          colorHealth(ctx, d.health),
          `${d.ready}/${d.desired}`,
          String(d.updated),
          String(d.available),
        ],
  );
  const { headers, rows } = withContexts(report, baseHeaders, baseRows, ctx.chalk.red('Error'));
  // --no-headers: the rows alone, for scripts (awk, wc -l), as kubectl get --no-headers.
  if (ctx.noHeaders && !markdown) return rows.length ? renderTable(ctx, headers, rows) : '';
  const out: string[] = [];
  if (markdown) {
    out.push(`## DaemonSets (${report.scope})\n`);
    const md = withContexts(
      report,
      ['NAMESPACE', 'NAME', 'HEALTH', 'DESIRED', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'PROBLEMS'],
      report.daemonSets.map((d) => [
        d.namespace,
        d.name,
        d.health,
        String(d.desired),
        String(d.ready),
        String(d.updated),
        String(d.available),
        problemText(d.problemCounts),
      ]),
      'Error',
    );
    out.push(renderMarkdownTable(md.headers, md.rows));
  } else if (rows.length) {
    out.push(renderTable(ctx, headers, rows).replace(/\n$/, ''));
  }
  const unread = (report.contexts ?? []).filter((c) => c.error !== undefined);
  if (unread.length) {
    out.push(markdown ? '\n### Contexts not read\n' : `\n${ctx.chalk.bold('Contexts not read:')}`);
    for (const c of unread)
      out.push(
        markdown
          ? `- **${c.context}**: ${c.error!} (exit ${c.exitCode})`
          : ctx.para('  ', `${ctx.chalk.bold(c.context)}: ${c.error!} (exit ${c.exitCode})`),
      );
  }
  if (report.causes?.length) {
    out.push(markdown ? '\n### Root causes\n' : `\n${ctx.chalk.bold('Root causes:')}`);
    // From several clusters, each cause says which.
    const causes = report.causes.map((c) =>
      c.context !== undefined ? { ...c, summary: `${c.context}: ${c.summary}` } : c,
    );
    out.push(
      ...causeLines(ctx, causes, markdown, { by: markdown ? '' : '  ' }).filter(
        (l) => l !== '' && l !== '**Root cause**',
      ),
    );
  }
  const problems = report.daemonSets.filter((d) => d.topProblem || d.statusMismatch.length || d.coverageGaps.length);
  if (problems.length) {
    out.push(markdown ? '\n### Problems\n' : `\n${ctx.chalk.bold('Problems:')}`);
    for (const d of problems) {
      const lines: string[] = [];
      // The root cause above that explains this DaemonSet's problems, named rather than repeated.
      const cause = report.causes?.find(
        (c) =>
          c.context === d.context &&
          (c.affects.some((a) => a.namespace === d.namespace && a.name === d.name) ||
            (c.cause.kind === 'DaemonSet' && c.cause.namespace === d.namespace && c.cause.name === d.name)),
      );
      if (d.topProblem)
        lines.push(
          `${d.health}: ${d.topProblem}${Object.keys(d.problemCounts).length ? ` [${problemText(d.problemCounts)}]` : ''}${cause ? ` (root cause: ${cause.code})` : ''}`,
        );
      lines.push(...d.statusMismatch);
      for (const g of d.coverageGaps)
        lines.push(
          `warning: ${g.message} (${g.nodes.slice(0, 5).join(', ')}${g.nodes.length > 5 ? `, … ${g.nodes.length - 5} more` : ''})`,
        );
      const name = `${d.context !== undefined ? `${d.context}: ` : ''}${d.namespace}/${d.name}`;
      if (markdown) out.push(`- **${name}**: ${lines.join('; ')}`);
      else out.push(`  ${ctx.chalk.bold(name)}\n${lines.map((l) => ctx.para('    ', l)).join('\n')}`);
    }
    if (!markdown) out.push('', ...nextSteps(problems, ctx.wrapWidth));
  }
  if (report.notes.length) {
    out.push(markdown ? '\n### Notes\n' : `\n${ctx.chalk.bold('Notes:')}`);
    for (const n of report.notes) out.push(markdown ? `- ${n}` : ctx.para('  - ', n));
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
