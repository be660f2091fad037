/**
 * The ds-doctor command-line program: `main(argv, io) → exit code`. Commands are thin: they
 * load a snapshot, call one analysis, and hand the result to a renderer.
 */
import { Command, CommanderError } from 'commander';
import { DsDoctorError, EXIT } from '../model/errors.js';
import { guardStderr, type CliIO } from './io.js';
import { escapeTerminal } from '../render/sanitize.js';
import { addCommonOptions, globalOptions } from './options.js';
import { commandContext, type CommandContext } from './context.js';
import { COMMANDS } from './commands/index.js';
import { checkTargetArgs } from './scope.js';

export const VERSION = '0.1.0';

const EXAMPLES = `
Examples:
  # Health of every DaemonSet in a dump (or live: drop -f)
  ds-doctor scan -f fixtures/demo

  # Why is there no healthy pod of fluent-bit on node worker-1?
  ds-doctor why logging/fluent-bit worker-1

  # Every node without a healthy pod, with the scheduler-style summary
  ds-doctor why kube-system/calico-node

  # One row per node: verdict, pod, revision, reason
  ds-doctor nodes monitoring/node-exporter --verdict Excluded

  # Every DaemonSet against one node
  ds-doctor node worker-5

  # Is the rollout stuck, and why?
  ds-doctor rollout logging/fluent-bit

  # What breaks if this DaemonSet is deleted?
  ds-doctor impact kube-system/calico-node --cascade=orphan

  # Best-practice findings for manifests, as SARIF for code scanning
  ds-doctor lint -f manifests/ -o sarif

Exit codes: 0 nothing at or above --fail-on, 1 problems found, 2 usage or input error,
3 the cluster could not be read.`;

/** Runs the program; never throws. */
export async function main(argv: string[], rawIO: CliIO, clock: () => Date = () => new Date()): Promise<number> {
  const io = guardStderr(rawIO);
  let exitCode: number = EXIT.ok;
  let debug = argv.includes('--debug');
  const program = new Command('ds-doctor');
  program
    .description('Explains DaemonSets the way Kubernetes decides them.\nRuns as `kubectl ds-doctor` when installed on PATH.')
    .version(VERSION, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addHelpText('after', EXAMPLES)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s.split('\n')[0] + '\n'),
    });

  for (const spec of COMMANDS) {
    const cmd = program.command(spec.usage).description(spec.description);
    cmd.addHelpText('after', `\nExample:\n${spec.examples.map((e) => `  ${e}`).join('\n')}\n`);
    addCommonOptions(cmd, spec.formats);
    spec.options?.(cmd);
    cmd.exitOverride().configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s.split('\n')[0] + '\n'),
    });
    cmd.action(async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const raw = command.opts();
      debug = debug || Boolean(raw['debug']);
      const positional = command.args;
      const ctx: CommandContext = commandContext(globalOptions(raw, io.env, clock), io);
      checkTargetArgs(spec.usage, positional);
      exitCode = await spec.run(ctx, positional, raw);
    });
  }

  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.usage;
    }
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    if (err instanceof DsDoctorError) {
      io.stderr.write(`error: ${escapeTerminal(err.message)}\n`);
      if (debug && err.stack) io.stderr.write(`${err.stack}\n`);
      return err.exitCode;
    }
    const e = err as Error;
    io.stderr.write(`error: internal error: ${escapeTerminal(e?.message ?? String(err))} (run with --debug for details)\n`);
    if (debug && e?.stack) io.stderr.write(`${e.stack}\n`);
    return EXIT.usage;
  }
}
