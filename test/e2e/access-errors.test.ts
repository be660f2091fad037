// Cluster access failures against the real API server: RBAC that forbids an optional kind (a
// result with a note) or a required one (exit 3 naming the refused verb and resource), a wrong
// context, an unreachable server, bad credentials, a TLS failure, a server that never answers,
// a DaemonSet that does not exist. ds-doctor runs as a child process, as a user runs it: every
// failure is exit 3 (2 for the missing DaemonSet) and exactly one line on stderr.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import yaml from 'js-yaml';
import type { ControlPlane } from '../cluster/harness.js';
import type { CliRun } from '../harness.js';
import {
  REPO,
  auditEvents,
  closedPort,
  create,
  daemonSetObject,
  ds,
  kubectl,
  kubeconfigVariant,
  namespaceObject,
  nodeObject,
  setPodStates,
  spawnCli,
  startCluster,
  stopCluster,
  waitFor,
  waitForDaemonPods,
  waitForReady,
} from './cluster.js';

const NS = 'acc';

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}
interface ClusterRole {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  rules: Rule[];
}

/**
 * The shipped ds-doctor-reader ClusterRole with some resources taken out, as `e2e-reader` (one
 * name for every variant: a binding's roleRef cannot change).
 */
function readerRoleWithout(resources: string[]): ClusterRole {
  const role = yaml.load(fs.readFileSync(path.join(REPO, 'deploy', 'ds-doctor-reader.yaml'), 'utf8')) as ClusterRole;
  return {
    ...role,
    metadata: { name: 'e2e-reader' },
    rules: role.rules
      .map((r) => ({ ...r, resources: r.resources.filter((x) => !resources.includes(x)) }))
      .filter((r) => r.resources.length),
  };
}

/** Exit code `code`, nothing on stdout, one line on stderr matching `re`, no stack trace. */
function assertOneLineFailure(r: CliRun, code: number, re: RegExp): void {
  assert.equal(r.code, code, `exit code; stderr: ${r.stderr}`);
  assert.equal(r.stdout, '');
  assert.ok(r.stderr.endsWith('\n'));
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, `one line: ${JSON.stringify(r.stderr)}`);
  assert.match(r.stderr.trimEnd(), re);
  assert.ok(!/\bat .*\.js:\d+/.test(r.stderr), 'no stack trace');
}

describe('cluster access failures', () => {
  let cp: ControlPlane;
  let env: { KUBECONFIG: string };

  /** Grants the user `reader` exactly `role` (replacing what an earlier test granted) and waits until RBAC says so. */
  async function grantReader(
    role: ClusterRole,
    check: { verb: string; resource: string; allowed: boolean },
  ): Promise<void> {
    await kubectl(cp, ['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          role,
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRoleBinding',
            metadata: { name: 'e2e-reader' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata.name },
            subjects: [{ kind: 'User', name: 'reader', apiGroup: 'rbac.authorization.k8s.io' }],
          },
        ],
      }),
    });
    await waitFor(`RBAC: reader ${check.allowed ? 'may' : 'may not'} ${check.verb} ${check.resource}`, async () => {
      const r = await cp.kubectl(['auth', 'can-i', check.verb, check.resource, '-n', NS], { context: 'reader' });
      return (r.stdout.trim() === 'yes') === check.allowed ? true : undefined;
    });
  }

  before(async () => {
    cp = await startCluster('access');
    env = { KUBECONFIG: cp.kubeconfig };
    await create(cp, [nodeObject('acc-1'), nodeObject('acc-2'), namespaceObject(NS)]);
    await create(cp, [daemonSetObject(NS, 'agent')]);
    await setPodStates(cp, await waitForDaemonPods(cp, NS, 'agent', 2), 'ready');
    await waitForReady(cp, NS, 'agent', 2);
  });

  after(() => stopCluster(cp));

  it('RBAC forbids listing events: the result comes, with a clear note', async () => {
    await grantReader(readerRoleWithout(['events']), { verb: 'list', resource: 'events', allowed: false });
    const json = await ds(cp, ['scan', '-n', NS, '--context', 'reader', '-o', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout) as { notes: string[]; daemonSets: { name: string; health: string }[] };
    assert.deepEqual(
      report.daemonSets.map((d) => [d.name, d.health]),
      [['agent', 'Healthy']],
    );
    assert.ok(
      report.notes.includes(
        `forbidden: cannot list events in namespace "${NS}": Event objects are not available to the analysis`,
      ),
      report.notes.join(' | '),
    );
    assert.ok(
      report.notes.includes('events not available: FailedCreate and FailedScheduling causes cannot be seen'),
      report.notes.join(' | '),
    );

    const table = await spawnCli(['scan', '-n', NS, '--context', 'reader'], env);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /Notes:\n {2}- forbidden: cannot list events in namespace "acc"/);

    const why = await ds(cp, ['why', `${NS}/agent`, '--context', 'reader', '-o', 'json']);
    assert.equal(why.code, 0, why.stderr);
    assert.ok(
      (JSON.parse(why.stdout) as { notes: string[] }).notes.includes(
        'events not available: FailedCreate and FailedScheduling causes cannot be seen',
      ),
    );

    // The API server really refused it.
    const refused = auditEvents(cp).filter(
      (e) => e.userAgent === 'ds-doctor' && e.user?.username === 'reader' && e.objectRef?.resource === 'events',
    );
    assert.ok(refused.length > 0 && refused.every((e) => e.responseStatus?.code === 403));
  });

  it('RBAC forbids listing pods: exit 3, one line naming the refused verb, resource and namespace', async () => {
    await grantReader(readerRoleWithout(['pods']), { verb: 'list', resource: 'pods', allowed: false });
    const r = await spawnCli(['scan', '-n', NS, '--context', 'reader'], env);
    assertOneLineFailure(
      r,
      3,
      /^error: forbidden: pods is forbidden: User "reader" cannot list resource "pods" in API group "" in the namespace "acc" \(ds-doctor needs "list pods" in namespace "acc"; see the ds-doctor-reader ClusterRole/,
    );
  });

  it('RBAC forbids reading DaemonSets or Nodes: exit 3 naming them', async () => {
    await grantReader(readerRoleWithout(['daemonsets']), { verb: 'get', resource: 'daemonsets', allowed: false });
    const get = await spawnCli(['why', `${NS}/agent`, '--context', 'reader'], env);
    assertOneLineFailure(
      get,
      3,
      /^error: forbidden: daemonsets\.apps "agent" is forbidden: User "reader" cannot get resource "daemonsets" in API group "apps" in the namespace "acc"/,
    );
    const list = await spawnCli(['scan', '-n', NS, '--context', 'reader'], env);
    assertOneLineFailure(
      list,
      3,
      /cannot list resource "daemonsets" in API group "apps" in the namespace "acc" \(ds-doctor needs "list daemonsets" in namespace "acc"/,
    );

    await grantReader(readerRoleWithout(['nodes']), { verb: 'list', resource: 'nodes', allowed: false });
    const nodes = await spawnCli(['scan', '-n', NS, '--context', 'reader'], env);
    assertOneLineFailure(
      nodes,
      3,
      /cannot list resource "nodes" in API group "" at the cluster scope \(ds-doctor needs "list nodes" at cluster scope/,
    );
  });

  it('a wrong context name: exit 3, one line', async () => {
    assertOneLineFailure(
      await spawnCli(['scan', '--context', 'nope'], env),
      3,
      /^error: context "nope" not found in kubeconfig \(contexts: admin, reader\)$/,
    );
    assertOneLineFailure(
      await spawnCli(['scan', '--context', 'admn', '-n', NS], env),
      3,
      /^error: context "admn" not found in kubeconfig/,
    );
    const current = kubeconfigVariant(cp, 'bad-current', (t) =>
      t.replace(/^current-context: .*$/m, 'current-context: gone'),
    );
    assertOneLineFailure(
      await spawnCli(['scan', '-n', NS], { KUBECONFIG: current }),
      3,
      /^error: current context "gone" not found in kubeconfig/,
    );
  });

  it('an unreachable server: exit 3, one line', async () => {
    const port = await closedPort();
    const file = kubeconfigVariant(cp, 'unreachable', (t) => t.replaceAll(cp.server, `https://127.0.0.1:${port}`));
    const start = Date.now();
    assertOneLineFailure(
      await spawnCli(['scan', '-n', NS], { KUBECONFIG: file }),
      3,
      new RegExp(`^error: cannot reach the API server at https://127\\.0\\.0\\.1:${port}: ECONNREFUSED$`),
    );
    assert.ok(Date.now() - start < 10_000);
  });

  it('bad credentials, a TLS failure, a missing kubeconfig: exit 3, one line', async () => {
    const bogus = kubeconfigVariant(cp, 'bogus-token', (t) => t.replaceAll(cp.token, 'not-a-valid-token'));
    assertOneLineFailure(
      await spawnCli(['scan', '-n', NS], { KUBECONFIG: bogus }),
      3,
      /^error: unauthorized \(401\) by https:\/\/127\.0\.0\.1:\d+: the credentials of context "admin" are missing, invalid or expired$/,
    );
    // The serving certificate names 127.0.0.1, not localhost.
    const wrongName = kubeconfigVariant(cp, 'wrong-name', (t) =>
      t.replaceAll(cp.server, cp.server.replace('127.0.0.1', 'localhost')),
    );
    assertOneLineFailure(
      await spawnCli(['scan', '-n', NS], { KUBECONFIG: wrongName }),
      3,
      /^error: TLS failure talking to https:\/\/localhost:\d+: Hostname\/IP does not match certificate's altnames/,
    );
    assertOneLineFailure(
      await spawnCli(['scan', '--kubeconfig', path.join(cp.workDir, 'no-such-kubeconfig')], env),
      3,
      /^error: cannot load kubeconfig .*no-such-kubeconfig: ENOENT/,
    );
  });

  it('a server that accepts connections and never answers: exit 3 after --request-timeout', async () => {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((s) => {
      sockets.add(s);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const file = kubeconfigVariant(cp, 'silent', (t) => t.replaceAll(cp.server, `https://127.0.0.1:${port}`));
      const start = Date.now();
      const r = await spawnCli(['scan', '-n', NS, '--request-timeout', '1s'], { KUBECONFIG: file });
      const elapsed = Date.now() - start;
      assertOneLineFailure(
        r,
        3,
        /^error: request to https:\/\/127\.0\.0\.1:\d+\/apis\/apps\/v1\/namespaces\/acc\/daemonsets timed out after 1s \(--request-timeout\)$/,
      );
      assert.ok(elapsed >= 1000 && elapsed < 5000, `timed out after ${elapsed} ms`);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a DaemonSet that does not exist: exit 2, one line', async () => {
    assertOneLineFailure(
      await spawnCli(['why', `${NS}/nope`], env),
      2,
      /^error: daemonset "nope" not found in namespace "acc"$/,
    );
  });
});
