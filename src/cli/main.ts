/**
 * The ds-doctor command-line program: `main(argv, io) → exit code`. Commands are thin: they
 * load a snapshot, call one analysis, and hand the result to a renderer.
 */
import type { Command } from 'commander';
import { CommanderError } from 'commander';
import { DsDoctorError, EXIT, InputError } from '../model/errors.js';
import { guardStderr, type CliIO } from './io.js';
import { escapeTerminal } from '../render/sanitize.js';
import { globalOptions } from './options.js';
import { checkTargetArgs } from './scope.js';
import { buildProgram, normalizeArgv } from './program.js';
import { asProgram } from './program-name.js';
import { versionInfo, versionLine } from './version.js';

export { VERSION } from './version.js';

/** The hidden command the completion scripts and kubectl_complete-ds_doctor call (cobra's protocol). */
export const COMPLETE_COMMAND = '__complete';

/** `version [-o json|yaml]`. */
async function printVersion(io: CliIO, format: unknown): Promise<number> {
  const info = versionInfo();
  if (format === 'json' || format === 'yaml') {
    const { renderJson, renderYaml } = await import('../render/document.js');
    io.stdout.write(format === 'json' ? renderJson(info) : renderYaml(info));
  } else {
    io.stdout.write(`${versionLine(info)}\n`);
  }
  return EXIT.ok;
}

/** `completion <shell>`: the script, loaded only for this command. */
async function printCompletion(io: CliIO, shell: string): Promise<number> {
  const { completionScript } = await import('./completion-scripts.js');
  io.stdout.write(completionScript(shell));
  return EXIT.ok;
}

/** Runs the program; never throws. */
export async function main(argv: string[], rawIO: CliIO, clock: () => Date = () => new Date()): Promise<number> {
  const io = guardStderr(rawIO);
  if (argv[0] === COMPLETE_COMMAND) {
    const { complete } = await import('./complete.js');
    return complete(argv.slice(1), io);
  }
  let exitCode: number = EXIT.ok;
  let debug = argv.includes('--debug');
  const program = buildProgram(
    io,
    async (spec, command: Command, args, raw) => {
      debug = debug || Boolean(raw['debug']);
      if (spec) {
        // The loaders and renderers are loaded when a command runs, so that --help and --version start without them.
        const { commandContext } = await import('./context.js');
        const opts = globalOptions(raw, io.env, clock);
        if (opts.contexts && !spec.multiContext) {
          throw new InputError(
            `--context: ${command.name()} reads one cluster; only scan and lint read several (--context given ${opts.contexts.length} times)`,
          );
        }
        const ctx = commandContext(opts, io);
        checkTargetArgs(spec.usage, args);
        exitCode = await spec.run(ctx, args, raw);
      } else if (command.name() === 'version') {
        exitCode = await printVersion(io, raw['output']);
      } else {
        exitCode = await printCompletion(io, args[0]!);
      }
    },
    () => versionLine(versionInfo()),
  );

  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.usage;
    }
    await program.parseAsync(
      normalizeArgv(
        argv,
        program.commands.map((c) => c.name()),
      ),
      { from: 'user' },
    );
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return EXIT.ok;
      return EXIT.usage;
    }
    if (err instanceof DsDoctorError) {
      io.stderr.write(`error: ${asProgram(escapeTerminal(err.message), io.programName ?? 'ds-doctor')}\n`);
      if (debug && err.stack) io.stderr.write(`${err.stack}\n`);
      return err.exitCode;
    }
    const e = err as Error;
    io.stderr.write(
      `error: internal error: ${escapeTerminal(e?.message ?? String(err))} (run with --debug for details)\n`,
    );
    if (debug && e?.stack) io.stderr.write(`${e.stack}\n`);
    return EXIT.usage;
  }
}
