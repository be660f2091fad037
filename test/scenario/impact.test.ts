// `impact` from the command line: --fail-on, one-line errors, --cascade, markdown. Its golden cases
// (one per dump of fixtures/impact) are rows of scenarios.ts, run by golden.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../harness.js';
import { SCENARIOS } from './scenarios.js';

const ROOT = 'fixtures/impact';

test('every impact scenario of the issue is a golden case', () => {
  const cases = SCENARIOS.map((s) => s.name);
  for (const name of [
    'cni-calico',
    'kube-proxy',
    'csi-node',
    'gpu-device-plugin',
    'fluent-bit',
    'node-exporter',
    'webhook',
    'orphan',
  ]) {
    assert.ok(cases.includes(`impact-${name}`), `missing golden case impact-${name}`);
  }
});

test('impact --fail-on none exits 0 even for a critical risk; --fail-on warning fails a medium one', async () => {
  const critical = await runCli([
    'impact',
    'kube-system/calico-node',
    '-f',
    `${ROOT}/cni-calico/cluster.yaml`,
    '--fail-on',
    'none',
  ]);
  assert.equal(critical.code, 0);
  const medium = await runCli([
    'impact',
    'monitoring/node-exporter',
    '-f',
    `${ROOT}/node-exporter/cluster.yaml`,
    '--fail-on',
    'warning',
  ]);
  assert.equal(medium.code, 1);
});

test('impact: an unknown DaemonSet is one line on stderr and exit 2', async () => {
  const r = await runCli(['impact', 'kube-system/calico-nod', '-f', `${ROOT}/cni-calico/cluster.yaml`]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    'error: daemonset "calico-nod" not found in namespace "kube-system" (did you mean "calico-node"?)\n',
  );
});

test('impact: --cascade accepts only what kubectl delete accepts', async () => {
  const r = await runCli([
    'impact',
    'kube-system/calico-node',
    '--cascade=sideways',
    '-f',
    `${ROOT}/cni-calico/cluster.yaml`,
  ]);
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
