// Shell completion end to end: the bash script of `ds-doctor completion bash` in a real bash,
// driving the real bin/ through `__complete` (test/completion-bash.ts: a few cases here, every
// case in the slow tier); the kubectl_complete-ds_doctor executable that kubectl ≥ 1.26 calls; and
// the version document.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { runCli } from '../harness.js';
import { bashCompletion } from '../completion-bash.js';
import { VERSION } from '../../src/cli/version.js';

const run = promisify(execFile);

bashCompletion('quick');

test('kubectl_complete-ds_doctor answers with the words kubectl passes after the plugin name', async () => {
  const { stdout } = await run(process.execPath, [
    'bin/kubectl_complete-ds_doctor',
    'why',
    '-f',
    'fixtures/demo',
    'logging/',
  ]);
  assert.equal(stdout, 'logging/fluent-bit\n:4\n');
});

test('version -o json: version, commit and Node.js version', async () => {
  const r = await runCli(['version', '-o', 'json']);
  assert.equal(r.code, 0);
  const doc = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(doc), ['apiVersion', 'kind', 'version', 'commit', 'nodeVersion', 'platform']);
  assert.equal(doc.kind, 'Version');
  assert.equal(doc.version, VERSION);
  assert.match(doc.commit, /^([0-9a-f]{4,40}|unknown)$/);
  assert.equal(doc.nodeVersion, process.version);
});

test('the version in the code is the package version', async () => {
  const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
});

describe("every command's --help shows kubectl-style examples", () => {
  for (const cmd of ['scan', 'why', 'nodes', 'node', 'rollout', 'impact', 'lint', 'plan', 'version', 'completion']) {
    test(`${cmd} --help shows kubectl-style examples`, async () => {
      const r = await runCli([cmd, '--help']);
      assert.equal(r.code, 0, cmd);
      assert.match(r.stdout, /\nExamples:\n {2}\S/, cmd);
      assert.match(r.stdout, /kubectl ds-doctor|ds-doctor /, cmd);
    });
  }
});
