/** The shape of one command: its usage line, help, extra flags and handler. */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { OutputFileOption } from '../options.js';

export interface CommandSpec {
  /** Commander usage, e.g. `why <daemonset> [node]`. */
  usage: string;
  description: string;
  examples: string[];
  /** Output formats -o accepts (default: table, wide, json, yaml, markdown), or the help of an -o that names the file written. */
  formats?: readonly string[] | OutputFileOption;
  /** Reads several clusters (`--context` repeated, `--all-contexts`); every other command refuses several contexts. */
  multiContext?: true;
  /** Adds command-specific flags. */
  options?: (cmd: Command) => void;
  run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<number>;
}
