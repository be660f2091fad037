/** Root causes as the first lines of an answer: the chain on one line, then the fix that works. */
import type { RootCause } from '../model/results.js';
import type { RenderContext } from './context.js';
import { severityMark } from './style.js';

/** At most this many causes in the default output; `-o wide` shows them all, with evidence. */
const SHOWN = 3;

/**
 * The lines of the root causes; `by` indents them (continuation lines of a wrapped cause too), as
 * scan's section does.
 */
export function causeLines(
  ctx: RenderContext,
  all: readonly RootCause[] | undefined,
  markdown: boolean,
  { info = false, by = '' }: { info?: boolean; by?: string } = {},
): string[] {
  // Info-level causes (where an OnDelete strategy came from) explain rather than alarm: shown
  // where they are the answer (rollout), with -o wide, and always in JSON.
  const causes = all?.filter((c) => info || ctx.wide || c.severity !== 'info');
  if (!causes?.length) return [];
  const shown = ctx.wide || markdown ? causes : causes.slice(0, SHOWN);
  const out: string[] = [];
  if (markdown) {
    out.push('', '**Root cause**', '');
    for (const c of shown) {
      out.push(`- **${c.code}** (${c.severity}): ${c.summary}`, `  - fix: ${c.fix}`);
      for (const e of c.evidence) out.push(`  - evidence: ${e}`);
      if (c.reference) out.push(`  - reference: ${c.reference}`);
    }
    return out;
  }
  shown.forEach((c, i) => {
    const label = i === 0 ? 'root cause' : 'also';
    out.push(
      ctx.para(
        `${by}${severityMark(ctx, c.severity)} ${ctx.chalk.bold(label)}: `,
        `${c.summary}  ${ctx.chalk.dim(`[${c.code}]`)}`,
        `${by}    `,
      ),
    );
    if (ctx.wide) for (const e of c.evidence) out.push(ctx.para(`${by}    ${ctx.chalk.dim('evidence:')} `, e));
    out.push(ctx.para(`${by}    ${ctx.chalk.cyan('fix:')} `, c.fix, `${by}      `));
    if (ctx.wide && c.reference) out.push(ctx.para(`${by}    ${ctx.chalk.dim('reference:')} `, c.reference));
  });
  if (shown.length < causes.length)
    out.push(ctx.para(`${by}  `, `… ${causes.length - shown.length} more root cause(s): -o wide or -o json`));
  return out;
}
