/** Presentation settings shared by the human renderers: colour, terminal width, wrapping. */
import { Chalk, type ChalkInstance } from 'chalk';
import { wrap } from './wrap.js';

export interface RenderContext {
  color: boolean;
  chalk: ChalkInstance;
  /** Columns available (a terminal's width); tables are cut to fit. Infinity when piped. */
  width: number;
  /** Columns prose is wrapped to: the terminal's width when stdout is one, else Infinity (one line per item). */
  wrapWidth: number;
  wide: boolean;
  /** --no-headers: tables without their header line. */
  noHeaders?: boolean;
  /**
   * One paragraph of prose wrapped to `wrapWidth`: `first` (a prefix such as an indent and a
   * mark) then `text`, continuation lines indented by `hang` (by default under the text).
   */
  para(first: string, text: string, hang?: string): string;
}

export function renderContext(options: {
  color: boolean;
  columns?: number;
  wide?: boolean;
  wrap?: boolean;
  noHeaders?: boolean;
}): RenderContext {
  const width = options.columns && options.columns > 40 ? options.columns : Number.POSITIVE_INFINITY;
  // One column is left free at the right edge, so that no terminal wraps a full line.
  const wrapWidth = options.wrap ? width - 1 : Number.POSITIVE_INFINITY;
  return {
    color: options.color,
    chalk: new Chalk({ level: options.color ? 1 : 0 }),
    width,
    wrapWidth,
    wide: options.wide ?? false,
    ...(options.noHeaders ? { noHeaders: true } : {}),
    // The default output cuts a command too wide for the terminal (pointing to -o wide); wide output keeps it whole.
    para: (first, text, hang) => wrap(first, text, wrapWidth, hang, { elideLongCommands: !options.wide }),
  };
}
