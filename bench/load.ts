/**
 * Loading alone: `loadFiles` on a dump, as `scan -f` loads it, and nothing after. The benchmark
 * subtracts this from the time of `scan -A` to get the analysis' own cost.
 *
 *   node dist/bench/load.js <file>
 *
 * Prints one JSON line: objects loaded, milliseconds, peak RSS in bytes.
 */
import { loadFiles } from '../src/load/files.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: load.js <file>\n');
  process.exit(2);
}
const started = process.hrtime.bigint();
const snapshot = await loadFiles([file], async () => '');
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const objects = snapshot.nodes.length + snapshot.pods.length + snapshot.daemonSets.length;
process.stdout.write(`${JSON.stringify({ objects, ms, maxRSS: process.resourceUsage().maxRSS * 1024 })}\n`);
