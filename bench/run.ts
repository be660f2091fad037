/**
 * `npm run bench`: generates dumps (bench/generate.ts) and measures, each next to its baseline
 * in the same run:
 *
 * - `scan -A` on every layout of the same cluster (JSON as kubectl writes it with 4 spaces, with
 *   2, compact with one item per line, all on one line, NDJSON; YAML as a `---` stream and as a
 *   `kind: List`), lean and with managedFields, against the floor of the same file
 *   (bench/floor.ts: read + JSON.parse of each item's text alone; for YAML, the floor of the
 *   kubectl JSON of the same content), and peak RSS against the file size; the YAML layouts again
 *   at `--yaml-nodes` nodes (5,000: the size the YAML goals are set for);
 * - the analysis' own cost (`scan -A` minus loading, both timed in one process by bench/load.ts
 *   --scan) at two sizes, for 10 and 30 DaemonSets: it should grow linearly;
 * - start-up of `--help`, `--version` and `lint` of one manifest against `node -e 0` (and the first
 *   run with an empty code cache, the unbundled modules, and the single executable when
 *   `npm run package` has built it);
 * - live (bench/live.ts): `scan -A` against kubectl's list of the same kinds on a real control
 *   plane populated with `--nodes` nodes, and the single-DaemonSet commands at 100 and at that size.
 *
 *   npm run bench -- [--nodes N] [--yaml-nodes N] [--scale A,B] [--runs N] [--only layouts|scale|startup|live] [--formats yaml,yaml-list] [--readme]
 *     [--verbose] [--cpu-prof] [--bin-dir DIR]   (the last three for live)
 *   npm run bench -- --ablate [--nodes 1000,5000] [--runs 2] [--busy] [--readme]   (bench/ablate.ts: each optimisation off in turn)
 *
 * Defaults: layouts at 1,000 nodes (30 pods a node), scale at 1,000 and 5,000 nodes, 3 runs (median
 * time, peak RSS the max over the runs; a ratio of times, the median of the ratios of the runs made
 * one after the other in each round). `--readme` writes the report into docs/performance.md
 * between the bench markers. Dumps are kept in bench/out/ (ignored by git), regenerated when their parameters change.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NOW_ISO, type Format } from './generate.js';
import { live } from './live.js';
import { ablate } from './ablate.js';
import {
  ensureDump,
  interleavedRuns,
  machine,
  mb,
  median,
  OUT,
  reportMedian,
  roundRatio,
  sec,
  verdict,
  x,
  type Dump,
  type Measure,
  JSON_LAYOUTS,
  YAML_LAYOUTS,
  LAYOUT_NAMES,
} from './measure.js';
const SCAN = ['scan', '-A', '--now', NOW_ISO, '-o', 'json'];
const LINT_FILE = 'fixtures/manifests/agents/fluent-bit.yaml';

/** `scan -A` on every layout of one dump against the floor of the same file (JSON) or of its kubectl JSON (YAML). */
function layouts(d: Dump, runs: number, rows: string[], targets: string[], only?: Format[]): void {
  const files = ensureDump(d);
  const what = `${d.nodes} nodes / ${d.pods} pods${d.managedFields ? ', with managedFields' : ', lean'}`;
  let kubectlFloor: Measure | undefined;
  for (const format of d.formats) {
    if (only && !only.includes(format)) continue;
    const file = files[format]!;
    const size = statSync(file).size;
    const isJson = JSON_LAYOUTS.includes(format);
    process.stderr.write(`${what}, ${LAYOUT_NAMES[format]}\n`);
    const floorFile = isJson ? file : files['json']!;
    const [floorRuns, scanRuns] = interleavedRuns(
      [
        ['dist/bench/floor.js', floorFile],
        ['bin/ds-doctor.js', ...SCAN, '-f', file],
      ],
      runs,
    );
    const floor = median(floorRuns!);
    const scan = median(scanRuns!);
    if (format === 'json') kubectlFloor = floor;
    const ratio = roundRatio(scanRuns!, floorRuns!, (m) => m.ms) ?? NaN;
    const memory = scan.rss / size;
    rows.push(
      `| ${what} | ${LAYOUT_NAMES[format]} | ${mb(size)} | ${floor.ok ? sec(floor.ms) : floor.note} | ${scan.ok ? sec(scan.ms) : `fails: ${scan.note}`} | ${scan.ok ? x(ratio) : '—'} | ${scan.ok ? mb(scan.rss) : '—'} | ${scan.ok ? x(memory) : '—'} | ${floor.ok ? x(floor.rss / size) : '—'} |`,
    );
    const timeGoal = isJson ? 1.5 : 3;
    const memGoal = isJson ? 2 : 1;
    // The YAML goals are set for a 5,000-node dump: below it the process' own memory is much of the peak.
    const memVerdict = isJson || d.nodes >= 5000 ? verdict(scan.ok && memory <= memGoal) : 'goal set for 5,000 nodes';
    targets.push(
      `- ${what}, ${LAYOUT_NAMES[format]}: time ${x(ratio)} the ${isJson ? 'floor' : 'JSON floor'} (≤ ${timeGoal}×: ${verdict(scan.ok && ratio <= timeGoal)}), peak RSS ${x(memory)} the file (≤ ${memGoal}×: ${memVerdict}; the floor's own ${x(floor.rss / size)})`,
    );
  }
  void kubectlFloor;
}

/**
 * The analysis' own time at each size, for 10 and 30 DaemonSets: `scan -A` minus loading, both
 * timed in one process (bench/load.ts --scan: load, then index, analysis and JSON rendering), so
 * the difference carries no noise of a second load. The sizes run alternately (small, large,
 * small, …), as a command and its baseline do: load and analysis are each their own median over
 * the runs, and the growth is the median of each round's large over small (roundRatio).
 */
function scale(sizes: number[], runs: number, rows: string[], targets: string[]): void {
  for (const daemonSets of [10, 30]) {
    const dumps = sizes.map((nodes): Dump => ({
      name: `scale-${nodes}-${daemonSets}ds`,
      nodes,
      pods: nodes * 30 + nodes * daemonSets,
      daemonSets,
      managedFields: false,
      formats: ['json-compact'],
    }));
    const files = dumps.map((d) => ensureDump(d)['json-compact']!);
    process.stderr.write(`scale: ${sizes.join(' and ')} nodes, ${daemonSets} DaemonSets\n`);
    const measured = interleavedRuns(
      files.map((file) => ['dist/bench/load.js', file, '--scan']),
      runs,
    );
    const analysisMs = (m: Measure) => m.report?.['analysisMs'];
    let measuredAll = true;
    dumps.forEach((d, i) => {
      const load = reportMedian(measured[i]!, 'ms');
      const own = reportMedian(measured[i]!, 'analysisMs');
      if (load === undefined || own === undefined) {
        measuredAll = false;
        const failed = measured[i]!.find((m) => !m.ok);
        rows.push(
          `| ${d.nodes} | ${daemonSets} | ${d.pods} | ${mb(statSync(files[i]!).size)} | fails: ${failed?.note ?? 'no figures'} | — | — | — |`,
        );
        return;
      }
      const toSmallest = i === 0 ? 1 : roundRatio(measured[i]!, measured[0]!, analysisMs);
      rows.push(
        `| ${d.nodes} | ${daemonSets} | ${d.pods} | ${mb(statSync(files[i]!).size)} | ${sec(load)} | ${sec(load + own)} | ${sec(own)} | ${toSmallest === undefined ? '—' : x(toSmallest)} |`,
      );
    });
    const growth = sizes.length > 1 ? roundRatio(measured[sizes.length - 1]!, measured[0]!, analysisMs) : undefined;
    if (measuredAll && growth !== undefined) {
      const nodes = sizes[sizes.length - 1]! / sizes[0]!;
      targets.push(
        `- analysis time, ${daemonSets} DaemonSets: ${x(growth)} from ${sizes[0]} to ${sizes[sizes.length - 1]} nodes (${nodes}× the nodes; ≤ ${nodes}×: ${verdict(growth <= nodes)})`,
      );
    }
  }
}

/** One start-up case: a label, the program and its arguments, and a fresh environment for each spawn when set. */
interface StartCase {
  label: string;
  command: string;
  args: string[];
  env?: () => NodeJS.ProcessEnv;
}

/**
 * Start-up of the installed command (bin/ds-doctor.js, which runs the bundle with its code cache)
 * against `node -e 0`, 21 timed spawns each, interleaved (median). Next to it, in the same run:
 * the first run of a command (an empty code cache), the modules of dist/src unbundled (what bin/
 * ran before the bundle, and runs when the bundle is stale), and the single executable when
 * `npm run package` has built it.
 */
function startup(rows: string[], targets: string[]): string {
  const node = process.execPath;
  const lint = ['lint', '-f', LINT_FILE];
  const unbundled = join(OUT, 'unbundled.mjs');
  writeFileSync(
    unbundled,
    `import { run } from ${JSON.stringify(pathToFileURL('dist/src/cli/run.js').href)};\nrun(process.argv.slice(2));\n`,
  );
  const caches: string[] = [];
  const emptyCache = () => {
    caches.push(mkdtempSync(join(tmpdir(), 'ds-doctor-bench-cache-')));
    return { ...process.env, XDG_CACHE_HOME: caches[caches.length - 1] };
  };
  const cases: StartCase[] = [
    { label: 'node -e 0', command: node, args: ['-e', '0'] },
    { label: 'ds-doctor --help', command: node, args: ['bin/ds-doctor.js', '--help'] },
    { label: 'ds-doctor --version', command: node, args: ['bin/ds-doctor.js', '--version'] },
    { label: `ds-doctor lint -f ${LINT_FILE}`, command: node, args: ['bin/ds-doctor.js', ...lint] },
    {
      label: 'ds-doctor --version, first run (empty code cache)',
      command: node,
      args: ['bin/ds-doctor.js', '--version'],
      env: emptyCache,
    },
    {
      label: 'ds-doctor lint, first run (empty code cache)',
      command: node,
      args: ['bin/ds-doctor.js', ...lint],
      env: emptyCache,
    },
    { label: 'modules of dist/src (unbundled) --version', command: node, args: [unbundled, '--version'] },
    { label: 'modules of dist/src (unbundled) lint', command: node, args: [unbundled, ...lint] },
  ];
  // `npm run package` leaves the single executable here.
  const sea = join(
    'dist',
    'release',
    `ds-doctor-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}${process.platform === 'win32' ? '.exe' : ''}`,
  );
  if (existsSync(sea))
    cases.push(
      { label: 'single executable --version', command: sea, args: ['--version'] },
      { label: 'single executable lint', command: sea, args: lint },
    );
  const times: number[][] = cases.map(() => []);
  for (let i = 0; i < 21; i++) {
    cases.forEach(({ command, args, env }, k) => {
      const options = { stdio: 'ignore' as const, ...(env ? { env: env() } : {}) };
      const t = process.hrtime.bigint();
      spawnSync(command, args, options);
      times[k]!.push(Number(process.hrtime.bigint() - t) / 1e6);
    });
  }
  for (const dir of caches) rmSync(dir, { recursive: true, force: true });
  const med = times.map((t) => [...t].sort((a, b) => a - b)[10]!);
  const base = med[0]!;
  cases.forEach(({ label }, k) =>
    rows.push(`| \`${label}\` | ${med[k]!.toFixed(0)} ms | ${k === 0 ? '—' : `+${(med[k]! - base).toFixed(0)} ms`} |`),
  );
  const over = (k: number) => med[k]! - base;
  targets.push(
    `- \`--help\`: +${over(1).toFixed(0)} ms, \`--version\`: +${over(2).toFixed(0)} ms over \`node -e 0\` (≤ 80 ms: ${verdict(over(1) <= 80 && over(2) <= 80)})`,
  );
  targets.push(
    `- \`lint\` of one manifest: +${over(3).toFixed(0)} ms over \`node -e 0\` (≤ 150 ms: ${verdict(over(3) <= 150)})`,
  );
  return '21 spawns each, interleaved, median';
}

/** The page the benchmark writes its blocks into (once the README's Performance section). */
const PERFORMANCE_DOC = 'docs/performance.md';

/** Replaces the text between `<!-- <marker>:start -->` and `<!-- <marker>:end -->` in docs/performance.md. */
function writeReadmeBlock(marker: string, report: string): void {
  // Re-read right before writing: others edit the page too.
  const text = readFileSync(PERFORMANCE_DOC, 'utf8');
  const open = `<!-- ${marker}:start -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(`<!-- ${marker}:end -->`);
  if (start < 0 || end < start) throw new Error(`${PERFORMANCE_DOC} has no ${open} … <!-- ${marker}:end --> markers`);
  writeFileSync(PERFORMANCE_DOC, `${text.slice(0, start + open.length)}\n${report}\n${text.slice(end)}`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const flag = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const readme = argv.includes('--readme');
  const runs = Number(flag('--runs') ?? 3);
  const nodes = Number(flag('--nodes') ?? 1000);
  const sizes = (flag('--scale') ?? '1000,5000').split(',').map(Number);
  // The YAML layouts are measured at this size too (0: not).
  const yamlNodes = Number(flag('--yaml-nodes') ?? 5000);
  const only = flag('--only');
  // `--formats yaml,yaml-list`: measure only these layouts (the dumps hold all of them).
  const formats = flag('--formats')?.split(',') as Format[] | undefined;
  const does = (part: string) => !only || only.split(',').includes(part);
  mkdirSync(OUT, { recursive: true });
  if (argv.includes('--ablate')) {
    const bigFormats = (flag('--big-formats') ?? 'json,yaml-list').split(',') as Format[];
    const report = ablate({
      sizes: (flag('--nodes') ?? '1000,5000').split(',').map(Number),
      runs: Number(flag('--runs') ?? 2),
      ...(formats ? { formats } : {}),
      bigFormats,
      busy: argv.includes('--busy'),
      ...(flag('--ablations') ? { only: flag('--ablations')!.split(',') } : {}),
    });
    process.stdout.write(`${report}\n`);
    writeFileSync(join(OUT, 'results-ablate.md'), `${report}\n`);
    if (readme) writeReadmeBlock('bench-ablate', report);
    return;
  }
  const started = machine();

  const layoutRows: string[] = [];
  const scaleRows: string[] = [];
  const startRows: string[] = [];
  const targets: string[] = [];
  if (does('layouts')) {
    for (const managedFields of [false, true]) {
      layouts(
        {
          name: `${nodes}${managedFields ? '-mf' : ''}`,
          nodes,
          pods: nodes * 30,
          managedFields,
          formats: [...JSON_LAYOUTS, ...YAML_LAYOUTS],
        },
        runs,
        layoutRows,
        targets,
        formats,
      );
    }
    // Goal 2 is for a 5,000-node dump: its YAML layouts against the kubectl JSON floor of the same content.
    if (yamlNodes > 0 && yamlNodes !== nodes && (!formats || formats.some((f) => YAML_LAYOUTS.includes(f)))) {
      layouts(
        {
          name: `${yamlNodes}-yaml`,
          nodes: yamlNodes,
          pods: yamlNodes * 30,
          managedFields: false,
          formats: ['json', ...YAML_LAYOUTS],
        },
        runs,
        layoutRows,
        targets,
        formats ?? YAML_LAYOUTS,
      );
    }
  }
  if (does('scale')) scale(sizes, runs, scaleRows, targets);
  const how = does('startup') ? startup(startRows, targets) : '';
  const liveResult = does('live')
    ? await live(
        {
          nodes,
          runs,
          verbose: argv.includes('--verbose'),
          cpuProf: argv.includes('--cpu-prof'),
          ...(flag('--bin-dir') ? { binDir: flag('--bin-dir')! } : {}),
        },
        started,
      )
    : undefined;
  if (liveResult?.skipped) process.stderr.write(`${liveResult.skipped}\n`);
  if (liveResult?.report) {
    process.stdout.write(`${liveResult.report}\n`);
    writeFileSync(join(OUT, 'results-live.md'), `${liveResult.report}\n`);
    if (readme) writeReadmeBlock('bench-live', liveResult.report);
  }
  // The other sections' block, when one of them ran.
  if (!layoutRows.length && !scaleRows.length && !startRows.length) return;

  const report = [
    `Measured on ${started}; each figure is the median of ${runs} run(s) (peak RSS: the max), each command run alternately with its baseline so both see the same load; each ratio of times is the median of the ratios of the two runs made one after the other in each round.`,
    '',
    ...(layoutRows.length
      ? [
          "`scan -A` on every layout of the same cluster against the floor: reading the file and `JSON.parse` of each item's text alone, keeping every parsed item (bench/floor.ts; for YAML, the floor of the kubectl-layout JSON of the same content). The last column is the floor's own peak RSS against the file: the parsed objects alone.",
          '',
          '| dump | layout | file | floor | `scan -A` | time / floor | peak RSS | RSS / file | floor RSS / file |',
          '|---|---|---:|---:|---:|---:|---:|---:|---:|',
          ...layoutRows,
          '',
        ]
      : []),
    ...(scaleRows.length
      ? [
          'Analysis cost: `scan -A` minus loading, both timed in one process (bench/load.ts --scan: load, then the index, analysis and JSON rendering `scan -A -o json` runs), compact JSON, 30 workload pods a node plus one pod a node for each DaemonSet; the sizes run alternately, load and analysis are each their own median over the runs, and the last column is the median of the ratio in each round.',
          '',
          '| nodes | DaemonSets | pods | file | load | load + analysis | analysis | analysis / smallest |',
          '|---:|---:|---:|---:|---:|---:|---:|---:|',
          ...scaleRows,
          '',
        ]
      : []),
    ...(startRows.length
      ? [`Start-up (${how}):`, '', '| command | time | over `node -e 0` |', '|---|---:|---:|', ...startRows, '']
      : []),
    'Goals of issue 15, as measured in this run:',
    '',
    ...targets,
    '',
    `Reproduce: \`npm run bench -- --runs ${runs} --nodes ${nodes} --yaml-nodes ${yamlNodes} --scale ${sizes.join(',')}${only ? ` --only ${only}` : ''}${formats ? ` --formats ${formats.join(',')}` : ''}\` (\`-- --readme\` updates this section).`,
    `One dump: \`node dist/bench/generate.js --nodes 1000 --pods 30000 --out bench/out/1k --formats json-compact\`, then \`node dist/bench/floor.js bench/out/1k/dump-compact.json\` next to \`node bin/ds-doctor.js scan -A -f bench/out/1k/dump-compact.json --now ${NOW_ISO} -o json\`.`,
  ].join('\n');
  process.stdout.write(`${report}\n`);
  writeFileSync(join(OUT, 'results.md'), `${report}\n`);
  if (readme) writeReadmeBlock('bench', report);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
