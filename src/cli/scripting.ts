/**
 * The flags and outputs for scripts, as kubectl has them: `-l/--selector` picks DaemonSets by
 * their labels, `-o name` prints `daemonset.apps/<name>` lines, `--no-headers` drops the header
 * of a table (and the prose after it), `scan --health` keeps some health states.
 */
import { Option, type Command } from 'commander';
import type { DaemonSet } from '../model/k8s-types.js';
import type { ScanHealth } from '../model/results.js';
import { InputError } from '../model/errors.js';
import { compileLabelSelector, parseSelectorString } from '../k8s/labels.js';
import { escapeTerminal } from '../render/sanitize.js';
import type { CommandContext } from './context.js';

export const HEALTHS: readonly ScanHealth[] = ['Healthy', 'Degraded', 'RollingOut', 'Stuck', 'Failing'];

/** Adds `-l/--selector` (DaemonSets by label) and `--no-headers`. */
export function addScriptingOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        '-l, --selector <selector>',
        'only DaemonSets whose labels match this selector, as kubectl get -l (e.g. app=agent,tier!=test)',
      ),
    )
    .addOption(
      new Option(
        '--no-headers',
        'table output without its header line, one line per DaemonSet (or finding), nothing else',
      ),
    );
}

/** `--health Degraded,Stuck` (repeatable; case does not matter). */
export function addHealthOption(cmd: Command): Command {
  return cmd.addOption(
    new Option(
      '--health <states>',
      `only DaemonSets in these health states (comma-separated: ${HEALTHS.join(', ')})`,
    ).argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
  );
}

/** The DaemonSet selector of -l: the text (sent to the API server) and a matcher for files. */
export interface DaemonSetSelector {
  text: string;
  matches(ds: DaemonSet): boolean;
}

/** Parses -l as the API server would; a bad selector is a usage error naming the flag. */
export function daemonSetSelectorOf(raw: Record<string, unknown>): DaemonSetSelector | undefined {
  const text = raw['selector'];
  if (typeof text !== 'string') return undefined;
  let compiled;
  try {
    compiled = compileLabelSelector(parseSelectorString(text));
  } catch (err) {
    throw new InputError(`-l/--selector: ${(err as Error).message}`);
  }
  if (!compiled.ok) throw new InputError(`-l/--selector: ${compiled.error}`);
  const matches = compiled.matches;
  return { text, matches: (ds) => matches(ds.metadata?.labels) };
}

/** The health states of --health, checked; undefined without the flag. */
export function healthFilterOf(raw: Record<string, unknown>): Set<ScanHealth> | undefined {
  const given = raw['health'] as string[] | undefined;
  if (!given) return undefined;
  const out = new Set<ScanHealth>();
  for (const v of given.flatMap((g) => g.split(',')).map((s) => s.trim())) {
    const match = HEALTHS.find((h) => h.toLowerCase() === v.toLowerCase());
    if (!match) throw new InputError(`--health: "${v}" is not a health state (one of ${HEALTHS.join(', ')})`);
    out.add(match);
  }
  return out;
}

/** `-o name`: one `daemonset.apps/<name>` line per DaemonSet, as kubectl get -o name prints them. */
export function writeNames(ctx: CommandContext, names: readonly string[]): void {
  ctx.io.stdout.write(names.map((n) => `daemonset.apps/${escapeTerminal(n)}\n`).join(''));
}
