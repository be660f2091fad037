/**
 * kubectl-style tables (upper-case headers, no borders, two spaces between columns) built on
 * cli-table3, and Markdown tables for the same rows.
 */
import Table from 'cli-table3';
import type { RenderContext } from './context.js';

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

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** Visible width of a string (colour codes do not count). */
export function visibleWidth(text: string): number {
  return text.replace(ANSI, '').length;
}

/** Cuts plain text to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (max <= 1 || text.length <= max) return text;
  return `${text.slice(0, max - 1)}…`;
}

/**
 * Renders rows as a borderless table. The last column is truncated so that the table fits
 * `ctx.width` (wide output never truncates).
 */
export function renderTable(ctx: RenderContext, headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => visibleWidth(r[i] ?? ''))));
  const fixed = widths.slice(0, -1).reduce((a, b) => a + b + 2, 0);
  const lastMax = Math.max(20, ctx.width - fixed - 1);
  const body = ctx.wide ? rows : rows.map((r) => r.map((cell, i) => (i === r.length - 1 && visibleWidth(cell) === cell.length ? truncate(cell, lastMax) : cell)));
  const table = new Table({
    head: headers.map((h) => ctx.chalk.bold(h)),
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
  return text.replace(ANSI, '').replace(/\|/g, '\\|').replace(/\n/g, '<br>');
}

/** The same rows as a GitHub-flavoured Markdown table. */
export function renderMarkdownTable(headers: string[], rows: string[][]): string {
  const lines = [`| ${headers.map(escapeMarkdown).join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(escapeMarkdown).join(' | ')} |`)];
  return `${lines.join('\n')}\n`;
}
