// Golden scenarios of `impact`: each fixtures/impact/<name>/scenario.json names the command line
// (its dump lives in fixtures/impact/<dump>/cluster.yaml) and the exit code; expected.txt and
// expected.json beside it hold the human and JSON outputs. UPDATE_GOLDEN=1 rewrites them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../harness.js';

const ROOT = 'fixtures/impact';
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

interface Scenario {
  description: string;
  args: string[];
  exitCode: number;
}

function golden(file: string, actual: string): void {
  if (UPDATE || !existsSync(file)) {
    writeFileSync(file, actual);
    if (!UPDATE) assert.fail(`${file} did not exist and was written: check it and run again`);
    return;
  }
  assert.equal(actual, readFileSync(file, 'utf8'), `${file} differs (UPDATE_GOLDEN=1 rewrites it)`);
}

const scenarios = readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(ROOT, e.name, 'scenario.json')))
  .map((e) => e.name)
  .sort();

test('every impact scenario of the issue has a fixture', () => {
  for (const name of ['cni-calico', 'kube-proxy', 'csi-node', 'gpu-device-plugin', 'fluent-bit', 'node-exporter', 'webhook', 'orphan']) {
    assert.ok(scenarios.includes(name), `missing scenario ${name}`);
  }
});

for (const name of scenarios) {
  const dir = join(ROOT, name);
  const scenario = JSON.parse(readFileSync(join(dir, 'scenario.json'), 'utf8')) as Scenario;

  test(`impact scenario ${name}: ${scenario.description}`, async () => {
    const human = await runCli(scenario.args);
    assert.equal(human.stderr, '');
    assert.equal(human.code, scenario.exitCode, `exit code of: ds-doctor ${scenario.args.join(' ')}`);
    golden(join(dir, 'expected.txt'), human.stdout);

    const json = await runCli([...scenario.args, '-o', 'json']);
    assert.equal(json.code, scenario.exitCode);
    golden(join(dir, 'expected.json'), json.stdout);
    const doc = JSON.parse(json.stdout) as { kind: string; risk: string };
    assert.equal(doc.kind, 'DeleteImpact');
    // The exit code is the pipeline gate: 1 exactly when the risk is high or critical.
    assert.equal(scenario.exitCode, doc.risk === 'critical' || doc.risk === 'high' ? 1 : 0);

    // Same input, same output: nothing depends on map order or the clock.
    const again = await runCli(scenario.args);
    assert.equal(again.stdout, human.stdout);
  });
}

test('impact --fail-on none exits 0 even for a critical risk; --fail-on warning fails a medium one', async () => {
  const critical = await runCli(['impact', 'kube-system/calico-node', '-f', `${ROOT}/cni-calico/cluster.yaml`, '--fail-on', 'none']);
  assert.equal(critical.code, 0);
  const medium = await runCli(['impact', 'monitoring/node-exporter', '-f', `${ROOT}/node-exporter/cluster.yaml`, '--fail-on', 'warning']);
  assert.equal(medium.code, 1);
});

test('impact: an unknown DaemonSet is one line on stderr and exit 2', async () => {
  const r = await runCli(['impact', 'kube-system/calico-nod', '-f', `${ROOT}/cni-calico/cluster.yaml`]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'error: daemonset "calico-nod" not found in namespace "kube-system" (did you mean "calico-node"?)\n');
});

test('impact: --cascade accepts only what kubectl delete accepts', async () => {
  const r = await runCli(['impact', 'kube-system/calico-node', '--cascade=sideways', '-f', `${ROOT}/cni-calico/cluster.yaml`]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1);
  assert.match(r.stderr, /Allowed choices are background, foreground, orphan/);
});

test('impact -o markdown renders the same sections', async () => {
  const r = await runCli(['impact', 'policy/policy-agent', '-f', `${ROOT}/webhook/cluster.yaml`, '-o', 'markdown']);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^### kubectl delete daemonset policy\/policy-agent: risk critical/);
  assert.match(r.stdout, /- \*\*WebhookFailClosed\*\* \(error\)/);
  assert.match(r.stdout, /```sh\n {3}kubectl patch validatingwebhookconfiguration policy-agent/);
});
