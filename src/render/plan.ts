/** Human rendering of a PlanReport: table, wide (every node) and Markdown (a pull-request comment). */
import type { PlanEffect, PlanNode, PlanReport } from '../model/results.js';
import type { RenderContext } from './context.js';
import { renderMarkdownTable, renderTable } from './table.js';
import { severityMark } from './style.js';
import { compareText } from '../model/order.js';

const EFFECTS: PlanEffect[] = ['gain', 'lose', 'keep', 'replace', 'none'];

function colorEffect(ctx: RenderContext, e: PlanEffect): string {
  const c = ctx.chalk;
  switch (e) {
    case 'gain':
      return c.green(e);
    case 'lose':
      return c.red(e);
    case 'replace':
      return c.cyan(e);
    case 'keep':
      return e;
    default:
      return c.dim(e);
  }
}

function before(n: PlanNode): string {
  if (!n.before) return '-';
  return `${n.before.name} (${n.before.current ? 'current' : n.before.hash || 'old'}, ${n.before.state})`;
}

function after(n: PlanNode): string {
  return n.settled.join(' or ');
}

function detail(n: PlanNode): string {
  if (!n.shouldRun) return n.reason ? `${n.reason}: ${n.message ?? ''}`.trim() : '-';
  if (!n.fit) return '-';
  if (n.fit.fits) return n.fit.surge ? 'fits beside the old pod (surge)' : 'fits';
  return n.fit.reasons
    .map((r) => {
      const numbers = r.requested !== undefined && r.free !== undefined ? ` (asks ${r.requested}, free ${r.free})` : '';
      return `${r.code}${r.resource ? ` ${r.resource}` : ''}${numbers}${r.preemptionHelps ? ', preemption makes room' : ''}`;
    })
    .join('; ');
}

/** At most this many nodes are listed, except with -o wide. */
const LISTED = 50;

/** Which nodes a reviewer reads first: lost, left Pending, gained, replaced. */
function rank(n: PlanNode): number {
  if (n.effect === 'lose') return 0;
  if (n.settled.includes('new-pending')) return 1;
  return n.effect === 'gain' ? 2 : 3;
}

/** Nodes the default table lists: those that change, or where the new pod stays Pending. */
function interesting(n: PlanNode): boolean {
  return (n.effect !== 'none' && n.effect !== 'keep') || n.settled.includes('new-pending');
}

function headline(d: PlanReport): string {
  const s = d.summary;
  const parts = EFFECTS.filter((e) => s[e] > 0).map((e) => `${s[e]} ${e}`);
  return `${d.nodes.length} node(s): ${parts.join(', ') || 'none'}${s.pending ? `; the new pod stays Pending on ${s.pending}` : ''}`;
}

export function renderPlan(d: PlanReport, ctx: RenderContext, markdown: boolean): string {
  const c = ctx.chalk;
  const title = `${d.daemonSet.namespace}/${d.daemonSet.name}`;
  const out: string[] = [];
  const what =
    d.change === 'create' ? 'creates it' : !d.rollout.replaced ? 'replaces no pod' : d.templateDiff.length ? 'changes the pod template' : 'the template is unchanged; the rollout in progress goes on';
  out.push(markdown ? `### Plan for ${title}: ${what}` : `${c.bold(`plan for ${title}:`)} ${what}`);
  out.push('', markdown ? headline(d) : ctx.para('  ', headline(d)));

  if (d.groups.length > 1 || d.groupBy) {
    out.push('', markdown ? `**By ${d.groupBy ? `\`${d.groupBy}\`` : 'pool'}**\n` : c.bold(`By ${d.groupBy || 'pool'}:`));
    const headers = ['GROUP', 'NODES', ...EFFECTS.map((e) => e.toUpperCase()), 'PENDING'];
    const rows = d.groups.map((g) => [g.group || '<none>', String(g.nodes), ...EFFECTS.map((e) => String(g.effects[e])), String(g.pending)]);
    out.push(markdown ? renderMarkdownTable(headers, rows).replace(/\n$/, '') : renderTable(ctx, headers, rows).replace(/\n$/, ''));
  }

  const listed = ctx.wide
    ? d.nodes
    : d.nodes
        .filter(interesting)
        .sort((a, b) => rank(a) - rank(b) || compareText(a.node, b.node))
        .slice(0, LISTED);
  if (listed.length) {
    out.push('', markdown ? '**Nodes**\n' : c.bold('Nodes:'));
    const headers = ['NODE', 'GROUP', 'BEFORE', 'EFFECT', 'AFTER', 'WHY / FIT'];
    const rows = listed.map((n) => [n.node, n.group || '-', before(n), markdown ? n.effect : colorEffect(ctx, n.effect), after(n), detail(n)]);
    out.push(markdown ? renderMarkdownTable(headers, rows).replace(/\n$/, '') : renderTable(ctx, headers, rows).replace(/\n$/, ''));
  }
  const hidden = d.nodes.length - listed.length;
  if (hidden > 0)
    out.push(
      ctx.para(
        markdown ? '' : '  ',
        c.dim(
          `${hidden} more node(s) not listed${listed.length === LISTED ? ` (the first ${LISTED} by effect: lose, Pending, gain, replace)` : ' (they keep their pod or get none)'}; -o wide lists every node`,
        ),
      ),
    );

  const r = d.rollout;
  out.push('', markdown ? '**Rollout**\n' : c.bold('Rollout:'));
  const lines: string[] = [];
  if (r.strategy === 'OnDelete') lines.push(`OnDelete: ${r.toReplace} pod(s) of an older revision are replaced only when deleted`);
  else if (!r.replaced) lines.push('no pod is replaced');
  else {
    lines.push(`${r.toReplace} pod(s) replaced, maxUnavailable ${r.maxUnavailable}, maxSurge ${r.maxSurge}: ${r.batches} batch(es)`);
    lines.push(
      `order: ${r.order.slice(0, 12).join(', ')}${r.order.length > 12 ? `, … ${r.order.length - 12} more` : ''} (old pods that are unavailable first, then in the controller's map order, which is random)`,
    );
    if (r.blockedAfter !== undefined) lines.push(`stops after ${r.blockedAfter} node(s) hold a new pod that cannot become available`);
    if (r.estimate) lines.push(`estimate: ${r.estimate}`);
  }
  if (d.nodes.some((n) => n.effect === 'lose'))
    lines.push('nodes that lose their pod lose it at once, when the change is applied: the controller deletes those pods itself, outside the rolling update');
  out.push(...lines.map((l) => (markdown ? `- ${l}` : ctx.para('  ', l, '    '))));

  if (d.findings.length) {
    out.push('', markdown ? '**Findings**\n' : c.bold('Findings:'));
    for (const f of d.findings) {
      if (markdown) {
        out.push(`- **${f.code}** (${f.severity}): ${f.message} — fix: ${f.fix}`);
        continue;
      }
      out.push(ctx.para(`  ${severityMark(ctx, f.severity)} ${c.bold(f.code)}  `, f.message));
      for (const e of f.evidence.slice(0, 6)) out.push(ctx.para(`      ${c.dim('evidence:')} `, e));
      if (f.evidence.length > 6) out.push(`      ${c.dim(`… ${f.evidence.length - 6} more`)}`);
      out.push(ctx.para(`      ${c.cyan('fix:')} `, f.fix));
    }
  }

  if (d.templateDiff.length) {
    out.push('', markdown ? '**What changes (current → new template)**\n' : c.bold('What changes (current → new template):'));
    const causing = new Map<string, Set<PlanEffect | 'pending'>>();
    for (const n of d.nodes) {
      for (const line of n.causes ?? []) {
        const set = causing.get(line) ?? new Set();
        set.add(n.effect === 'replace' ? 'pending' : n.effect);
        causing.set(line, set);
      }
    }
    for (const l of d.templateDiff) {
      const why = causing.get(l);
      const note = why ? `  ← ${[...why].sort().join(', ')}` : '';
      out.push(markdown ? `- \`${l}\`${note}` : ctx.para('  ', `${l}${c.dim(note)}`, '    '));
    }
  }
  if (d.notes?.length) {
    out.push('', markdown ? '**Notes**\n' : 'Notes:', ...d.notes.map((n) => (markdown ? `- ${n}` : ctx.para('  - ', n))));
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
