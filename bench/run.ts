/**
 * `npm run bench`: generates dumps at a few sizes (bench/generate.ts), times `scan`,
 * `nodes <ds>`, `why <ds>` and `lint` on them next to a baseline that only reads and parses the
 * same file (bench/baseline.ts), measures start-up against `node -e 0`, and prints a Markdown
 * report: wall time (median of the runs), peak RSS, and the ratios to the baseline.
 *
 *   npm run bench -- [--huge] [--runs N] [--only 1k|5k] [--readme]
 *
 * `--huge` adds a 5,000-node dump with managedFields (as the raw API returns it; over 2 GB),
 * `--readme` writes the report into README.md between the bench markers. Dumps are kept in
 * bench/out/ (ignored by git) and regenerated only when their parameters change.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { generate, NOW_ISO, type GenerateOptions } from './generate.js';

const OUT = 'bench/out';
const DS = 'logging/fluent-bit';
const COMMANDS: { label: string; args: string[] }[] = [
  { label: 'scan', args: ['scan'] },
  { label: `nodes ${DS}`, args: ['nodes', DS] },
  { label: `why ${DS}`, args: ['why', DS] },
  { label: 'lint', args: ['lint'] },
];

interface Dump {
  name: string;
  nodes: number;
  pods: number;
  managedFields: boolean;
  formats: GenerateOptions['formats'];
  /** Which files get every command (the others only scan). */
  full: string[];
}

interface Measure {
  ms: number;
  rss: number;
  ok: boolean;
  note?: string;
}

// Reports the child's peak RSS on exit, so the bench needs no external `time` program.
const RSS_HOOK = `process.on('exit', () => { require('node:fs').writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS * 1024)); });`;

function ensureDump(d: Dump): Record<string, string> {
  const dir = join(OUT, d.name);
  const params = JSON.stringify({ nodes: d.nodes, pods: d.pods, managedFields: d.managedFields, formats: d.formats, seed: 1, version: 2 });
  const stamp = join(dir, 'params.json');
  const files = Object.fromEntries(d.formats.map((f) => [f, join(dir, f === 'json' ? 'dump.json' : f === 'yaml' ? 'dump.yaml' : 'dump-list.yaml')]));
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === params && Object.values(files).every((f) => existsSync(f))) return files;
  process.stderr.write(`generating ${d.name}: ${d.nodes} nodes, ${d.pods} pods${d.managedFields ? ', with managedFields' : ''}…\n`);
  const result = generate({ nodes: d.nodes, pods: d.pods, seed: 1, out: dir, formats: d.formats, managedFields: d.managedFields });
  writeFileSync(stamp, params);
  return result.files;
}

/** Runs `node <args>` once; wall time from spawn to exit, peak RSS from the child itself. */
function measure(args: string[]): Measure {
  mkdirSync(OUT, { recursive: true });
  const rssFile = join(OUT, '.rss');
  const hook = join(OUT, '.rss-hook.cjs');
  writeFileSync(hook, RSS_HOOK);
  writeFileSync(rssFile, '0');
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', `./${hook}`, ...args], {
    env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 16 << 20,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const rss = Number(readFileSync(rssFile, 'utf8'));
  // ds-doctor exits 1 when it finds problems: a normal outcome here.
  const ok = r.status === 0 || r.status === 1;
  const err = r.stderr.toString().trim().split('\n').pop() ?? '';
  return { ms, rss, ok, ...(ok ? {} : { note: err.slice(0, 120) || `exit ${r.status}` }) };
}

function median(runs: Measure[]): Measure {
  const ok = runs.filter((r) => r.ok);
  if (!ok.length) return runs[0]!;
  const sorted = [...ok].sort((a, b) => a.ms - b.ms);
  const mid = sorted[Math.floor((sorted.length - 1) / 2)]!;
  return { ms: mid.ms, rss: Math.max(...ok.map((r) => r.rss)), ok: true };
}

function repeat(args: string[], runs: number): Measure {
  const out: Measure[] = [];
  for (let i = 0; i < runs; i++) {
    const m = measure(args);
    out.push(m);
    if (!m.ok) break;
  }
  return median(out);
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function machine(): string {
  const free = spawnSync('free', ['-h'], { encoding: 'utf8' });
  const mem = free.status === 0 ? free.stdout.split('\n').find((l) => l.startsWith('Mem:'))?.trim().split(/\s+/)[1] : undefined;
  return `${availableParallelism()} CPUs (nproc) · ${cpus()[0]?.model ?? 'unknown CPU'} · ${mem ?? mb(totalmem())} memory (free -h) · Node ${process.version}`;
}

/** Start-up: hyperfine when installed, else 20 timed spawns each. */
function startup(targets: string[]): string[] {
  const cases = ['node -e 0', 'node bin/ds-doctor.js --help', 'node bin/ds-doctor.js --version'];
  const hf = spawnSync('hyperfine', ['-N', '--warmup', '5', '--runs', '40', '--export-json', join(OUT, 'startup.json'), ...cases], { encoding: 'utf8' });
  let means: number[];
  let how: string;
  if (hf.status === 0) {
    const json = JSON.parse(readFileSync(join(OUT, 'startup.json'), 'utf8')) as { results: { mean: number; stddev: number }[] };
    means = json.results.map((r) => r.mean * 1000);
    how = 'hyperfine -N --warmup 5 --runs 40, mean';
  } else {
    means = cases.map((c) => {
      const [cmd, ...args] = c.split(' ');
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = process.hrtime.bigint();
        spawnSync(cmd!, args, { stdio: 'ignore' });
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      return times.sort((a, b) => a - b)[10]!;
    });
    how = '20 spawns, median';
  }
  const base = means[0]!;
  const over = means[1]! - base;
  targets.push(`- \`ds-doctor --help\`: ${over.toFixed(0)} ms over \`node -e 0\` (target ≤ 100 ms: ${over <= 100 ? 'met' : 'not met'})`);
  return [
    `Start-up (${how}):`,
    '',
    '| command | time | over `node -e 0` |',
    '|---|---:|---:|',
    ...cases.map((c, i) => `| \`${c}\` | ${means[i]!.toFixed(0)} ms | ${i === 0 ? '—' : `+${(means[i]! - base).toFixed(0)} ms`} |`),
  ];
}

function main(): void {
  const argv = process.argv.slice(2);
  const huge = argv.includes('--huge');
  const readme = argv.includes('--readme');
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
  const onlyAt = argv.indexOf('--only');
  const only = onlyAt >= 0 ? argv[onlyAt + 1] : undefined;
  const all: Dump[] = [
    { name: '1k', nodes: 1000, pods: 30000, managedFields: false, formats: ['json', 'yaml', 'yaml-list'], full: ['json', 'yaml'] },
    { name: '5k', nodes: 5000, pods: 150000, managedFields: false, formats: ['json'], full: ['json'] },
  ];
  if (huge) all.push({ name: '5k-managed-fields', nodes: 5000, pods: 150000, managedFields: true, formats: ['json'], full: [] });
  const dumps = all.filter((d) => !only || d.name === only);

  const rows: string[] = [];
  const targets: string[] = [];
  for (const d of dumps) {
    const files = ensureDump(d);
    for (const [format, file] of Object.entries(files)) {
      const size = statSync(file).size;
      const shape = format === 'json' ? 'JSON List' : format === 'yaml' ? 'multi-document YAML' : 'YAML, one kind: List document';
      const label = `${d.nodes} nodes / ${d.pods} pods, ${shape}${d.managedFields ? ' with managedFields' : ''}, ${mb(size)}`;
      process.stderr.write(`${label}\n`);
      const stream = repeat(['dist/bench/baseline.js', 'stream', file], runs);
      // JSON.parse of the whole text only works below V8's longest string (~512 MiB).
      const whole = size < 2 ** 29 ? repeat(['dist/bench/baseline.js', 'whole', file], runs) : { ms: 0, rss: 0, ok: false, note: 'cannot: the text is longer than V8\'s longest string' };
      const line = (what: string, m: Measure) => rows.push(
        `| ${label} | ${what} | ${m.ok ? sec(m.ms) : `fails: ${m.note}`} | ${m.ok ? mb(m.rss) : '—'} | ${m.ok ? `${(m.ms / stream.ms).toFixed(2)}×` : '—'} | ${m.ok ? `${(m.rss / size).toFixed(2)}×` : '—'} |`,
      );
      line(format === 'json' ? 'baseline: streaming read + JSON.parse per item' : 'baseline: streaming read + js-yaml per document (or List entry)', stream);
      line(format === 'json' ? 'baseline: readFile + JSON.parse' : 'baseline: readFile + js-yaml loadAll', whole);
      const commands = d.full.includes(format) ? COMMANDS : COMMANDS.slice(0, 1);
      for (const c of commands) {
        const m = repeat(['bin/ds-doctor.js', ...c.args, '-f', file, '--now', NOW_ISO, '-o', 'json'], runs);
        line(`\`ds-doctor ${c.label}\``, m);
        if (c.label === 'scan' && format === 'json' && d.nodes >= 5000) {
          const ratio = m.ms / stream.ms;
          const rss = m.rss / size;
          targets.push(`- \`scan\` on ${label}: ${m.ok ? `${ratio.toFixed(2)}× the baseline's time (target ≤ 2×: ${ratio <= 2 ? 'met' : 'not met'}), peak RSS ${rss.toFixed(2)}× the file size (target < 3×: ${rss < 3 ? 'met' : 'not met'})` : `failed: ${m.note}`}`);
        }
      }
    }
  }
  const start = startup(targets);
  const report = [
    'Dumps of any size load: a JSON dump is read in chunks and each item of its `items` array is handed',
    'to `JSON.parse` alone (so a file past V8\'s longest string, about 512 MiB, works), YAML is split into',
    'documents while it streams and a huge `kind: List` document is parsed entry by entry, and',
    '`metadata.managedFields` is dropped as objects are read. Analyses build their indexes once and',
    'stay linear in nodes + pods. The benchmark below compares each command with a program that only',
    'reads and parses the same file (bench/baseline.ts) on dumps from the generator (bench/generate.ts).',
    'Limits: a JSON document that is not an object, or one YAML document that is not a `kind: List`, is',
    'parsed whole, so it must stay under 512 MiB; in a List parsed entry by entry (above 32 MiB), an',
    'alias cannot refer to an anchor in another entry (kubectl writes none).',
    '',
    `Measured on ${machine()}; median wall time of ${runs} run(s), peak RSS (max over the runs).`,
    'Ratios: wall time over the streaming read-and-parse baseline of the same file; peak RSS over the file size.',
    '',
    '| dump | what | wall | peak RSS | time / baseline | RSS / file |',
    '|---|---|---:|---:|---:|---:|',
    ...rows,
    '',
    ...start,
    '',
    'Targets of issue 8, as measured here:',
    '',
    ...targets,
    '',
    'Reproduce: `npm run bench` (add `-- --huge` for the dump with managedFields, `-- --readme` to update this section).',
    `Dumps: \`node dist/bench/generate.js --nodes 5000 --pods 150000 --out bench/out/5k --formats json\`; each command as \`node bin/ds-doctor.js scan -f bench/out/5k/dump.json --now ${NOW_ISO} -o json\`.`,
  ].join('\n');
  process.stdout.write(`${report}\n`);
  writeFileSync(join(OUT, 'results.md'), `${report}\n`);
  if (readme) {
    // Re-read right before writing: others edit the README too.
    const text = readFileSync('README.md', 'utf8');
    const start = text.indexOf('<!-- bench:start -->');
    const end = text.indexOf('<!-- bench:end -->');
    if (start < 0 || end < start) throw new Error('README.md has no <!-- bench:start --> … <!-- bench:end --> markers');
    writeFileSync('README.md', `${text.slice(0, start + '<!-- bench:start -->'.length)}\n${report}\n${text.slice(end)}`);
  }
}

main();
