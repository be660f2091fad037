/**
 * The seeded mutation fuzzer: `npm run test:fuzz -- --seed N --count K [--only INDEX] [--ci]`.
 *
 * Each mutant is the demo dump or a scenario dump with 1–4 random mutations (test/fuzz/mutate.ts),
 * fed on stdin as JSON or YAML to every command, in-process through the CLI's `main(argv, io)`,
 * with `-o json` and with the default table. A run fails on an internal error, an exit code
 * outside 0–3, `-o json` output that is not JSON, or an exception out of `main`. Prints
 * `fuzz: N mutants × M commands = T runs, F failures`, and for each failure the seed, mutant index
 * and mutation paths to replay it with `--only`. Exits 1 on any failure.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../harness.js';
import { makeMutant, mutantRng, readCorpus, type Corpus } from './mutate.js';

/** The fixed CI set (`--ci`): 300 mutants × 16 command runs. */
const CI_RUNS: readonly { seed: number; count: number }[] = [
  { seed: 1301, count: 150 },
  { seed: 1302, count: 150 },
];

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.resolve(HERE, '..', '..', '..', 'fixtures');
const NOW = '2026-11-29T12:00:00Z';

interface Args {
  runs: { seed: number; count: number }[];
  only?: number;
  verbose: boolean;
}

function usage(msg: string): never {
  process.stderr.write(
    `test:fuzz: ${msg}\nusage: npm run test:fuzz -- [--seed N] [--count K] [--only INDEX] [--ci] [--verbose]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  let seed = 1;
  let count = 100;
  let ci = false;
  const args: Args = { runs: [], verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = (): number => {
      const v = Number(argv[++i]);
      if (!Number.isSafeInteger(v) || v < 0) usage(`${a} needs a non-negative integer`);
      return v;
    };
    if (a === '--seed') seed = num();
    else if (a === '--count') count = num();
    else if (a === '--only') args.only = num();
    else if (a === '--ci') ci = true;
    else if (a === '--verbose') args.verbose = true;
    else usage(`unknown argument ${a}`);
  }
  args.runs = ci ? [...CI_RUNS] : [{ seed, count }];
  return args;
}

function corpora(): Corpus[] {
  const scenarios = path.join(FIXTURES, 'scenarios');
  const dirs = readdirSync(scenarios, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return [
    readCorpus('demo', path.join(FIXTURES, 'demo')),
    ...dirs.map((d) => readCorpus(`scenarios/${d}`, path.join(scenarios, d))),
  ];
}

/** Every command, against the corpus's first-chosen DaemonSet and node. */
function commands(ds: string, node: string): string[][] {
  return [
    ['scan'],
    ['why', ds],
    ['why', ds, node],
    ['nodes', ds],
    ['node', node],
    ['rollout', ds],
    ['impact', ds],
    ['lint'],
  ];
}
const FORMATS: readonly string[][] = [['-o', 'json'], []];

/** Why one run's result is wrong, or undefined when it is fine. */
function judge(code: number, stdout: string, stderr: string, json: boolean): string | undefined {
  if (!Number.isInteger(code) || code < 0 || code > 3) return `exit ${code}`;
  if (/internal error/.test(stderr)) return stderr.trim().split('\n')[0];
  if (json && (code <= 1 || stdout.trim() !== '')) {
    try {
      JSON.parse(stdout);
    } catch (err) {
      return `-o json output is not JSON: ${(err as Error).message}`;
    }
  }
  return undefined;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const pool = corpora();
  const perMutant = commands('a/b', 'n').length * FORMATS.length;
  let mutants = 0;
  let runs = 0;
  const failures: string[] = [];
  const started = Date.now();
  for (const { seed, count } of args.runs) {
    for (let index = 0; index < count; index++) {
      if (args.only !== undefined && index !== args.only) continue;
      const rng = mutantRng(seed, index);
      const corpus = rng.pick(pool);
      const ds = corpus.daemonSets.length ? rng.pick(corpus.daemonSets) : 'default/none';
      const node = corpus.nodes.length ? rng.pick(corpus.nodes) : 'none';
      const mutant = makeMutant(rng, corpus);
      const what = `${corpus.name} ${mutant.format}: ${mutant.mutations.map((m) => `${m.op} ${m.path}`).join('; ')}`;
      if (args.verbose) process.stdout.write(`mutant ${seed}/${index} ${what}\n`);
      mutants++;
      for (const cmd of commands(ds, node)) {
        for (const fmt of FORMATS) {
          runs++;
          const argv = [...cmd, '-f', '-', '--now', NOW, ...fmt];
          let problem: string | undefined;
          try {
            const r = await runCli(argv, { stdin: mutant.text });
            problem = judge(r.code, r.stdout, r.stderr, fmt.length > 0);
          } catch (err) {
            problem = `uncaught: ${(err as Error)?.stack?.split('\n').slice(0, 3).join(' | ') ?? String(err)}`;
          }
          if (problem) {
            failures.push(
              `FAIL seed ${seed} mutant ${index} (${what}) \`ds-doctor ${argv.join(' ')}\`: ${problem.slice(0, 400)}\n  replay: npm run test:fuzz -- --seed ${seed} --count ${count} --only ${index}`,
            );
          }
        }
      }
    }
  }
  for (const f of failures) process.stdout.write(`${f}\n`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `fuzz: ${mutants} mutants × ${perMutant} commands = ${runs} runs, ${failures.length} failures (seeds ${args.runs.map((r) => r.seed).join(',')}; ${seconds} s)\n`,
  );
  process.exitCode = failures.length ? 1 : 0;
}

process.on('unhandledRejection', (err) => {
  process.stdout.write(`FAIL unhandled rejection: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});

await main();
