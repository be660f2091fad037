/**
 * The commander program: every command of the contract with its flags, help and examples. Built
 * by `main` to run a command and by the completion engine to read the flags and arguments.
 */
import { Argument, Command, CommanderError, Option } from 'commander';
import type { CliIO } from './io.js';
import { addCommonOptions } from './options.js';
import { asProgram, oneLineError } from './program-name.js';
import { COMMANDS } from './commands/index.js';
import type { CommandSpec } from './commands/spec.js';

export const EXAMPLES = `
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

  # Shell completion (bash, zsh, fish, powershell)
  source <(ds-doctor completion bash)

Exit codes: 0 nothing at or above --fail-on, 1 problems found, 2 usage or input error,
3 the cluster could not be read.`;

/** Runs a command: the spec (undefined for the built-in `version` and `completion`), its positional arguments and raw options. */
export type CommandHandler = (
  spec: CommandSpec | undefined,
  command: Command,
  args: string[],
  raw: Record<string, unknown>,
) => Promise<void>;

/** Sends commander's output to the CLI's streams, an error on one line with its suggestion. */
function useIO(cmd: Command, io: CliIO, name: string): Command {
  return cmd.exitOverride().configureOutput({
    writeOut: (s) => io.stdout.write(asProgram(s, name)),
    writeErr: (s) => io.stderr.write(asProgram(s, name)),
    outputError: (s, write) => write(oneLineError(s)),
  });
}

/** The example block of a command's `--help`, in kubectl's layout. */
export function examplesHelp(examples: string[]): string {
  return `\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}\n`;
}

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;

/** Builds the program; `handle` runs when a command's arguments and flags were parsed. */
export function buildProgram(io: CliIO, handle: CommandHandler, versionText: () => string): Command {
  const name = io.programName ?? 'ds-doctor';
  const program = useIO(new Command(name), io, name);
  program
    .description(
      'Explains DaemonSets the way Kubernetes decides them.\nRuns as `kubectl ds-doctor` when installed on PATH.',
    )
    .option('--version', 'print the version, the commit and the Node.js version')
    .helpOption('-h, --help', 'show help')
    .addHelpText('after', EXAMPLES)
    .showSuggestionAfterError(true);
  // Handled here rather than by commander's .version(), which prints the bare version only.
  program.on('option:version', () => {
    io.stdout.write(`${versionText()}\n`);
    throw new CommanderError(0, 'commander.version', versionText());
  });

  for (const spec of COMMANDS) {
    const cmd = useIO(program.command(spec.usage).description(spec.description), io, name);
    cmd.addHelpText('after', examplesHelp(spec.examples));
    addCommonOptions(cmd, spec.formats);
    spec.options?.(cmd);
    cmd.action((...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      return handle(spec, command, command.args, command.opts());
    });
  }

  const version = useIO(
    program.command('version').description('Print the version, the commit it was built from and the Node.js version'),
    io,
    name,
  );
  version.addOption(
    new Option('-o, --output <format>', 'output format').choices(['text', 'json', 'yaml']).default('text'),
  );
  version.addHelpText('after', examplesHelp(['ds-doctor version', 'kubectl ds-doctor version -o json']));
  version.action((...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    return handle(undefined, command, command.args, command.opts());
  });

  const completion = useIO(program.command('completion').description('Print the shell completion script'), io, name);
  completion.addArgument(new Argument('<shell>', 'the shell').choices([...SHELLS]));
  completion.addHelpText(
    'after',
    examplesHelp([
      'source <(ds-doctor completion bash)                       # bash, in ~/.bashrc',
      'ds-doctor completion zsh > "${fpath[1]}/_ds-doctor"       # zsh',
      'ds-doctor completion fish > ~/.config/fish/completions/ds-doctor.fish',
      'ds-doctor completion powershell | Out-String | Invoke-Expression',
      '# kubectl ds-doctor <TAB> (kubectl 1.26+) uses kubectl_complete-ds_doctor on PATH, which ships with ds-doctor',
    ]),
  );
  completion.action((...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    return handle(undefined, command, command.args, command.opts());
  });
  return program;
}

/** The flags every command shares (those that may come before the command, as kubectl's do). */
export function commonOptions(): readonly Option[] {
  return addCommonOptions(new Command()).options;
}

/** The shared option a word names (`--context`, `--context=x`, `-n`, `-nkube-system`), and whether its value is in the word. */
export function findCommonOption(
  options: readonly Option[],
  word: string,
): { option: Option; inline: boolean } | undefined {
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    const option = options.find((o) => o.long === (eq > 0 ? word.slice(0, eq) : word));
    return option ? { option, inline: eq > 0 } : undefined;
  }
  const option = options.find((o) => o.short === word.slice(0, 2));
  return option ? { option, inline: word.length > 2 } : undefined;
}

/**
 * The arguments as commander reads them, kubectl's way:
 * - the shared flags may come before the command (`ds-doctor --context prod -n kube-system why
 *   calico-node`, as cobra and so kubectl plugins accept): they are moved after it. Words before
 *   the first command name that are not shared flags are moved too, so that commander names an
 *   unknown flag with its suggestion.
 * - `--insecure-skip-tls-verify=true|false`, as kubectl's boolean flags are written, becomes
 *   the flag or nothing.
 */
export function normalizeArgv(argv: string[], commandNames: readonly string[]): string[] {
  const end = argv.indexOf('--');
  const head = (end < 0 ? argv : argv.slice(0, end)).flatMap((w) => {
    const m = /^--insecure-skip-tls-verify=(true|false|1|0|t|f|TRUE|FALSE|True|False)$/.exec(w);
    if (!m) return [w];
    return /^(true|1|t)$/i.test(m[1]!) ? ['--insecure-skip-tls-verify'] : [];
  });
  const words = end < 0 ? head : [...head, ...argv.slice(end)];
  if (!words[0]?.startsWith('-') || words[0] === '-' || words[0] === '--') return words;
  const options = commonOptions();
  let i = 0;
  while (i < words.length) {
    const word = words[i]!;
    if (word === '--') return words;
    if (commandNames.includes(word)) break;
    if (word.startsWith('-') && word !== '-') {
      const found = findCommonOption(options, word);
      i += found && (found.option.required || found.option.optional) && !found.inline ? 2 : 1;
      continue;
    }
    i++;
  }
  if (i === 0 || i >= words.length) return words;
  return [words[i]!, ...words.slice(0, i), ...words.slice(i + 1)];
}
