// The bench's generated dumps (bench/generate.ts, built by test/kube): the same seed gives the same
// bytes, the item spans point at the items, and the objects hang together as a cluster's do (each
// daemon pod owned by a DaemonSet of the dump, labelled with one of its ControllerRevisions,
// pinned to its node; events as the API server stores them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate, type GenerateOptions, itemSpansFile } from '../../bench/generate.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Item = Record<string, any>;

/** Generates a small dump into a fresh folder; returns its files' texts and the JSON items. */
function dump(opts: Partial<GenerateOptions>): { texts: Record<string, string>; items: Item[]; spans: string } {
  const out = mkdtempSync(join(tmpdir(), 'ds-doctor-bench-generate-'));
  try {
    const { files } = generate({
      nodes: 40,
      pods: 400,
      seed: 1,
      out,
      formats: ['json', 'yaml'],
      managedFields: false,
      ...opts,
    });
    const texts = Object.fromEntries(Object.entries(files).map(([f, p]) => [f, readFileSync(p, 'utf8')]));
    return {
      texts,
      items: (JSON.parse(texts['json']!) as { items: Item[] }).items,
      spans: readFileSync(itemSpansFile(files['json']!), 'utf8'),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const plain = dump({});
const byKind = (kind: string) => plain.items.filter((i) => i['kind'] === kind);

test('bench dumps: the same seed gives the same bytes, another seed another dump', () => {
  const again = dump({});
  assert.equal(again.texts['json'], plain.texts['json']);
  assert.equal(again.texts['yaml'], plain.texts['yaml']);
  assert.notEqual(dump({ seed: 2 }).texts['json'], plain.texts['json']);
});

test('bench dumps: each line of the .items file is the byte span of one item, in order', () => {
  const bytes = Buffer.from(plain.texts['json']!, 'utf8');
  const spans = plain.spans.trim().split('\n');
  assert.equal(spans.length, plain.items.length);
  spans.forEach((line, i) => {
    const [start, end] = line.split(' ').map(Number);
    assert.deepEqual(JSON.parse(bytes.subarray(start, end).toString('utf8')), plain.items[i], `span ${i}`);
  });
});

test('bench dumps: --daemonsets N gives N DaemonSets, one ControllerRevision each and two for the one mid-rollout', () => {
  for (const n of [2, 6, 9]) {
    const { items } = dump({ daemonSets: n, pods: 0 });
    const count = (kind: string) => items.filter((i) => i['kind'] === kind).length;
    assert.equal(count('DaemonSet'), n, `${n} DaemonSets`);
    assert.equal(count('ControllerRevision'), n >= 4 ? n + 1 : n, `revisions of ${n} DaemonSets`);
  }
});

test('bench dumps: every daemon pod is owned by a DaemonSet of the dump, labelled with its revision, pinned to its node', () => {
  const dss = new Map(byKind('DaemonSet').map((d) => [d['metadata'].uid as string, d]));
  const revisions = new Set(
    byKind('ControllerRevision').map((r) => `${r['metadata'].namespace}/${r['metadata'].name}`),
  );
  const nodes = new Set(byKind('Node').map((n) => n['metadata'].name as string));
  const daemonPods = byKind('Pod').filter((p) => p['metadata'].ownerReferences[0].kind === 'DaemonSet');
  assert.ok(daemonPods.length > 0);
  for (const p of daemonPods) {
    const md = p['metadata'];
    const ds = dss.get(md.ownerReferences[0].uid);
    assert.ok(ds, `${md.name}: its owner is in the dump`);
    assert.ok(
      revisions.has(`${md.namespace}/${ds['metadata'].name}-${md.labels['controller-revision-hash']}`),
      `${md.name}: its revision is in the dump`,
    );
    const [pinned] =
      p['spec'].affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0]
        .values;
    assert.ok(nodes.has(pinned), `${md.name}: pinned to a node of the dump`);
    if (p['spec'].nodeName) assert.equal(p['spec'].nodeName, pinned, `${md.name}: bound to the node it is pinned to`);
  }
});

test('bench dumps: events are stored as the API server stores them', () => {
  const events = byKind('Event');
  assert.ok(events.some((e) => e['involvedObject'].kind === 'Node'));
  assert.ok(events.some((e) => e['count'] > 1));
  for (const e of events) {
    const where = `${e['metadata'].name} (${e['reason']})`;
    assert.equal(
      e['metadata'].namespace,
      e['involvedObject'].namespace ?? 'default',
      `${where}: in its object's namespace, default for a node`,
    );
    assert.equal(e['metadata'].creationTimestamp, e['firstTimestamp'], `${where}: created when first seen`);
    assert.equal(e['eventTime'], null, `${where}: a classic recorder's event`);
    assert.ok(e['firstTimestamp'] <= e['lastTimestamp'], `${where}: first before last`);
  }
});
