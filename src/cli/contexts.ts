/**
 * Commands that read several clusters (`scan`, `lint`): `--context` repeated or
 * `--all-contexts`. Each context is read as if it were the only one, at most four at a time; a
 * context that cannot be read gives its error line and exit code, and the others still answer.
 */
import { DsDoctorError, InputError } from '../model/errors.js';
import type { ContextPart } from '../analyze/contexts.js';
import type { Command } from 'commander';
import type { CommandContext } from './context.js';

/** Contexts read at the same time. */
export const CONTEXT_CONCURRENCY = 4;

/** `--all-contexts`, for the commands that read several clusters. */
export function addAllContextsOption(cmd: Command): void {
  cmd.option(
    '--all-contexts',
    'read every context of the kubeconfig (at most 4 at a time); one CONTEXT column, worst exit code',
    false,
  );
}

/**
 * The contexts to read, or undefined for the usual one: `--context` given several times, or
 * every context of the kubeconfig (sorted by name) with `--all-contexts`.
 */
export async function contextsToRead(ctx: CommandContext, raw: Record<string, unknown>): Promise<string[] | undefined> {
  const all = Boolean(raw['allContexts']);
  if (!all && !ctx.opts.contexts) return undefined;
  if (all && (ctx.opts.context || ctx.opts.contexts))
    throw new InputError('--all-contexts: reads every context; do not name contexts with --context as well');
  if (ctx.opts.filenames.length)
    throw new InputError(
      `${all ? '--all-contexts' : '--context'}: several clusters are read live; with -f no cluster is contacted`,
    );
  if (ctx.opts.dump) throw new InputError('--dump: writes the snapshot of one cluster; not with several contexts');
  if (ctx.opts.contexts) return ctx.opts.contexts;
  const { kubeconfigContextNames } = await import('../load/live.js');
  return kubeconfigContextNames(ctx.liveOptions());
}

/**
 * Runs `read` for each context, as if `--context <it>` alone were given, at most
 * CONTEXT_CONCURRENCY at a time; the parts come back in the contexts' order. An error of ours
 * (exit 2 or 3) is that context's part; anything else is a bug and is thrown.
 */
export async function eachContext<T>(
  ctx: CommandContext,
  names: string[],
  read: (one: CommandContext) => Promise<{ result: T; exitCode: number }>,
): Promise<ContextPart<T>[]> {
  const parts: ContextPart<T>[] = new Array<ContextPart<T>>(names.length);
  // Loaded here, not at the top: the command modules import this file, and --help loads no renderer.
  const { commandContext } = await import('./context.js');
  let next = 0;
  // No progress line: several loads at once would write over each other's.
  const { status: _status, ...io } = ctx.io;
  const worker = async () => {
    while (next < names.length) {
      const i = next++;
      const context = names[i]!;
      const { contexts: _contexts, ...opts } = ctx.opts;
      try {
        const { result, exitCode } = await read(
          commandContext({ ...opts, context, now: new Date(ctx.opts.now.getTime()) }, io),
        );
        parts[i] = { context, result, exitCode };
      } catch (err) {
        if (!(err instanceof DsDoctorError)) throw err;
        parts[i] = { context, exitCode: err.exitCode, error: err.message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONTEXT_CONCURRENCY, names.length) }, worker));
  return parts;
}
