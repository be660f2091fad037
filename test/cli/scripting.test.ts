// The outputs and flags for scripts: -o name, --no-headers, -l/--selector for DaemonSets (from
// files, and sent to the API server live), scan --health, and -o junit for lint and scan (well
// formed, counts that add up, every untrusted string escaped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../harness.js';
import { startFakeApi, writeKubeconfig } from './fake-api.js';
import { RULES } from '../../src/lint/registry.js';
import { xmlText } from '../../src/render/junit.js';

const DEMO = ['-f', 'fixtures/demo'];

async function json<T>(argv: string[]): Promise<T> {
  const r = await runCli([...argv, '-o', 'json']);
  return JSON.parse(r.stdout) as T;
}

interface ScanJson {
  daemonSets: { namespace: string; name: string; health: string }[];
}

test('scan -o name: daemonset.apps/<name>, one line per DaemonSet of the JSON, in its order; same exit code', async () => {
  const r = await runCli(['scan', ...DEMO, '-o', 'name']);
  const report = await json<ScanJson>(['scan', ...DEMO]);
  assert.equal(r.stdout, report.daemonSets.map((d) => `daemonset.apps/${d.name}\n`).join(''));
  assert.equal(r.code, 1);
});

test('scan --no-headers: the table rows alone, the same rows as with the header', async () => {
  const plain = await runCli(['scan', ...DEMO]);
  const bare = await runCli(['scan', ...DEMO, '--no-headers']);
  const report = await json<ScanJson>(['scan', ...DEMO]);
  const lines = bare.stdout.trimEnd().split('\n');
  assert.equal(lines.length, report.daemonSets.length);
  assert.ok(!bare.stdout.includes('NAMESPACE') && !bare.stdout.includes('Problems'));
  const tableRows = plain.stdout.split('\n').slice(1, 1 + lines.length);
  assert.deepEqual(
    lines.map((l) => l.split(/\s+/)),
    tableRows.map((l) => l.split(/\s+/)),
  );
  const wide = await runCli(['scan', ...DEMO, '--no-headers', '-o', 'wide']);
  assert.equal(wide.stdout.trimEnd().split('\n').length, report.daemonSets.length);
});

test('scan -l: only the DaemonSets whose labels match (set-based selector too)', async () => {
  const report = await json<ScanJson>(['scan', ...DEMO, '-l', 'k8s-app in (calico-node,kube-proxy)']);
  assert.deepEqual(
    report.daemonSets.map((d) => d.name),
    ['calico-node', 'kube-proxy'],
  );
  const none = await json<ScanJson>(['scan', ...DEMO, '-l', 'k8s-app=nothing-has-this']);
  assert.deepEqual(none.daemonSets, []);
  const bad = await runCli(['scan', ...DEMO, '-l', 'a=(']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^error: -l\/--selector: invalid selector "a=\("/m);
});

test('scan --health: only those states (any case, comma-separated or repeated); the exit code follows what is kept', async () => {
  const all = await json<ScanJson>(['scan', ...DEMO]);
  const some = await json<ScanJson>(['scan', ...DEMO, '--health', 'degraded,Stuck', '--health', 'Failing']);
  assert.deepEqual(
    some.daemonSets.map((d) => d.name),
    all.daemonSets.filter((d) => ['Degraded', 'Stuck', 'Failing'].includes(d.health)).map((d) => d.name),
  );
  assert.ok(some.daemonSets.length > 0);
  const healthy = await runCli(['scan', ...DEMO, '--health', 'Healthy', '-o', 'name']);
  assert.equal(healthy.code, 0, 'only healthy DaemonSets kept: nothing to fail on');
  assert.equal(
    healthy.stdout.trimEnd().split('\n').length,
    all.daemonSets.filter((d) => d.health === 'Healthy').length,
  );
  const bad = await runCli(['scan', ...DEMO, '--health', 'Sick']);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /--health: "Sick" is not a health state \(one of Healthy, Degraded, RollingOut, Stuck, Failing\)/,
  );
});

test('lint -o name: the DaemonSets with a finding at or above --min-severity; --no-headers: one line per finding', async () => {
  const report = await json<{ findings: { severity: string; daemonSet: { name: string } }[] }>(['lint', ...DEMO]);
  const errors = await runCli(['lint', ...DEMO, '-o', 'name', '--min-severity', 'error']);
  assert.equal(
    errors.stdout,
    [...new Set(report.findings.filter((f) => f.severity === 'error').map((f) => f.daemonSet.name))]
      .map((n) => `daemonset.apps/${n}\n`)
      .join(''),
  );
  const rows = await runCli(['lint', ...DEMO, '--no-headers', '--min-severity', 'info']);
  assert.equal(rows.stdout.trimEnd().split('\n').length, report.findings.length);
  assert.match(rows.stdout, /^kube-system\/calico-node +error +not-ready-toleration-missing +this network/);
});

test('rollout -o name: the DaemonSet', async () => {
  const r = await runCli(['rollout', 'logging/fluent-bit', ...DEMO, '-o', 'name']);
  assert.equal(r.stdout, 'daemonset.apps/fluent-bit\n');
  assert.equal(r.code, 1);
});

test('rollout -l: every matching DaemonSet in scope, each answer as rollout <name> gives it; the worst exit code', async () => {
  const names = await runCli(['rollout', '-A', '-l', 'k8s-app', ...DEMO, '-o', 'name']);
  assert.equal(names.stdout, 'daemonset.apps/calico-node\ndaemonset.apps/kube-proxy\n');
  const list = await json<{ apiVersion: string; kind: string; items: unknown[] }>([
    'rollout',
    '-A',
    '-l',
    'k8s-app',
    ...DEMO,
  ]);
  assert.equal(list.kind, 'RolloutDiagnosisList');
  assert.equal(list.apiVersion, 'ds-doctor/v1');
  const one = await Promise.all(
    ['kube-system/calico-node', 'kube-system/kube-proxy'].map((n) => json(['rollout', n, ...DEMO])),
  );
  assert.deepEqual(list.items, one);
  const text = await runCli(['rollout', '-A', '-l', 'k8s-app', ...DEMO]);
  const alone = await Promise.all(
    ['kube-system/calico-node', 'kube-system/kube-proxy'].map((n) => runCli(['rollout', n, ...DEMO])),
  );
  assert.equal(text.stdout, alone.map((r) => r.stdout).join('\n'));
  // A stuck rollout among them decides the exit code, as it does alone.
  const mixed = await runCli(['rollout', '-A', '-l', '!k8s-app', ...DEMO, '-o', 'name']);
  assert.ok(mixed.stdout.includes('daemonset.apps/fluent-bit\n') && mixed.stdout.split('\n').length > 2, mixed.stdout);
  assert.equal(names.code, 0);
  assert.equal(mixed.code, 1);
});

test('rollout -l: refused with a name, with --watch, and when nothing matches; a name or -l is needed', async () => {
  for (const [argv, re] of [
    [
      ['rollout', 'fluent-bit', '-l', 'app=x', ...DEMO],
      /^error: -l\/--selector: give a DaemonSet name or a selector, not both/,
    ],
    [['rollout', '-l', 'app=x', '--watch'], /^error: -l\/--selector: not with --watch/],
    [
      ['rollout', '-A', '-l', 'app=nope', ...DEMO],
      /^error: -l\/--selector app=nope: no DaemonSet in all namespaces matches$/m,
    ],
    [['rollout', ...DEMO], /^error: rollout: missing argument 'daemonset'/],
  ] as [string[], RegExp][]) {
    const r = await runCli(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.stderr, re, argv.join(' '));
  }
});

test(
  'live -l: the selector is sent to the API server with the DaemonSet list (and only matching ones are read)',
  { timeout: 20_000 },
  async () => {
    const api = await startFakeApi(() => false);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-sel-'));
    try {
      const kc = writeKubeconfig(dir, 'sel', { cluster: { server: api.url }, user: { token: 'tok-12345678' } });
      const r = await runCli(['scan', '--kubeconfig', kc, '-l', 'app in (agent),tier!=test', '-o', 'name']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
      const listed = api.requests.find((p) => p.startsWith('/apis/apps/v1/namespaces/demo/daemonsets?'));
      assert.ok(listed, api.requests.join('\n'));
      assert.equal(new URL(listed, 'http://x').searchParams.get('labelSelector'), 'app in (agent),tier!=test');
    } finally {
      await api.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

/** A small checker of the XML a JUnit consumer reads: well formed, and the element tree. */
interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

function parseXml(xml: string): El {
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'));
  assert.ok(
    // eslint-disable-next-line no-control-regex -- the check is for characters XML 1.0 cannot hold
    !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(xml),
    'no control or bidi characters',
  );
  const body = xml.slice(xml.indexOf('\n') + 1);
  const root: El = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: El[] = [root];
  const token = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let pos = 0;
  while ((m = token.exec(body))) {
    pos = token.lastIndex;
    if (m[5] !== undefined) {
      assert.ok(!/&(?!(amp|lt|gt|quot|apos);)/.test(m[5]), `bare & in text: ${m[5]}`);
      stack.at(-1)!.text += m[5];
      continue;
    }
    if (m[1]) {
      const open = stack.pop()!;
      assert.equal(open.name, m[2], 'closing tag matches');
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of m[3]!.matchAll(/([\w-]+)="([^"]*)"/g)) {
      assert.ok(!/&(?!(amp|lt|gt|quot|apos);)/.test(a[2]!), `bare & in attribute: ${a[2]}`);
      attrs[a[1]!] = a[2]!;
    }
    const el: El = { name: m[2]!, attrs, children: [], text: '' };
    stack.at(-1)!.children.push(el);
    if (!m[4]) stack.push(el);
  }
  assert.equal(
    pos,
    body.length,
    `the whole document parses (stopped at ${pos}: ${JSON.stringify(body.slice(pos, pos + 40))})`,
  );
  assert.equal(stack.length, 1, 'every element is closed');
  assert.equal(root.children.length, 1);
  return root.children[0]!;
}

/** Checks the JUnit shape: testsuites > testsuite > testcase > failure|skipped|system-out, counts adding up. */
function checkJunit(doc: El): El[] {
  assert.equal(doc.name, 'testsuites');
  const cases: El[] = [];
  let failures = 0;
  for (const suite of doc.children) {
    assert.equal(suite.name, 'testsuite');
    assert.ok(suite.children.every((c) => c.name === 'testcase'));
    for (const c of suite.children) {
      assert.ok(c.attrs['name'] && c.attrs['classname'] === suite.attrs['name'], JSON.stringify(c.attrs));
      assert.ok(c.children.every((x) => ['failure', 'skipped', 'system-out'].includes(x.name)));
    }
    const suiteFailures = suite.children.filter((c) => c.children.some((x) => x.name === 'failure')).length;
    assert.equal(Number(suite.attrs['tests']), suite.children.length);
    assert.equal(Number(suite.attrs['failures']), suiteFailures);
    assert.equal(
      Number(suite.attrs['skipped']),
      suite.children.filter((c) => c.children.some((x) => x.name === 'skipped')).length,
    );
    failures += suiteFailures;
    cases.push(...suite.children);
  }
  assert.equal(Number(doc.attrs['tests']), cases.length);
  assert.equal(Number(doc.attrs['failures']), failures);
  return cases;
}

test('lint -o junit: a suite per DaemonSet, a test case per rule; errors fail at --fail-on error, warnings too at --fail-on warning', async () => {
  const report = await json<{
    findings: { severity: string; rule: string; daemonSet: { namespace: string; name: string } }[];
    daemonSets: number;
  }>(['lint', ...DEMO]);
  const r = await runCli(['lint', ...DEMO, '-o', 'junit']);
  assert.equal(r.code, 1);
  const cases = checkJunit(parseXml(r.stdout));
  assert.equal(cases.length, report.daemonSets * RULES.length);
  const failed = (cs: El[]) =>
    cs
      .filter((c) => c.children.some((x) => x.name === 'failure'))
      .map((c) => `${c.attrs['classname']} ${c.attrs['name']}`);
  const key = (f: { rule: string; daemonSet: { namespace: string; name: string } }) =>
    `${f.daemonSet.namespace}/${f.daemonSet.name} ${f.rule}`;
  assert.deepEqual(
    failed(cases).sort(),
    [...new Set(report.findings.filter((f) => f.severity === 'error').map(key))].sort(),
  );
  const strict = checkJunit(parseXml((await runCli(['lint', ...DEMO, '-o', 'junit', '--fail-on', 'warning'])).stdout));
  assert.deepEqual(
    failed(strict).sort(),
    [...new Set(report.findings.filter((f) => f.severity !== 'info').map(key))].sort(),
  );
});

test('scan -o junit: a suite per DaemonSet with a health case, failed as the exit code counts it', async () => {
  const report = await json<ScanJson>(['scan', ...DEMO]);
  const r = await runCli(['scan', ...DEMO, '-o', 'junit']);
  const doc = parseXml(r.stdout);
  checkJunit(doc);
  assert.deepEqual(
    doc.children.map((s) => s.attrs['name']),
    report.daemonSets.map((d) => `${d.namespace}/${d.name}`),
  );
  for (const [i, suite] of doc.children.entries()) {
    const health = suite.children.find((c) => c.attrs['name'] === 'health')!;
    const failing = !['Healthy', 'RollingOut'].includes(report.daemonSets[i]!.health);
    assert.equal(
      health.children.some((x) => x.name === 'failure'),
      failing,
      suite.attrs['name'],
    );
  }
  const none = parseXml((await runCli(['scan', ...DEMO, '-o', 'junit', '--fail-on', 'none'])).stdout);
  assert.equal(none.attrs['failures'], '0');
});

test('-o junit escapes untrusted strings: markup, terminal escapes and bidi characters from a manifest', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-junit-'));
  try {
    const hostile = 'x<y>&"\'\u001b[2J\u202e';
    const manifest = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name: 'agent',
        namespace: 'demo',
        annotations: { 'ignore-check.ds-doctor.io/image-tag-mutable': `reason ${hostile}` },
      },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'agent', image: `registry.example/agent:latest`, command: [hostile] }] },
        },
      },
    };
    const file = path.join(dir, 'ds.json');
    fs.writeFileSync(file, JSON.stringify(manifest));
    const r = await runCli(['lint', '-f', file, '-o', 'junit']);
    const doc = parseXml(r.stdout);
    checkJunit(doc);
    const skipped = doc.children[0]!.children.find((c) => c.attrs['name'] === 'image-tag-mutable')!.children.find(
      (x) => x.name === 'skipped',
    );
    assert.equal(skipped?.attrs['message'], `turned off by annotation: reason ${xmlText(hostile)}`);
    assert.equal(xmlText(hostile), 'x&lt;y&gt;&amp;&quot;&apos;\\u001b[2J\\u202e');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
