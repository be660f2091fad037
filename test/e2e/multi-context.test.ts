// One scan over several clusters: two real control planes (each its own etcd, API server,
// controllers and scheduler, on their own ports) and a context whose server is a closed port,
// in one kubeconfig. Each cluster's rows are the rows `scan --context <it>` gives alone, marked
// with the context; the dead context is one row with its error and exit 3, the others still
// answer; the exit code is the worst; --all-contexts reads the three, sorted.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import type { ControlPlane } from '../cluster/harness.js';
import {
  closedPort,
  create,
  daemonSetObject,
  ds,
  namespaceObject,
  nodeObject,
  rfc3339,
  setPodStates,
  startCluster,
  stopCluster,
  waitForDaemonPods,
  waitForReady,
} from './cluster.js';

const NS = 'multi';
const NOW = rfc3339(new Date(Date.now() + 60_000));
const BOUND = { timeout: 240_000 };

interface Row {
  context?: string;
  namespace: string;
  name: string;
  health: string;
}
interface Report {
  kind: string;
  scope: string;
  daemonSets: Row[];
  contexts?: { context: string; daemonSets: number; exitCode: number; error?: string; scope?: string }[];
  notes: string[];
}

type Kubeconfig = {
  clusters: { name: string; cluster: Record<string, unknown> }[];
  users: { name: string; user: Record<string, unknown> }[];
};

/** One kubeconfig with contexts `east` and `west` (the admin users of the two control planes) and `dead` (a closed port). */
function mergedKubeconfig(east: ControlPlane, west: ControlPlane, deadPort: number, dir: string): string {
  const read = (cp: ControlPlane) => yaml.load(fs.readFileSync(cp.kubeconfig, 'utf8')) as Kubeconfig;
  const e = read(east);
  const w = read(west);
  const cluster = (k: Kubeconfig) => k.clusters[0]!.cluster;
  const admin = (k: Kubeconfig) => k.users.find((u) => u.name === 'admin')!.user;
  const merged = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'east', cluster: cluster(e) },
      { name: 'west', cluster: cluster(w) },
      { name: 'dead', cluster: { ...cluster(e), server: `https://127.0.0.1:${deadPort}` } },
    ],
    users: [
      { name: 'east-admin', user: admin(e) },
      { name: 'west-admin', user: admin(w) },
    ],
    contexts: [
      { name: 'west', context: { cluster: 'west', user: 'west-admin', namespace: NS } },
      { name: 'east', context: { cluster: 'east', user: 'east-admin', namespace: NS } },
      { name: 'dead', context: { cluster: 'dead', user: 'east-admin', namespace: NS } },
    ],
    'current-context': 'east',
  };
  const file = path.join(dir, 'kubeconfig-merged');
  fs.writeFileSync(file, yaml.dump(merged));
  return file;
}

describe('scan over two control planes and a dead context', BOUND, () => {
  let east: ControlPlane;
  let west: ControlPlane;
  let kubeconfig: string;
  const run = (argv: string[]) => ds(east, [...argv, '--now', NOW], { KUBECONFIG: kubeconfig });

  before(async () => {
    east = await startCluster('multi-east');
    west = await startCluster('multi-west');
    // east: a healthy agent on two nodes; west: the same agent crash-looping on its node.
    // In namespace lint of both, a DaemonSet with an image tag that moves, for lint to find.
    const linted = [
      namespaceObject('lint'),
      daemonSetObject('lint', 'collector', { image: 'registry.example/collector:latest' }),
    ];
    await create(east, [
      nodeObject('east-1'),
      nodeObject('east-2'),
      namespaceObject(NS),
      daemonSetObject(NS, 'agent'),
      ...linted,
    ]);
    await create(west, [nodeObject('west-1'), namespaceObject(NS), daemonSetObject(NS, 'agent'), ...linted]);
    await setPodStates(east, await waitForDaemonPods(east, NS, 'agent', 2), 'ready');
    await waitForReady(east, NS, 'agent', 2);
    await setPodStates(west, await waitForDaemonPods(west, NS, 'agent', 1), 'crashloop');
    kubeconfig = mergedKubeconfig(east, west, await closedPort(), east.workDir);
  });
  after(async () => {
    await stopCluster(west);
    await stopCluster(east);
  });

  it(
    'each cluster answers as it does alone, the dead one is one row with its error, exit 3 (the worst)',
    BOUND,
    async () => {
      const alone = async (context: string) => {
        const r = await run(['scan', '--context', context, '-o', 'json']);
        return { code: r.code, report: JSON.parse(r.stdout) as Report };
      };
      const [e, w] = [await alone('east'), await alone('west')];
      assert.equal(e.code, 0);
      assert.equal(w.code, 1);
      assert.deepEqual(
        w.report.daemonSets.map((d) => d.health),
        ['Failing'],
      );
      const r = await run(['scan', '--context', 'east', '--context', 'west', '--context', 'dead', '-o', 'json']);
      assert.equal(r.code, 3, r.stderr);
      assert.equal(r.stderr, '');
      const report = JSON.parse(r.stdout) as Report;
      assert.equal(report.kind, 'ScanReport');
      // The rows of each context, in the order the contexts were given, are its scan's rows.
      assert.deepEqual(report.daemonSets, [
        ...e.report.daemonSets.map((d) => ({ context: 'east', ...d })),
        ...w.report.daemonSets.map((d) => ({ context: 'west', ...d })),
      ]);
      assert.equal(report.scope, 'namespace multi in 3 contexts');
      assert.deepEqual(
        report.contexts?.map(({ context, daemonSets, exitCode }) => ({ context, daemonSets, exitCode })),
        [
          { context: 'east', daemonSets: 1, exitCode: 0 },
          { context: 'west', daemonSets: 1, exitCode: 1 },
          { context: 'dead', daemonSets: 0, exitCode: 3 },
        ],
      );
      assert.match(
        report.contexts[2]!.error ?? '',
        /^cannot reach the API server at https:\/\/127\.0\.0\.1:\d+: ECONNREFUSED$/,
      );
    },
  );

  it('the table: a CONTEXT column, the dead context one row, its error below', BOUND, async () => {
    const r = await run(['scan', '--context', 'east', '--context', 'west', '--context', 'dead']);
    assert.equal(r.code, 3, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(lines[0]!, /^CONTEXT\s+NAMESPACE\s+NAME\s+HEALTH\s+READY\s+UPDATED\s+AVAIL$/);
    assert.match(lines[1]!, /^east\s+multi\s+agent\s+Healthy\s+2\/2\s+2\s+2$/);
    assert.match(lines[2]!, /^west\s+multi\s+agent\s+Failing\s+0\/1\s+1\s+0$/);
    assert.match(lines[3]!, /^dead\s+-\s+-\s+Error\s+-\s+-\s+-$/);
    assert.match(
      r.stdout,
      /^Contexts not read:\n {2}dead: cannot reach the API server at https:\/\/127\.0\.0\.1:\d+: ECONNREFUSED \(exit 3\)$/m,
    );
    // The next step names the context of the DaemonSet it is about.
    assert.match(r.stdout, /ds-doctor why multi\/agent --context west/);
  });

  it('without the dead context the worst is exit 1; --all-contexts reads all three, sorted', BOUND, async () => {
    const two = await run(['scan', '--context', 'east', '--context', 'west', '-o', 'json']);
    assert.equal(two.code, 1, two.stderr);
    const all = await run(['scan', '--all-contexts', '-o', 'json']);
    assert.equal(all.code, 3, all.stderr);
    const report = JSON.parse(all.stdout) as Report;
    assert.deepEqual(
      report.contexts?.map((c) => c.context),
      ['dead', 'east', 'west'],
    );
    assert.deepEqual(
      report.daemonSets.map((d) => `${d.context} ${d.namespace}/${d.name} ${d.health}`),
      ['east multi/agent Healthy', 'west multi/agent Failing'],
    );
  });

  it('lint of live objects: findings per context, the dead context listed with its error, exit 3', BOUND, async () => {
    const alone = JSON.parse((await run(['lint', '-n', 'lint', '--context', 'west', '-o', 'json'])).stdout) as {
      findings: { rule: string; daemonSet: { name: string } }[];
    };
    const r = await run([
      'lint',
      '-n',
      'lint',
      '--context',
      'east',
      '--context',
      'west',
      '--context',
      'dead',
      '-o',
      'json',
    ]);
    assert.equal(r.code, 3, r.stderr);
    const report = JSON.parse(r.stdout) as {
      findings: { context?: string; rule: string }[];
      daemonSets: number;
      contexts: { context: string; exitCode: number; error?: string }[];
    };
    assert.equal(report.daemonSets, 2);
    // The same DaemonSet in both clusters: the same findings, once per context.
    assert.deepEqual(
      report.findings.filter((f) => f.context === 'west').map((f) => f.rule),
      alone.findings.map((f) => f.rule),
    );
    assert.deepEqual(
      report.findings.filter((f) => f.context === 'east').map((f) => f.rule),
      alone.findings.map((f) => f.rule),
    );
    assert.ok(alone.findings.some((f) => f.rule === 'image-tag-mutable'));
    assert.deepEqual(
      report.contexts.map((c) => [c.context, c.exitCode]),
      [
        ['east', 0],
        ['west', 0],
        ['dead', 3],
      ],
    );
    const table = await run(['lint', '-n', 'lint', '--context', 'east', '--context', 'dead']);
    assert.match(table.stdout, /^east: lint\/collector$/m);
    assert.match(
      table.stdout,
      /^Contexts not read:\n {2}- dead: cannot reach the API server at https:\/\/127\.0\.0\.1:\d+: ECONNREFUSED \(exit 3\)$/m,
    );
  });

  it('one context alone is the scan it always was: no CONTEXT column, no context field', BOUND, async () => {
    const r = await run(['scan', '--context', 'west']);
    assert.equal(r.code, 1);
    assert.match(r.stdout.split('\n')[0]!, /^NAMESPACE\s+NAME\s+HEALTH/);
    const j = await run(['scan', '--context', 'west', '-o', 'json']);
    const report = JSON.parse(j.stdout) as Report;
    assert.equal(report.contexts, undefined);
    assert.equal(report.daemonSets[0]!.context, undefined);
  });
});
