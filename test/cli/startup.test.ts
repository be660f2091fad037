// Start-up: --help, --version and every offline command run the real bin/ without ever loading
// @kubernetes/client-node (docs/design.md §1.1: the live loader is imported lazily). A module resolve hook,
// registered with --import, records every module the process resolves.
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

/** Runs `node <args>` with the tracing hook; returns the URLs of every module resolved. */
async function modulesLoaded(args: string[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-startup-'));
  const hooks = join(dir, 'hooks.mjs');
  const register = join(dir, 'register.mjs');
  const trace = join(dir, 'trace.txt');
  await writeFile(hooks, HOOKS);
  await writeFile(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  await writeFile(trace, '');
  try {
    await run(process.execPath, ['--import', pathToFileURL(register).href, ...args], { env: { ...process.env, DS_DOCTOR_MODULE_TRACE: trace, NO_COLOR: '1' } });
  } catch (err) {
    // Exit code 1 (problems found) is a normal outcome for the offline commands on the demo.
    if ((err as { code?: number }).code !== 1) throw err;
  }
  return (await readFile(trace, 'utf8')).split('\n').filter(Boolean);
}

const CLIENT_NODE = /\/node_modules\/@kubernetes\/client-node\//;

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

describe('start-up', { concurrency: CONCURRENCY }, () => {
  test('the trace sees client-node when the live loader is imported (the check can fail)', async () => {
    const urls = await modulesLoaded(['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL('dist/src/load/live.js').href)})`]);
    assert.ok(
      urls.some((u) => CLIENT_NODE.test(u)),
      urls.join('\n'),
    );
  });

  for (const argv of OFFLINE_COMMANDS) {
    test(`${argv.join(' ')} never loads @kubernetes/client-node`, async () => {
      const urls = await modulesLoaded(['bin/ds-doctor.js', ...argv]);
      assert.ok(
        urls.some((u) => u.endsWith('/dist/src/cli/main.js')),
        `${argv.join(' ')}: the trace saw the program`,
      );
      const client = urls.filter((u) => CLIENT_NODE.test(u) || u.endsWith('/dist/src/load/live.js'));
      assert.deepEqual(client, [], `${argv.join(' ')} loaded the live client`);
    });
  }

  for (const argv of [['--help'], ['--version'], ['version'], ['lint', '--help']]) {
    test(`${argv.join(' ')} starts without the loaders, analyses and renderers`, async () => {
      const urls = await modulesLoaded(['bin/ds-doctor.js', ...argv]);
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

  test('lint -o table starts without the SARIF writer; lint -o sarif loads it (the check can fail)', async () => {
    const sarif = /\/dist\/src\/render\/sarif\.js$/;
    const [table, sarifRun] = await Promise.all([
      modulesLoaded(['bin/ds-doctor.js', 'lint', '-f', 'fixtures/demo']),
      modulesLoaded(['bin/ds-doctor.js', 'lint', '-f', 'fixtures/demo', '-o', 'sarif']),
    ]);
    assert.deepEqual(
      table.filter((u) => sarif.test(u)),
      [],
    );
    assert.ok(sarifRun.some((u) => sarif.test(u)));
  });
});
