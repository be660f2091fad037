/** Human rendering of the placement results: why (node / DaemonSet), nodes, node. */
import type {
  DaemonSetDiagnosis,
  DaemonSetNodes,
  EventSummary,
  NodeDiagnosis,
  NodeReport,
  PodSummary,
  Reason,
} from '../model/results.js';
import type { RenderContext } from './context.js';
import { renderMarkdownTable, renderTable } from './table.js';
import { colorVerdict, severityMark } from './style.js';
import { causeLines } from './causes.js';

function podLine(p: PodSummary): string {
  const rev = p.revision ? `revision ${p.revision}${p.updated ? '' : ' (outdated)'}` : 'revision ?';
  return `pod ${p.name}  ${p.phase}  ${p.ready ? 'ready' : 'not ready'}  ${rev}  restarts ${p.restarts}${p.age ? `  age ${p.age}` : ''}`;
}

function reasonBlock(ctx: RenderContext, r: Reason, markdown: boolean, by = ''): string {
  if (markdown) {
    return [
      `- **${r.code}** (${r.severity}): ${r.message}`,
      ...r.evidence.map((e) => `  - evidence: ${e}`),
      `  - fix: ${r.fix}`,
    ].join('\n');
  }
  const lines = [ctx.para(`${by}${severityMark(ctx, r.severity)} ${ctx.chalk.bold(r.code)}  `, r.message)];
  for (const e of r.evidence) lines.push(ctx.para(`${by}    ${ctx.chalk.dim('evidence:')} `, e));
  lines.push(ctx.para(`${by}    ${ctx.chalk.cyan('fix:')} `, r.fix));
  return lines.join('\n');
}

function eventLines(ctx: RenderContext, events: EventSummary[] | undefined): string[] {
  return (events ?? []).map((e) =>
    ctx.para(`  ${e.type} ${e.reason}${e.count > 1 ? ` (x${e.count})` : ''} `, `${e.object}: ${e.message}`, '    '),
  );
}

function notesBlock(ctx: RenderContext, notes: string[] | undefined, markdown: boolean): string[] {
  if (!notes?.length) return [];
  return ['', markdown ? '**Notes**\n' : 'Notes:', ...notes.map((n) => (markdown ? `- ${n}` : ctx.para('  - ', n)))];
}

export function renderNodeDiagnosis(d: NodeDiagnosis, ctx: RenderContext, markdown: boolean): string {
  const title = `${d.daemonSet.namespace}/${d.daemonSet.name} on node ${d.node}: `;
  const out = [markdown ? `### ${title}${d.verdict}` : `${ctx.chalk.bold(title)}${colorVerdict(ctx, d.verdict)}`];
  out.push(...causeLines(ctx, d.causes, markdown));
  if (d.pod) out.push(markdown ? `\n${podLine(d.pod)}` : ctx.para('  ', podLine(d.pod)));
  if (!d.reasons.length) out.push(markdown ? '\nNo problems found.' : '  no problems found');
  out.push('');
  for (const r of d.reasons) out.push(reasonBlock(ctx, r, markdown));
  const ev = eventLines(ctx, d.events);
  if (ev.length) out.push('', markdown ? '**Events**\n' : 'Events:', ...ev);
  out.push(...notesBlock(ctx, d.notes, markdown));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/**
 * What a diagnosis without problem nodes means: every node that should run a pod has a healthy
 * one, or no node should run one at all (every node excluded, or none in the input).
 */
function noProblemLine(d: DaemonSetDiagnosis): string {
  const excluded = d.summary.verdicts.Excluded ?? 0;
  if (d.totalNodes === 0) return 'the input has no node that should run a pod';
  if (excluded === d.totalNodes)
    return `no node should run a pod: all ${d.totalNodes} node(s) are excluded by the DaemonSet's placement (nodeSelector, affinity or taints), so none has one`;
  return 'every node that should run a pod has a healthy one';
}

export function renderDaemonSetDiagnosis(d: DaemonSetDiagnosis, ctx: RenderContext, markdown: boolean): string {
  const title = `${d.daemonSet.namespace}/${d.daemonSet.name}: ${d.headline}`;
  const out = [markdown ? `### ${title}` : ctx.para('', ctx.chalk.bold(title), '  ')];
  out.push(...causeLines(ctx, d.causes, markdown));
  const verdicts = Object.entries(d.summary.verdicts)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
  out.push(markdown ? `\nVerdicts: ${verdicts}` : ctx.para('  verdicts: ', verdicts));
  if (!d.nodes.length) {
    const line = noProblemLine(d);
    out.push(markdown ? `\n${line[0]!.toUpperCase()}${line.slice(1)}.` : ctx.para('  ', line));
  }
  // A reason repeated word for word on several nodes (one admission refusal for all) prints once.
  const firstSeen = new Map<string, string>();
  for (const n of d.nodes) {
    out.push(
      '',
      markdown
        ? `#### ${n.node}: ${n.verdict}`
        : ctx.para(
            `${ctx.chalk.bold(n.node)}: ${colorVerdict(ctx, n.verdict)}${n.pod ? '  ' : ''}`,
            n.pod ? `(${podLine(n.pod)})` : '',
            '  ',
          ),
    );
    for (const r of n.reasons) {
      const key = JSON.stringify([r.code, r.message, r.evidence, r.fix]);
      const seen = firstSeen.get(key);
      if (seen) {
        out.push(
          markdown
            ? `- **${r.code}** (${r.severity}): the same as on node ${seen} above`
            : ctx.para(
                `  ${severityMark(ctx, r.severity)} ${ctx.chalk.bold(r.code)}  `,
                `the same as on node ${seen} above`,
              ),
        );
        continue;
      }
      firstSeen.set(key, n.node);
      out.push(reasonBlock(ctx, r, markdown, '  '));
    }
  }
  out.push(...notesBlock(ctx, d.notes, markdown));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/** The reason a table row shows: the short phrase, or the whole sentence in wide output. */
function mainReason(ctx: RenderContext, reasons: Reason[], wide: boolean, markdown: boolean): string {
  const r = reasons.find((x) => x.code !== 'OutdatedRevision') ?? reasons[0];
  if (!r) return '-';
  const text = wide ? `${r.code}: ${r.message}` : r.short;
  return markdown ? `${r.severity}: ${text}` : `${severityMark(ctx, r.severity)} ${text}`;
}

export function renderDaemonSetNodes(d: DaemonSetNodes, ctx: RenderContext, markdown: boolean): string {
  const headers = ['NODE', 'VERDICT', 'POD', 'READY', 'REVISION', 'REASON'];
  const rows = d.nodes.map((n) => [
    n.node,
    markdown ? n.verdict : colorVerdict(ctx, n.verdict),
    n.pod?.name ?? '-',
    n.pod ? (n.pod.ready ? 'true' : 'false') : '-',
    n.pod ? `${n.pod.revision || '?'}${n.pod.updated ? '' : '*'}` : '-',
    mainReason(ctx, n.reasons, ctx.wide || markdown, markdown),
  ]);
  const out: string[] = [];
  const causes = causeLines(ctx, d.causes, markdown);
  if (causes.length) out.push(...(markdown ? causes.slice(1) : causes), '');
  if (markdown) out.push(`### ${d.daemonSet.namespace}/${d.daemonSet.name}\n`, renderMarkdownTable(headers, rows));
  else out.push(renderTable(ctx, headers, rows).replace(/\n$/, ''));
  const verdicts = Object.entries(d.summary.verdicts)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
  out.push('', ctx.para('', `${d.nodes.length} node(s) shown; over all nodes: ${verdicts}. (* = outdated revision)`));
  out.push(...notesBlock(ctx, d.notes, markdown));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

export function renderNodeReport(d: NodeReport, ctx: RenderContext, markdown: boolean): string {
  const status = `Ready=${d.nodeStatus.ready}${d.nodeStatus.unschedulable ? ', cordoned' : ''}${d.nodeStatus.taints.length ? `, taints: ${d.nodeStatus.taints.join(' ')}` : ''}`;
  const scope = `DaemonSets in ${d.scope}`;
  const out = [
    markdown ? `### Node ${d.node}\n\n${status}\n` : ctx.para(`${ctx.chalk.bold(`node ${d.node}`)}: `, status, '  '),
  ];
  out.push(...causeLines(ctx, d.causes, markdown));
  out.push(markdown ? `\n${scope}\n` : `${scope}\n`);
  const headers = ['NAMESPACE', 'DAEMONSET', 'VERDICT', 'POD', 'REASON'];
  const rows = d.daemonSets.map((e) => [
    e.namespace,
    e.name,
    markdown ? e.verdict : colorVerdict(ctx, e.verdict),
    e.pod?.name ?? '-',
    mainReason(ctx, e.reasons, ctx.wide || markdown, markdown),
  ]);
  if (rows.length)
    out.push(markdown ? renderMarkdownTable(headers, rows) : renderTable(ctx, headers, rows).replace(/\n$/, ''));
  else out.push(markdown ? `No DaemonSets found in ${d.scope}.` : `  no DaemonSets found in ${d.scope}`);
  out.push(...notesBlock(ctx, d.notes, markdown));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
