/**
 * Shell completion: `ds-doctor __complete <words…> <partial word>` prints the candidates, one a
 * line (`value<TAB>description` where one helps), then `:<directive>`, the protocol of cobra's
 * `__complete` that kubectl ≥ 1.26 expects from `kubectl_complete-<plugin>` (kubernetes v1.35
 * staging/src/k8s.io/kubectl/pkg/cmd/plugin/plugin_completion.go#getPluginCompletions). The
 * shell scripts of `ds-doctor completion` call it too. Commands, flags and flag choices come
 * from the commander program; DaemonSet, node and namespace names from the `-f` input, else from
 * the cluster (one short request). Completion never fails: any error means no candidates.
 */
import type { Command, Option } from 'commander';
import { VERDICTS } from '../model/results.js';
import type { CliIO } from './io.js';
import { buildProgram, commonOptions } from './program.js';
import { kubeconfigOptions } from './context.js';
import { connectionFlags } from './options.js';
import { parseDuration } from './duration.js';

/** cobra's ShellCompDirective values that ds-doctor uses. */
export const DIRECTIVE = { default: 0, noFileComp: 4 } as const;

export interface Completion {
  candidates: string[];
  directive: number;
}

/** What the words before the partial one say: the command, its flags and its positional arguments. */
interface Parsed {
  command?: Command;
  flags: Map<string, string[]>;
  positional: string[];
  /** The flag whose value the partial word is (`-o <TAB>`). */
  pendingFlag?: Option;
}

/** Where live names come from: the `-f` input, or the cluster of the kubeconfig. */
export type NameSource = (
  kind: 'DaemonSet' | 'Node' | 'Namespace',
  flags: Map<string, string[]>,
) => Promise<{ namespace?: string; name: string }[]>;

const FILE_FLAGS = new Set(['filename', 'kubeconfig', 'dump', 'clusterDump']);
const LIVE_TIMEOUT_MS = 5000;

function findOption(cmd: Command, word: string): Option | undefined {
  return cmd.options.find((o) => o.long === word || o.short === word);
}

function takesValue(o: Option): boolean {
  return o.required || o.optional;
}

/** Reads the complete words (all but the partial one) the way commander will parse them. */
export function parseWords(program: Command, words: string[]): Parsed {
  const parsed: Parsed = { flags: new Map(), positional: [] };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const cmd = parsed.command ?? program;
    if (word.startsWith('-') && word !== '-') {
      const [flag, inline] =
        word.startsWith('--') && word.includes('=')
          ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
          : [word, undefined];
      // The shared flags may come before the command, as kubectl's do.
      const option =
        findOption(cmd, flag) ??
        (parsed.command ? undefined : commonOptions().find((o) => o.long === flag || o.short === flag));
      if (!option) continue;
      const key = option.attributeName();
      let value = inline ?? 'true';
      if (takesValue(option) && inline === undefined) {
        if (i + 1 === words.length) {
          parsed.pendingFlag = option;
          break;
        }
        value = words[++i]!;
      }
      parsed.flags.set(key, [...(parsed.flags.get(key) ?? []), value]);
    } else if (!parsed.command) {
      parsed.command = program.commands.find((c) => c.name() === word || c.aliases().includes(word));
      if (!parsed.command) {
        parsed.positional.push(word);
        return parsed;
      }
    } else {
      parsed.positional.push(word);
    }
  }
  return parsed;
}

/** `name<TAB>description` for shells that show descriptions (the bash script drops them). */
function described(value: string, description: string): string {
  return description ? `${value}\t${description.split('\n')[0]}` : value;
}

function byPrefix(values: string[], prefix: string): string[] {
  return values.filter((v) => v.startsWith(prefix));
}

function flagCandidates(cmd: Command, partial: string, given: Map<string, string[]>): Completion {
  const flags: string[] = [];
  for (const o of cmd.options) {
    if (o.hidden) continue;
    // A flag already given is not offered again, except a repeatable one (-f; --context on the commands that read several clusters).
    if (
      given.has(o.attributeName()) &&
      o.attributeName() !== 'filename' &&
      !(o.attributeName() === 'context' && cmd.options.some((x) => x.long === '--all-contexts'))
    )
      continue;
    if (o.long) flags.push(described(o.long, o.description));
    if (o.short && partial.length < 3 && !partial.startsWith('--')) flags.push(described(o.short, o.description));
  }
  // commander keeps the help flag apart from cmd.options.
  flags.push(described('--help', 'show help'));
  return { candidates: byPrefix(flags, partial), directive: DIRECTIVE.noFileComp };
}

/** Names of DaemonSets: `namespace/name`, or `name` when -n picks the namespace. */
async function daemonSetNames(parsed: Parsed, names: NameSource): Promise<string[]> {
  const namespace = parsed.flags.get('namespace')?.at(-1);
  const all = await names('DaemonSet', parsed.flags);
  return all
    .filter((d) => namespace === undefined || d.namespace === namespace)
    .map((d) => (namespace !== undefined || !d.namespace ? d.name : `${d.namespace}/${d.name}`))
    .sort();
}

async function namesOf(kind: 'Node' | 'Namespace', parsed: Parsed, names: NameSource): Promise<string[]> {
  return [...new Set((await names(kind, parsed.flags)).map((n) => n.name))].sort();
}

/** Values of a flag: its choices, a comma-separated verdict list, names, or files. */
async function flagValues(option: Option, partial: string, parsed: Parsed, names: NameSource): Promise<Completion> {
  const key = option.attributeName();
  // report's -o names the file it writes: an -o without choices is a file.
  if (FILE_FLAGS.has(key) || (key === 'output' && !option.argChoices))
    return { candidates: [], directive: DIRECTIVE.default };
  if (option.argChoices) return { candidates: byPrefix(option.argChoices, partial), directive: DIRECTIVE.noFileComp };
  if (key === 'verdict') {
    const done = partial.includes(',') ? partial.slice(0, partial.lastIndexOf(',') + 1) : '';
    const chosen = new Set(done.split(',').filter(Boolean));
    const values = VERDICTS.filter((v) => !chosen.has(v)).map((v) => `${done}${v}`);
    return { candidates: byPrefix(values, partial), directive: DIRECTIVE.noFileComp };
  }
  if (key === 'namespace')
    return {
      candidates: byPrefix(await namesOf('Namespace', parsed, names), partial),
      directive: DIRECTIVE.noFileComp,
    };
  return { candidates: [], directive: DIRECTIVE.noFileComp };
}

/** Values of the next positional argument: DaemonSet, node or shell names. */
async function argumentValues(cmd: Command, partial: string, parsed: Parsed, names: NameSource): Promise<Completion> {
  const argument = cmd.registeredArguments[parsed.positional.length];
  const none = { candidates: [], directive: DIRECTIVE.noFileComp };
  if (!argument) return none;
  if (argument.argChoices)
    return { candidates: byPrefix(argument.argChoices, partial), directive: DIRECTIVE.noFileComp };
  if (argument.name() === 'daemonset')
    return { candidates: byPrefix(await daemonSetNames(parsed, names), partial), directive: DIRECTIVE.noFileComp };
  if (argument.name() === 'node')
    return { candidates: byPrefix(await namesOf('Node', parsed, names), partial), directive: DIRECTIVE.noFileComp };
  return none;
}

/** The candidates for the last word of `words` (the partial one, possibly empty). */
export async function completeWords(program: Command, words: string[], names: NameSource): Promise<Completion> {
  const partial = words.at(-1) ?? '';
  const parsed = parseWords(program, words.slice(0, -1));
  const cmd = parsed.command ?? program;
  if (parsed.pendingFlag) return flagValues(parsed.pendingFlag, partial, parsed, names);
  if (partial.startsWith('--') && partial.includes('=')) {
    const flag = partial.slice(0, partial.indexOf('='));
    const option = findOption(cmd, flag);
    if (!option || !takesValue(option)) return { candidates: [], directive: DIRECTIVE.noFileComp };
    const values = await flagValues(option, partial.slice(flag.length + 1), parsed, names);
    return { ...values, candidates: values.candidates.map((v) => `${flag}=${v}`) };
  }
  if (partial.startsWith('-')) return flagCandidates(cmd, partial, parsed.flags);
  if (!parsed.command) {
    // An unknown command has nothing to complete.
    if (parsed.positional.length) return { candidates: [], directive: DIRECTIVE.noFileComp };
    const commands = program.commands.map((c) => described(c.name(), c.description()));
    return { candidates: byPrefix(commands, partial), directive: DIRECTIVE.noFileComp };
  }
  return argumentValues(parsed.command, partial, parsed, names);
}

/** Names from the `-f` input when given (never stdin), else from the cluster. */
export function nameSource(io: CliIO): NameSource {
  return async (kind, flags) => {
    const files = flags.get('filename') ?? [];
    if (files.length) {
      if (files.includes('-')) return [];
      const { loadFiles } = await import('../load/files.js');
      const snapshot = await loadFiles(files, async () => '');
      if (kind === 'Namespace') {
        // A dump often has no Namespace objects: the DaemonSets' namespaces are the useful ones.
        return [
          ...snapshot.namespaces.map((n) => n.metadata?.name),
          ...snapshot.daemonSets.map((d) => d.metadata?.namespace),
        ]
          .filter((name): name is string => Boolean(name))
          .map((name) => ({ name }));
      }
      return (kind === 'DaemonSet' ? snapshot.daemonSets : snapshot.nodes)
        .map((o) => ({
          ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
          name: o.metadata?.name ?? '',
        }))
        .filter((o) => o.name !== '');
    }
    const { listNames } = await import('../load/live.js');
    const timeout = flags.get('requestTimeout')?.at(-1);
    const timeoutMs = timeout
      ? Math.min(parseDuration('--request-timeout', timeout) * 1000, LIVE_TIMEOUT_MS)
      : LIVE_TIMEOUT_MS;
    const kubeconfig = flags.get('kubeconfig')?.at(-1);
    const context = flags.get('context')?.at(-1);
    const namespace = kind === 'DaemonSet' ? flags.get('namespace')?.at(-1) : undefined;
    // The connection flags given so far (--server, --token, --as, …) reach the cluster as the command will.
    const raw: Record<string, unknown> = Object.fromEntries(
      [...flags].map(([k, v]) => [k, k === 'asGroup' ? v : v.at(-1)]),
    );
    if (raw['insecureSkipTlsVerify'] !== undefined) raw['insecureSkipTlsVerify'] = true;
    return listNames(kind, {
      ...kubeconfigOptions(
        { ...(kubeconfig ? { kubeconfig } : {}), ...(context ? { context } : {}), connection: connectionFlags(raw) },
        io.env,
        timeoutMs,
      ),
      ...(namespace ? { namespace } : {}),
    });
  };
}

/** Writes the candidates and the directive; any failure (no cluster, bad file) gives none. */
export async function complete(words: string[], io: CliIO, names: NameSource = nameSource(io)): Promise<number> {
  const quiet: CliIO = { ...io, stdout: { write: () => true }, stderr: { write: () => true } };
  const program = buildProgram(
    quiet,
    async () => undefined,
    () => '',
  );
  let result: Completion;
  try {
    result = await completeWords(program, words.length ? words : [''], names);
  } catch {
    result = { candidates: [], directive: DIRECTIVE.noFileComp };
  }
  io.stdout.write(result.candidates.map((c) => `${c}\n`).join('') + `:${result.directive}\n`);
  return 0;
}
