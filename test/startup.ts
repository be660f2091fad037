// Start-up: bin/ds-doctor.js runs the bundle (dist/bundle/ds-doctor.cjs, scripts/bundle.mjs), and
// neither the bundle nor the modules of dist/src it is made of (and which bin/ falls back to) ever
// load @kubernetes/client-node for --help, --version or an offline command (docs/design.md §1.1:
// the live loader is imported lazily). A module resolve hook, registered with --import, records
// every module the process resolves; a --require hook records the built-in modules it loaded.
// npm test runs the checks on a few commands (test/cli/startup.test.ts), the slow tier on every
// command below (test/slow/startup.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.DS_DOCTOR_MODULE_TRACE, result.url + '\\n');
  return result;
}
`;

const BUILTINS = `process.on('exit', () => require('node:fs').writeFileSync(process.env.DS_DOCTOR_BUILTIN_TRACE, process.moduleLoadList.join('\\n')));\n`;

/** Runs `node <args>` with the tracing hooks; returns the URLs of every module resolved and the built-in modules loaded. */
async function traced(args: string[], expectedCode = 1): Promise<{ urls: string[]; builtins: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-startup-'));
  const hooks = join(dir, 'hooks.mjs');
  const register = join(dir, 'register.mjs');
  const builtins = join(dir, 'builtins.cjs');
  const trace = join(dir, 'trace.txt');
  const builtinTrace = join(dir, 'builtins.txt');
  await writeFile(hooks, HOOKS);
  await writeFile(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  await writeFile(builtins, BUILTINS);
  await writeFile(trace, '');
  try {
    await run(process.execPath, ['--import', pathToFileURL(register).href, '--require', builtins, ...args], {
      env: { ...process.env, DS_DOCTOR_MODULE_TRACE: trace, DS_DOCTOR_BUILTIN_TRACE: builtinTrace, NO_COLOR: '1' },
    });
  } catch (err) {
    // Exit code 1 (problems found) is a normal outcome for the offline commands on the demo.
    if ((err as { code?: number }).code !== expectedCode) throw err;
  }
  const lines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  return { urls: await lines(trace), builtins: await lines(builtinTrace) };
}

async function modulesLoaded(args: string[]): Promise<string[]> {
  return (await traced(args)).urls;
}

/** The CLI from the modules of dist/src, unbundled: what bin/ runs when the bundle is missing or stale. */
async function unbundledEntry(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-unbundled-'));
  const entry = join(dir, 'unbundled.mjs');
  await writeFile(
    entry,
    `import { run } from ${JSON.stringify(pathToFileURL('dist/src/cli/run.js').href)};\nrun(process.argv.slice(2));\n`,
  );
  return entry;
}

const CLIENT_NODE = /\/node_modules\/@kubernetes\/client-node\//;
// Inside the bundle no module is resolved; the live client shows in the built-in modules only it
// needs (the offline commands make no network connection).
const LIVE_BUILTINS = /^NativeModule (https|tls|http)$/;

// Each check runs its own processes; they run side by side (one per core and then some: a
// start-up is mostly waiting on the file system), each case its own test.
const CONCURRENCY = Math.max(4, availableParallelism());

const OFFLINE_COMMANDS = [
  ['--help'],
  ['--version'],
  ['scan', '--help'],
  ['scan', '-f', 'fixtures/demo', '--now', '2026-11-29T12:00:00Z'],
  ['why', 'logging/fluent-bit', '-f', 'fixtures/demo', '--now', '2026-11-29T12:00:00Z'],
  ['nodes', 'kube-system/calico-node', '-f', 'fixtures/demo', '--now', '2026-11-29T12:00:00Z'],
  ['node', 'worker-5', '-f', 'fixtures/demo', '--now', '2026-11-29T12:00:00Z'],
  ['rollout', 'logging/fluent-bit', '-f', 'fixtures/demo', '--now', '2026-11-29T12:00:00Z'],
  ['impact', 'kube-system/calico-node', '-f', 'fixtures/demo', '--now', '2026-11-29T12:00:00Z'],
  ['lint', '-f', 'fixtures/demo'],
  ['version', '-o', 'json'],
  ['completion', 'bash'],
  ['__complete', 'why', '-f', 'fixtures/demo', ''],
];

// What --help and --version need is the program's description: the loaders, the analyses and the
// renderers (with js-yaml, chalk and cli-table3) load when a command runs.
const NOT_AT_START: [string, RegExp][] = [
  ['the file loaders', /\/dist\/src\/load\//],
  ['the analyses', /\/dist\/src\/(analyze\/(?!input-evidence)|lint\/)/],
  ['the renderers', /\/dist\/src\/render\/(?!sanitize)/],
  ['js-yaml', /\/node_modules\/js-yaml\//],
  ['chalk', /\/node_modules\/chalk\//],
  ['cli-table3', /\/node_modules\/cli-table3\//],
];

// The command npm test checks for the live client: an offline answer (--help is checked by its own
// case below); the slow tier checks every command of the lists above, and lint's SARIF writer.
const QUICK: string[][] = [['scan', '-f', 'fixtures/demo', '--now', '2026-11-29T12:00:00Z']];

/** The start-up checks: on every command (`full`) or on the QUICK few. */
export function startupChecks(mode: 'quick' | 'full'): void {
  const pick = (list: string[][]) =>
    mode === 'full' ? list : list.filter((a) => QUICK.some((q) => q.join(' ') === a.join(' ')));
  describe('start-up', { concurrency: CONCURRENCY }, () => {
    // The control: the trace sees client-node. The slow tier imports the live loader; npm test
    // resolves the client's name, which goes through the same hook without loading its 800 modules.
    const [controlName, controlCode] =
      mode === 'full'
        ? ['imported', `await import(${JSON.stringify(pathToFileURL('dist/src/load/live.js').href)})`]
        : ['resolved', `import.meta.resolve('@kubernetes/client-node')`];
    test(`the trace sees client-node when it is ${controlName} (the check can fail)`, async () => {
      const urls = await modulesLoaded(['--input-type=module', '-e', controlCode]);
      assert.ok(
        urls.some((u) => CLIENT_NODE.test(u)),
        urls.join('\n'),
      );
    });

    for (const argv of pick(OFFLINE_COMMANDS)) {
      test(`${argv.join(' ')} never loads @kubernetes/client-node`, async () => {
        const urls = await modulesLoaded([await unbundledEntry(), ...argv]);
        assert.ok(
          urls.some((u) => u.endsWith('/dist/src/cli/main.js')),
          `${argv.join(' ')}: the trace saw the program`,
        );
        const client = urls.filter((u) => CLIENT_NODE.test(u) || u.endsWith('/dist/src/load/live.js'));
        assert.deepEqual(client, [], `${argv.join(' ')} loaded the live client`);
      });
    }

    for (const argv of mode === 'full' ? [['--help'], ['--version'], ['version'], ['lint', '--help']] : [['--help']]) {
      test(`${argv.join(' ')} starts without the loaders, analyses and renderers`, async () => {
        const urls = await modulesLoaded([await unbundledEntry(), ...argv]);
        assert.ok(
          urls.some((u) => u.endsWith('/dist/src/cli/main.js')),
          'the trace saw the program',
        );
        for (const [what, pattern] of NOT_AT_START) {
          assert.deepEqual(
            urls.filter((u) => pattern.test(u)),
            [],
            `${argv.join(' ')} loaded ${what}`,
          );
        }
      });
    }

    // lint's SARIF writer: the slow tier.
    if (mode === 'full')
      test('lint -o table starts without the SARIF writer; lint -o sarif loads it (the check can fail)', async () => {
        const sarif = /\/dist\/src\/render\/sarif\.js$/;
        const entry = await unbundledEntry();
        const [table, sarifRun] = await Promise.all([
          modulesLoaded([entry, 'lint', '-f', 'fixtures/demo']),
          modulesLoaded([entry, 'lint', '-f', 'fixtures/demo', '-o', 'sarif']),
        ]);
        assert.deepEqual(
          table.filter((u) => sarif.test(u)),
          [],
        );
        assert.ok(sarifRun.some((u) => sarif.test(u)));
      });

    test('bin/ds-doctor.js runs the bundle, not the modules of dist/src', async () => {
      const urls = await modulesLoaded(['bin/ds-doctor.js', '--version']);
      assert.ok(
        urls.some((u) => u.endsWith('/bin/launch.js')),
        urls.join('\n'),
      );
      assert.deepEqual(
        urls.filter((u) => u.includes('/dist/src/')),
        [],
        'bin/ds-doctor.js ran the modules of dist/src: dist/bundle/ds-doctor.cjs is missing or older than the last tsc build (npm run build writes it)',
      );
    });

    test('the bundle loads the live client for a live command (the check can fail)', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-startup-'));
      const kubeconfig = join(dir, 'kubeconfig');
      await writeFile(
        kubeconfig,
        'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: not-a-secret}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
      );
      const { builtins } = await traced(
        ['bin/ds-doctor.js', 'scan', '--kubeconfig', kubeconfig, '--request-timeout', '10s'],
        3,
      );
      assert.ok(
        builtins.some((m) => LIVE_BUILTINS.test(m)),
        builtins.join('\n'),
      );
    });

    for (const argv of pick(OFFLINE_COMMANDS)) {
      test(`bundle: ${argv.join(' ')} never evaluates the live client`, async () => {
        const { builtins } = await traced(['bin/ds-doctor.js', ...argv]);
        assert.deepEqual(
          builtins.filter((m) => LIVE_BUILTINS.test(m)),
          [],
        );
      });
    }
  });
}
