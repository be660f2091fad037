// Least privilege: every command runs under the shipped ds-doctor-reader ClusterRole (bound to
// the user `reader`), nothing it reads is refused, and the audit log shows ds-doctor using only
// get and list. Also the kubeconfig handling kubectl users rely on: KUBECONFIG with several
// files (kubectl's merge rules) and the namespace of the context.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import type { ControlPlane } from '../cluster/harness.js';
import { SNAPSHOT_KINDS } from '../../src/model/snapshot.js';
import {
  REPO,
  auditEvents,
  create,
  daemonSetObject,
  ds,
  dsDoctorRequests,
  kubectl,
  kubeconfigVariant,
  namespaceObject,
  nodeObject,
  setPodStates,
  startCluster,
  stopCluster,
  waitFor,
  waitForDaemonPods,
  waitForReady,
} from './cluster.js';

const NS = 'rd';
const ROLE_FILE = path.join(REPO, 'deploy', 'ds-doctor-reader.yaml');

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

describe('running under the ds-doctor-reader ClusterRole', () => {
  let cp: ControlPlane;
  let readerKubeconfig: string;

  before(async () => {
    cp = await startCluster('reader');
    await create(cp, [
      nodeObject('r-1'),
      nodeObject('r-2'),
      nodeObject('r-tainted', { taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] }),
      namespaceObject(NS),
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'node-agents' }, value: 1000000 },
    ]);
    const agent = daemonSetObject(NS, 'agent');
    agent.spec!.template!.spec!.priorityClassName = 'node-agents';
    await create(cp, [
      agent,
      daemonSetObject(NS, 'too-big', { cpu: '100' }),
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'agent', namespace: NS },
        spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'agent' } } },
      },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'agent', namespace: NS },
        spec: { selector: { app: 'agent' }, ports: [{ port: 9100 }] },
      },
    ]);
    await setPodStates(cp, await waitForDaemonPods(cp, NS, 'agent', 2), 'ready');
    await waitForDaemonPods(cp, NS, 'too-big', 2, { bound: false });
    await waitForReady(cp, NS, 'agent', 2);

    // The shipped role, exactly as a user applies it, bound to `reader`.
    await kubectl(cp, ['apply', '-f', ROLE_FILE]);
    await kubectl(cp, [
      'create',
      'clusterrolebinding',
      'ds-doctor-reader',
      '--clusterrole=ds-doctor-reader',
      '--user=reader',
    ]);
    await waitFor('RBAC to grant reader list pods', async () => {
      const r = await cp.kubectl(['auth', 'can-i', 'list', 'pods', '-A'], { context: 'reader' });
      return r.stdout.trim() === 'yes' ? true : undefined;
    });
    readerKubeconfig = kubeconfigVariant(cp, 'reader', (t) =>
      t.replace(/^current-context: .*$/m, 'current-context: "reader"'),
    );
  });

  after(() => stopCluster(cp));

  it('the role grants only get, list and watch, on every kind ds-doctor can read', () => {
    const role = yaml.load(fs.readFileSync(ROLE_FILE, 'utf8')) as { kind: string; rules: Rule[] };
    assert.equal(role.kind, 'ClusterRole');
    for (const rule of role.rules) assert.deepEqual([...rule.verbs].sort(), ['get', 'list', 'watch']);
    for (const [kind, m] of Object.entries(SNAPSHOT_KINDS)) {
      assert.ok(
        role.rules.some((r) => r.apiGroups.includes(m.group) && r.resources.includes(m.plural)),
        `${kind}: ${m.group}/${m.plural} is in the role`,
      );
    }
  });

  it('every command works under the role, and nothing is refused', async () => {
    const dump = path.join(cp.workDir, 'reader-dump.yaml');
    const commands = [
      ['scan', '-n', NS],
      ['scan', '-A'],
      ['scan', '-n', NS, '--dump', dump],
      ['why', `${NS}/agent`],
      ['why', `${NS}/agent`, 'r-1'],
      ['why', `${NS}/too-big`],
      ['why', `${NS}/too-big`, 'r-2'],
      ['nodes', `${NS}/agent`],
      ['node', 'r-1', '-A'],
      ['rollout', `${NS}/agent`],
      ['impact', `${NS}/agent`],
      ['impact', `${NS}/agent`, '--cascade=foreground'],
      ['impact', `${NS}/agent`, '--cascade=orphan'],
      ['lint', '-n', NS],
      ['lint', `${NS}/agent`],
    ];
    const from = auditEvents(cp).length;
    for (const c of commands) {
      const r = await ds(cp, [...c, '-o', 'json'], { KUBECONFIG: readerKubeconfig });
      assert.ok(r.code === 0 || r.code === 1, `${c.join(' ')}: exit ${r.code}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /forbidden/i, c.join(' '));
      assert.doesNotMatch(r.stdout, /forbidden|not available/i, `${c.join(' ')}: a kind was not readable`);
      JSON.parse(r.stdout);
    }
    const mine = dsDoctorRequests(cp, from);
    assert.ok(mine.length >= commands.length, `${mine.length} requests`);
    for (const e of mine) {
      assert.equal(e.user?.username, 'reader', e.requestURI);
      assert.ok(['get', 'list'].includes(e.verb), `${e.verb} ${e.requestURI}`);
      assert.equal(e.annotations?.['authorization.k8s.io/decision'], 'allow', e.requestURI);
      assert.equal(e.responseStatus?.code, 200, e.requestURI);
    }
    // The impact and lint commands read the optional kinds too, so the role was put to use on them.
    const resources = new Set(mine.map((e) => e.objectRef?.resource));
    for (const r of [
      'daemonsets',
      'nodes',
      'pods',
      'events',
      'controllerrevisions',
      'poddisruptionbudgets',
      'priorityclasses',
      'services',
    ]) {
      assert.ok(resources.has(r), `${r} was read: ${[...resources].join(', ')}`);
    }
    const back = await ds(cp, ['scan', '-n', NS, '-o', 'json', '-f', dump]);
    assert.ok(back.code === 0 || back.code === 1, back.stderr);
  });

  it('KUBECONFIG with several files: the first current-context and the first definition of a name win, as for kubectl', async () => {
    const kubectlBin = path.join(cp.binDir, 'kubectl');
    const currentContext = (list: string) =>
      spawnSync(kubectlBin, ['config', 'current-context'], {
        env: { KUBECONFIG: list, HOME: cp.workDir },
        encoding: 'utf8',
      }).stdout.trim();
    for (const [list, user] of [
      [`${readerKubeconfig}:${cp.kubeconfig}`, 'reader'],
      [`${cp.kubeconfig}:${readerKubeconfig}`, 'admin'],
    ] as const) {
      assert.equal(currentContext(list), user, 'kubectl agrees');
      const from = auditEvents(cp).length;
      const r = await ds(cp, ['scan', '-n', NS, '-o', 'json'], { KUBECONFIG: list });
      assert.equal(r.code, 1, r.stderr);
      const users = new Set(dsDoctorRequests(cp, from).map((e) => e.user?.username));
      assert.deepEqual([...users], [user], `KUBECONFIG=${list}`);
    }
  });

  it('the namespace of the context is the default scope, as for kubectl', async () => {
    const config = yaml.load(fs.readFileSync(readerKubeconfig, 'utf8')) as {
      contexts: { name: string; context: Record<string, string> }[];
      'current-context': string;
    };
    config.contexts.push({ name: 'reader-rd', context: { cluster: 'ds-doctor-test', user: 'reader', namespace: NS } });
    config['current-context'] = 'reader-rd';
    const file = path.join(cp.workDir, 'kubeconfig-reader-rd');
    fs.writeFileSync(file, yaml.dump(config));
    const kubectlSees = spawnSync(path.join(cp.binDir, 'kubectl'), ['get', 'daemonsets', '-o', 'name'], {
      env: { KUBECONFIG: file, HOME: cp.workDir },
      encoding: 'utf8',
    })
      .stdout.trim()
      .split('\n')
      .sort();
    assert.deepEqual(kubectlSees, ['daemonset.apps/agent', 'daemonset.apps/too-big']);
    const r = await ds(cp, ['scan', '-o', 'json'], { KUBECONFIG: file });
    const report = JSON.parse(r.stdout) as { scope: string; daemonSets: { name: string }[] };
    assert.equal(report.scope, `namespace ${NS}`);
    assert.deepEqual(
      report.daemonSets.map((d) => d.name),
      ['agent', 'too-big'],
    );
    const why = await ds(cp, ['why', 'agent', '-o', 'json'], { KUBECONFIG: file });
    assert.equal(why.code, 0, why.stderr);
  });
});
