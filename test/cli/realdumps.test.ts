// Real cluster state (../shared/realdumps: cluster-info dumps, Sonobuoy results, a support
// bundle, dumps rebuilt from issue threads): every input form is read, and every command answers
// what it should. Plus builder-made inputs without pods or nodes (a DaemonSet whose pods are all
// refused, or that selects no node).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../harness.js';
import { daemonSet, node } from '../builders.js';

const ROOT = join(process.cwd(), '..', 'shared', 'realdumps');
const ABSENT = existsSync(ROOT)
  ? false
  : `the real dumps are not at ${ROOT} (CI puts a copy of shared/ beside the checkout): these tests need them`;
const input = (name: string) => join(ROOT, name, 'input');

/** A test over the real dumps, skipped with one clear line when they are absent. */
function realTest(name: string, fn: () => Promise<void>): void {
  test(`real dumps: ${name}`, { skip: ABSENT }, fn);
}

async function json(argv: string[]): Promise<{ code: number; doc: Record<string, unknown>; stderr: string }> {
  const r = await runCli([...argv, '-o', 'json']);
  assert.ok(r.stdout, `${argv.join(' ')}: ${r.stderr}`);
  return { code: r.code, doc: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
}

const notes = (doc: Record<string, unknown>) => (doc['notes'] as string[] | undefined) ?? [];

realTest('"items": null is an empty collected list: no false "events not available", no refusal', async () => {
  const { code, doc } = await json(['scan', '-f', input('clusterinfo-rke2-k8s1.33')]);
  assert.equal(code, 0);
  assert.ok(!notes(doc).some((n) => /events not available|PodList|EventList/.test(n)), notes(doc).join('\n'));
  // default/ holds only null lists (pods, daemonsets, events): with the nodes it is an answer.
  const r = await runCli([
    'scan',
    '-f',
    join(input('clusterinfo-rke2-k8s1.33'), 'nodes.json'),
    '-f',
    join(input('clusterinfo-rke2-k8s1.33'), 'default'),
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /no DaemonSets found/);
});

// spec.templateGeneration (clusters before 1.16) decides whether pods are updated, and is named.
for (const [dump, ds] of [
  ['clusterinfo-kubeadm-k8s1.8-internal', 'kube-system/kube-flannel-ds'],
  ['sonobuoy-kind-k8s1.14-dup', 'kube-system/kindnet'],
] as const) {
  realTest(`spec.templateGeneration decides whether pods are updated: nodes ${ds} in ${dump}`, async () => {
    const { doc } = await json(['nodes', ds, '-f', input(dump)]);
    const rows = doc['nodes'] as { reasons: { code: string }[] }[];
    assert.ok(rows.length > 0);
    assert.ok(!rows.some((r) => r.reasons.some((x) => x.code === 'OutdatedRevision')), `${dump}: no pod is outdated`);
  });
}

realTest(
  'spec.templateGeneration decides whether pods are updated: rollout kube-system/kube-proxy before 1.16',
  async () => {
    // Without the generation, rollout took every pod for an old one and called the rollout stuck.
    const { doc } = await json([
      'rollout',
      'kube-system/kube-proxy',
      '-f',
      input('clusterinfo-kubeadm-k8s1.8-internal'),
    ]);
    assert.equal(doc['updated'], 5);
  },
);

realTest(
  'duplicate objects (several snapshots in one folder): the newest kept, the verdict independent of -f order, one warning',
  async () => {
    const dir = input('sonobuoy-kind-k8s1.14-dup');
    const files = readdirSync(join(dir, 'ns')).flatMap((ns) =>
      readdirSync(join(dir, 'ns', ns)).map((f) => join(dir, 'ns', ns, f)),
    );
    files.push(...readdirSync(join(dir, 'cluster')).map((f) => join(dir, 'cluster', f)));
    // kube-public's copies are older than kube-system's: read last, they must still lose.
    const publicLast = [
      ...files.filter((f) => !f.includes('kube-public')),
      ...files.filter((f) => f.includes('kube-public')),
    ];
    const runs = await Promise.all(
      [files, [...files].reverse(), publicLast].map((order) =>
        runCli(['scan', ...order.flatMap((f) => ['-f', f]), '-o', 'json']),
      ),
    );
    assert.equal(runs[1]!.stdout, runs[0]!.stdout);
    assert.equal(runs[2]!.stdout, runs[0]!.stdout);
    const doc = JSON.parse(runs[0]!.stdout) as Record<string, unknown>;
    assert.equal(notes(doc).filter((n) => n.startsWith('duplicate objects')).length, 1);
    // The newest copy of the e2e DaemonSet (resourceVersion 121636) counts no pod available;
    // kube-public's older copy (121626) counted one.
    const e2e = (doc['daemonSets'] as { name: string; available: number }[]).find((d) =>
      d.name.startsWith('sonobuoy-e2eds'),
    )!;
    assert.equal(e2e.available, 0);
  },
);

realTest('a non-Kubernetes file in a directory is skipped with one warning line', async () => {
  const r = await runCli(['scan', '-f', join(ROOT, 'supportbundle-k3s-2022')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.split('\n').filter((l) => l.includes('skipped ')).length, 1, r.stdout);
  assert.match(r.stdout, /skipped .*auth-cani-list-default\.json:1: expected a Kubernetes object, found a list/);
});

// Sonobuoy results as published: bare arrays, named by the file (Pods.json) or by each object's kind.
for (const name of ['sonobuoy-aws-k8s1.8-2017-12-13', 'sonobuoy-kind-k8s1.21']) {
  realTest(`Sonobuoy results as published read as the converted input: ${name}`, async () => {
    const raw = await json(['scan', '-f', join(ROOT, name, 'raw')]);
    const converted = await json(['scan', '-f', input(name)]);
    assert.deepEqual(raw.doc['daemonSets'], converted.doc['daemonSets'], name);
    assert.deepEqual(
      notes(raw.doc)
        .filter((n) => n.startsWith('skipped '))
        .map((n) => n.replace(/^skipped .*\/raw\//, '')),
      ['serverversion.json:1: document has no "kind" (not read as Kubernetes objects)'],
    );
  });
}

realTest('pods owned by a DaemonSet missing from the input are reported', async () => {
  const { doc } = await json(['scan', '-f', input('supportbundle-k3s-2022')]);
  assert.ok(
    notes(doc).some((n) =>
      /1 pod\(s\) are owned by DaemonSets that are not in the input: kube-system\/svclb-traefik-\w+ \(1\)/.test(n),
    ),
    notes(doc).join('\n'),
  );
});

realTest('kubectl cluster-info dump to standard output is read as the --output-directory form is', async () => {
  const dir = input('clusterinfo-rke2-k8s1.33');
  const parts = [await readFile(join(dir, 'nodes.json'), 'utf8')];
  for (const ns of ['default', 'kube-system']) {
    for (const kind of [
      'events',
      'replication-controllers',
      'services',
      'daemonsets',
      'deployments',
      'replicasets',
      'pods',
    ])
      parts.push(await readFile(join(dir, ns, `${kind}.json`), 'utf8'));
    parts.push(
      `==== START logs for container agent of pod ${ns}/x ====\n{ "level": "info" } [unbalanced\n==== END logs for container agent of pod ${ns}/x ====\n`,
    );
  }
  const file = join(await mkdtemp(join(tmpdir(), 'ds-doctor-dump-')), 'cluster-info.txt');
  await writeFile(file, parts.join(''));
  const fromFile = await json(['scan', '-f', file]);
  const fromDir = await json(['scan', '-f', dir]);
  assert.deepEqual(fromFile.doc['daemonSets'], fromDir.doc['daemonSets']);
  assert.equal(fromFile.code, 0);
});

realTest("older kubectl's internal-type dump: a hint naming what the file is", async () => {
  const r = await runCli(['scan', '-f', join(ROOT, 'clusterinfo-kubeadm-k8s1.8-internal', 'raw')]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr.trim(),
    /^error: \S+\.json:1: a list in kubectl's internal-type format .*dump again with a current kubectl/,
  );
  assert.doesNotMatch(r.stderr, /document has no "kind"/);
});

realTest(
  'a cluster-info dump does not print "current revision unknown"; the missing ControllerRevisions are said once',
  async () => {
    const dir = input('clusterinfo-aks-k8s1.16');
    const why = await json(['why', 'kube-system/kube-proxy', '-f', dir]);
    assert.ok(!notes(why.doc).some((n) => /revision is unknown|ControllerRevision/.test(n)), notes(why.doc).join('\n'));
    // A DaemonSet without pods (OKE's GPU plugin on a cluster without GPUs) has nothing to judge.
    const idle = await json(['why', 'kube-system/nvidia-gpu-device-plugin', '-f', input('clusterinfo-oke-k8s1.18')]);
    assert.ok(!notes(idle.doc).some((n) => /revision is unknown/.test(n)), notes(idle.doc).join('\n'));
    const rollout = await json(['rollout', 'kube-system/kube-proxy', '-f', dir]);
    assert.deepEqual(
      notes(rollout.doc).filter((n) => n.includes('ControllerRevision')),
      ['no ControllerRevisions in the input: the revision history and the template diff cannot be shown'],
    );
  },
);

realTest("without --now a dump is judged at its newest timestamp, said in one line, not at today's date", async () => {
  const dir = input('sonobuoy-aws-k8s1.8-2017-12-13');
  const argv = ['why', 'kube-system/calico-node', 'ip-10-0-9-16.us-west-2.compute.internal', '-f', dir, '--no-color'];
  const r = await runCli(argv);
  assert.equal(
    r.stderr,
    'note: judging the input at 2017-12-13T17:07:23Z, its newest timestamp (pass --now to choose the time)\n',
  );
  assert.match(r.stdout, /age 5m5s\b/);
  const given = await runCli([...argv, '--now', '2026-11-29T12:00:00Z']);
  assert.equal(given.stderr, '');
  assert.match(given.stdout, /\b8y\b/);
});

// Every command over every real dump answers (or refuses with one line only where the input cannot tell).
// One test per dump; within it, the DaemonSets come from the dump's own scan, so they stay a loop.
const DUMPS = ABSENT
  ? []
  : readdirSync(ROOT)
      .filter((n) => existsSync(input(n)))
      .sort();
// Absent dumps: one skipped test says so in its one line.
if (ABSENT) realTest('every command over every real dump answers', async () => {});
for (const name of DUMPS) {
  realTest(`every command answers: ${name}`, async () => {
    const scan = await runCli(['scan', '-f', input(name), '-o', 'json']);
    if (name === 'issue-k8s-106417') {
      // A bare DaemonSet manifest from the issue: no nodes, no pods, no status.
      assert.equal(scan.code, 2);
      assert.match(scan.stderr, /^error: the input has no Node objects or Pod objects: scan needs them .*\n$/);
      return;
    }
    assert.ok(scan.code === 0 || scan.code === 1, `${name}: scan exit ${scan.code}: ${scan.stderr}`);
    for (const ds of (JSON.parse(scan.stdout) as { daemonSets: { namespace: string; name: string }[] }).daemonSets) {
      for (const command of ['why', 'rollout', 'impact']) {
        const r = await runCli([command, `${ds.namespace}/${ds.name}`, '-f', input(name), '-o', 'json']);
        assert.ok(
          r.code === 0 || r.code === 1,
          `${name}: ${command} ${ds.namespace}/${ds.name}: exit ${r.code}: ${r.stderr}`,
        );
        JSON.parse(r.stdout);
      }
    }
  });
}

// Builder-made dumps: what `kubectl get ds,nodes,pods -o yaml` holds when a DaemonSet has no pods.
async function dumpOf(objects: object[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'ds-doctor-nopods-')), 'dump.json');
  await writeFile(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  return file;
}

const NOW = ['--now', '2026-11-29T12:00:00Z'];
const zeroStatus = {
  currentNumberScheduled: 0,
  numberMisscheduled: 0,
  desiredNumberScheduled: 0,
  numberReady: 0,
  updatedNumberScheduled: 0,
  numberAvailable: 0,
  observedGeneration: 1,
};

/** A DaemonSet whose nodeSelector matches none of its two nodes, its status counting none scheduled, and no pods. */
async function noPodsDump(): Promise<string> {
  const ds = daemonSet('agent', 'kube-system')
    .nodeSelector({ pool: 'gpu' })
    .with((d) => {
      d.status = zeroStatus;
    })
    .build();
  return dumpOf([ds, node('worker-1').build(), node('worker-2').build()]);
}

describe('no pods: a DaemonSet whose status counts none scheduled is answered, with a one-line note', () => {
  for (const command of ['why', 'rollout', 'scan']) {
    test(`no pods: ${command} answers with a one-line note`, async () => {
      const file = await noPodsDump();
      const r = await runCli([
        command,
        ...(command === 'scan' ? [] : ['kube-system/agent']),
        '-f',
        file,
        '-o',
        'json',
        ...NOW,
      ]);
      assert.notEqual(r.code, 2, `${command}: ${r.stderr}`);
      assert.ok(
        notes(JSON.parse(r.stdout)).some((n) => n.startsWith('no Pod objects in the input: taken as none')),
        `${command}: ${r.stdout}`,
      );
    });
  }
  test('no pods: why says every node is excluded by the nodeSelector, not "has a healthy one"', async () => {
    const why = await runCli(['why', 'kube-system/agent', '-f', await noPodsDump(), '--no-color', ...NOW]);
    assert.doesNotMatch(why.stdout, /has a healthy one/);
    assert.match(why.stdout, /no node should run a pod: all 2 node\(s\) are excluded/);
  });
});

test('no pods: a status that counts scheduled pods refuses, naming what to add', async () => {
  const ds = daemonSet('agent', 'kube-system')
    .with((d) => {
      d.status = { ...zeroStatus, currentNumberScheduled: 2, desiredNumberScheduled: 2 };
    })
    .build();
  const r = await runCli(['why', 'kube-system/agent', '-f', await dumpOf([ds, node('worker-1').build()]), ...NOW]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    "error: the input has no Pod objects, but the status of daemonset kube-system/agent counts 2 scheduled pod(s): why needs them (add the output of kubectl get pods -n kube-system -l 'app=agent' -o yaml)\n",
  );
});

describe('no pods: a DaemonSet being deleted is answered, not refused (syncDaemonSet returns early for it, so its status counts are frozen)', () => {
  const deleting = () =>
    daemonSet('agent', 'kube-system')
      .with((d) => {
        d.metadata!.deletionTimestamp = '2026-11-29T11:00:00Z';
        d.metadata!.finalizers = ['foregroundDeletion'];
        d.status = {
          ...zeroStatus,
          currentNumberScheduled: 2,
          desiredNumberScheduled: 2,
          numberReady: 2,
          numberAvailable: 2,
          updatedNumberScheduled: 2,
        };
      })
      .build();
  for (const command of ['why', 'rollout', 'scan']) {
    test(`being deleted: ${command} answers with a note that the counts are from before the deletion`, async () => {
      const file = await dumpOf([deleting(), node('worker-1').build(), node('worker-2').build()]);
      const { code, doc, stderr } = await json([
        command,
        ...(command === 'scan' ? [] : ['kube-system/agent']),
        '-f',
        file,
        ...NOW,
      ]);
      assert.notEqual(code, 2, stderr);
      assert.ok(
        notes(doc).some((n) =>
          n.startsWith(
            'no Pod objects in the input: taken as none; daemonset kube-system/agent (deletionTimestamp 2026-11-29T11:00:00Z) is being deleted',
          ),
        ),
        notes(doc).join('\n'),
      );
    });
  }
  test('being deleted: rollout says the controller does nothing, uses no budget, and reports no stale status to recount', async () => {
    const { doc } = await json([
      'rollout',
      'kube-system/agent',
      '-f',
      await dumpOf([deleting(), node('worker-1').build()]),
      ...NOW,
    ]);
    assert.deepEqual(
      (doc['reasons'] as { code: string }[]).map((r) => r.code),
      ['DaemonSetDeleting'],
    );
    assert.deepEqual([doc['verdict'], doc['budgetUsed'], doc['blockers']], ['Stuck', 0, []]);
    assert.match((doc['nextSteps'] as string[])[0]!, /wait for the deletion to finish/);
  });
});

describe('an empty typed PodList (also "items": null) is collected with none: answered with a note, and a status that disagrees is named', () => {
  for (const items of [[], null]) {
    test(`a PodList with "items": ${JSON.stringify(items)} is collected with none: answered with a note`, async () => {
      const quiet = daemonSet('agent', 'kube-system')
        .with((d) => {
          d.status = zeroStatus;
        })
        .build();
      const file = await dumpOf([quiet, node('worker-1').build(), { apiVersion: 'v1', kind: 'PodList', items }]);
      const { code, doc } = await json(['why', 'kube-system/agent', '-f', file, ...NOW]);
      assert.notEqual(code, 2);
      assert.ok(
        notes(doc).includes("the input's Pod lists are empty: taken as collected, with no pods"),
        notes(doc).join('\n'),
      );
    });
  }
});

test('an empty PodList with a status that counts a scheduled pod: the disagreement is named', async () => {
  const busy = daemonSet('agent', 'kube-system')
    .with((d) => {
      d.status = { ...zeroStatus, currentNumberScheduled: 1, desiredNumberScheduled: 1 };
    })
    .build();
  const { doc } = await json([
    'scan',
    '-f',
    await dumpOf([busy, node('worker-1').build(), { apiVersion: 'v1', kind: 'PodList', items: null }]),
    ...NOW,
  ]);
  assert.ok(
    notes(doc).some((n) =>
      n.includes(
        'but the status of daemonset kube-system/agent counts 1 scheduled pod(s): the status is stale, or the list came from elsewhere',
      ),
    ),
    notes(doc).join('\n'),
  );
});

test('no nodes and no pods: a status that desires none is a Complete rollout, desired 0', async () => {
  const ds = daemonSet('agent', 'kube-system')
    .with((d) => {
      d.status = zeroStatus;
    })
    .build();
  const { code, doc } = await json(['rollout', 'kube-system/agent', '-f', await dumpOf([ds]), ...NOW]);
  assert.equal(code, 0);
  assert.equal(doc['verdict'], 'Complete');
  assert.ok(
    notes(doc).some((n) => n.startsWith('no Node objects in the input')),
    notes(doc).join('\n'),
  );
});

test('impact on a bare manifest judges the risk by role and says pods and nodes were not in the input', async () => {
  const cni = daemonSet('calico-node', 'kube-system')
    .with((d) => {
      delete d.status;
      d.spec!.template!.spec!.volumes = [{ name: 'cni-bin-dir', hostPath: { path: '/opt/cni/bin' } }];
    })
    .build();
  const { code, doc } = await json(['impact', 'kube-system/calico-node', '-f', await dumpOf([cni]), ...NOW]);
  assert.equal(doc['risk'], 'critical');
  assert.equal(code, 1);
  assert.ok((doc['notChecked'] as string[]).some((n) => n.startsWith('which pods and nodes it runs on')));
  assert.ok((doc['findings'] as { code: string }[]).some((f) => f.code === 'PodsNotInInput'));
  assert.ok(!(doc['findings'] as { code: string }[]).some((f) => f.code === 'NoPods'));
});
