// Several contexts in one scan, against a fake API server that knows each context by its token:
// at most four clusters are read at a time (and more than one), a cluster that refuses is one
// row with its error while the others answer, the exit code is the worst, and the flags that
// cannot go with several contexts are exit 2 with one line.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import yaml from 'js-yaml';
import { runCli } from '../harness.js';
import { startFakeApi, statusAnswer, type FakeApi } from './fake-api.js';

const NOW = '2026-11-29T12:00:00Z';
const CONTEXTS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];

function list(res: http.ServerResponse, items: unknown[]): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items }));
}

const daemonSet = {
  metadata: { name: 'agent', namespace: 'ops', uid: 'u1', generation: 1, creationTimestamp: '2026-11-29T10:00:00Z' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'agent:1' }] } },
  },
  status: {
    observedGeneration: 1,
    desiredNumberScheduled: 0,
    currentNumberScheduled: 0,
    numberReady: 0,
    updatedNumberScheduled: 0,
    numberAvailable: 0,
    numberMisscheduled: 0,
  },
};

describe('scan over several contexts (fake API)', { timeout: 60_000 }, () => {
  let dir: string;
  let api: FakeApi;
  let kubeconfig: string;
  let inFlight = 0;
  let most = 0;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-contexts-'));
    api = await startFakeApi((req, res, url) => {
      const who = /^Bearer (c\d)$/.exec(req.headers.authorization ?? '')?.[1];
      if (url.pathname === '/apis/apps/v1/namespaces/ops/daemonsets') {
        // c5 may not list DaemonSets; every list is slow, so that the reads overlap.
        inFlight++;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight--;
          if (who === 'c5')
            statusAnswer(
              res,
              403,
              'daemonsets.apps is forbidden: User "c5" cannot list resource "daemonsets" in API group "apps" in the namespace "ops"',
            );
          else list(res, [daemonSet]);
        }, 300);
        return true;
      }
      return false;
    });
    kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(
      kubeconfig,
      yaml.dump({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'fake', cluster: { server: api.url } }],
        users: CONTEXTS.map((c) => ({ name: c, user: { token: c } })),
        contexts: CONTEXTS.map((c) => ({ name: c, context: { cluster: 'fake', user: c, namespace: 'ops' } })),
        'current-context': 'c1',
      }),
    );
  });
  after(async () => {
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('six contexts: at most four read at a time, the refused one a row with its error, exit 3', async () => {
    most = 0;
    const r = await runCli(['scan', '--all-contexts', '--now', NOW, '--kubeconfig', kubeconfig, '-o', 'json'], {
      env: {},
    });
    assert.equal(r.code, 3, r.stderr);
    assert.equal(most, 4, 'four clusters read at once, no more');
    const report = JSON.parse(r.stdout) as {
      daemonSets: { context: string; name: string }[];
      contexts: { context: string; exitCode: number; error?: string }[];
    };
    assert.deepEqual(
      report.daemonSets.map((d) => `${d.context} ${d.name}`),
      ['c1 agent', 'c2 agent', 'c3 agent', 'c4 agent', 'c6 agent'],
    );
    assert.deepEqual(
      report.contexts.map((c) => `${c.context} ${c.exitCode}`),
      ['c1 0', 'c2 0', 'c3 0', 'c4 0', 'c5 3', 'c6 0'],
    );
    assert.match(
      report.contexts[4]!.error ?? '',
      /^forbidden: daemonsets\.apps is forbidden: User "c5" cannot list resource "daemonsets"/,
    );
  });

  test('two contexts, the table: CONTEXT first, rows in the order given', async () => {
    const r = await runCli(
      ['scan', '--context', 'c2', '--context', 'c1', '--context', 'c2', '--now', NOW, '--kubeconfig', kubeconfig],
      { env: {} },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/\s+/).slice(0, 4).join(' ')),
      ['CONTEXT NAMESPACE NAME HEALTH', 'c2 ops agent Healthy', 'c1 ops agent Healthy'],
    );
  });

  test('one context is the scan it always was, byte for byte', async () => {
    const one = await runCli(['scan', '--context', 'c3', '--now', NOW, '--kubeconfig', kubeconfig], { env: {} });
    const current = await runCli(['scan', '--now', NOW, '--kubeconfig', kubeconfig], { env: {} });
    assert.equal(one.code, 0);
    assert.equal(one.stdout, current.stdout);
    assert.doesNotMatch(one.stdout, /CONTEXT/);
  });

  const refusals: [string, string[], RegExp][] = [
    [
      'why reads one cluster',
      ['why', 'agent', '--context', 'c1', '--context', 'c2'],
      /^error: --context: why reads one cluster; only scan and lint read several \(--context given 2 times\)$/,
    ],
    [
      '--all-contexts with --context',
      ['scan', '--all-contexts', '--context', 'c1'],
      /^error: --all-contexts: reads every context; do not name contexts with --context as well$/,
    ],
    [
      'several contexts with -f',
      ['scan', '-f', 'fixtures/demo', '--context', 'c1', '--context', 'c2'],
      /^error: --context: several clusters are read live; with -f no cluster is contacted$/,
    ],
    [
      '--dump with several contexts',
      ['scan', '--all-contexts', '--dump', '/tmp/never-written.yaml'],
      /^error: --dump: writes the snapshot of one cluster; not with several contexts$/,
    ],
    [
      '-o sarif with several contexts',
      ['lint', '--context', 'c1', '--context', 'c2', '-o', 'sarif'],
      /^error: -o sarif: one cluster at a time/,
    ],
    [
      '-o name with several contexts',
      ['scan', '--context', 'c1', '--context', 'c2', '-o', 'name'],
      /^error: -o name: one cluster at a time/,
    ],
    [
      '-o junit with several contexts',
      ['lint', '--all-contexts', '-o', 'junit'],
      /^error: -o junit: one cluster at a time/,
    ],
  ];
  for (const [name, argv, re] of refusals) {
    test(`exit 2: ${name}`, async () => {
      const r = await runCli([...argv, '--kubeconfig', kubeconfig], { env: {} });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr.trim(), re);
      assert.equal(r.stdout, '');
    });
  }
});
