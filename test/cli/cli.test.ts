// In-process CLI tests through main(argv, io): flags, output formats and exit codes (docs/design.md §2, §3).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { runCli } from '../harness.js';

const DEMO = ['-f', 'fixtures/demo'];

describe('--help lists every command with an example, exit 0', () => {
  test('--help exits 0', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
  });
  for (const cmd of ['scan', 'why', 'nodes', 'node', 'rollout', 'impact', 'lint']) {
    test(`--help lists ${cmd} with an example`, async () => {
      const r = await runCli(['--help']);
      assert.match(r.stdout, new RegExp(`^  ${cmd}\\b`, 'm'), cmd);
      assert.match(r.stdout, new RegExp(`ds-doctor ${cmd} `), `${cmd} example`);
    });
  }
  test('why --help shows examples, exit 0', async () => {
    const sub = await runCli(['why', '--help']);
    assert.equal(sub.code, 0);
    assert.match(sub.stdout, /Examples:\n {2}ds-doctor why/);
  });
});

test('--version, and no arguments prints help with exit 2', async () => {
  const version = await runCli(['--version']);
  assert.equal(version.code, 0);
  assert.equal(version.stderr, '');
  assert.match(
    version.stdout,
    /^ds-doctor 0\.1\.0 \(commit ([0-9a-f]{4,40}|unknown), Node\.js v\d+\.\d+\.\d+, [a-z0-9]+\/[a-z0-9]+\)\n$/,
  );
  const none = await runCli([]);
  assert.equal(none.code, 2);
  assert.match(none.stdout, /Usage: ds-doctor/);
});

describe('usage errors: one line on stderr, exit 2, no stack trace', () => {
  const cases: [string[], RegExp][] = [
    [['scan', '--bogus', ...DEMO], /^error: unknown option '--bogus'/],
    [['scan', '-o', 'xml', ...DEMO], /^error: option '-o, --output <format>' argument 'xml' is invalid/],
    [['scan', '--fail-on', 'sometimes', ...DEMO], /^error: option '--fail-on <level>' argument 'sometimes' is invalid/],
    [['scan', '--now', 'yesterday', ...DEMO], /^error: --now: "yesterday" is not an RFC 3339 time/],
    [['scna', ...DEMO], /^error: unknown command 'scna'/],
    [['why', ...DEMO], /^error: missing required argument 'daemonset'/],
    [['why', 'fluent-bt', ...DEMO], /^error: daemonset "fluent-bt" not found \(did you mean "fluent-bit"\?\)$/],
    [
      ['why', 'logging/fluent-bit', 'worker-9', ...DEMO],
      /^error: node "worker-9" not found \(did you mean "worker-1" or "worker-2" or "worker-3"\?\)$/,
    ],
    [
      ['why', 'fluent-bit', '-n', 'kube-system', ...DEMO],
      /^error: daemonset "fluent-bit" not found in namespace "kube-system" \(it exists in namespace logging: use -n\)$/,
    ],
    [['scan', '-f', 'fixtures/nope'], /^error: fixtures\/nope: no such file or directory$/],
    [['nodes', 'calico-node', '--verdict', 'Sad', ...DEMO], /^error: --verdict: "Sad" is not a verdict/],
    [['nodes', 'calico-node', '-l', 'a b', ...DEMO], /^error: -l\/--selector: invalid selector/],
    [
      ['completion', 'tcsh'],
      /^error: command-argument value 'tcsh' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish, powershell\.$/,
    ],
    [['version', '-o', 'xml'], /^error: option '-o, --output <format>' argument 'xml' is invalid/],
  ];
  for (const [argv, re] of cases) {
    test(argv.join(' '), async () => {
      const r = await runCli(argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.stderr.trim(), re, argv.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
      assert.ok(!/\bat .*\.js:\d+/.test(r.stderr), 'no stack trace');
    });
  }
});

/** A kubeconfig with the contexts admin and reader (its server is never called: the context is wrong). */
function twoContextKubeconfig(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ds-doctor-contexts-')), 'config');
  writeFileSync(
    file,
    yaml.dump({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'admin',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: ['admin', 'reader'].map((name) => ({ name, context: { cluster: 'c', user: 'u' } })),
    }),
  );
  return file;
}

const CONTEXT_ERRORS: [string, RegExp][] = [
  ['admn', /^error: context "admn" not found in kubeconfig \(did you mean "admin"\?\)$/],
  ['nope', /^error: context "nope" not found in kubeconfig \(contexts: admin, reader\)$/],
];
for (const [context, re] of CONTEXT_ERRORS) {
  test(`--context ${context}: one line with the nearest context or the list, exit 3`, async () => {
    const r = await runCli(['scan', '--context', context, '--kubeconfig', twoContextKubeconfig()]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr.trim(), re);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });
}

describe('bad input on stdin: invalid YAML, a document without kind, an empty dump', () => {
  const cases: [string, RegExp][] = [
    ['kind: Node\nmetadata:\n  name: [x\n', /^error: <stdin>:\d+: invalid YAML: /],
    ['apiVersion: v1\nmetadata: {name: x}\n', /^error: <stdin>:1: document has no "kind"$/],
    ['# nothing here\n', /^error: -: no Kubernetes objects found$/],
    ['{"kind": "Node", ', /^error: <stdin>:1: invalid JSON: /],
  ];
  for (const [stdin, re] of cases) {
    test(JSON.stringify(stdin), async () => {
      const r = await runCli(['scan', '-f', '-'], { stdin });
      assert.equal(r.code, 2, stdin);
      assert.match(r.stderr.trim(), re);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    });
  }
});

test('--debug adds the stack trace', async () => {
  const r = await runCli(['scan', '-f', 'fixtures/nope', '--debug']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /InputError/);
});

test('scan on the demo: table, exit 1; json is a ScanReport; yaml is the same document', async () => {
  const table = await runCli(['scan', ...DEMO]);
  assert.equal(table.code, 1);
  assert.match(table.stdout, /^NAMESPACE\s+NAME\s+HEALTH/);
  const json = await runCli(['scan', ...DEMO, '-o', 'json']);
  const doc = JSON.parse(json.stdout);
  assert.equal(doc.apiVersion, 'ds-doctor/v1');
  assert.equal(doc.kind, 'ScanReport');
  for (const d of doc.daemonSets) {
    for (const k of ['namespace', 'name', 'health', 'desired', 'ready', 'updated', 'available', 'problems'])
      assert.ok(k in d, k);
    assert.ok(['Healthy', 'Degraded', 'RollingOut', 'Stuck', 'Failing'].includes(d.health));
  }
  const y = await runCli(['scan', ...DEMO, '-o', 'yaml']);
  assert.deepEqual(yaml.load(y.stdout), doc);
  const md = await runCli(['scan', ...DEMO, '-o', 'markdown']);
  assert.match(md.stdout, /^## DaemonSets/);
  assert.match(md.stdout, /\| NAMESPACE \| NAME \|/);
  const wide = await runCli(['scan', ...DEMO, '-o', 'wide']);
  assert.match(wide.stdout, /MISSCHEDULED\s+PROBLEMS/);
});

test('--fail-on and -n scope decide the exit code', async () => {
  assert.equal((await runCli(['scan', ...DEMO, '--fail-on', 'none'])).code, 0);
  assert.equal((await runCli(['scan', ...DEMO, '-n', 'kube-system'])).code, 1);
  const healthy = await runCli(['scan', ...DEMO, '-n', 'default']);
  assert.equal(healthy.code, 0);
  assert.match(healthy.stdout, /no DaemonSets found in namespace default/);
});

test('colour: on a terminal unless --no-color or NO_COLOR', async () => {
  const ESC = '\u001b[';
  assert.ok((await runCli(['scan', ...DEMO], { tty: true })).stdout.includes(ESC));
  assert.ok(!(await runCli(['scan', ...DEMO, '--no-color'], { tty: true })).stdout.includes(ESC));
  assert.ok(!(await runCli(['scan', ...DEMO], { tty: true, env: { NO_COLOR: '1' } })).stdout.includes(ESC));
  assert.ok(!(await runCli(['scan', ...DEMO])).stdout.includes(ESC), 'never when piped');
});

test('stdin with -f -', async () => {
  const ds =
    'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: x, namespace: y}\nspec: {selector: {matchLabels: {a: b}}}\n';
  const lists = 'apiVersion: v1\nkind: NodeList\nitems: []\n---\napiVersion: v1\nkind: PodList\nitems: []\n';
  const r = await runCli(['scan', '-f', '-', '-o', 'json'], { stdin: `${ds}---\n${lists}` });
  assert.equal(JSON.parse(r.stdout).daemonSets[0].name, 'x');
});

test('a bare manifest has no nodes or pods: placement commands say so instead of "0/0 healthy"', async () => {
  for (const argv of [['scan'], ['why', 'fluent-bit'], ['nodes', 'fluent-bit'], ['rollout', 'fluent-bit']]) {
    const r = await runCli([...argv, '-f', 'fixtures/manifests/agents/fluent-bit.yaml']);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(
      r.stderr.trim(),
      /^error: the input has no Node objects or Pod objects: \w+ needs them \(add the output of kubectl get nodes,pods -A -o yaml\); for manifests alone, use ds-doctor lint$/,
    );
  }
  assert.notEqual(
    (await runCli(['lint', '-f', 'fixtures/manifests/agents/fluent-bit.yaml'])).code,
    2,
    'lint works on manifests',
  );
});

test('lint of a bare manifest: rules held back by the same missing input share one "Not checked" line; JSON keeps one entry per rule', async () => {
  const text = (await runCli(['lint', '-f', 'fixtures/manifests/agents/fluent-bit.yaml'])).stdout;
  const lines = text.split('\n').filter((l) => l.startsWith('  - '));
  assert.deepEqual(
    lines.filter((l) => l.includes('no Node objects')),
    [
      '  - custom-taint-not-tolerated, max-unavailable-too-low, missing-os-selector: the input has no Node objects: lint a live cluster, or add the nodes to the input: `kubectl get nodes -o yaml`',
    ],
  );
  assert.ok(lines.some((l) => l.startsWith('  - pdb-missing: the input has no PodDisruptionBudget objects')));
  const doc = JSON.parse(
    (await runCli(['lint', '-f', 'fixtures/manifests/agents/fluent-bit.yaml', '-o', 'json'])).stdout,
  );
  assert.deepEqual(
    (doc.notChecked as { rule: string }[]).map((n) => n.rule),
    ['custom-taint-not-tolerated', 'max-unavailable-too-low', 'missing-os-selector', 'pdb-missing'],
  );
});

test('why / nodes / node documents follow the contract', async () => {
  const one = JSON.parse((await runCli(['why', 'logging/fluent-bit', 'worker-1', ...DEMO, '-o', 'json'])).stdout);
  assert.equal(one.kind, 'NodeDiagnosis');
  assert.equal(one.verdict, 'Unhealthy');
  assert.deepEqual(Object.keys(one.reasons[0]).slice(0, 5), ['code', 'severity', 'message', 'evidence', 'fix']);
  const all = JSON.parse((await runCli(['why', 'kube-system/ebs-csi-node', ...DEMO, '-o', 'json'])).stdout);
  assert.equal(all.kind, 'DaemonSetDiagnosis');
  assert.deepEqual(
    all.nodes.map((n: { node: string }) => n.node),
    ['worker-3'],
  );
  assert.deepEqual(all.summary.verdicts, { Healthy: 8, Pending: 1 });
  const nodes = JSON.parse(
    (
      await runCli([
        'nodes',
        'monitoring/node-exporter',
        ...DEMO,
        '-o',
        'json',
        '--verdict',
        'Excluded',
        '-l',
        'node-pool=gpu',
      ])
    ).stdout,
  );
  assert.equal(nodes.kind, 'DaemonSetNodes');
  assert.deepEqual(
    nodes.nodes.map((n: { node: string }) => n.node),
    ['gpu-1', 'gpu-2'],
  );
  const report = JSON.parse((await runCli(['node', 'worker-6', ...DEMO, '-o', 'json'])).stdout);
  assert.equal(report.kind, 'NodeReport');
  assert.equal(report.nodeStatus.unschedulable, true);
  assert.ok(
    report.daemonSets.every((d: { verdict: string }) => d.verdict !== 'Missing'),
    'a cordoned node still gets daemon pods',
  );
});

const nodeScopeCases: { name: string; args: string[]; scope: string; count: (n: number) => boolean }[] = [
  {
    name: 'node without -n/-A weighs every namespace (a node-centric view) and says so',
    args: [],
    scope: 'all namespaces',
    count: (n) => n > 1,
  },
  {
    name: 'node -n narrows to that namespace and says which',
    args: ['-n', 'logging'],
    scope: 'namespace logging',
    count: (n) => n === 1,
  },
  {
    name: 'node -n with no DaemonSet there names the namespace searched',
    args: ['-n', 'nowhere'],
    scope: 'namespace nowhere',
    count: (n) => n === 0,
  },
];
for (const c of nodeScopeCases) {
  test(c.name, async () => {
    const report = JSON.parse((await runCli(['node', 'worker-6', ...DEMO, ...c.args, '-o', 'json'])).stdout);
    assert.equal(report.scope, c.scope);
    assert.ok(c.count(report.daemonSets.length), `${report.daemonSets.length} DaemonSets`);
    const human = await runCli(['node', 'worker-6', ...DEMO, ...c.args, '--no-color']);
    assert.match(human.stdout, new RegExp(`DaemonSets in ${c.scope}`));
  });
}
