/** Parses kubectl-style durations (`90`, `30s`, `10m`, `1h30m`) into seconds. */
import type { Command } from 'commander';
import { InputError } from '../model/errors.js';

export function parseDuration(flag: string, text: string): number {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t);
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let consumed = '';
  for (const m of t.matchAll(re)) {
    consumed += m[0];
    const v = Number(m[1]);
    total += m[2] === 'h' ? v * 3600 : m[2] === 'm' ? v * 60 : m[2] === 's' ? v : v / 1000;
  }
  if (!t || consumed !== t) throw new InputError(`${flag}: "${text}" is not a duration (e.g. 30s, 10m, 1h)`);
  return total;
}

/** `--stuck-after`, shared by the commands that judge whether a transient state is stuck (why, scan, rollout, node). */
export function addStuckAfterOption(cmd: Command): void {
  cmd.option(
    '--stuck-after <duration>',
    'how long a transient state (ContainerCreating, a new pod starting or waiting for the scheduler) may last, beyond minReadySeconds, before it counts as stuck',
    '10m',
  );
}

/** The value of `--stuck-after` in seconds. */
export function stuckAfterOf(raw: Record<string, unknown>): number {
  return parseDuration('--stuck-after', String((raw['stuckAfter'] as string | undefined) ?? '10m'));
}
