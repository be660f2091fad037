/**
 * What the benchmark's parts share: the dumps (bench/generate.ts, kept in bench/out/), one timed
 * child process with its peak RSS, runs interleaved with their baselines, and the figures' text.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { DUMP_VERSION, generate, type Format } from './generate.js';
import { medianOf, pairedRatio } from './live-audit.js';

export const OUT = 'bench/out';
export const JSON_LAYOUTS: Format[] = ['json', 'json-2', 'json-compact', 'json-line', 'json-concat'];
export const YAML_LAYOUTS: Format[] = ['yaml', 'yaml-list'];
export const LAYOUT_NAMES: Record<Format, string> = {
  json: 'JSON List, 4 spaces (kubectl)',
  'json-2': 'JSON List, 2 spaces',
  'json-compact': 'JSON List, compact, one item per line',
  'json-line': 'JSON List on one line',
  'json-concat': 'NDJSON (one object per line)',
  yaml: 'YAML, `---` documents',
  'yaml-list': 'YAML `kind: List` (kubectl)',
};

export interface Dump {
  name: string;
  nodes: number;
  pods: number;
  daemonSets?: number;
  managedFields: boolean;
  formats: Format[];
}

export interface Measure {
  ms: number;
  rss: number;
  /** CPU time of the child, user and system, every thread (ms): steadier than wall time on a shared machine. */
  cpuMs: number;
  ok: boolean;
  note?: string;
  /** The last line of the child's standard output, when it is a JSON object (bench/load.ts's figures). */
  report?: Record<string, number>;
}

// Reports the child's peak RSS and CPU time on exit, so the bench needs no external `time`
// program. A Node the child starts with its own arguments (bin/launch.js restarting with the heap
// bound for a large YAML dump) runs the hook too and exits first: the file then holds the larger
// peak and the sum of the CPU times of both, as `time` counts a process and the children it waits for.
const RSS_HOOK = `process.on('exit', () => { const fs = require('node:fs'); const file = process.env.BENCH_RSS_FILE; const [rss, cpu] = fs.readFileSync(file, 'utf8').split(' ').map(Number); const u = process.resourceUsage(); fs.writeFileSync(file, Math.max(rss || 0, u.maxRSS * 1024) + ' ' + ((cpu || 0) + (u.userCPUTime + u.systemCPUTime) / 1000)); });`;

export function ensureDump(d: Dump): Record<string, string> {
  const dir = join(OUT, d.name);
  const params = JSON.stringify({
    nodes: d.nodes,
    pods: d.pods,
    daemonSets: d.daemonSets,
    managedFields: d.managedFields,
    formats: d.formats,
    seed: 1,
    version: DUMP_VERSION,
  });
  const stamp = join(dir, 'params.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === params) {
    const files = JSON.parse(readFileSync(join(dir, 'files.json'), 'utf8')) as Record<string, string>;
    if (Object.values(files).every((f) => existsSync(f))) return files;
  }
  process.stderr.write(
    `generating ${d.name}: ${d.nodes} nodes, ${d.pods} pods${d.daemonSets ? `, ${d.daemonSets} DaemonSets` : ''}${d.managedFields ? ', with managedFields' : ''}…\n`,
  );
  const result = generate({
    nodes: d.nodes,
    pods: d.pods,
    seed: 1,
    out: dir,
    formats: d.formats,
    managedFields: d.managedFields,
    ...(d.daemonSets ? { daemonSets: d.daemonSets } : {}),
  });
  writeFileSync(join(dir, 'files.json'), JSON.stringify(result.files));
  writeFileSync(stamp, params);
  return result.files;
}

/** Runs `node <args>` once; wall time from spawn to exit, peak RSS from the child itself. */
export function measure(args: string[], env: NodeJS.ProcessEnv = {}): Measure {
  mkdirSync(OUT, { recursive: true });
  const rssFile = join(OUT, '.rss');
  const hook = join(OUT, '.rss-hook.cjs');
  writeFileSync(hook, RSS_HOOK);
  writeFileSync(rssFile, '0');
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', `./${hook}`, ...args], {
    env: { ...process.env, ...env, BENCH_RSS_FILE: rssFile, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 << 20,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const [rss, cpuMs] = readFileSync(rssFile, 'utf8').split(' ').map(Number) as [number, number?];
  // ds-doctor exits 1 when it finds problems: a normal outcome here.
  const ok = r.status === 0 || r.status === 1;
  const err = r.stderr.toString().trim().split('\n').pop() ?? '';
  const last = r.stdout.toString().trim().split('\n').pop() ?? '';
  const report = last.startsWith('{"objects"') ? (JSON.parse(last) as Record<string, number>) : undefined;
  return {
    ms,
    rss,
    cpuMs: cpuMs ?? 0,
    ok,
    ...(ok ? {} : { note: err.slice(0, 120) || `exit ${r.status}` }),
    ...(report ? { report } : {}),
  };
}

export function median(runs: Measure[]): Measure {
  const ok = runs.filter((r) => r.ok);
  if (!ok.length) return runs[0]!;
  const sorted = [...ok].sort((a, b) => a.ms - b.ms);
  const mid = sorted[Math.floor((sorted.length - 1) / 2)]!;
  return {
    ms: mid.ms,
    rss: Math.max(...ok.map((r) => r.rss)),
    cpuMs: mid.cpuMs,
    ok: true,
    ...(mid.report ? { report: mid.report } : {}),
  };
}

/**
 * Every run of each command: `runs` rounds, each running every command once in turn (a, b, a, b,
 * …), so that a baseline and the command measured against it see the same load. A command that
 * failed once is not run again.
 */
export function interleavedRuns(commands: string[][], runs: number, env?: NodeJS.ProcessEnv): Measure[][] {
  const all: Measure[][] = commands.map(() => []);
  for (let i = 0; i < runs; i++) {
    commands.forEach((args, k) => {
      if (all[k]!.some((m) => !m.ok)) return;
      all[k]!.push(measure(args, env));
    });
  }
  return all;
}

/**
 * The median over the rounds of `a`'s figure divided by `b`'s of the same round. The two runs of a
 * round are made one after the other, so a spell when the shared machine is slow or fast moves
 * both; the ratio of two medians can pair a fast run of one with a slow run of the other.
 */
export function roundRatio(a: Measure[], b: Measure[], figure: (m: Measure) => number | undefined): number | undefined {
  const of = (m: Measure) => (m.ok ? figure(m) : undefined);
  return pairedRatio(a.map(of), b.map(of));
}

/** The median of one figure of bench/load.ts's report over the runs that gave it. */
export function reportMedian(runs: Measure[], figure: string): number | undefined {
  return medianOf(runs.flatMap((r) => (r.ok && r.report?.[figure] !== undefined ? [r.report[figure]] : [])));
}

export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
export const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
export const x = (r: number) => `${r.toFixed(2)}×`;
export const verdict = (met: boolean) => (met ? 'met' : '**not met**');

export function machine(): string {
  const free = spawnSync('free', ['-h'], { encoding: 'utf8' });
  const mem =
    free.status === 0
      ? free.stdout
          .split('\n')
          .find((l) => l.startsWith('Mem:'))
          ?.trim()
          .split(/\s+/)[1]
      : undefined;
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  return `${availableParallelism()} CPUs (nproc) · ${cpus()[0]?.model ?? 'unknown CPU'} · ${mem ?? mb(totalmem())} memory (free -h) · Node ${process.version} · load average ${load} at the start`;
}
