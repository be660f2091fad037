/**
 * Human rendering of a PlanReport: table (the worst outcome first, then the nodes that change and
 * one line per finding), wide (every node, each finding's evidence and fix) and Markdown (a
 * pull-request comment).
 */
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

/** Names of nodes, the first few: "gpu-1, gpu-2" or "a, b, c, d, e and 3 more". */
function names(nodes: PlanNode[], shown = 5): string {
  const list = nodes.slice(0, shown).map((n) => n.node);
  return nodes.length > shown ? `${list.join(', ')} and ${nodes.length - shown} more` : list.join(', ');
}

/**
 * The worst outcome, the plan's first line: nodes that lose their pod (and the role they lose,
 * as the NodesLost finding names it), else the most severe finding, else what the change does
 * when nothing goes wrong.
 */
function worstOutcome(ctx: RenderContext, d: PlanReport): string {
  const c = ctx.chalk;
  const lost = d.nodes.filter((n) => n.effect === 'lose');
  if (lost.length) {
    // The finding names the role when the DaemonSet is a node's critical agent ("the nodes' network agent").
    const role = /the DaemonSet is the nodes' (.+?) agent\b/.exec(
      d.findings.find((f) => f.code === 'NodesLost')?.message ?? '',
    )?.[1];
    const what = role ? `their ${role} agent` : 'their pod';
    return ctx.para(
      `${c.red('✗')} `,
      `${lost.length} node${lost.length === 1 ? '' : 's'} lose ${what}: ${names(lost)}`,
    );
  }
  const worst = d.findings.find((f) => f.severity === 'error') ?? d.findings.find((f) => f.severity === 'warning');
  if (worst) return ctx.para(`${severityMark(ctx, worst.severity)} `, worst.message);
  const s = d.summary;
  const what =
    d.change === 'create'
      ? `creates the DaemonSet: ${s.gain} node(s) gain a pod`
      : d.rollout.replaced
        ? `replaces the pod on ${d.rollout.toReplace} node(s)`
        : 'replaces no pod';
  return ctx.para(`${c.green('✓')} `, `${what}; no node loses its pod${s.pending ? '' : ' or is left Pending'}`);
}

export function renderPlan(d: PlanReport, ctx: RenderContext, markdown: boolean): string {
  const c = ctx.chalk;
  const title = `${d.daemonSet.namespace}/${d.daemonSet.name}`;
  const out: string[] = [];
  const what =
    d.change === 'create'
      ? 'creates it'
      : !d.rollout.replaced
        ? 'replaces no pod'
        : d.templateDiff.length
          ? 'changes the pod template'
          : 'the template is unchanged; the rollout in progress goes on';
  if (markdown) {
    out.push(`### Plan for ${title}: ${what}`, '', headline(d));
  } else {
    out.push(worstOutcome(ctx, d), ctx.para(`${c.bold(`plan for ${title}:`)} `, `${what}; ${headline(d)}`, '  '));
  }

  if (d.groups.length > 1 || d.groupBy) {
    out.push(
      '',
      markdown ? `**By ${d.groupBy ? `\`${d.groupBy}\`` : 'pool'}**\n` : c.bold(`By ${d.groupBy || 'pool'}:`),
    );
    const headers = ['GROUP', 'NODES', ...EFFECTS.map((e) => e.toUpperCase()), 'PENDING'];
    const rows = d.groups.map((g) => [
      g.group || '<none>',
      String(g.nodes),
      ...EFFECTS.map((e) => String(g.effects[e])),
      String(g.pending),
    ]);
    out.push(
      markdown
        ? renderMarkdownTable(headers, rows).replace(/\n$/, '')
        : renderTable(ctx, headers, rows).replace(/\n$/, ''),
    );
  }

  const listed = ctx.wide
    ? d.nodes
    : d.nodes
        .filter(interesting)
        .sort((a, b) => rank(a) - rank(b) || compareText(a.node, b.node))
        .slice(0, LISTED);
  if (listed.length) {
    out.push('', markdown ? '**Nodes**\n' : c.bold('Nodes:'));
    if (markdown || ctx.wide) {
      const headers = ['NODE', 'GROUP', 'BEFORE', 'EFFECT', 'AFTER', 'WHY / FIT'];
      const rows = listed.map((n) => [
        n.node,
        n.group || '-',
        before(n),
        markdown ? n.effect : colorEffect(ctx, n.effect),
        after(n),
        detail(n),
      ]);
      out.push(
        markdown
          ? renderMarkdownTable(headers, rows).replace(/\n$/, '')
          : renderTable(ctx, headers, rows).replace(/\n$/, ''),
      );
    } else {
      // The group is in the table above and the old pod's name in -o wide: the default keeps what decides the effect.
      const headers = ['NODE', 'NOW', 'EFFECT', 'AFTER', 'WHY / FIT'];
      const rows = listed.map((n) => [n.node, n.before?.state ?? '-', colorEffect(ctx, n.effect), after(n), detail(n)]);
      out.push(renderTable(ctx, headers, rows).replace(/\n$/, ''));
    }
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
  if (r.strategy === 'OnDelete')
    lines.push(`OnDelete: ${r.toReplace} pod(s) of an older revision are replaced only when deleted`);
  else if (!r.replaced) lines.push('no pod is replaced');
  else {
    lines.push(
      `${r.toReplace} pod(s) replaced, maxUnavailable ${r.maxUnavailable}, maxSurge ${r.maxSurge}: ${r.batches} batch(es)`,
    );
    lines.push(
      `order: ${r.order.slice(0, 12).join(', ')}${r.order.length > 12 ? `, … ${r.order.length - 12} more` : ''} (old pods that are unavailable first, then in the controller's map order, which is random)`,
    );
    if (r.blockedAfter !== undefined)
      lines.push(`stops after ${r.blockedAfter} node(s) hold a new pod that cannot become available`);
    if (r.estimate) lines.push(`estimate: ${r.estimate}`);
  }
  // The NodesLost finding says it too: the default prints it once.
  if (
    d.nodes.some((n) => n.effect === 'lose') &&
    (markdown || ctx.wide || !d.findings.some((f) => f.code === 'NodesLost'))
  )
    lines.push(
      'nodes that lose their pod lose it at once, when the change is applied: the controller deletes those pods itself, outside the rolling update',
    );
  out.push(...lines.map((l) => (markdown ? `- ${l}` : ctx.para('  ', l, '    '))));

  if (d.findings.length) {
    out.push(
      '',
      markdown ? '**Findings**\n' : c.bold(ctx.wide ? 'Findings:' : 'Findings (-o wide: evidence and fixes):'),
    );
    for (const f of d.findings) {
      if (markdown) {
        out.push(`- **${f.code}** (${f.severity}): ${f.message} — fix: ${f.fix}`);
        continue;
      }
      out.push(ctx.para(`  ${severityMark(ctx, f.severity)} ${c.bold(f.code)}  `, f.message, '      '));
      if (!ctx.wide) continue;
      for (const e of f.evidence) out.push(ctx.para(`      ${c.dim('evidence:')} `, e));
      out.push(ctx.para(`      ${c.cyan('fix:')} `, f.fix));
    }
  }

  if (d.templateDiff.length) {
    out.push(
      '',
      markdown ? '**What changes (current → new template)**\n' : c.bold('What changes (current → new template):'),
    );
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
    out.push(
      '',
      markdown ? '**Notes**\n' : 'Notes:',
      ...d.notes.map((n) => (markdown ? `- ${n}` : ctx.para('  - ', n))),
    );
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
