/**
 * kubectl-style tables (upper-case headers, no borders, two spaces between columns) built on
 * cli-table3, and Markdown tables for the same rows.
 */
import Table from 'cli-table3';
import type { RenderContext } from './context.js';
import { displayWidth, stripAnsi, truncateVisible } from './wrap.js';

const NO_BORDER = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/** Visible width of a string (colour codes do not count; wide characters count two columns). */
export function visibleWidth(text: string): number {
  return displayWidth(text);
}

/** Cuts text to `max` columns with an ellipsis (colour codes kept). */
export function truncate(text: string, max: number): string {
  return max <= 1 ? text : truncateVisible(text, max);
}

/** The narrowest a column is cut to: its header, and never below a few characters. */
const MIN_COLUMN = 8;
/** The last column (a reason, a sentence) is cut to this width first, before any other column. */
const MIN_LAST = 20;

/**
 * Column widths that fit `width`: the last column is cut first (down to {@link MIN_LAST}), then
 * the widest column one character at a time, none below its header or {@link MIN_COLUMN}. One
 * column is left free at the right edge, so that no terminal wraps a full line.
 */
export function fitColumns(headers: string[], widths: number[], width: number): number[] {
  const out = [...widths];
  if (!Number.isFinite(width) || !out.length) return out;
  const room = width - 1;
  const total = () => out.reduce((a, b) => a + b, 0) + 2 * (out.length - 1);
  const last = out.length - 1;
  const lastFloor = Math.max(Math.min(out[last]!, MIN_LAST), headers[last]!.length);
  out[last] = Math.max(lastFloor, out[last]! - Math.max(0, total() - room));
  // Then the widest of the other columns, and only when they are all at their floor, the last one too.
  for (const others of [true, false]) {
    while (total() > room) {
      let widest = -1;
      for (let i = 0; i < out.length; i++) {
        const floor = Math.max(headers[i]!.length, MIN_COLUMN);
        if ((others && i === last) || out[i]! <= floor) continue;
        if (widest < 0 || out[i]! > out[widest]!) widest = i;
      }
      if (widest < 0) break;
      out[widest]!--;
    }
  }
  return out;
}

/**
 * Renders rows as a borderless table, measured and cut the same way with or without colour, so
 * that it fits `ctx.width` (wide output never cuts).
 */
export function renderTable(ctx: RenderContext, headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => visibleWidth(r[i] ?? ''))));
  const fitted = ctx.wide ? widths : fitColumns(headers, widths, ctx.width);
  const body = rows.map((r) =>
    r.map((cell, i) => (visibleWidth(cell) > fitted[i]! ? truncate(cell, fitted[i]!) : cell)),
  );
  const table = new Table({
    head: ctx.noHeaders ? [] : headers.map((h) => ctx.chalk.bold(h)),
    chars: NO_BORDER,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    wordWrap: false,
  });
  for (const r of body) table.push(r);
  return `${table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')}\n`;
}

function escapeMarkdown(text: string): string {
  return stripAnsi(text).replace(/\|/g, '\\|').replace(/\n/g, '<br>');
}

/** The same rows as a GitHub-flavoured Markdown table. */
export function renderMarkdownTable(headers: string[], rows: string[][]): string {
  const lines = [
    `| ${headers.map(escapeMarkdown).join(' | ')} |`,
    `|${headers.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(escapeMarkdown).join(' | ')} |`),
  ];
  return `${lines.join('\n')}\n`;
}
