// Reasons on real cluster state from ../shared/realdumps (kept beside the checkout, never copied
// into the repository): a stale .status (kubernetes#53023) and a surge DaemonSet with a host
// port exactly as a user pasted it (kubernetes#106417).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { runCli } from '../harness.js';
import { diagnoseRollout } from '../../src/analyze/rollout/index.js';
import { whyDaemonSet } from '../../src/analyze/placement/index.js';
import type { DaemonSet } from '../../src/model/k8s-types.js';
import { NOW, indexOf, node, pod } from '../builders.js';

const REALDUMPS = join(process.cwd(), '..', 'shared', 'realdumps');
const absent = existsSync(REALDUMPS)
  ? false
  : `${REALDUMPS} is absent: the real-dump cases need shared/ beside the checkout`;

test(
  "kubernetes#53023: every pod Ready, numberAvailable stale → rollout explains the stale .status next to kubectl's Waiting",
  { skip: absent },
  async () => {
    const r = await runCli([
      'rollout',
      'monitoring/redacted',
      '-f',
      join(REALDUMPS, 'issue-k8s-53023', 'input', 'dump.yaml'),
      '--now',
      '2017-09-25T22:00:00Z',
      '-o',
      'json',
    ]);
    assert.equal(r.stderr, '');
    const doc = JSON.parse(r.stdout);
    assert.match(
      doc.kubectlStatus,
      /Waiting for daemon set "redacted" rollout to finish: 1 of 2 updated pods are available/,
    );
    const stale = doc.reasons.find((x: { code: string }) => x.code === 'StaleStatus');
    assert.ok(stale, 'StaleStatus is reported');
    assert.match(stale.message, /numberAvailable 1 \(recomputed 2\)/);
    assert.match(stale.message, /kubectl rollout status \(which reads \.status\) still waits/);
  },
);

test(
  'kubernetes#106417: maxSurge 2 with hostPort 54323, the new pod Pending 14 minutes → why and rollout both say stuck',
  { skip: absent },
  () => {
    const ds = yaml.load(
      readFileSync(join(REALDUMPS, 'issue-k8s-106417', 'input', 'daemonset.yaml'), 'utf8'),
    ) as DaemonSet;
    // The thread pasted only the DaemonSet; the node, the pods and the template change are built here.
    ds.metadata = {
      ...ds.metadata,
      uid: 'uid-ds-106417',
      generation: 2,
      annotations: { 'deprecated.daemonset.template.generation': '2' },
    };
    ds.status = { observedGeneration: 2 };
    const n = node('node-1').build();
    const old = pod('ds-nginx-3-old', 'opcs')
      .ofDaemonSet(ds, 'node-1', 'v1hash', '1')
      .on('node-1')
      .created(86400)
      .ready()
      .build();
    const incoming = pod('ds-nginx-3-new', 'opcs')
      .ofDaemonSet(ds, 'node-1', 'v2hash', '2')
      .created(14 * 60)
      .unschedulable(
        "0/2 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) didn't match Pod's node affinity/selector.",
      )
      .build();
    const index = indexOf({ nodes: [n], daemonSets: [ds], pods: [old, incoming] });
    const rollout = diagnoseRollout(index, ds, NOW);
    assert.equal(rollout.verdict, 'Stuck');
    const why = whyDaemonSet(index, ds, NOW);
    assert.deepEqual(
      why.nodes.map((x) => [x.node, x.reasons[0]?.code, x.reasons[0]?.severity]),
      [['node-1', 'HostPortConflict', 'error']],
    );
    assert.doesNotMatch(JSON.stringify(why), /nothing to do unless it persists/);
  },
);

const SONOBUOY = join(REALDUMPS, 'sonobuoy-kind-k8s1.14-dup', 'input');
const exitedZero: { name: string; args: string[] }[] = [
  { name: 'why', args: ['why', 'heptio-sonobuoy/sonobuoy-tarresultsds-daemon-set-425dd9bda3e141c4'] },
  { name: 'rollout', args: ['rollout', 'heptio-sonobuoy/sonobuoy-singlefileds-daemon-set-c5a017f0a6dd4ac1'] },
];
for (const c of exitedZero) {
  test(
    `sonobuoy kind 1.14: a plugin container that exits 0 under restartPolicy Always (${c.name}): said so, no ContainerCreating, no rollback without a revision`,
    { skip: absent },
    async () => {
      const r = await runCli([...c.args, '-f', SONOBUOY, '--now', '2019-07-31T21:00:00Z', '--no-color']);
      assert.equal(r.stderr, '');
      assert.match(r.stdout, /exits successfully \(Completed, exit code 0\) and restartPolicy Always restarts it/);
      assert.doesNotMatch(r.stdout, /ContainerCreating|kubectl rollout undo daemonset/);
      assert.match(r.stdout, /no earlier revision to roll back to/);
    },
  );
}

test(
  'kubeadm 1.8: OnDelete with every pod updated and one on an unreachable node is Complete, with no budget in use (OnDelete has none)',
  { skip: absent },
  async () => {
    const r = await runCli([
      'rollout',
      'kube-system/kube-flannel-ds',
      '-f',
      join(REALDUMPS, 'clusterinfo-kubeadm-k8s1.8-internal', 'input'),
      '-o',
      'json',
    ]);
    const doc = JSON.parse(r.stdout);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      [doc.strategy, doc.verdict, doc.updated, doc.desired, doc.available],
      ['OnDelete', 'Complete', 5, 5, 4],
    );
    assert.deepEqual([doc.budgetUsed, doc.budgetInUse, doc.blockers], [0, [], []]);
    assert.ok(!doc.nextSteps.some((s: string) => /maxUnavailable/.test(s)), doc.nextSteps.join('\n'));
    const notReady = doc.reasons.find((x: { code: string }) => x.code === 'NodesNotReady');
    assert.match(notReady.message, /1 has an unavailable pod until/);
    assert.doesNotMatch(notReady.message, /budget/);
  },
);
