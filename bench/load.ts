/**
 * Loading alone: `loadFiles` on a dump, as `scan -f` loads it, and nothing after. With `--scan`,
 * the same process then runs what `scan -A -o json` runs after loading (index, analysis, JSON
 * rendering) and times it apart: the analysis' own cost, measured without the noise of a second
 * process loading the file again. `--options JSON` passes load options (src/load/files.ts
 * LoadOptions: the benchmark's --ablate turns one optimisation off with them).
 *
 *   node dist/bench/load.js <file> [--scan] [--options '{"share":false}']
 *
 * Prints one JSON line: objects loaded, milliseconds loading (and analysing), peak RSS in bytes.
 */
import { loadFiles, type LoadOptions } from '../src/load/files.js';
import { NOW_ISO } from './generate.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: load.js <file> [--scan] [--options JSON]\n');
  process.exit(2);
}
const at = process.argv.indexOf('--options');
const options = (at > 0 ? JSON.parse(process.argv[at + 1] ?? '{}') : {}) as LoadOptions;
const started = process.hrtime.bigint();
const snapshot = await loadFiles([file], async () => '', options);
const loaded = process.hrtime.bigint();
const ms = Number(loaded - started) / 1e6;
const objects = snapshot.nodes.length + snapshot.pods.length + snapshot.daemonSets.length;
let analysisMs: number | undefined;
if (process.argv.includes('--scan')) {
  const [{ SnapshotIndex }, { scan }, { renderJson }, { daemonSetsInScope }] = await Promise.all([
    import('../src/model/snapshot-index.js'),
    import('../src/analyze/scan.js'),
    import('../src/render/document.js'),
    import('../src/cli/scope.js'),
  ]);
  const begun = process.hrtime.bigint();
  const daemonSets = daemonSetsInScope(snapshot, { allNamespaces: true });
  const report = scan(new SnapshotIndex(snapshot), daemonSets, new Date(NOW_ISO), 'all namespaces');
  const text = renderJson(report);
  analysisMs = Number(process.hrtime.bigint() - begun) / 1e6;
  if (!text.includes('"kind": "ScanReport"') && !text.includes('"kind":"ScanReport"'))
    throw new Error('scan produced no ScanReport');
}
process.stdout.write(
  `${JSON.stringify({ objects, ms, ...(analysisMs === undefined ? {} : { analysisMs }), maxRSS: process.resourceUsage().maxRSS * 1024 })}\n`,
);
