/**
 * `npm run bench -- --ablate`: each of the loader's optimisations switched off in turn, on each
 * layout of a dump, next to the loader with all of them on and the floor of the same content
 * (bench/floor.ts), all interleaved in each round so that they see the same load. An optimisation
 * earns its place where switching it off costs at least 15% of the time or 25% of the peak RSS
 * (it saves that share of what the loader takes without it) on some realistic layout.
 *
 * Each run is `node dist/bench/load.js <file> --options …` (loading alone, as `scan -f` loads),
 * with the V8 flags bin/launch.js would start the CLI with for that file (the heap bound,
 * src/load/heap.ts); YAML with the worker thread forced on (the CLI's `auto` takes it only when
 * the load average leaves a core free). With `--busy`, every layout is measured twice: idle, then with a child
 * process spinning on the other core (the worker thread then has no core of its own).
 *
 *   npm run bench -- --ablate [--nodes 1000,5000] [--runs 2] [--formats …] [--big-formats json,yaml-list] [--busy] [--readme]
 *
 * Sizes below 5,000 nodes run `--runs` rounds (2) on every layout; 5,000 nodes and above one round
 * on `--big-formats` (the kubectl layouts). `--readme` writes the table into docs/performance.md
 * between the ablation markers.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import type { LoadOptions } from '../src/load/files.js';
import { heapFlags } from '../src/load/heap.js';
import type { Format } from './generate.js';
import { pairedRatio } from './live-audit.js';
import {
  ensureDump,
  interleavedRuns,
  JSON_LAYOUTS,
  LAYOUT_NAMES,
  machine,
  mb,
  median,
  sec,
  YAML_LAYOUTS,
  type Measure,
} from './measure.js';

/** One optimisation, how it is switched off, and the layouts it acts on. */
interface Ablation {
  /** Its name for `--ablations`. */
  key: string;
  name: string;
  /** Load options that switch it off. */
  options?: LoadOptions;
  /** Switched off by starting without the V8 flags (the heap bound). */
  withoutFlags?: boolean;
  applies: (format: Format, flags: string[]) => boolean;
}

const isYaml = (f: Format) => YAML_LAYOUTS.includes(f);
const isJson = (f: Format) => JSON_LAYOUTS.includes(f);

export const ABLATIONS: Ablation[] = [
  { key: 'translator', name: 'YAML translator (yaml-json.ts)', options: { translator: 'off' }, applies: isYaml },
  { key: 'worker', name: 'worker thread (yaml-translate.ts)', options: { translator: 'inline' }, applies: isYaml },
  {
    key: 'heap',
    name: 'heap bound (heap.ts, bin/launch.js)',
    withoutFlags: true,
    applies: (_f, flags) => flags.length > 0,
  },
  { key: 'guesses', name: 'JSON layout guesses (json-stream.ts)', options: { layoutGuesses: false }, applies: isJson },
  { key: 'share', name: 'sharing (share.ts)', options: { share: false }, applies: () => true },
  {
    key: 'slim',
    name: 'pruning: slimming of other controllers’ pods (prune.ts)',
    options: { slim: false },
    applies: () => true,
  },
];

/** What switching an optimisation off cost on one layout in one condition. */
interface Cost {
  where: string;
  /** Share of the wall time without it that it saves: 1 - on/off (paired per round). */
  wall: number | undefined;
  /** The same of the CPU time (every thread), which a shared machine disturbs less. */
  time: number | undefined;
  /** Share of the peak RSS without it that it saves: 1 - on/off. */
  rss: number | undefined;
}

const pct = (r: number | undefined) => (r === undefined ? '—' : `${r >= 0 ? '' : '−'}${Math.abs(r * 100).toFixed(0)}%`);

/** A child process spinning on a core until stopped. */
function spinner(): () => void {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return () => child.kill('SIGKILL');
}

/** The median over the rounds of a's figure over b's. */
function paired(a: Measure[], b: Measure[], figure: (m: Measure) => number): number | undefined {
  return pairedRatio(
    a.map((m) => (m.ok ? figure(m) : undefined)),
    b.map((m) => (m.ok ? figure(m) : undefined)),
  );
}

const saved = (r: number | undefined) => (r === undefined ? undefined : 1 - r);

function figures(off: Measure[], on: Measure[]): Omit<Cost, 'where'> {
  const a = median(off);
  const b = median(on);
  return {
    wall: saved(paired(on, off, (m) => m.ms)),
    time: saved(paired(on, off, (m) => m.cpuMs)),
    rss: a.ok && b.ok ? 1 - b.rss / a.rss : undefined,
  };
}

const medianCpu = (runs: Measure[]) =>
  [...runs.filter((m) => m.ok).map((m) => m.cpuMs)].sort((a, b) => a - b)[
    Math.floor((runs.filter((m) => m.ok).length - 1) / 2)
  ];

export interface AblateArgs {
  sizes: number[];
  runs: number;
  formats?: Format[];
  bigFormats: Format[];
  busy: boolean;
  /** Keys of the optimisations to switch off (all by default). */
  only?: string[];
}

/** Runs the ablation and returns its report (Markdown). */
export function ablate(args: AblateArgs): string {
  const started = machine();
  const startedAt = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const rows: string[] = [];
  const costs = new Map<string, Cost[]>(ABLATIONS.map((a) => [a.name, []]));
  const conditions = args.busy ? ['idle', 'other core busy'] : ['idle'];
  for (const nodes of args.sizes) {
    const big = nodes >= 5000;
    const all: Format[] = [...JSON_LAYOUTS, ...YAML_LAYOUTS];
    const formats = (big ? args.bigFormats : (args.formats ?? all)).filter((f) =>
      (big ? ['json', ...YAML_LAYOUTS] : all).includes(f),
    );
    // The dumps of the layout bench (bench/run.ts): every layout at 1,000 nodes, the kubectl JSON and the YAML ones at 5,000.
    const files = ensureDump({
      name: big ? `${nodes}-yaml` : `${nodes}`,
      nodes,
      pods: nodes * 30,
      managedFields: false,
      formats: big ? ['json', ...YAML_LAYOUTS] : all,
    });
    const runs = big ? 1 : args.runs;
    for (const format of formats) {
      const file = files[format]!;
      const flags = heapFlags(['-f', file], {}, []);
      const ablations = ABLATIONS.filter((a) => a.applies(format, flags) && (!args.only || args.only.includes(a.key)));
      // YAML with the worker forced on: `auto` takes it only when the load average leaves a core free (yaml-translate.ts#workerWanted), and its row measures it whatever the load.
      const base: LoadOptions = isYaml(format) ? { translator: 'worker' } : {};
      const load = (a?: Ablation) => [
        ...(a?.withoutFlags ? [] : flags),
        'dist/bench/load.js',
        file,
        '--options',
        JSON.stringify({ ...base, ...a?.options }),
      ];
      const floorFile = isJson(format) ? file : files['json']!;
      for (const condition of conditions) {
        process.stderr.write(`ablate: ${nodes} nodes, ${LAYOUT_NAMES[format]}, ${condition}\n`);
        const stop = condition === 'idle' ? undefined : spinner();
        let measured: Measure[][];
        try {
          measured = interleavedRuns([['dist/bench/floor.js', floorFile], load(), ...ablations.map(load)], runs);
        } finally {
          stop?.();
        }
        const [floorRuns, onRuns] = [measured[0]!, measured[1]!];
        const floor = median(floorRuns);
        const on = median(onRuns);
        const x = (r: number | undefined) => (r === undefined ? '—' : `${r.toFixed(2)}×`);
        const head = `| ${nodes} | ${LAYOUT_NAMES[format]} | ${mb(statSync(file).size)} | ${condition}`;
        const cells = (m: Measure, runs: Measure[]) =>
          m.ok ? `${sec(m.ms)} | ${sec(medianCpu(runs) ?? 0)} | ${mb(m.rss)}` : `fails: ${m.note} | — | —`;
        const rssOverFloor = on.ok && floor.ok ? on.rss / floor.rss : undefined;
        rows.push(
          `${head} | none (all on) | ${cells(on, onRuns)} | the floor's ${x(paired(onRuns, floorRuns, (m) => m.ms))} / ${x(paired(onRuns, floorRuns, (m) => m.cpuMs))} / ${x(rssOverFloor)} |`,
        );
        ablations.forEach((a, k) => {
          const offRuns = measured[k + 2]!;
          const f = figures(offRuns, onRuns);
          costs.get(a.name)!.push({ where: `${nodes} nodes, ${LAYOUT_NAMES[format]}, ${condition}`, ...f });
          rows.push(
            `${head} | ${a.name} | ${cells(median(offRuns), offRuns)} | saves ${pct(f.wall)} / ${pct(f.time)} / ${pct(f.rss)} |`,
          );
        });
      }
    }
  }
  const summary = ABLATIONS.map((a) => {
    const list = costs.get(a.name)!;
    const bestTime = list.reduce<Cost | undefined>(
      (b, c) => (c.time !== undefined && (b?.time === undefined || c.time > b.time) ? c : b),
      undefined,
    );
    const bestRss = list.reduce<Cost | undefined>(
      (b, c) => (c.rss !== undefined && (b?.rss === undefined || c.rss > b.rss) ? c : b),
      undefined,
    );
    const bestWall = list.reduce<Cost | undefined>(
      (b, c) => (c.wall !== undefined && (b?.wall === undefined || c.wall > b.wall) ? c : b),
      undefined,
    );
    // The worker's point is the wall time (it spends CPU time on the other core); the rest are judged by CPU time.
    const timeSaved = a.key === 'worker' ? bestWall?.wall : bestTime?.time;
    const earns = (timeSaved ?? 0) >= 0.15 || (bestRss?.rss ?? 0) >= 0.25;
    const at = (c: Cost | undefined, r: number | undefined) => (c ? `${pct(r)} (${c.where})` : 'not measured');
    return `| ${a.name} | ${at(bestWall, bestWall?.wall)} | ${at(bestTime, bestTime?.time)} | ${at(bestRss, bestRss?.rss)} | ${list.length ? (earns ? 'earns its place' : '**does not earn its place**') : '—'} |`;
  });
  return [
    `Measured ${startedAt} UTC on ${started}. Loading alone (bench/load.ts), each optimisation off in turn next to all on and the floor, interleaved in each round; ${args.runs} round(s) below 5,000 nodes, one at 5,000 and above. "saves" is the share of the wall time, CPU time (user + system, every thread; both paired per round) and peak RSS without the optimisation that it saves: 1 − on/off. Time is judged by CPU time (a shared machine disturbs it less), except for the worker thread, whose point is the wall time.`,
    '',
    '| nodes | layout | file | condition | switched off | wall time | CPU time | peak RSS | against (wall / CPU / RSS) |',
    '|---:|---|---:|---|---|---:|---:|---:|---|',
    ...rows,
    '',
    'Each optimisation at its best (the rule: it stays where it saves ≥ 15% of the time or ≥ 25% of the peak RSS on some realistic layout):',
    '',
    '| optimisation | most wall time saved | most CPU time saved | most peak RSS saved | verdict |',
    '|---|---|---|---|---|',
    ...summary,
    '',
    `Reproduce: \`npm run bench -- --ablate --nodes ${args.sizes.join(',')} --runs ${args.runs}${args.formats ? ` --formats ${args.formats.join(',')}` : ''} --big-formats ${args.bigFormats.join(',')}${args.busy ? ' --busy' : ''}${args.only ? ` --ablations ${args.only.join(',')}` : ''}\` (\`--readme\` writes it into docs/performance.md).`,
  ].join('\n');
}
