// kubectl's impersonation on a real API server: the shipped ds-doctor-reader ClusterRole is bound
// to a group only; the admin (who may impersonate) reads as a user of that group with --as and
// --as-group, and is refused as the bare user. The audit log shows who asked and whom the server
// took the request to be; kubectl auth can-i agrees on both answers. A kubeconfig user's `as` and
// `as-groups` are sent too, and the flags may come before the command.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import yaml from 'js-yaml';
import type { ControlPlane } from '../cluster/harness.js';
import {
  REPO,
  auditEvents,
  create,
  daemonSetObject,
  ds,
  dsDoctorRequests,
  kubectl,
  namespaceObject,
  nodeObject,
  setPodStates,
  startCluster,
  stopCluster,
  waitFor,
  waitForDaemonPods,
  waitForReady,
  type AuditEvent,
} from './cluster.js';

const NS = 'imp';
const GROUP = 'ds-readers';
const ROLE_FILE = path.join(REPO, 'deploy', 'ds-doctor-reader.yaml');

/** The impersonated identity the audit log records for a request. */
type Impersonated = AuditEvent & { impersonatedUser?: { username?: string; groups?: string[] } };

describe('impersonation (--as, --as-group) against a group-bound reader role', () => {
  let cp: ControlPlane;

  before(async () => {
    cp = await startCluster('impersonation');
    await create(cp, [nodeObject('i-1'), nodeObject('i-2'), namespaceObject(NS)]);
    await create(cp, [daemonSetObject(NS, 'agent')]);
    await setPodStates(cp, await waitForDaemonPods(cp, NS, 'agent', 2), 'ready');
    await waitForReady(cp, NS, 'agent', 2);
    await kubectl(cp, ['apply', '-f', ROLE_FILE]);
    // Bound to the group only: the user "jane" alone has no right at all.
    await kubectl(cp, [
      'create',
      'clusterrolebinding',
      'ds-doctor-readers',
      '--clusterrole=ds-doctor-reader',
      `--group=${GROUP}`,
    ]);
    await waitFor('RBAC to grant the group list pods', async () => {
      const r = await cp.kubectl(['auth', 'can-i', 'list', 'pods', '-A', '--as', 'jane', '--as-group', GROUP]);
      return r.stdout.trim() === 'yes' ? true : undefined;
    });
  });

  after(() => stopCluster(cp));

  it('kubectl auth can-i: the group may list pods, the bare user may not', async () => {
    const bare = await cp.kubectl(['auth', 'can-i', 'list', 'daemonsets', '-n', NS, '--as', 'jane']);
    assert.equal(bare.stdout.trim(), 'no');
  });

  it('--as jane --as-group ds-readers reads everything; each request is the admin impersonating jane in the group', async () => {
    for (const argv of [
      ['scan', '-n', NS, '-o', 'json', '--as', 'jane', '--as-group', GROUP],
      // Before the command, as `kubectl ds-doctor --as … scan` passes them.
      ['--as=jane', `--as-group=${GROUP}`, 'why', `${NS}/agent`, '-o', 'json'],
      [
        'rollout',
        `${NS}/agent`,
        '--as',
        'jane',
        '--as-group',
        GROUP,
        '--as-group',
        'system:authenticated',
        '-o',
        'json',
      ],
    ]) {
      const from = auditEvents(cp).length;
      const r = await ds(cp, argv);
      assert.ok(r.code === 0 || r.code === 1, `${argv.join(' ')}: exit ${r.code}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /forbidden/i);
      JSON.parse(r.stdout);
      const mine = dsDoctorRequests(cp, from) as Impersonated[];
      assert.ok(mine.length > 0);
      for (const e of mine) {
        assert.equal(e.user?.username, 'admin', e.requestURI);
        assert.equal(e.impersonatedUser?.username, 'jane', e.requestURI);
        assert.ok(
          e.impersonatedUser?.groups?.includes(GROUP),
          `${e.requestURI}: ${JSON.stringify(e.impersonatedUser)}`,
        );
        assert.equal(e.responseStatus?.code, 200, e.requestURI);
      }
    }
  });

  it('--as jane without the group is refused (exit 3, one line naming jane and what was refused)', async () => {
    const from = auditEvents(cp).length;
    const r = await ds(cp, ['scan', '-n', NS, '--as', 'jane']);
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(
      r.stderr,
      /^error: forbidden: daemonsets\.apps is forbidden: User "jane" cannot list resource "daemonsets" in API group "apps" in the namespace "imp"/,
    );
    const refused = dsDoctorRequests(cp, from) as Impersonated[];
    assert.ok(
      refused.length > 0 &&
        refused.every((e) => e.impersonatedUser?.username === 'jane' && e.responseStatus?.code === 403),
    );
  });

  it("a kubeconfig user's as and as-groups are sent (kubectl's impersonation fields)", async () => {
    const config = yaml.load(fs.readFileSync(cp.kubeconfig, 'utf8')) as {
      users: { name: string; user: Record<string, unknown> }[];
    };
    const admin = config.users.find((u) => u.name === 'admin')!;
    admin.user['as'] = 'jane';
    admin.user['as-groups'] = [GROUP];
    const file = path.join(cp.workDir, 'kubeconfig-as-jane');
    fs.writeFileSync(file, yaml.dump(config));
    const from = auditEvents(cp).length;
    const r = await ds(cp, ['scan', '-n', NS, '-o', 'json'], { KUBECONFIG: file });
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const mine = dsDoctorRequests(cp, from) as Impersonated[];
    assert.ok(
      mine.length > 0 &&
        mine.every((e) => e.impersonatedUser?.username === 'jane' && e.impersonatedUser.groups?.includes(GROUP)),
    );
    // --as-group on the command line replaces the kubeconfig's groups: the bare group list is refused.
    const replaced = await ds(cp, ['scan', '-n', NS, '--as-group', 'nobody'], { KUBECONFIG: file });
    assert.equal(replaced.code, 3, replaced.stderr);
    assert.match(replaced.stderr, /User "jane" cannot list/);
  });

  it('-v=6 logs each request of a live command as kubectl does', async () => {
    const r = await ds(cp, ['scan', '-n', NS, '-v=6', '--as', 'jane', '--as-group', GROUP]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    assert.match(
      r.stderr,
      /request-log\] GET https:\/\/127\.0\.0\.1:\d+\/apis\/apps\/v1\/namespaces\/imp\/daemonsets\?limit=500 200 OK in \d+ milliseconds\n/,
    );
  });

  it('--server, --token and --certificate-authority reach the API server without a kubeconfig; --insecure-skip-tls-verify instead of the CA; the reader token is refused; no token is echoed', async () => {
    const ca = path.join(cp.workDir, 'ca-for-flags.pem');
    fs.writeFileSync(ca, cp.ca);
    const none = { KUBECONFIG: path.join(cp.workDir, 'no-such-kubeconfig') };
    const withCa = await ds(
      cp,
      ['scan', '-n', NS, '-o', 'json', '-s', cp.server, '--token', cp.token, '--certificate-authority', ca],
      none,
    );
    assert.ok(withCa.code === 0 || withCa.code === 1, withCa.stderr);
    const doc = JSON.parse(withCa.stdout) as { daemonSets: { name: string }[] };
    assert.deepEqual(
      doc.daemonSets.map((d) => d.name),
      ['agent'],
    );
    const insecure = await ds(
      cp,
      ['--server', cp.server, '--token', cp.token, '--insecure-skip-tls-verify', 'scan', '-n', NS, '-o', 'json'],
      none,
    );
    assert.equal(insecure.stdout, withCa.stdout, insecure.stderr);
    // Without a CA the serving certificate is not trusted, as kubectl says.
    const untrusted = await ds(cp, ['scan', '-n', NS, '-s', cp.server, '--token', cp.token], none);
    assert.equal(untrusted.code, 3, untrusted.stderr);
    // The reader's token: authenticated, refused by RBAC (it has no binding here).
    const reader = await ds(
      cp,
      ['scan', '-n', NS, '-s', cp.server, '--token', cp.readerToken, '--certificate-authority', ca],
      none,
    );
    assert.equal(reader.code, 3, reader.stderr);
    assert.match(reader.stderr, /cannot list resource "daemonsets"/);
    for (const r of [withCa, insecure, untrusted, reader])
      for (const secret of [cp.token, cp.readerToken])
        assert.ok(!(r.stdout + r.stderr).includes(secret), 'a token was echoed');
  });
});
