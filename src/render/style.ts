/** Colours for verdicts, health and severities (only ever applied in render/). */
import type { RenderContext } from './context.js';
import type { ScanHealth, Severity, Verdict } from '../model/results.js';

export function colorVerdict(ctx: RenderContext, v: Verdict): string {
  const c = ctx.chalk;
  switch (v) {
    case 'Healthy':
      return c.green(v);
    case 'Excluded':
      return c.dim(v);
    case 'Misscheduled':
      return c.yellow(v);
    default:
      return c.red(v);
  }
}

export function colorHealth(ctx: RenderContext, h: ScanHealth): string {
  const c = ctx.chalk;
  switch (h) {
    case 'Healthy':
      return c.green(h);
    case 'RollingOut':
      return c.cyan(h);
    case 'Degraded':
      return c.yellow(h);
    default:
      return c.red(h);
  }
}

export function severityMark(ctx: RenderContext, s: Severity): string {
  const c = ctx.chalk;
  switch (s) {
    case 'error':
      return c.red('✗');
    case 'warning':
      return c.yellow('!');
    default:
      return c.blue('i');
  }
}

/** Indents every line of a block. */
export function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
}
