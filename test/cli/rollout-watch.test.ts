// `rollout --watch` against a fake API server that scripts the watch streams: the DaemonSet's
// watch answers 410 Gone (ds-doctor lists again and watches from the new list's version), then
// drops the connection mid-stream (ds-doctor reconnects from the last version it saw), and the
// rollout completes: the lines are kubectl rollout status's, each printed once, and the exit is 0.
// --timeout ends with the diagnosis and exit 1; the flags that cannot work are exit 2.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import { spawn } from 'node:child_process';
import { runCli } from '../harness.js';
import { startFakeApi, writeKubeconfig, type FakeApi } from './fake-api.js';

const BOUND = { timeout: 30_000 };

interface DsStatus {
  updated: number;
  available: number;
}

function daemonSet(rv: number, st: DsStatus, strategy = 'RollingUpdate'): Record<string, unknown> {
  return {
    metadata: {
      name: 'agent',
      namespace: 'w',
      uid: 'u-agent',
      generation: 2,
      resourceVersion: String(rv),
      creationTimestamp: '2026-11-29T11:00:00Z',
    },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'agent:2' }] } },
      updateStrategy:
        strategy === 'RollingUpdate'
          ? { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }
          : { type: strategy },
    },
    status: {
      observedGeneration: 2,
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      numberReady: st.available,
      numberAvailable: st.available,
      numberUnavailable: 2 - st.available,
      updatedNumberScheduled: st.updated,
      numberMisscheduled: 0,
    },
  };
}

function node(name: string): Record<string, unknown> {
  return {
    metadata: { name, uid: `u-${name}`, resourceVersion: '5', creationTimestamp: '2026-11-29T10:00:00Z' },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          lastHeartbeatTime: '2026-11-29T11:59:00Z',
          lastTransitionTime: '2026-11-29T10:00:00Z',
        },
      ],
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
    },
  };
}

function list(res: http.ServerResponse, rv: number, items: unknown[]): true {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: String(rv) }, items }));
  return true;
}

/** Opens a watch stream and keeps it open (the caller writes events, or nothing). */
function openStream(res: http.ServerResponse): http.ServerResponse {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  return res;
}

const event = (type: string, object: unknown): string => `${JSON.stringify({ type, object })}\n`;

describe('rollout --watch against a fake API server', BOUND, () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-watch-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /**
   * A cluster whose DaemonSet moves 0→1 updated, then 2 updated with 1 available, then 2
   * available; its watch answers 410 first, then drops the connection after one event.
   */
  async function scripted(
    strategy = 'RollingUpdate',
  ): Promise<{ api: FakeApi; kubeconfig: string; dsWatches: string[] }> {
    let ds = daemonSet(10, { updated: 0, available: 2 }, strategy);
    const dsWatches: string[] = [];
    const api = await startFakeApi((_req, res, url) => {
      const watch = url.searchParams.get('watch') === '1';
      const p = url.pathname;
      if (p === '/apis/apps/v1/namespaces/w/daemonsets/agent') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(ds));
        return true;
      }
      if (p === '/apis/apps/v1/namespaces/w/daemonsets' && !watch)
        return list(res, Number((ds['metadata'] as { resourceVersion: string }).resourceVersion), [ds]);
      if (p === '/apis/apps/v1/namespaces/w/daemonsets' && watch) {
        dsWatches.push(url.search);
        const n = dsWatches.length;
        const stream = openStream(res);
        if (n === 1) {
          // One change, then the version is too old: the list is read again (and has moved on).
          ds = daemonSet(20, { updated: 1, available: 1 });
          stream.write(event('MODIFIED', daemonSet(11, { updated: 1, available: 1 })));
          stream.end(
            event('ERROR', {
              kind: 'Status',
              apiVersion: 'v1',
              status: 'Failure',
              reason: 'Expired',
              code: 410,
              message: 'too old resource version: 11 (15)',
            }),
          );
        } else if (n === 2) {
          // A bookmark, one change, then the connection drops in the middle of the stream.
          stream.write(
            event('BOOKMARK', { kind: 'DaemonSet', apiVersion: 'apps/v1', metadata: { resourceVersion: '25' } }),
          );
          stream.write(event('MODIFIED', daemonSet(30, { updated: 2, available: 1 })));
          setTimeout(() => res.socket?.destroy(), 100);
        } else {
          stream.write(event('MODIFIED', daemonSet(40, { updated: 2, available: 2 })));
        }
        return true;
      }
      if (p === '/api/v1/nodes' && !watch) return list(res, 10, [node('n1'), node('n2')]);
      // Every other watch stays open and quiet; every other list is empty.
      if (watch) {
        openStream(res);
        return true;
      }
      return false;
    });
    const kubeconfig = writeKubeconfig(dir, `watch-${api.port}`, {
      cluster: { server: api.url },
      user: {},
      namespace: 'w',
    });
    return { api, kubeconfig, dsWatches };
  }

  test('follows 410 Gone and a dropped stream to "successfully rolled out", exit 0', BOUND, async () => {
    const { api, kubeconfig, dsWatches } = await scripted();
    try {
      const r = await runCli(['rollout', 'agent', '--watch', '--kubeconfig', kubeconfig], { env: {} });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.stdout.split('\n'), [
        'Waiting for daemon set "agent" rollout to finish: 0 out of 2 new pods have been updated...',
        'Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...',
        'Waiting for daemon set "agent" rollout to finish: 1 of 2 updated pods are available...',
        'daemon set "agent" successfully rolled out',
        '',
      ]);
      assert.match(
        r.stderr,
        /the watch of daemonsets in w is too old \(too old resource version: 11 \(15\)\): listing again/,
      );
      assert.match(
        r.stderr,
        /the watch of daemonsets in w broke \(the connection to .* broke while reading the answer .*\); reconnecting/,
      );
      // Watched from the first list's version, then from the second list's, then from the last event's.
      const versions = dsWatches.map((q) => new URLSearchParams(q).get('resourceVersion'));
      assert.deepEqual(versions, ['10', '20', '30']);
      for (const q of dsWatches) {
        const params = new URLSearchParams(q);
        assert.equal(params.get('allowWatchBookmarks'), 'true');
        assert.equal(params.get('fieldSelector'), 'metadata.name=agent');
      }
      // The pods are followed by the DaemonSet's selector in its namespace; nothing but GET was asked.
      assert.ok(
        api.requests.some(
          (q) =>
            q.startsWith('/api/v1/namespaces/w/pods?') &&
            q.includes('watch=1') &&
            q.includes('labelSelector=app%3Dagent'),
        ),
      );
    } finally {
      await api.close();
    }
  });

  test('-v=6 logs each watch as kubectl logs a request: the URL with watch=1 and its status', BOUND, async () => {
    const { api, kubeconfig } = await scripted();
    try {
      const r = await runCli(['rollout', 'agent', '--watch', '-v=6', '--kubeconfig', kubeconfig], { env: {} });
      assert.equal(r.code, 0, r.stderr);
      const watches = r.stderr.split('\n').filter((l) => /\] GET \S+[?&]watch=1\S* /.test(l));
      assert.ok(
        watches.some((l) => /\/daemonsets\?\S* 200 OK in \d+ milliseconds$/.test(l)),
        `a watch logged with its status:\n${r.stderr}`,
      );
      assert.ok(
        watches.some((l) => /\/daemonsets\?\S* 410 Gone in \d+ milliseconds$/.test(l)) ||
          watches.filter((l) => /\/daemonsets\?/.test(l)).length >= 3,
        `each watch of the DaemonSet logged:\n${r.stderr}`,
      );
    } finally {
      await api.close();
    }
  });

  test('-o json: the lines go to stderr and stdout is the final RolloutDiagnosis', BOUND, async () => {
    const { api, kubeconfig } = await scripted();
    try {
      const r = await runCli(['rollout', 'agent', '--watch', '--kubeconfig', kubeconfig, '-o', 'json'], { env: {} });
      assert.equal(r.code, 0, r.stderr);
      const doc = JSON.parse(r.stdout) as { kind: string; kubectlStatus: string };
      assert.equal(doc.kind, 'RolloutDiagnosis');
      assert.equal(doc.kubectlStatus, 'daemon set "agent" successfully rolled out');
      assert.match(
        r.stderr,
        /^Waiting for daemon set "agent" rollout to finish: 0 out of 2 new pods have been updated\.\.\.$/m,
      );
    } finally {
      await api.close();
    }
  });

  test('--timeout passes with nothing moving: the diagnosis, one error line, exit 1', BOUND, async () => {
    const ds = daemonSet(10, { updated: 1, available: 1 });
    const api = await startFakeApi((_req, res, url) => {
      if (url.searchParams.get('watch') === '1') {
        openStream(res);
        return true;
      }
      if (url.pathname === '/apis/apps/v1/namespaces/w/daemonsets/agent') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(ds));
        return true;
      }
      if (url.pathname === '/apis/apps/v1/namespaces/w/daemonsets') return list(res, 10, [ds]);
      if (url.pathname === '/api/v1/nodes') return list(res, 10, [node('n1'), node('n2')]);
      return false;
    });
    const kubeconfig = writeKubeconfig(dir, `timeout-${api.port}`, {
      cluster: { server: api.url },
      user: {},
      namespace: 'w',
    });
    try {
      const started = Date.now();
      const r = await runCli(['rollout', 'agent', '--watch', '--timeout', '2s', '--kubeconfig', kubeconfig], {
        env: {},
      });
      const took = Date.now() - started;
      assert.equal(r.code, 1, r.stderr);
      assert.ok(took >= 2000 && took < 15_000, `took ${took} ms`);
      assert.match(
        r.stdout,
        /^Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated\.\.\.\n\n/,
      );
      // The full rollout answer follows, as `rollout` without --watch prints it.
      assert.match(r.stdout, /rollout of w\/agent/i);
      assert.match(
        r.stderr,
        /error: rollout of daemonset "w\/agent" did not complete: timed out after 2s \(--timeout\)/,
      );
    } finally {
      await api.close();
    }
  });

  test('Ctrl-C (SIGINT) stops following: the watches closed, one line, exit 130', BOUND, async () => {
    const ds = daemonSet(10, { updated: 1, available: 1 });
    let openWatches = 0;
    const api = await startFakeApi((req, res, url) => {
      if (url.searchParams.get('watch') === '1') {
        openWatches++;
        req.on('close', () => openWatches--);
        openStream(res);
        return true;
      }
      if (url.pathname === '/apis/apps/v1/namespaces/w/daemonsets/agent') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(ds));
        return true;
      }
      if (url.pathname === '/apis/apps/v1/namespaces/w/daemonsets') return list(res, 10, [ds]);
      if (url.pathname === '/api/v1/nodes') return list(res, 10, [node('n1'), node('n2')]);
      return false;
    });
    const kubeconfig = writeKubeconfig(dir, `sigint-${api.port}`, {
      cluster: { server: api.url },
      user: {},
      namespace: 'w',
    });
    try {
      const child = spawn(
        process.execPath,
        ['bin/ds-doctor.js', 'rollout', 'agent', '--watch', '--kubeconfig', kubeconfig],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
      for (let i = 0; i < 200 && (openWatches < 4 || !stdout.includes('\n')); i++)
        await new Promise((r) => setTimeout(r, 50));
      assert.equal(openWatches, 4, 'the DaemonSet, nodes, pods and revisions are watched');
      child.kill('SIGINT');
      assert.equal(await exited, 130, stderr);
      assert.equal(
        stdout,
        'Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...\n',
      );
      assert.equal(stderr, 'interrupted: stopped following the rollout of daemonset "w/agent"\n');
      for (let i = 0; i < 40 && openWatches > 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(openWatches, 0, 'every watch was closed');
    } finally {
      await api.close();
    }
  });

  test('flags that cannot work are exit 2 with one line', BOUND, async () => {
    const { api, kubeconfig } = await scripted('OnDelete');
    try {
      const onDelete = await runCli(['rollout', 'agent', '--watch', '--kubeconfig', kubeconfig], { env: {} });
      assert.equal(onDelete.code, 2);
      assert.match(
        onDelete.stderr,
        /^error: rollout --watch: daemonset "w\/agent" uses the OnDelete update strategy.*kubectl rollout status refuses it too/,
      );
      assert.equal(onDelete.stdout, '');
    } finally {
      await api.close();
    }
    const files = await runCli(['rollout', 'fluent-bit', '-n', 'logging', '--watch', '-f', 'fixtures/demo'], {
      env: {},
    });
    assert.equal(files.code, 2);
    assert.match(files.stderr, /--watch: follows a live cluster; it cannot be used with -f/);
    const timeout = await runCli(['rollout', 'fluent-bit', '-n', 'logging', '--timeout', '1m', '-f', 'fixtures/demo'], {
      env: {},
    });
    assert.equal(timeout.code, 2);
    assert.match(timeout.stderr, /--timeout: only with --watch/);
    const now = await runCli(['rollout', 'fluent-bit', '-n', 'logging', '--watch', '--now', '2026-11-29T12:00:00Z'], {
      env: {},
    });
    assert.equal(now.code, 2);
    assert.match(now.stderr, /--now: --watch follows the cluster as it changes/);
    const name = await runCli(['rollout', 'fluent-bit', '-n', 'logging', '--watch', '-o', 'name'], { env: {} });
    assert.equal(name.code, 2);
    assert.match(name.stderr, /^error: -o name: not with --watch/);
    const bad = await runCli(['rollout', 'fluent-bit', '-n', 'logging', '--watch', '--timeout', 'soon'], { env: {} });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--timeout: "soon" is not a duration/);
  });
});
