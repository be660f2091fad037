// Identical parts of pods held once (src/load/share.ts): what is shared, what never is, when a
// snapshot starts sharing, and that the shape check still sees every pod's own fields.
// test/cli/neighbour-pods.test.ts freezes the shared parts and runs every command over the
// fixtures and real dumps.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daemonSet, pod } from '../builders.js';
import type { Pod } from '../../src/model/k8s-types.js';
import { emptySnapshot } from '../../src/model/snapshot.js';
import { ObjectStage } from '../../src/load/stage.js';
import { JsonDumpParser } from '../../src/load/json-stream.js';
import { loadFiles } from '../../src/load/files.js';
import { PartSharer, sameJson } from '../../src/load/share.js';

const ds = daemonSet('agent', 'kube-system')
  .with((d) => {
    const spec = d.spec!.template!.spec!;
    spec.tolerations = [{ operator: 'Exists' }];
    spec.containers![0]!.env = [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }];
  })
  .build();

/** The pod the controller made for `node`, parsed from text as a loader reads it (no part shared with another). */
function daemonPod(node: string, token = `kube-api-access-${node}`): Pod {
  const p = pod(`agent-${node}`)
    .ofDaemonSet(ds, node)
    .on(node)
    .with((x) => {
      x.spec!.volumes = [
        { name: 'logs', hostPath: { path: '/var/log' } },
        {
          name: token,
          projected: {
            defaultMode: 420,
            sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }],
          },
        },
      ];
    })
    .build();
  return JSON.parse(JSON.stringify(p)) as Pod;
}

/** A parser callback that reads each value as the loader does before the input ends (ObjectStage#read), and the values it saw. */
function readingEarly(stage: ObjectStage): { read: Pod[]; early: (value: unknown) => unknown } {
  const read: Pod[] = [];
  const early = (value: unknown) => {
    stage.read(value);
    read.push(value as Pod);
    return value;
  };
  return { read, early };
}

/** Adds the pods read, finishes the snapshot, and checks that the last shares the first's containers, with no warning. */
function addAllShared(stage: ObjectStage, pods: Pod[]): void {
  for (const p of pods) stage.add(p);
  const snapshot = stage.finish();
  assert.equal(snapshot.pods.length, pods.length);
  assert.equal(snapshot.pods.at(-1)!.spec!.containers, snapshot.pods[0]!.spec!.containers);
  assert.deepEqual(snapshot.warnings, []);
}

describe('sameJson', () => {
  const rows: [string, unknown, unknown, boolean][] = [
    ['equal maps', { a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'x' }] }, true],
    ['the same keys in another order', { a: 1, b: 2 }, { b: 2, a: 1 }, false],
    ['a key more', { a: 1 }, { a: 1, b: undefined }, false],
    ['a string and a number', { a: '1' }, { a: 1 }, false],
    ['null and a map', null, {}, false],
    ['a list and a map', [], {}, false],
    ['lists of different lengths', [1, 2], [1, 2, 3], false],
    ['equal scalars', 'x', 'x', true],
    ['-0 and 0 (both written 0)', -0, 0, true],
  ];
  for (const [name, a, b, same] of rows) test(name, () => assert.equal(sameJson(a, b), same));
});

describe('PartSharer', () => {
  test("two pods of one DaemonSet hold one copy of each equal part; each keeps its own node, pin and token volume's name", () => {
    const [a, b] = [daemonPod('n1'), daemonPod('n2')];
    const sharer = new PartSharer();
    sharer.sharePod(a);
    sharer.sharePod(b);
    assert.equal(b.spec!.containers, a.spec!.containers);
    assert.equal(b.spec!.tolerations, a.spec!.tolerations);
    assert.equal(b.metadata!.ownerReferences, a.metadata!.ownerReferences);
    assert.equal(b.metadata!.labels, a.metadata!.labels);
    assert.equal(b.spec!.nodeName, 'n2');
    // The pin is never shared: the stage's finish rewrites its node name in place.
    assert.notEqual(b.spec!.affinity, a.spec!.affinity);
    assert.deepEqual(
      b.spec!.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]
        ?.matchFields?.[0]?.values,
      ['n2'],
    );
    // The volumes differ by the token volume's name; its sources, and the other volume, are shared.
    assert.notEqual(b.spec!.volumes, a.spec!.volumes);
    assert.equal(b.spec!.volumes![0], a.spec!.volumes![0]);
    assert.equal(b.spec!.volumes![1]!.name, 'kube-api-access-n2');
    assert.equal(b.spec!.volumes![1]!.projected, a.spec!.volumes![1]!.projected);
    assert.ok(sharer.shared > 0);
  });

  test('a status is not shared: it is the pod’s own', () => {
    const [a, b] = [daemonPod('n1'), daemonPod('n2')];
    b.status = JSON.parse(JSON.stringify(a.status)) as Pod['status'];
    const sharer = new PartSharer();
    sharer.sharePod(a);
    sharer.sharePod(b);
    assert.notEqual(b.status!.conditions, a.status!.conditions);
  });

  test('pods of several controllers in turn still find their own parts (a few recent parts are kept per field)', () => {
    const other = (n: string, app: string) =>
      JSON.parse(JSON.stringify(pod(`${app}-${n}`).on(n).labels({ app }).build())) as Pod;
    const pods = ['n1', 'n2', 'n3'].flatMap((n) => [other(n, 'web'), other(n, 'db'), other(n, 'cache')]);
    const sharer = new PartSharer();
    for (const p of pods) sharer.sharePod(p);
    for (const app of ['web', 'db', 'cache']) {
      const mine = pods.filter((p) => p.metadata!.labels!['app'] === app);
      for (const p of mine) assert.equal(p.metadata!.labels, mine[0]!.metadata!.labels, `${app}: labels shared`);
    }
    assert.notEqual(pods[0]!.metadata!.labels, pods[1]!.metadata!.labels);
  });

  test('labels with the same keys in another order are not shared: output written from each pod keeps its own order', () => {
    const a = JSON.parse(JSON.stringify(pod('a').labels({ x: '1', y: '2' }).build())) as Pod;
    const b = JSON.parse(JSON.stringify(pod('b').labels({ y: '2', x: '1' }).build())) as Pod;
    const sharer = new PartSharer();
    sharer.sharePod(a);
    sharer.sharePod(b);
    assert.notEqual(b.metadata!.labels, a.metadata!.labels);
    assert.deepEqual(Object.keys(b.metadata!.labels!), ['y', 'x']);
  });

  test('with freezing on (the guard test), a shared part refuses writes', () => {
    const [a, b] = [daemonPod('n1'), daemonPod('n2')];
    const sharer = new PartSharer(true);
    sharer.sharePod(a);
    sharer.sharePod(b);
    assert.throws(() => b.spec!.tolerations!.push({ operator: 'Exists' }), TypeError);
    assert.throws(() => {
      b.spec!.containers![0]!.env![0]!.name = 'X';
    }, TypeError);
  });
});

describe('when a snapshot shares parts', () => {
  test('pods added one by one are shared from the second: each part equal to the one before is that one', () => {
    const stage = new ObjectStage(emptySnapshot());
    const template = daemonPod('n0');
    const add = (i: number) => {
      const p = structuredClone(template);
      p.metadata!.name = `agent-${i}`;
      stage.add(p);
      return p;
    };
    const [first, second, third] = [add(0), add(1), add(2)];
    stage.finish();
    assert.notEqual(first.spec!.containers, template.spec!.containers, 'the pods are copies');
    assert.equal(second.spec!.containers, first.spec!.containers);
    assert.equal(third.spec!.tolerations, first.spec!.tolerations);
  });

  test('with sharing off, nothing is shared', () => {
    const stage = new ObjectStage(emptySnapshot(), { share: false });
    const [a, b] = [daemonPod('n1'), daemonPod('n2')];
    stage.add(a);
    stage.add(b);
    assert.notEqual(b.spec!.containers, a.spec!.containers);
  });

  test('each pod is shape-checked before its parts are shared: a malformed field is reported for every pod that has it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-share-'));
    const pods = [daemonPod('n1'), daemonPod('n2')].map((p) => ({ ...p, spec: { ...p.spec, tolerations: 'all' } }));
    await writeFile(join(dir, 'pods.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: pods }));
    const snapshot = await loadFiles([join(dir, 'pods.json')], async () => '');
    const notes = snapshot.warnings.filter((w) => w.includes('spec.tolerations'));
    assert.equal(notes.length, 2, notes.join('\n'));
    assert.match(notes[0]!, /Pod kube-system\/agent-n1/);
    assert.match(notes[1]!, /Pod kube-system\/agent-n2/);
    assert.equal(snapshot.pods[1]!.spec!.containers, snapshot.pods[0]!.spec!.containers);
  });

  test('concatenated pods (NDJSON) are shared as each document ends, before the input ends (the loader holds them until then)', () => {
    const stage = new ObjectStage(emptySnapshot());
    const { read, early } = readingEarly(stage);
    const parser = new JsonDumpParser(early, early);
    const lines = [daemonPod('n1'), daemonPod('n2'), daemonPod('n3')].map((p) => JSON.stringify(p));
    parser.push(`${lines[0]}\n${lines[1]}\n${lines[2]!.slice(0, 40)}`);
    assert.equal(read.length, 2, `${read.length} documents read before the input ends`);
    assert.equal(read[1]!.spec!.containers, read[0]!.spec!.containers);
    parser.push(`${lines[2]!.slice(40)}\n`);
    addAllShared(stage, parser.endDocuments() as Pod[]);
  });

  test('the pods of a List are shared as they are read, before the List ends (kubectl writes its kind after the items)', () => {
    const stage = new ObjectStage(emptySnapshot());
    const { read, early } = readingEarly(stage);
    const parser = new JsonDumpParser(early);
    const items = [daemonPod('n1'), daemonPod('n2'), daemonPod('n3')].map((p) =>
      JSON.stringify(p, null, 4).replace(/^/gm, '        '),
    );
    parser.push(`{\n    "apiVersion": "v1",\n    "items": [\n${items[0]},\n${items[1]},\n`);
    assert.ok(read.length >= 2, `${read.length} items read before the List ends`);
    assert.equal(read[1]!.spec!.containers, read[0]!.spec!.containers);
    assert.equal(stage.snapshot.pods.length, 0);
    parser.push(
      `${items[2]}\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n`,
    );
    addAllShared(stage, (parser.end() as { items: Pod[] }).items);
  });
});
