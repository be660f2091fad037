// A terse default, detail on request: each command's default output leads with its answer and
// prints each fact once; -o wide adds the evidence, fixes and tables; JSON stays complete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../harness.js';

const DEMO = ['-f', 'fixtures/demo', '--now', '2026-11-29T12:00:00Z', '--no-color'];

test('rollout: verdict, what changed in the first lines, the root causes, the blockers they explain named once; no evidence, table or revision by default', async () => {
  const r = await runCli(['rollout', 'logging/fluent-bit', ...DEMO]);
  const lines = r.stdout.split('\n');
  assert.match(lines[0]!, /^rollout of logging\/fluent-bit: Stuck/);
  assert.ok(
    lines.slice(0, 8).some((l) => l.includes('fluent/fluent-bit:3.0 → 3.1')),
    'the image change in the first 8 lines',
  );
  const order = [
    'changed',
    'root cause:',
    'updated',
    'blocked   worker-1 CrashLoopBackOff; worker-5 NodeNotReady: the root causes above',
  ].map((s) => r.stdout.indexOf(s));
  assert.ok(
    order.every((i) => i >= 0),
    `every part: ${order.join(', ')}`,
  );
  assert.deepEqual(
    [...order].sort((a, b) => a - b),
    order,
    'verdict, what changed, root causes, progress, blockers',
  );
  for (const detail of [
    'evidence:',
    'Budget in use:',
    'Revisions:',
    'Waiting for daemon set',
    'Blockers:',
    'Next steps:',
  ])
    assert.ok(!r.stdout.includes(detail), `not by default: ${detail}`);
});

test('rollout: blockers and next steps on nodes no root cause explains keep their sections', async () => {
  const r = await runCli([
    'rollout',
    'kube-system/ebs-csi-node',
    '-f',
    'fixtures/scenarios/rollout-ondelete',
    '--no-color',
  ]);
  assert.match(r.stdout, /\nNext steps:\n {2}1\. canary: kubectl delete pod -n kube-system /);
});

test('rollout -o wide: every reason with its evidence and fix, the budget in use, kubectl, the revisions, the whole diff', async () => {
  const wide = await runCli(['rollout', 'logging/fluent-bit', ...DEMO, '-o', 'wide']);
  const json = JSON.parse((await runCli(['rollout', 'logging/fluent-bit', ...DEMO, '-o', 'json'])).stdout) as {
    reasons: { code: string; evidence: string[]; fix: string }[];
    templateDiff: string[];
  };
  for (const r of json.reasons) {
    assert.ok(wide.stdout.includes(r.code) && wide.stdout.includes(r.fix), r.code);
    for (const e of r.evidence) assert.ok(wide.stdout.includes(e), e);
  }
  for (const l of json.templateDiff) assert.ok(wide.stdout.includes(l), l);
  for (const section of ['Budget in use:', 'Revisions:', 'kubectl   Waiting for daemon set'])
    assert.ok(wide.stdout.includes(section), section);
});

test('impact: line 1 is the risk and the reason that sets it; the commands of the alternatives with -o wide', async () => {
  const r = await runCli(['impact', 'kube-system/calico-node', ...DEMO]);
  assert.match(
    r.stdout,
    /^kubectl delete daemonset kube-system\/calico-node: risk CRITICAL: node networking \(CNI agent\) on 8 nodes/,
  );
  assert.ok(!r.stdout.includes('$ kubectl'));
  const wide = await runCli(['impact', 'kube-system/calico-node', ...DEMO, '-o', 'wide']);
  assert.ok(wide.stdout.includes('$ kubectl delete daemonset -n kube-system calico-node --cascade=orphan'));
  assert.ok(wide.stdout.includes('- gpu-1: 2 pods on the pod network'), 'the findings evidence');
});

test('plan: line 1 is the worst outcome', async () => {
  const lost = await runCli([
    'plan',
    '-f',
    'fixtures/plan/calico-node-selector.yaml',
    '--cluster-dump',
    'fixtures/demo',
    '--now',
    '2026-11-29T12:00:00Z',
    '--no-color',
  ]);
  assert.equal(lost.code, 1);
  assert.equal(lost.stdout.split('\n')[0], '✗ 2 nodes lose their network agent: gpu-1, gpu-2');
  const fine = await runCli([
    'plan',
    '-f',
    'fixtures/plan/fluent-bit-memory.yaml',
    '--cluster-dump',
    'fixtures/demo',
    '--now',
    '2026-11-29T12:00:00Z',
    '--no-color',
  ]);
  assert.equal(fine.stdout.split('\n')[0], '✓ replaces the pod on 9 node(s); no node loses its pod or is left Pending');
});

test('lint: the summary first, findings at or above --min-severity (default warning) and a count of the others; JSON keeps every finding', async () => {
  const json = JSON.parse((await runCli(['lint', ...DEMO, '-o', 'json'])).stdout) as {
    findings: { severity: string }[];
  };
  const count = (s: string) => json.findings.filter((f) => f.severity === s).length;
  const [errors, warnings, infos] = [count('error'), count('warning'), count('info')];
  assert.ok(errors > 0 && warnings > 0 && infos > 0, 'the demo has findings of every severity');
  const r = await runCli(['lint', ...DEMO]);
  const [summary, hidden] = r.stdout.split('\n');
  assert.ok(
    summary!.startsWith(
      `${json.findings.length} findings (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warnings, ${infos} info) in 6 DaemonSets`,
    ),
    summary,
  );
  assert.equal(hidden, `${infos} info findings not shown (--min-severity info shows them)`);
  const shown = (text: string) => text.match(/^ {2}[✗!i] (error|warning|info) /gm)?.length ?? 0;
  assert.equal(shown(r.stdout), errors + warnings);
  assert.equal(shown((await runCli(['lint', ...DEMO, '--min-severity', 'info'])).stdout), json.findings.length);
  const onlyErrors = await runCli(['lint', ...DEMO, '--min-severity', 'error']);
  assert.equal(shown(onlyErrors.stdout), errors);
  assert.ok(
    onlyErrors.stdout.includes(
      `\n${warnings} warning and ${infos} info findings not shown (--min-severity info shows them)\n`,
    ),
  );
});
