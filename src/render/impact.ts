/** Human rendering of a DeleteImpact: headline, roles, risk reasons, findings, gaps, alternatives. */
import type { DeleteImpact, ImpactFinding, Risk } from '../model/results.js';
import type { RenderContext } from './context.js';
import { severityMark } from './style.js';

function colorRisk(ctx: RenderContext, risk: Risk, text: string = risk): string {
  const c = ctx.chalk;
  switch (risk) {
    case 'critical':
      return c.bold.red(text);
    case 'high':
      return c.red(text);
    case 'medium':
      return c.yellow(text);
    default:
      return c.green(text);
  }
}

function headline(d: DeleteImpact): string {
  const target = `${d.daemonSet.namespace}/${d.daemonSet.name}`;
  if (d.cascade === 'orphan') return `kubectl delete daemonset ${target} --cascade=orphan`;
  return `kubectl delete daemonset ${target}${d.cascade === 'background' ? '' : ` --cascade=${d.cascade}`}`;
}

function summary(d: DeleteImpact): string {
  const revisions = d.revisions ? `; ${d.revisions} ControllerRevision${d.revisions === 1 ? '' : 's'} ${d.cascade === 'orphan' ? 'orphaned' : 'deleted'}` : '';
  if (d.cascade === 'orphan') return `no pod is deleted: the pods are orphaned and keep running${revisions}`;
  if (d.findings.some((f) => f.code === 'PodsNotInInput')) return `every pod of the DaemonSet goes away: its pods and nodes are not in the input${revisions}`;
  return `${d.pods} pod${d.pods === 1 ? '' : 's'} on ${d.nodes} node${d.nodes === 1 ? '' : 's'} go away${revisions}`;
}

function findingBlock(ctx: RenderContext, f: ImpactFinding, markdown: boolean): string {
  if (markdown) return [`- **${f.code}** (${f.severity}): ${f.message}`, ...f.evidence.map((e) => `  - ${e}`)].join('\n');
  return [ctx.para(`${severityMark(ctx, f.severity)} ${ctx.chalk.bold(f.code)}  `, f.message), ...f.evidence.map((e) => ctx.para(`    ${ctx.chalk.dim('-')} `, e))].join('\n');
}

/** Renders the impact for a terminal (`markdown` false) or as GitHub-flavoured Markdown. */
export function renderImpact(d: DeleteImpact, ctx: RenderContext, markdown: boolean): string {
  const c = ctx.chalk;
  const out: string[] = [];
  const heading = (text: string) => out.push('', markdown ? `**${text}**\n` : c.bold(`${text}:`));
  const item = (text: string, first = '  ') => out.push(markdown ? `- ${text}` : ctx.para(first, text));

  if (markdown) {
    out.push(`### ${headline(d)}: risk ${d.risk}`, '', `${summary(d)}.`);
  } else {
    out.push(`${c.bold(headline(d))}: risk ${colorRisk(ctx, d.risk, d.risk.toUpperCase())}`, ctx.para('  ', summary(d)));
  }

  heading('Roles');
  if (!d.roleEvidence?.length) item('none found: no node-agent evidence in the pod template');
  const pad = Math.max(0, ...(d.roleEvidence ?? []).map((r) => r.role.length));
  for (const r of d.roleEvidence ?? []) {
    item(markdown ? `**${r.role}**: ${r.evidence.join('; ')}` : r.evidence.join('; '), `  ${r.role.padEnd(pad)}  `);
  }

  heading(`Risk ${d.risk}, because`);
  for (const r of d.riskReasons ?? []) item(markdown ? `${r.risk}: ${r.reason}` : r.reason, `  ${colorRisk(ctx, r.risk, r.risk.padEnd(8))}  `);

  if (d.findings.length) {
    heading('What happens');
    for (const f of d.findings) out.push(findingBlock(ctx, f, markdown));
  }

  if (d.notChecked.length) {
    heading('Not checked');
    for (const n of d.notChecked) item(n, '  - ');
  }

  const plans = d.plans ?? d.alternatives.map((summary) => ({ summary, commands: [], caveats: [] }));
  if (plans.length) {
    heading('Safer alternatives');
    plans.forEach((p, i) => {
      if (markdown) {
        out.push(`${i + 1}. ${p.summary}`);
        if (p.commands.length) out.push('', '   ```sh', ...p.commands.map((cmd) => `   ${cmd}`), '   ```', '');
        for (const cv of p.caveats) out.push(`   - ${cv}`);
      } else {
        out.push(ctx.para(`  ${i + 1}. `, p.summary));
        for (const cmd of p.commands) out.push(`       ${c.cyan(`$ ${cmd}`)}`);
        for (const cv of p.caveats) out.push(ctx.para(`     ${c.dim('note:')} `, cv));
      }
    });
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
