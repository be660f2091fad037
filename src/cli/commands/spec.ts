/** The shape of one command: its usage line, help, extra flags and handler. */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

export interface CommandSpec {
  /** Commander usage, e.g. `why <daemonset> [node]`. */
  usage: string;
  description: string;
  examples: string[];
  /** Output formats -o accepts (default: table, wide, json, yaml, markdown). */
  formats?: readonly string[];
  /** Adds command-specific flags. */
  options?: (cmd: Command) => void;
  run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<number>;
}
