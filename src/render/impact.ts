/** Human rendering of a DeleteImpact: the risk and why, what goes away, findings, gaps, alternatives. */
import type { DeleteImpact, Risk } from '../model/results.js';
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
  const revisions = d.revisions
    ? `; ${d.revisions} ControllerRevision${d.revisions === 1 ? '' : 's'} ${d.cascade === 'orphan' ? 'orphaned' : 'deleted'}`
    : '';
  if (d.cascade === 'orphan') return `no pod is deleted: the pods are orphaned and keep running${revisions}`;
  if (d.findings.some((f) => f.code === 'PodsNotInInput'))
    return `every pod of the DaemonSet goes away: its pods and nodes are not in the input${revisions}`;
  return `${d.pods} pod${d.pods === 1 ? '' : 's'} on ${d.nodes} node${d.nodes === 1 ? '' : 's'} go away${revisions}`;
}

/** The first line: the command, its risk, and the reason that sets it. */
function riskLine(ctx: RenderContext, d: DeleteImpact): string {
  const top = d.riskReasons?.[0];
  const head = `${ctx.chalk.bold(headline(d))}: risk ${colorRisk(ctx, d.risk, d.risk.toUpperCase())}`;
  return top ? ctx.para(`${head}: `, top.reason, '  ') : head;
}

function renderMarkdown(d: DeleteImpact): string {
  const out: string[] = [`### ${headline(d)}: risk ${d.risk}`, '', `${summary(d)}.`];
  const heading = (text: string) => out.push('', `**${text}**\n`);
  heading('Roles');
  if (!d.roleEvidence?.length) out.push('- none found: no node-agent evidence in the pod template');
  for (const r of d.roleEvidence ?? []) out.push(`- **${r.role}**: ${r.evidence.join('; ')}`);
  heading(`Risk ${d.risk}, because`);
  for (const r of d.riskReasons ?? []) out.push(`- ${r.risk}: ${r.reason}`);
  if (d.findings.length) {
    heading('What happens');
    for (const f of d.findings)
      out.push([`- **${f.code}** (${f.severity}): ${f.message}`, ...f.evidence.map((e) => `  - ${e}`)].join('\n'));
  }
  if (d.notChecked.length) {
    heading('Not checked');
    for (const n of d.notChecked) out.push(`- ${n}`);
  }
  const plans = plansOf(d);
  if (plans.length) {
    heading('Safer alternatives');
    plans.forEach((p, i) => {
      out.push(`${i + 1}. ${p.summary}`);
      if (p.commands.length) out.push('', '   ```sh', ...p.commands.map((cmd) => `   ${cmd}`), '   ```', '');
      for (const cv of p.caveats) out.push(`   - ${cv}`);
    });
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

function plansOf(d: DeleteImpact): { summary: string; commands: string[]; caveats: string[] }[] {
  return d.plans ?? d.alternatives.map((summary) => ({ summary, commands: [], caveats: [] }));
}

/**
 * Renders the impact for a terminal (`markdown` false) or as GitHub-flavoured Markdown. The
 * terminal's default leads with the risk and the reason that sets it, then what goes away and
 * the roles, one line per finding, what was not checked, and the safer alternatives by name;
 * `-o wide` adds the evidence of each role, every risk reason, the findings' evidence, and the
 * alternatives' commands and caveats.
 */
export function renderImpact(d: DeleteImpact, ctx: RenderContext, markdown: boolean): string {
  if (markdown) return renderMarkdown(d);
  const c = ctx.chalk;
  const out: string[] = [riskLine(ctx, d)];
  const heading = (text: string) => out.push('', c.bold(`${text}:`));
  const roles = d.roleEvidence?.map((r) => r.role) ?? d.roles;
  out.push(
    ctx.para('  ', `${summary(d)}${roles.length ? `; role${roles.length === 1 ? '' : 's'}: ${roles.join(', ')}` : ''}`),
  );

  if (ctx.wide) {
    heading('Roles');
    const pad = Math.max(0, ...(d.roleEvidence ?? []).map((r) => r.role.length));
    for (const r of d.roleEvidence ?? []) out.push(ctx.para(`  ${r.role.padEnd(pad)}  `, r.evidence.join('; ')));
    heading(`Risk ${d.risk}, because`);
    for (const r of d.riskReasons ?? [])
      out.push(ctx.para(`  ${colorRisk(ctx, r.risk, r.risk.padEnd(8))}  `, r.reason));
  }

  if (d.findings.length) {
    heading('What happens');
    for (const f of d.findings) {
      out.push(ctx.para(`${severityMark(ctx, f.severity)} ${c.bold(f.code)}  `, f.message, '    '));
      if (ctx.wide) for (const e of f.evidence) out.push(ctx.para(`    ${c.dim('-')} `, e));
    }
  }

  if (d.notChecked.length) {
    heading('Not checked');
    for (const n of d.notChecked) out.push(ctx.para('  - ', n));
  }

  const plans = plansOf(d);
  if (plans.length) {
    heading(
      ctx.wide || !plans.some((p) => p.commands.length || p.caveats.length)
        ? 'Safer alternatives'
        : 'Safer alternatives (-o wide: their commands)',
    );
    plans.forEach((p, i) => {
      out.push(ctx.para(`  ${i + 1}. `, p.summary));
      if (!ctx.wide) return;
      for (const cmd of p.commands) out.push(`       ${c.cyan(`$ ${cmd}`)}`);
      for (const cv of p.caveats) out.push(ctx.para(`     ${c.dim('note:')} `, cv));
    });
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
