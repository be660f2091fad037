// plan through the CLI: its usage errors (one line, exit 2), and the live path against a fake API
// server serving the demo dump, which must give the answer the dump gives, reading every pod in
// one list (no list per node) and nothing the question does not need.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import type http from 'node:http';
import { runCli } from '../harness.js';
import { startFakeApi, statusAnswer, writeKubeconfig } from './fake-api.js';

const DEMO = 'fixtures/demo';
const FLUENT_BIT = 'fixtures/plan/fluent-bit-memory.yaml';

interface UsageCase {
  name: string;
  argv: string[];
  re: RegExp;
}

const USAGE: UsageCase[] = [
  {
    name: 'no -f',
    argv: ['plan', '--cluster-dump', DEMO],
    re: /^error: plan needs -f\/--filename: the DaemonSet manifest to apply/,
  },
  {
    name: 'a manifest without a DaemonSet',
    argv: ['plan', '-f', `${DEMO}/nodes.yaml`, '--cluster-dump', DEMO],
    re: /^error: fixtures\/demo\/nodes\.yaml: no DaemonSet in the manifest/,
  },
  {
    name: 'a --group-by that is not a label key',
    argv: ['plan', '-f', FLUENT_BIT, '--cluster-dump', DEMO, '--group-by', 'pool name'],
    re: /^error: --group-by: "pool name" is not a valid label key/,
  },
  {
    name: 'a --group-by no node carries',
    argv: ['plan', '-f', FLUENT_BIT, '--cluster-dump', DEMO, '--group-by', 'node.kubernetes.io/instance-typ'],
    re: /^error: --group-by: no node carries the label "node\.kubernetes\.io\/instance-typ" \(did you mean "node\.kubernetes\.io\/instance-type"/,
  },
  {
    name: 'an unknown flag',
    argv: ['plan', '-f', FLUENT_BIT, '--cluster-dump', DEMO, '--frobnicate'],
    re: /^error: unknown option '--frobnicate'/,
  },
  {
    name: 'stdin for both the manifest and the dump',
    argv: ['plan', '-f', '-', '--cluster-dump', '-'],
    re: /^error: -f - and --cluster-dump - both read stdin/,
  },
  {
    name: 'a dump that does not exist',
    argv: ['plan', '-f', FLUENT_BIT, '--cluster-dump', 'no/such/dump'],
    re: /^error: no\/such\/dump: /,
  },
];

/** A copy of the fluent-bit change with its selector edited, in a temporary file. */
function editedManifest(edit: (text: string) => string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-plan-manifest-'));
  const file = path.join(dir, 'change.yaml');
  fs.writeFileSync(file, edit(fs.readFileSync(FLUENT_BIT, 'utf8')));
  return file;
}

test('plan of a changed selector: the API server would refuse it (immutable), exit 2 in one line', async () => {
  const file = editedManifest((t) =>
    t
      .replace(/(matchLabels:\n\s+app\.kubernetes\.io\/instance: fluent-bit)/, '$1\n      tier: logs')
      .replace(/(template:\n\s+metadata:\n\s+labels:)/, '$1\n        tier: logs'),
  );
  const r = await runCli(['plan', '-f', file, '--cluster-dump', DEMO]);
  assert.equal(r.code, 2, r.stdout);
  assert.match(
    r.stderr,
    /^error: the API server would refuse the manifest: DaemonSet\.apps "fluent-bit" is invalid: spec\.selector: Invalid value: .*field is immutable/,
  );
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

test('plan of a selector that does not match the template labels: refused, exit 2', async () => {
  const file = editedManifest((t) =>
    t.replace(
      /(template:\n\s+metadata:\n\s+labels:\n\s+)app\.kubernetes\.io\/instance: fluent-bit/,
      '$1app.kubernetes.io/instance: other',
    ),
  );
  const r = await runCli(['plan', '-f', file, '--cluster-dump', DEMO]);
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stderr, /does not match template `labels`/);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

for (const c of USAGE) {
  test(`plan usage error: ${c.name}: one line naming it, exit 2`, async () => {
    const r = await runCli(c.argv);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, c.re);
  });
}

test('plan --group-by groups by the given label', async () => {
  const r = await runCli([
    'plan',
    '-f',
    FLUENT_BIT,
    '--cluster-dump',
    DEMO,
    '--group-by',
    'topology.kubernetes.io/zone',
    '-o',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { groupBy: string; groups: { group: string; nodes: number }[] };
  assert.equal(doc.groupBy, 'topology.kubernetes.io/zone');
  assert.deepEqual(
    doc.groups.map((g) => g.group),
    ['us-east-1a', 'us-east-1b', 'us-east-1c'],
  );
});

test('plan --fail-on none exits 0 although nodes are lost', async () => {
  const r = await runCli([
    'plan',
    '-f',
    'fixtures/plan/calico-node-selector.yaml',
    '--cluster-dump',
    DEMO,
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /NodesLost/);
});

/** The items of a demo List file, filtered. */
function demoItems(
  kind: string,
  keep: (o: { metadata?: { name?: string; namespace?: string } }) => boolean = () => true,
): unknown[] {
  const list = yaml.load(fs.readFileSync(path.join(DEMO, `${kind}.yaml`), 'utf8')) as {
    items: { metadata?: { name?: string; namespace?: string } }[];
  };
  return list.items.filter(keep);
}

function list(res: http.ServerResponse, items: unknown[]): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items }));
}

/** A fake API server holding the demo cluster; `exists` says whether logging/fluent-bit exists. */
async function demoApi(exists: boolean) {
  const ds = demoItems('daemonsets', (o) => o.metadata?.name === 'fluent-bit')[0];
  return startFakeApi((_req, res, url) => {
    switch (url.pathname) {
      case '/apis/apps/v1/namespaces/logging/daemonsets/fluent-bit':
        if (exists) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(ds));
        } else {
          statusAnswer(res, 404, 'daemonsets.apps "fluent-bit" not found');
        }
        return true;
      case '/api/v1/nodes':
        list(res, demoItems('nodes'));
        return true;
      case '/api/v1/pods':
        list(res, demoItems('pods'));
        return true;
      case '/apis/apps/v1/namespaces/logging/controllerrevisions':
        list(
          res,
          demoItems('controllerrevisions', (o) => o.metadata?.namespace === 'logging'),
        );
        return true;
      case '/apis/scheduling.k8s.io/v1/priorityclasses':
        list(res, demoItems('priorityclasses'));
        return true;
      // Admission of the new pods: the namespace's Pod Security labels, quotas and LimitRanges.
      case '/api/v1/namespaces':
        list(res, demoItems('namespaces'));
        return true;
      case '/api/v1/namespaces/logging/resourcequotas':
        list(res, []);
        return true;
      case '/api/v1/namespaces/logging/limitranges':
        list(res, []);
        return true;
      default:
        return false;
    }
  });
}

async function planLive(
  exists: boolean,
): Promise<{ doc: { change: string; nodes: unknown[] }; requests: string[]; stderr: string; code: number }> {
  const api = await demoApi(exists);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-plan-'));
  try {
    const kubeconfig = writeKubeconfig(dir, 'plan', { cluster: { server: api.url }, user: {} });
    const r = await runCli(['plan', '-f', FLUENT_BIT, '--kubeconfig', kubeconfig, '-o', 'json']);
    return { doc: r.stdout ? JSON.parse(r.stdout) : {}, requests: [...api.requests], stderr: r.stderr, code: r.code };
  } finally {
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test(
  'plan live gives the answer of the same cluster as a dump, reading all pods in one list',
  { timeout: 20_000 },
  async () => {
    const live = await planLive(true);
    assert.equal(live.code, 0, live.stderr);
    const dump = await runCli(['plan', '-f', FLUENT_BIT, '--cluster-dump', DEMO, '-o', 'json']);
    const dumpDoc = JSON.parse(dump.stdout) as {
      nodes: unknown[];
      findings: unknown[];
      rollout: unknown;
      templateDiff: unknown;
    };
    const liveDoc = live.doc as unknown as typeof dumpDoc;
    assert.deepEqual(liveDoc.nodes, dumpDoc.nodes);
    assert.deepEqual(
      [liveDoc.findings, liveDoc.rollout, liveDoc.templateDiff],
      [dumpDoc.findings, dumpDoc.rollout, dumpDoc.templateDiff],
    );
    const paths = live.requests.map((r) => r.split('?')[0]).sort();
    assert.deepEqual(paths, [
      '/api/v1/namespaces',
      '/api/v1/namespaces/logging/limitranges',
      '/api/v1/namespaces/logging/resourcequotas',
      '/api/v1/nodes',
      '/api/v1/pods',
      '/apis/apps/v1/namespaces/logging/controllerrevisions',
      '/apis/apps/v1/namespaces/logging/daemonsets/fluent-bit',
      '/apis/scheduling.k8s.io/v1/priorityclasses',
    ]);
    assert.ok(
      !live.requests.some((r) => r.includes('fieldSelector')),
      `no pod list per node: ${live.requests.join(' ')}`,
    );
  },
);

test(
  'plan live of a DaemonSet that does not exist yet: create, every matching node gains a pod',
  { timeout: 20_000 },
  async () => {
    const live = await planLive(false);
    assert.equal(live.code, 0, live.stderr);
    assert.equal(live.doc.change, 'create');
    assert.ok((live.doc.nodes as { effect: string }[]).every((n) => n.effect === 'gain'));
    assert.ok(
      !live.requests.some((r) => r.includes('controllerrevisions')),
      'no revisions of a DaemonSet that does not exist',
    );
  },
);
