// Arguments validated like kubectl (issue 13, class 6): a namespace is a DNS-1123 label, object
// names are checked before they go into an API path, --now is a real calendar time,
// --request-timeout is checked even with -f, -l cannot reach Object.prototype, and broken
// timestamps show as unknown ages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { runCli } from '../harness.js';

const DEMO = ['-f', 'fixtures/demo'];
const TRAVERSAL = '../../api/v1/namespaces/kube-system/secrets?x=';

const USAGE_ERRORS: [string, string[], RegExp][] = [
  [
    '-n with a path traversal',
    ['scan', '-n', TRAVERSAL, ...DEMO],
    /^error: -n\/--namespace: "\.\.\/\.\.\/api\/v1\/namespaces\/kube-system\/secrets\?x=" is not a valid namespace name: a lowercase RFC 1123 label must consist of/,
  ],
  [
    '-n in upper case',
    ['scan', '-n', 'Kube-System', ...DEMO],
    /^error: -n\/--namespace: "Kube-System" is not a valid namespace name/,
  ],
  [
    '-n of 64 characters',
    ['scan', '-n', 'a'.repeat(64), ...DEMO],
    /^error: -n\/--namespace: "a{64}" is not a valid namespace name: must be no more than 63 characters$/,
  ],
  [
    '--namespace= with a slash',
    ['scan', '--namespace=kube-system/x', ...DEMO],
    /^error: -n\/--namespace: "kube-system\/x" is not a valid namespace name/,
  ],
  [
    'a DaemonSet argument with a traversal namespace',
    ['why', '../x/fluent-bit', ...DEMO],
    /^error: daemonset "\.\.\/x\/fluent-bit": expected <name> or <namespace>\/<name>$/,
  ],
  [
    'a DaemonSet argument of three parts',
    ['rollout', 'logging/fluent-bit/x', ...DEMO],
    /^error: daemonset "logging\/fluent-bit\/x": expected <name> or <namespace>\/<name>$/,
  ],
  [
    'a DaemonSet name ..',
    ['impact', 'logging/..', ...DEMO],
    /^error: daemonset "logging\/\.\.": "\.\." is not a valid DaemonSet name: a lowercase RFC 1123 subdomain/,
  ],
  [
    'a DaemonSet name with %2F',
    ['nodes', 'fluent-bit%2F..', ...DEMO],
    /^error: daemonset "fluent-bit%2F\.\.": "fluent-bit%2F\.\." is not a valid DaemonSet name/,
  ],
  [
    'a DaemonSet argument with a bad namespace',
    ['why', 'Logging/fluent-bit', ...DEMO],
    /^error: daemonset "Logging\/fluent-bit": "Logging" is not a valid namespace name/,
  ],
  [
    'a node argument with a traversal',
    ['why', 'logging/fluent-bit', '../../nodes/x', ...DEMO],
    /^error: node "\.\.\/\.\.\/nodes\/x": "\.\.\/\.\.\/nodes\/x" is not a valid node name/,
  ],
  [
    'a node argument with a query',
    ['node', 'worker-1?watch=1', ...DEMO],
    /^error: node "worker-1\?watch=1": "worker-1\?watch=1" is not a valid node name/,
  ],
  [
    'a lint target with a space',
    ['lint', 'fluent bit', ...DEMO],
    /^error: daemonset "fluent bit": "fluent bit" is not a valid DaemonSet name/,
  ],
  [
    '--now on 30 February',
    ['scan', '--now', '2026-02-30T00:00:00Z', ...DEMO],
    /^error: --now: "2026-02-30T00:00:00Z" is not an RFC 3339 time \(e\.g\. 2026-11-29T12:00:00Z\)$/,
  ],
  [
    '--now at hour 24',
    ['scan', '--now', '2026-11-29T24:00:00Z', ...DEMO],
    /^error: --now: "2026-11-29T24:00:00Z" is not an RFC 3339 time/,
  ],
  ['--now as a number', ['scan', '--now', '1', ...DEMO], /^error: --now: "1" is not an RFC 3339 time/],
  [
    '--request-timeout abc with -f',
    ['scan', '--request-timeout', 'abc', ...DEMO],
    /^error: --request-timeout: "abc" is not a duration \(e\.g\. 30s, 10m, 1h\)$/,
  ],
  [
    '--request-timeout negative with -f',
    ['lint', '--request-timeout', '-5s', ...DEMO],
    /^error: --request-timeout: "-5s" is not a duration/,
  ],
];

for (const [name, argv, re] of USAGE_ERRORS) {
  test(`usage error: ${name}: one line naming it, exit 2`, async () => {
    const r = await runCli(argv);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr.trimEnd(), re);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  });
}

test('a bad -n never reaches the API server: no request is made', async () => {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const dir = mkdtempSync(join(tmpdir(), 'ds-doctor-args-'));
  const kubeconfig = join(dir, 'config');
  writeFileSync(
    kubeconfig,
    yaml.dump({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${port}` } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    }),
  );
  try {
    for (const argv of [
      ['scan', '-n', TRAVERSAL],
      ['why', `${TRAVERSAL}/x`],
      ['why', 'kube-system/calico-node', '../../../api/v1/secrets'],
      ['scan', '--request-timeout', 'abc'],
    ]) {
      const r = await runCli([...argv, '--kubeconfig', kubeconfig]);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    }
  } finally {
    server.close();
  }
  assert.deepEqual(paths, []);
});

const SELECTORS: [string, string[]][] = [
  ['__proto__=x', []],
  ['__proto__', []],
  ['constructor=x', []],
  ['toString', []],
  [
    'hasOwnProperty!=x',
    ['cp-1', 'gpu-1', 'gpu-2', 'worker-1', 'worker-2', 'worker-3', 'worker-4', 'worker-5', 'worker-6'],
  ],
  ['node-pool=gpu', ['gpu-1', 'gpu-2']],
];

for (const [selector, want] of SELECTORS) {
  test(`-l ${selector} matches only nodes with that own label (no prototype lookups)`, async () => {
    const r = await runCli([
      'nodes',
      'monitoring/node-exporter',
      ...DEMO,
      '-l',
      selector,
      '-o',
      'json',
      '--fail-on',
      'none',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).nodes.map((n: { node: string }) => n.node),
      want,
    );
  });
}

/** The demo dump with every timestamp replaced by `bad`. */
function brokenTimes(bad: string): string {
  const items: unknown[] = [];
  for (const file of readdirSync('fixtures/demo')
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    for (const doc of yaml.loadAll(readFileSync(join('fixtures/demo', file), 'utf8')) as { items?: unknown[] }[])
      items.push(...(doc.items ?? [doc]));
  }
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
  return text.replace(/"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z"/g, JSON.stringify(bad));
}

const COMMANDS = [
  ['scan'],
  ['why', 'logging/fluent-bit'],
  ['why', 'logging/fluent-bit', 'worker-1'],
  ['nodes', 'kube-system/calico-node'],
  ['node', 'worker-5'],
  ['rollout', 'logging/fluent-bit'],
  ['impact', 'kube-system/calico-node'],
  ['lint'],
];

for (const bad of ['not-a-time', '1', '2026-02-30T00:00:00Z']) {
  const stdin = brokenTimes(bad);
  for (const argv of COMMANDS) {
    test(`every timestamp ${JSON.stringify(bad)}: ${argv.join(' ')} shows unknown ages, never NaN`, async () => {
      for (const format of ['wide', 'json']) {
        const r = await runCli([...argv, '-f', '-', '-o', format, '--fail-on', 'none'], { stdin });
        assert.equal(r.code, 0, r.stderr);
        assert.doesNotMatch(r.stdout, /NaN|Invalid Date|Infinity/);
        // "1" parses as 2001 with Date.parse: 25 years old.
        assert.doesNotMatch(r.stdout, /\b\d+y\b/);
      }
    });
  }
}

test('a pod with a broken creationTimestamp has the age <unknown>', async () => {
  const r = await runCli(['why', 'logging/fluent-bit', 'worker-1', '-f', '-'], { stdin: brokenTimes('not-a-time') });
  assert.match(r.stdout, /pod fluent-bit-8z666 .* age <unknown>/);
});
