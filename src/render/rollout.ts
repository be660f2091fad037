/**
 * Human rendering of a RolloutDiagnosis. The default answers in reading order: the verdict, what
 * changed, progress and budget, the blockers (one line per node or group of nodes), the next
 * steps; each fact once. `-o wide` adds what backs it: the whole template diff, every reason with
 * its evidence and fix, the nodes holding the budget, `kubectl rollout status`, the revisions.
 * Markdown (a pull-request comment) keeps every section.
 */
import type { RolloutDiagnosis } from '../model/results.js';
import type { RenderContext } from './context.js';
import { causeLines } from './causes.js';
import { renderMarkdownTable, renderTable } from './table.js';
import { severityMark } from './style.js';
import { displayWidth } from './wrap.js';

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

interface BlockerGroup {
  code: string;
  message: string;
  nodes: string[];
  pods: string[];
}

/** Blockers with the same code and message (one admission refusal on every node) print once. */
function groupBlockers(blockers: RolloutDiagnosis['blockers']): BlockerGroup[] {
  const groups = new Map<string, BlockerGroup>();
  for (const b of blockers) {
    const key = `${b.code}\u0000${b.message}`;
    const g = groups.get(key) ?? { code: b.code, message: b.message, nodes: [], pods: [] };
    g.nodes.push(b.node);
    if (b.pod) g.pods.push(b.pod);
    groups.set(key, g);
  }
  return [...groups.values()];
}

function where(g: BlockerGroup, withPod: boolean): string {
  if (g.nodes.length > 1) return `nodes ${g.nodes.join(', ')}`;
  return withPod && g.pods[0] ? `node ${g.nodes[0]}  ${g.pods[0]}` : `node ${g.nodes[0]}`;
}

/** The nodes an evidence line is about (`node a: …`, `nodes a, b: …`), or none. */
function evidenceNodes(line: string): string[] {
  const m = /^nodes? ([^:]+):/.exec(line);
  return m ? m[1]!.split(', ') : [];
}

/**
 * Whether every evidence line of a reason is about a node the blockers already list: the
 * default output then names the reason's code only, since its facts are on the blockers' lines.
 */
function coveredByBlockers(r: RolloutDiagnosis['reasons'][number], blocked: Set<string>): boolean {
  if (!r.evidence.length) return false;
  return r.evidence.every((e) => {
    const nodes = evidenceNodes(e);
    return nodes.length > 0 && nodes.every((n) => blocked.has(n));
  });
}

/**
 * A template diff line with the unchanged part of the new value left out: an image
 * `repo:3.0 → repo:3.1` reads `repo:3.0 → 3.1` (the shared prefix up to a tag or digest separator).
 */
function shortChange(line: string): string {
  const m = /^(.*?: )(\S+) → (\S+)$/.exec(line);
  if (!m) return line;
  const [, head, from, to] = m as unknown as [string, string, string, string];
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  const cut = Math.max(to.lastIndexOf(':', common - 1), to.lastIndexOf('@', common - 1));
  return cut > 0 ? `${head}${from} → ${to.slice(cut + 1)}` : line;
}

/** Template diff lines an SRE reads first: images, then the rest in order. */
function changesFirst(diff: string[]): string[] {
  const isImage = (l: string) => /\.image: /.test(l);
  return [...diff.filter(isImage), ...diff.filter((l) => !isImage(l))];
}

/** Changed lines the default output shows; -o wide shows every line. */
const CHANGES_SHOWN = 3;

function renderMarkdown(d: RolloutDiagnosis, ctx: RenderContext): string {
  const title = `${d.daemonSet.namespace}/${d.daemonSet.name}`;
  const out: string[] = [
    `### Rollout of ${title}: ${d.verdict}`,
    ...causeLines(ctx, d.causes, true, { info: true }),
    '',
  ];
  const budget =
    d.strategy === 'RollingUpdate'
      ? `maxUnavailable ${d.maxUnavailable}, maxSurge ${d.maxSurge}`
      : 'no automatic replacement (OnDelete)';
  out.push(
    '```',
    `  updated   ${bar(d.updated, d.desired)} ${d.updated}/${d.desired}`,
    `  available ${bar(d.available, d.desired)} ${d.available}/${d.desired}`,
  );
  out.push(`  budget    ${budget}; in use ${d.budgetUsed}`);
  if (d.estimate) out.push(`  estimate  ${d.estimate}`);
  out.push(`  kubectl   ${d.kubectlStatus}`, '```');
  if (d.budgetInUse.length) {
    out.push('', '**Budget in use**\n');
    out.push(
      renderMarkdownTable(
        ['NODE', 'POD', 'STATE', 'CODE', 'RESOLVES'],
        d.budgetInUse.map((u) => [u.node, u.pod || '-', u.state, u.code, u.resolvesOnItsOwn ? 'yes' : 'no']),
      ),
    );
  }
  if (d.blockers.length) {
    out.push('', '**Blockers**\n');
    for (const g of groupBlockers(d.blockers)) out.push(`- ${where(g, true)}: **${g.code}** ${g.message}`);
  }
  if (d.reasons.length) {
    out.push('', '**Reasons**\n');
    for (const r of d.reasons) out.push(`- **${r.code}** (${r.severity}): ${r.message} — fix: ${r.fix}`);
  }
  if (d.nextSteps.length) {
    out.push('', '**Next steps**\n');
    d.nextSteps.forEach((s, i) => out.push(`${i + 1}. ${s}`));
  }
  if (d.revisions.length) {
    out.push('', '**Revisions**\n');
    out.push(renderMarkdownTable(['REVISION', 'HASH', 'AGE', 'IMAGES', 'CHANGE-CAUSE'], revisionRows(d)));
  }
  if (d.templateDiff.length) {
    out.push('', '**What changed (previous → current template)**\n');
    for (const l of d.templateDiff) out.push(`- \`${l}\``);
  }
  if (d.notes?.length) out.push('', '**Notes**\n', ...d.notes.map((n) => `- ${n}`));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

function revisionRows(d: RolloutDiagnosis): string[][] {
  return d.revisions.map((r) => [
    `${r.revision}${r.current ? ' (current)' : ''}`,
    r.hash,
    r.age ?? '-',
    r.images.join(', '),
    r.changeCause ?? '<none>',
  ]);
}

/** The verdict and the facts under it: what changed, progress, budget, and the reasons the blockers do not already show. */
function summaryLines(d: RolloutDiagnosis, ctx: RenderContext): string[] {
  const c = ctx.chalk;
  const out = [
    `${c.bold(`rollout of ${d.daemonSet.namespace}/${d.daemonSet.name}:`)} ${colorVerdict(ctx, d.verdict)}  (${d.strategy})`,
  ];
  // What changed is part of the verdict (a new image is the usual suspect), then the root cause the cause engine found.
  const changes = changesFirst(d.templateDiff);
  const shown = ctx.wide ? changes : changes.slice(0, CHANGES_SHOWN);
  shown.forEach((l, i) =>
    out.push(ctx.para(i === 0 ? '  changed   ' : '            ', ctx.wide ? l : shortChange(l), '              ')),
  );
  if (changes.length > shown.length && shown.length)
    out.push(`            ${c.dim(`… ${changes.length - shown.length} more; -o wide shows the whole diff`)}`);
  out.push(...causeLines(ctx, d.causes, false, { info: true }));
  out.push(`  updated   ${bar(d.updated, d.desired)} ${d.updated}/${d.desired}`);
  out.push(`  available ${bar(d.available, d.desired)} ${d.available}/${d.desired}`);
  const budget =
    d.strategy === 'RollingUpdate'
      ? `maxUnavailable ${d.maxUnavailable}, maxSurge ${d.maxSurge}`
      : 'no automatic replacement (OnDelete)';
  out.push(ctx.para('  budget    ', `${budget}; in use ${d.budgetUsed}`));
  if (d.estimate) out.push(ctx.para('  estimate  ', d.estimate));
  if (ctx.wide) {
    out.push(ctx.para('  kubectl   ', d.kubectlStatus));
    return out;
  }
  const blocked = new Set(d.blockers.map((b) => b.node));
  const covered = d.reasons.filter((r) => coveredByBlockers(r, blocked));
  if (covered.length)
    out.push(
      ctx.para(
        '  reasons   ',
        `${covered.map((r) => `${severityMark(ctx, r.severity)} ${r.code}`).join(', ')} (-o wide)`,
      ),
    );
  const rest = d.reasons.filter((r) => !covered.includes(r));
  if (rest.length) out.push('');
  for (const r of rest) out.push(ctx.para(`${severityMark(ctx, r.severity)} ${c.bold(r.code)}  `, r.message));
  return out;
}

/** The nodes a next step is about (`node a (pod p): …`, `nodes a, b: …`), or none. */
function stepNodes(step: string): string[] {
  const m = /^nodes? ([^\s(:,]+(?:, [^\s(:,]+)*)(?: \(|:)/.exec(step);
  return m ? m[1]!.split(', ') : [];
}

export function renderRollout(d: RolloutDiagnosis, ctx: RenderContext, markdown: boolean): string {
  if (markdown) return renderMarkdown(d, ctx);
  const c = ctx.chalk;
  const out = summaryLines(d, ctx);
  const table = (headers: string[], rows: string[][]) => renderTable(ctx, headers, rows).replace(/\n$/, '');
  // Blockers and next steps on nodes the root causes explain are the causes' facts again: the
  // default names them on one line (-o wide prints them whole).
  const explained = new Set(ctx.wide ? [] : (d.causes ?? []).flatMap((rc) => rc.nodes));
  const groups = groupBlockers(d.blockers);
  const open = groups.filter((g) => !g.nodes.every((n) => explained.has(n)));
  const steps = d.nextSteps.filter((s) => !(stepNodes(s).length && stepNodes(s).every((n) => explained.has(n))));
  if (open.length < groups.length) {
    const named = groups.filter((g) => !open.includes(g)).map((g) => `${g.nodes.join(', ')} ${g.code}`);
    out.push(
      ctx.para(
        '  blocked   ',
        `${named.join('; ')}: the root causes above${steps.length < d.nextSteps.length ? ' (-o wide: their blockers and next steps)' : ''}`,
      ),
    );
  }

  if (open.length) {
    out.push('', c.bold('Blockers:'));
    for (const g of open) {
      const head = `  ${c.red('✗')} ${where(g, ctx.wide)}  `;
      // Nodes that would take more than half the line (long cloud node names) wrap with the prose.
      out.push(
        displayWidth(head) > ctx.wrapWidth / 2
          ? ctx.para(`  ${c.red('✗')} `, `${where(g, ctx.wide)}: ${c.bold(g.code)}: ${g.message}`, '      ')
          : ctx.para(head, `${c.bold(g.code)}: ${g.message}`, '      '),
      );
    }
  }
  if (ctx.wide && d.reasons.length) {
    out.push('', c.bold('Reasons:'));
    for (const r of d.reasons) {
      out.push(ctx.para(`  ${severityMark(ctx, r.severity)} ${c.bold(r.code)}  `, r.message));
      for (const e of r.evidence) out.push(ctx.para(`      ${c.dim('evidence:')} `, e));
      out.push(ctx.para(`      ${c.cyan('fix:')} `, r.fix));
    }
  }
  if (steps.length) {
    out.push('', c.bold('Next steps:'));
    steps.forEach((s, i) => out.push(ctx.para(`  ${i + 1}. `, s)));
  }
  if (ctx.wide && d.budgetInUse.length) {
    out.push('', c.bold('Budget in use:'));
    out.push(
      table(
        ['NODE', 'POD', 'STATE', 'CODE', 'RESOLVES'],
        d.budgetInUse.map((u) => [u.node, u.pod || '-', u.state, u.code, u.resolvesOnItsOwn ? 'yes' : 'no']),
      ),
    );
  }
  if (ctx.wide && d.revisions.length) {
    out.push('', c.bold('Revisions:'), table(['REVISION', 'HASH', 'AGE', 'IMAGES', 'CHANGE-CAUSE'], revisionRows(d)));
  }
  if (d.notes?.length) out.push('', 'Notes:', ...d.notes.map((n) => ctx.para('  - ', n)));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
