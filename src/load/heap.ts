/**
 * How far the heap may grow between full garbage collections once a large YAML dump is being
 * read. V8 lets a heap that keeps growing double, or more, before it collects again; a YAML dump
 * leaves much garbage per object (the translated JSON text, the text it came from), so the peak
 * is then far above the objects kept. Bounding the growth to GROWING_PERCENT after each full
 * collection holds the peak near them: on the benchmark's 5,000-node YAML List (733 MiB, the
 * pods' equal parts shared as they are read, src/load/share.ts), 669 MiB against 997 MiB
 * unbounded, for 13.5 s against 11.7 s, two runs each (20% gave no lower peak for 15.4 s). Below
 * BOUND_ABOVE the process' own memory (about 80 MiB) is most of the peak, and the bound would only
 * cost time; JSON leaves little garbage and is not bounded (at 1,000 nodes it saved nothing and
 * cost 15%).
 */
import { setFlagsFromString } from 'node:v8';

/** Characters of YAML read before the heap's growth is bounded. */
export const BOUND_ABOVE = 256 << 20;

/** The heap's growth after each full collection, in percent of what it kept (V8's `--heap-growing-percent`). */
export const GROWING_PERCENT = 30;

let bounded = false;
/** YAML characters read by this process so far, over all its sources. */
let yamlRead = 0;

/** Bounds the heap's growth for the rest of the process (a command reads its input, then analyses what it kept). */
export function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`);
}

/**
 * Counts YAML characters read, over every source of the process (a folder of many files, a
 * pipe), and bounds the heap's growth once past BOUND_ABOVE.
 */
export function readYaml(chars: number): void {
  yamlRead += chars;
  if (yamlRead > BOUND_ABOVE) boundHeapGrowth();
}

/**
 * For a YAML file of `bytes` about to be read: bounds the heap's growth now when it is larger than
 * BOUND_ABOVE. V8 applies a growth limit at the next full collection, and a heap left to grow
 * freely early may not collect again before the end.
 */
export function readingYamlFile(bytes: number): void {
  if (bytes > BOUND_ABOVE) boundHeapGrowth();
}

/** Whether boundHeapGrowth has run in this process (for tests). */
export function heapGrowthBounded(): boolean {
  return bounded;
}
