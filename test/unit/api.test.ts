// The library entry (package.json "exports" → src/api/index.ts): it resolves by the package's
// name, and its load → analyse → render steps give what the CLI gives for the same input (the
// JSON kinds are the one contract).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../harness.js';
import * as api from '../../src/api/index.js';
import { startFakeApi, writeKubeconfig } from '../cli/fake-api.js';

const NOW = new Date('2026-11-29T12:00:00Z');
const DEMO = 'fixtures/demo';

test('package.json exports the library with its types, and the package name resolves to it', async () => {
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
    exports: Record<string, Record<string, string>>;
    main: string;
    types: string;
  };
  const entry = pkg.exports['.']!;
  assert.ok(fs.existsSync(entry['default']!) && fs.existsSync(entry['types']!), JSON.stringify(entry));
  assert.equal(pkg.main, entry['default']);
  assert.equal(pkg.types, entry['types']);
  assert.match(fs.readFileSync(entry['types']!, 'utf8'), /export declare function scanDaemonSets\(/);
  const name = 'ds-doctor';
  const byName = (await import(name)) as typeof api;
  assert.equal(typeof byName.scanDaemonSets, 'function');
  assert.deepEqual(Object.keys(byName).sort(), Object.keys(api).sort());
});

async function cliJson(argv: string[]): Promise<unknown> {
  const r = await runCli([...argv, '-f', DEMO, '--now', NOW.toISOString(), '-o', 'json']);
  return JSON.parse(r.stdout) as unknown;
}

test('scan, lint, rollout and why through the library equal the CLI JSON', async () => {
  const snapshot = await api.loadSnapshotFromFiles([DEMO]);
  assert.deepEqual(api.scanDaemonSets(snapshot, { now: NOW }), await cliJson(['scan']));
  assert.deepEqual(
    api.scanDaemonSets(snapshot, { now: NOW, health: ['Stuck'], selector: 'k8s-app' }),
    await cliJson(['scan', '--health', 'Stuck', '-l', 'k8s-app']),
  );
  assert.deepEqual(
    api.lintDaemonSets(snapshot, { namespace: 'kube-system' }),
    await cliJson(['lint', '-n', 'kube-system']),
  );
  const fluentBit = api.daemonSetOf(snapshot, 'logging', 'fluent-bit');
  assert.deepEqual(
    api.diagnoseRollout(snapshot, fluentBit, { now: NOW }),
    await cliJson(['rollout', 'logging/fluent-bit']),
  );
  assert.deepEqual(
    api.diagnoseDaemonSet(snapshot, fluentBit, { now: NOW }),
    await cliJson(['why', 'logging/fluent-bit']),
  );
  assert.deepEqual(
    api.diagnoseNode(snapshot, fluentBit, 'worker-1', { now: NOW }),
    await cliJson(['why', 'logging/fluent-bit', 'worker-1']),
  );
  assert.throws(() => api.daemonSetOf(snapshot, 'logging', 'nope'), api.InputError);
});

test('renderText gives the CLI table; renderJunit the CLI JUnit', async () => {
  const snapshot = await api.loadSnapshotFromFiles([DEMO]);
  const report = api.scanDaemonSets(snapshot, { now: NOW });
  const cli = await runCli(['scan', '-f', DEMO, '--now', NOW.toISOString()]);
  assert.equal(api.renderText(report, { format: 'table', columns: 100 }), cli.stdout);
  const junit = await runCli(['scan', '-f', DEMO, '--now', NOW.toISOString(), '-o', 'junit']);
  assert.equal(api.renderJunit(report, { now: NOW }), junit.stdout);
  assert.equal(
    api.renderText(report, { format: 'json' }),
    (await runCli(['scan', '-f', DEMO, '--now', NOW.toISOString(), '-o', 'json'])).stdout,
  );
});

test('loadSnapshotFromCluster reads a cluster with kubectl connection settings', { timeout: 20_000 }, async () => {
  const server = await startFakeApi(() => false);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-api-'));
  try {
    const kubeconfig = writeKubeconfig(dir, 'api', {
      cluster: { server: 'http://127.0.0.1:9' },
      user: { token: 'kc-token-1234' },
    });
    const { snapshot, defaultNamespace } = await api.loadSnapshotFromCluster(
      { kinds: [] },
      { kubeconfig, overrides: { server: server.url, token: 'flag-token-5678', as: 'jane' } },
    );
    assert.equal(snapshot.source, 'live');
    assert.equal(defaultNamespace, 'demo');
    assert.ok(server.requests.length > 0);
    assert.ok(
      server.headers.every(
        (h) => h['authorization']?.[0] === 'Bearer flag-token-5678' && h['impersonate-user']?.[0] === 'jane',
      ),
    );
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
