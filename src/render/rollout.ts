/** Human rendering of a RolloutDiagnosis. */
import type { RolloutDiagnosis } from '../model/results.js';
import type { RenderContext } from './context.js';
import { causeLines } from './causes.js';
import { renderMarkdownTable, renderTable } from './table.js';
import { severityMark } from './style.js';

function bar(done: number, total: number, width = 20): string {
  if (total <= 0) return `[${'#'.repeat(width)}]`;
  const filled = Math.round((Math.min(done, total) / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

function colorVerdict(ctx: RenderContext, v: RolloutDiagnosis['verdict']): string {
  switch (v) {
    case 'Complete':
      return ctx.chalk.green(v);
    case 'Progressing':
      return ctx.chalk.cyan(v);
    case 'Stuck':
      return ctx.chalk.red(v);
    default:
      return ctx.chalk.yellow(v);
  }
}

/** Blockers with the same code and message (one admission refusal on every node) print once. */
function groupBlockers(blockers: RolloutDiagnosis['blockers']): { code: string; message: string; nodes: string[]; pods: string[] }[] {
  const groups = new Map<string, { code: string; message: string; nodes: string[]; pods: string[] }>();
  for (const b of blockers) {
    const key = `${b.code}\u0000${b.message}`;
    const g = groups.get(key) ?? { code: b.code, message: b.message, nodes: [], pods: [] };
    g.nodes.push(b.node);
    if (b.pod) g.pods.push(b.pod);
    groups.set(key, g);
  }
  return [...groups.values()];
}

export function renderRollout(d: RolloutDiagnosis, ctx: RenderContext, markdown: boolean): string {
  const c = ctx.chalk;
  const title = `${d.daemonSet.namespace}/${d.daemonSet.name}`;
  const out: string[] = [];
  out.push(markdown ? `### Rollout of ${title}: ${d.verdict}` : `${c.bold(`rollout of ${title}:`)} ${colorVerdict(ctx, d.verdict)}  (${d.strategy})`);
  out.push(...causeLines(ctx, d.causes, markdown, { info: true }));
  out.push('');
  const budget = d.strategy === 'RollingUpdate' ? `maxUnavailable ${d.maxUnavailable}, maxSurge ${d.maxSurge}` : 'no automatic replacement (OnDelete)';
  if (markdown) out.push('```');
  out.push(`  updated   ${bar(d.updated, d.desired)} ${d.updated}/${d.desired}`);
  out.push(`  available ${bar(d.available, d.desired)} ${d.available}/${d.desired}`);
  out.push(`  budget    ${budget}; in use ${d.budgetUsed}`);
  if (d.estimate) out.push(`  estimate  ${d.estimate}`);
  out.push(ctx.para('  kubectl   ', d.kubectlStatus));
  if (markdown) out.push('```');
  if (d.budgetInUse.length) {
    out.push('', markdown ? '**Budget in use**\n' : c.bold('Budget in use:'));
    const headers = ['NODE', 'POD', 'STATE', 'CODE', 'RESOLVES'];
    const rows = d.budgetInUse.map((u) => [u.node, u.pod || '-', u.state, u.code, u.resolvesOnItsOwn ? 'yes' : 'no']);
    out.push(markdown ? renderMarkdownTable(headers, rows) : renderTable(ctx, headers, rows).replace(/\n$/, ''));
  }
  if (d.blockers.length) {
    out.push('', markdown ? '**Blockers**\n' : c.bold('Blockers:'));
    for (const g of groupBlockers(d.blockers)) {
      const where = g.nodes.length > 1 ? `nodes ${g.nodes.join(', ')}` : `node ${g.nodes[0]}  ${g.pods[0] ?? ''}`.trimEnd();
      out.push(markdown ? `- ${where}: **${g.code}** ${g.message}` : ctx.para(`  ${c.red('✗')} `, `${where}  ${c.bold(g.code)}: ${g.message}`));
    }
  }
  if (d.reasons.length) {
    out.push('', markdown ? '**Reasons**\n' : c.bold('Reasons:'));
    for (const r of d.reasons) {
      out.push(markdown ? `- **${r.code}** (${r.severity}): ${r.message} — fix: ${r.fix}` : ctx.para(`  ${severityMark(ctx, r.severity)} ${c.bold(r.code)}  `, r.message));
      if (!markdown) {
        for (const e of r.evidence.slice(0, 6)) out.push(ctx.para(`      ${c.dim('evidence:')} `, e));
        if (r.evidence.length > 6) out.push(`      ${c.dim(`… ${r.evidence.length - 6} more`)}`);
        out.push(ctx.para(`      ${c.cyan('fix:')} `, r.fix));
      }
    }
  }
  if (d.nextSteps.length) {
    out.push('', markdown ? '**Next steps**\n' : c.bold('Next steps:'));
    d.nextSteps.forEach((s, i) => out.push(markdown ? `${i + 1}. ${s}` : ctx.para(`  ${i + 1}. `, s)));
  }
  if (d.revisions.length) {
    out.push('', markdown ? '**Revisions**\n' : c.bold('Revisions:'));
    const headers = ['REVISION', 'HASH', 'AGE', 'IMAGES', 'CHANGE-CAUSE'];
    const rows = d.revisions.map((r) => [`${r.revision}${r.current ? ' (current)' : ''}`, r.hash, r.age ?? '-', r.images.join(', '), r.changeCause ?? '<none>']);
    out.push(markdown ? renderMarkdownTable(headers, rows) : renderTable(ctx, headers, rows).replace(/\n$/, ''));
  }
  if (d.templateDiff.length) {
    out.push('', markdown ? '**What changed (previous → current template)**\n' : c.bold('What changed (previous → current template):'));
    for (const l of d.templateDiff) out.push(markdown ? `- \`${l}\`` : ctx.para('  ', l, '    '));
  }
  if (d.notes?.length) {
    out.push('', markdown ? '**Notes**\n' : 'Notes:', ...d.notes.map((n) => (markdown ? `- ${n}` : ctx.para('  - ', n))));
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
