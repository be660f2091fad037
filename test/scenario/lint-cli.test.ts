/** `ds-doctor lint` as a user runs it: scope, names, formats, annotations, and one-line errors with exit 2. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import type { LintReport } from '../../src/model/results.js';
import { runCli } from '../harness.js';

const AGENTS = 'fixtures/manifests/agents';

function oneLineError(run: { code: number; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(run.code, 2);
  assert.equal(run.stdout, '');
  assert.equal(run.stderr.split('\n').filter(Boolean).length, 1, run.stderr);
  assert.match(run.stderr, pattern);
}

describe('ds-doctor lint', () => {
  it('a name lints that DaemonSet only', async () => {
    const run = await runCli(['lint', 'kube-system/calico-node', '-f', AGENTS, '-o', 'json']);
    const report = JSON.parse(run.stdout) as LintReport;
    assert.equal(report.daemonSets, 1);
    assert.ok(report.findings.every((f) => f.daemonSet.name === 'calico-node'));
  });

  it('-n limits the scope to a namespace', async () => {
    const report = JSON.parse(
      (await runCli(['lint', '-f', AGENTS, '-n', 'kube-system', '-o', 'json'])).stdout,
    ) as LintReport;
    assert.equal(report.daemonSets, 4);
    assert.ok(report.findings.every((f) => f.daemonSet.namespace === 'kube-system'));
  });

  it('-o yaml is the JSON document', async () => {
    const json = JSON.parse((await runCli(['lint', '-f', AGENTS, '-o', 'json'])).stdout) as unknown;
    assert.deepEqual(yaml.load((await runCli(['lint', '-f', AGENTS, '-o', 'yaml'])).stdout), json);
  });

  it('-o markdown for pull-request comments', async () => {
    const run = await runCli(['lint', '-f', 'fixtures/manifests/bad', '-o', 'markdown']);
    assert.equal(run.code, 1);
    assert.match(
      run.stdout,
      /^## DaemonSet lint\n\n(\d+ info findings? not shown \(--min-severity info shows (it|them)\)\.\n\n)?### kube-system\/fluentd-elasticsearch \(`fixtures\/manifests\/bad\/deprecated-api\.yaml:1`\)/,
    );
    assert.match(run.stdout, /\| error \| surge-with-host-port \| `spec\.updateStrategy\.rollingUpdate\.maxSurge` \|/);
  });

  it('reads stdin, and an annotation turns rules off (the report says so)', async () => {
    const manifest = readFileSync(`${AGENTS}/fluent-bit.yaml`, 'utf8').replace(
      '  labels:\n    app: fluent-bit\nspec:',
      '  labels:\n    app: fluent-bit\n  annotations:\n    ds-doctor.io/ignore: run-as-non-root,read-only-root-filesystem\nspec:',
    );
    const run = await runCli(['lint', '-f', '-', '--no-color'], { stdin: manifest });
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^logging\/fluent-bit {2}<stdin>:1\n {2}! warning {2}liveness-probe-missing/m);
    assert.match(
      run.stdout,
      /Turned off by annotation:\n {2}- logging\/fluent-bit: read-only-root-filesystem, run-as-non-root \(2 findings hidden\)/,
    );
  });

  it('no DaemonSets in the input: a note on stderr, exit 0', async () => {
    const run = await runCli(['lint', '-f', 'fixtures/manifests/cluster']);
    assert.equal(run.code, 0);
    assert.match(run.stderr, /no DaemonSets in all namespaces in the input: nothing to lint/);
    assert.match(run.stdout, /no findings in 0 DaemonSets/);
  });

  it('an unknown DaemonSet: one line, a suggestion, exit 2', async () => {
    oneLineError(await runCli(['lint', 'calico-nod', '-f', AGENTS]), /daemonset "calico-nod" not found.*calico-node/);
  });

  it('a missing file: one line, exit 2', async () => {
    oneLineError(
      await runCli(['lint', '-f', 'no/such/manifest.yaml']),
      /^error: no\/such\/manifest\.yaml: no such file or directory\n$/,
    );
  });

  it('broken YAML: one line naming file and line, exit 2', async () => {
    oneLineError(
      await runCli(['lint', '-f', '-'], { stdin: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: [oops\n' }),
      /^error: <stdin>:\d+: invalid YAML: /,
    );
  });

  it('an output format lint does not have: exit 2', async () => {
    const run = await runCli(['lint', '-f', AGENTS, '-o', 'xml']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /argument 'xml' is invalid/);
  });

  it('other commands do not accept -o sarif', async () => {
    assert.equal((await runCli(['scan', '-f', AGENTS, '-o', 'sarif'])).code, 2);
  });
});
