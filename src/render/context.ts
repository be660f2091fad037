/** Presentation settings shared by the human renderers: colour and terminal width. */
import { Chalk, type ChalkInstance } from 'chalk';

export interface RenderContext {
  color: boolean;
  chalk: ChalkInstance;
  /** Columns available (a terminal's width); tables are cut to fit. Infinity when piped. */
  width: number;
  wide: boolean;
}

export function renderContext(options: { color: boolean; columns?: number; wide?: boolean }): RenderContext {
  return {
    color: options.color,
    chalk: new Chalk({ level: options.color ? 1 : 0 }),
    width: options.columns && options.columns > 40 ? options.columns : Number.POSITIVE_INFINITY,
    wide: options.wide ?? false,
  };
}
