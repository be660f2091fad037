/**
 * How far the heap may grow between full garbage collections when a large YAML dump is read. V8
 * lets a heap that keeps growing double, or more, before it collects again; a YAML dump leaves
 * much garbage per object (the translated JSON text, the text it came from), so the peak is then
 * far above the objects kept. Bounding the growth to GROWING_PERCENT after each full collection
 * holds the peak near them: on the benchmark's 5,000-node YAML List (733 MiB, the pods' equal
 * parts shared as they are read, src/load/share.ts), 669 MiB against 997 MiB unbounded, for 13.5 s
 * against 11.7 s, two runs each (20% gave no lower peak for 15.4 s). Below BOUND_ABOVE the
 * process' own memory (about 80 MiB) is most of the peak, and the bound would only cost time; JSON
 * leaves little garbage and is not bounded (at 1,000 nodes it saved nothing and cost 15%).
 *
 * V8 takes the bound as a flag at process start only (Node's documentation calls flags set at run
 * time unpredictable, and NODE_OPTIONS refuses this one): bin/launch.js asks heapFlags() before it
 * runs the CLI, and starts Node again with the flag when the YAML inputs it can size (files,
 * folders, a file redirected to stdin) exceed BOUND_ABOVE. A pipe cannot be sized:
 * `DS_DOCTOR_HEAP_BOUND=1` bounds the heap whatever the input, `DS_DOCTOR_HEAP_BOUND=0` never.
 * This module imports node:fs alone, so the launcher pays nothing for it.
 */
import { fstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes of YAML input above which the heap's growth is bounded. */
export const BOUND_ABOVE = 256 << 20;

/** The heap's growth after each full collection, in percent of what it kept (V8's `--heap-growing-percent`). */
export const GROWING_PERCENT = 30;

/** The V8 flag that bounds the heap's growth. */
export const GROWING_FLAG = `--heap-growing-percent=${GROWING_PERCENT}`;

/** Directory entries looked at, at most, when sizing the YAML under the folders named. */
const MAX_ENTRIES = 20_000;

function isJsonName(path: string): boolean {
  return path.endsWith('.json');
}

/** The paths given to `-f` / `--filename` in `argv` (commander's spellings), up to a `--`. */
export function filenameArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if ((a === '-f' || a === '--filename') && i + 1 < argv.length) out.push(argv[++i]!);
    else if (a.startsWith('--filename=')) out.push(a.slice('--filename='.length));
    else if (a.startsWith('-f') && a.length > 2 && !a.startsWith('--')) out.push(a.slice(2));
  }
  return out;
}

/** Bytes of YAML under `path` (a file not named .json, or the .yaml/.yml files of a folder, recursively), counted up to `limit`. */
function yamlBytes(path: string, limit: number, budget: { entries: number }): number {
  let st;
  try {
    st = path === '-' ? fstatSync(0) : statSync(path);
  } catch {
    return 0;
  }
  if (st.isFile()) return path !== '-' && isJsonName(path) ? 0 : st.size;
  if (!st.isDirectory() || path === '-') return 0;
  let total = 0;
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (total > limit || --budget.entries < 0) break;
    const child = join(path, e.name);
    if (e.isDirectory()) total += yamlBytes(child, limit - total, budget);
    else if (/\.ya?ml$/i.test(e.name) && (e.isFile() || e.isSymbolicLink())) {
      try {
        const s = statSync(child);
        if (s.isFile()) total += s.size;
      } catch {
        // Unreadable: the loader says so.
      }
    }
  }
  return total;
}

/**
 * The V8 flags to start the CLI with for `argv` (the words after the command's name): the heap
 * bound when the YAML named there exceeds BOUND_ABOVE, or when `DS_DOCTOR_HEAP_BOUND=1`; none when
 * the process already has them (`execArgv`) or `DS_DOCTOR_HEAP_BOUND=0`.
 */
export function heapFlags(argv: readonly string[], env: NodeJS.ProcessEnv, execArgv: readonly string[]): string[] {
  if (execArgv.some((a) => a.startsWith('--heap-growing-percent'))) return [];
  const forced = env['DS_DOCTOR_HEAP_BOUND'];
  if (forced === '0') return [];
  if (forced === '1') return [GROWING_FLAG];
  const budget = { entries: MAX_ENTRIES };
  let total = 0;
  for (const path of filenameArgs(argv)) {
    total += yamlBytes(path, BOUND_ABOVE - total, budget);
    if (total > BOUND_ABOVE) return [GROWING_FLAG];
  }
  return [];
}
