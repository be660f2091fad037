// The file loaders slim each pod of another controller than a DaemonSet to what it is read for as
// a neighbour (src/load/prune.ts), and hold the equal parts of pods once (src/load/share.ts).
// Three checks over every fixture and real dump, for every command about every DaemonSet: no
// command reads a field that slimming drops (each slimmed part reports a read of a field it does
// not hold), none writes to a shared part (each is frozen: a write throws), and every command
// prints the same with slimming and sharing as from whole pods, each with its own parts.
// `npm test` runs it on a few inputs (test/cli/neighbour-pods.test.ts), `npm run test:slow` on
// every fixture and real dump (test/slow/neighbour-pods.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { runCli, type CliRun } from './harness.js';
import { loadFiles } from '../src/load/files.js';

const REAL = join(process.cwd(), '..', 'shared', 'realdumps');
const dirs = (root: string) =>
  existsSync(root) ? readdirSync(root).filter((d) => statSync(join(root, d)).isDirectory()) : [];
/** Every input: the fixtures and the real dumps. */
const EVERY = [
  'fixtures/demo',
  'fixtures/cluster-info-dump',
  ...dirs('fixtures/impact').map((d) => join('fixtures/impact', d)),
  ...dirs('fixtures/scenarios').map((d) => join('fixtures/scenarios', d)),
  ...dirs(REAL)
    .map((d) => join(REAL, d, 'input'))
    .filter(existsSync),
];
/** The scheduling scenarios whose neighbours must be slimmed (the last test). */
const SCHEDULING = [
  'fixtures/demo',
  'fixtures/scenarios/hostport-conflict',
  'fixtures/scenarios/too-many-pods',
  'fixtures/scenarios/rollout-requests-dont-fit',
];
/**
 * Two inputs: a scheduling scenario whose neighbours are slimmed, and a real dump. The slow tier
 * runs every fixture and real dump, the demo among them.
 */
const QUICK = ['fixtures/scenarios/hostport-conflict', ...EVERY.filter((i) => i.startsWith(REAL)).slice(0, 1)];

/** A read is the loader's own (the shape check, dating the dump) when a loader frame is on the stack below the watching proxy's. */
function analysisRead(callers: string): boolean {
  return !/\/load\/|at checkFields \(shape:|snapshot-time\.js/.test(callers);
}

const reads = new Map<string, string>();
/** Pods slimmed in each input. */
const slimmedPods = new Map<string, number>();
function watch(path: string): void {
  // The stack below this function and the proxy's get trap.
  const callers = (new Error().stack ?? '').split('\n').slice(3);
  if (!reads.has(path) && analysisRead(callers.join('\n'))) reads.set(path, callers.slice(0, 4).join('\n'));
}

/** The commands about one input: scan, and why, nodes, rollout, impact, lint and plan about each DaemonSet, node about the first nodes. */
async function commands(input: string, dir: string): Promise<string[][]> {
  const snapshot = await loadFiles([input], async () => '');
  slimmedPods.set(input, snapshot.pods.filter((p) => snapshot.prunedTimes.has(p)).length);
  const out: string[][] = [
    ['scan', '-A'],
    ['lint', '-A'],
  ];
  const nodes = snapshot.nodes.map((n) => n.metadata?.name ?? '').filter(Boolean);
  for (const n of nodes.slice(0, 3)) out.push(['node', n]);
  for (const [i, ds] of snapshot.daemonSets.entries()) {
    const ref = `${ds.metadata?.namespace ?? 'default'}/${ds.metadata?.name}`;
    out.push(['why', ref], ['nodes', ref], ['rollout', ref], ['impact', ref], ['impact', ref, '--cascade=orphan']);
    for (const n of nodes.slice(0, 2)) out.push(['why', ref, n]);
    // The DaemonSet with a changed template, planned against the input.
    const next = structuredClone(ds);
    delete (next.metadata as Record<string, unknown> | undefined)?.['managedFields'];
    next.spec ??= {};
    next.spec.template ??= {};
    next.spec.template.metadata ??= {};
    next.spec.template.metadata.annotations = {
      ...next.spec.template.metadata.annotations,
      'test.ds-doctor.io/next': 'yes',
    };
    const manifest = join(dir, `ds-${i}.yaml`);
    await writeFile(manifest, yaml.dump(next));
    out.push(['plan', '-f', manifest]);
  }
  return out.map((argv) => [
    ...argv,
    ...(argv[0] === 'plan' ? ['--cluster-dump', input] : ['-f', input]),
    '-o',
    'json',
    '--now',
    '2026-11-29T12:00:00Z',
  ]);
}

/** Registers the checks over a few inputs (`quick`) or every one (`full`). */
export function neighbourPods(level: 'quick' | 'full'): void {
  const inputs = level === 'quick' ? QUICK : EVERY;
  describe(`pods of other controllers, slimmed by the loader${level === 'full' ? ' (every input)' : ''}`, () => {
    for (const input of inputs) {
      test(`${input}: no command reads a dropped field or writes a shared one, and each prints the same as from whole pods`, async () => {
        const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-neighbours-'));
        const argvs = await commands(input, dir);
        const slimmed: CliRun[] = [];
        reads.clear();
        for (const argv of argvs)
          slimmed.push(await runCli(argv, { loadOptions: { watchSlimmed: watch, freezeShared: true } }));
        assert.deepEqual(
          [...reads].map(([path, at]) => `${path}\n${at}`),
          [],
          `${input}: fields read that slimming drops`,
        );
        for (const [k, argv] of argvs.entries()) {
          const whole = await runCli(argv, { loadOptions: { slim: false, share: false } });
          assert.deepEqual(slimmed[k], whole, `${argv.join(' ')}: slimmed and shared pods, and whole ones, differ`);
        }
      });
    }

    test('the inputs hold slimmed pods: the neighbours of the scheduling scenarios among them', () => {
      for (const input of SCHEDULING.filter((i) => inputs.includes(i))) {
        assert.ok((slimmedPods.get(input) ?? 0) > 0, `${input}: no pod slimmed`);
      }
    });
  });
}
