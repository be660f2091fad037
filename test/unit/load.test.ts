// Loader: every input form of docs/design.md §1.2 and every bad input, each with a one-line error that names
// the file (and line) and maps to exit code 2.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, chmod, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFiles } from '../../src/load/files.js';
import { InputError } from '../../src/model/errors.js';

const noStdin = async () => '';

async function dir(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ds-doctor-load-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(root, name, '..'), { recursive: true });
    await writeFile(join(root, name), text);
  }
  return root;
}

const NODE_YAML = 'apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  creationTimestamp: 2026-01-01T00:00:00Z\n';
const DS_YAML =
  'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: d\n  namespace: ns\nspec:\n  selector:\n    matchLabels: {app: d}\n';

test('multi-document YAML keeps timestamps as strings and records lines', async () => {
  const root = await dir({ 'all.yaml': `${NODE_YAML}---\n${DS_YAML}` });
  const s = await loadFiles([join(root, 'all.yaml')], noStdin);
  assert.equal(s.nodes.length, 1);
  assert.equal(typeof s.nodes[0]!.metadata!.creationTimestamp, 'string');
  assert.equal(s.origins.get(s.daemonSets[0]!)?.line, 7);
  assert.ok(
    s.missing.some((m) => m.kind === 'Pod'),
    'kinds absent from the input are recorded as missing',
  );
  assert.ok(!s.missing.some((m) => m.kind === 'Node'));
});

test('JSON object, kind: List, typed *List without item kinds, and an empty typed list', async () => {
  const root = await dir({
    'ds.json': JSON.stringify({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd', namespace: 'ns' } }),
    'list.yaml': `apiVersion: v1\nkind: List\nitems:\n- ${NODE_YAML.replace(/\n/g, '\n  ').trimEnd()}\n`,
    'pods.json': JSON.stringify({
      apiVersion: 'v1',
      kind: 'PodList',
      items: [{ metadata: { name: 'p', namespace: 'ns' } }],
    }),
    'events.json': JSON.stringify({ apiVersion: 'v1', kind: 'EventList', items: [] }),
  });
  const s = await loadFiles([root], noStdin);
  assert.deepEqual([s.daemonSets.length, s.nodes.length, s.pods.length], [1, 1, 1]);
  assert.equal(s.pods[0]!.kind, 'Pod');
  assert.ok(!s.missing.some((m) => m.kind === 'Event'), 'an empty EventList means events were dumped (none)');
});

test('directories are read recursively; other files are skipped; unknown kinds are counted', async () => {
  const root = await dir({
    'a/b/node.yml': NODE_YAML,
    'a/notes.txt': 'not yaml',
    'deploy.yaml':
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\n',
  });
  const s = await loadFiles([root], noStdin);
  assert.equal(s.nodes.length, 1);
  assert.match(
    s.warnings.join('\n'),
    /ignored 2 object\(s\) of kinds ds-doctor does not use: ConfigMap \(1\), Deployment \(1\)/,
  );
});

test('stdin with -', async () => {
  const s = await loadFiles(['-'], async () => DS_YAML);
  assert.equal(s.daemonSets[0]!.metadata!.name, 'd');
});

test('events.k8s.io/v1 events are normalised to the core/v1 fields', async () => {
  const s = await loadFiles(
    ['-'],
    async () =>
      'apiVersion: events.k8s.io/v1\nkind: Event\nmetadata: {name: e, namespace: ns}\nregarding: {kind: Pod, name: p, namespace: ns}\nnote: hello\nreason: BackOff\ndeprecatedCount: 4\n',
  );
  assert.deepEqual([s.events[0]!.involvedObject?.name, s.events[0]!.message, s.events[0]!.count], ['p', 'hello', 4]);
});

test('kubectl cluster-info dump --output-directory layout', async () => {
  const s = await loadFiles(['fixtures/cluster-info-dump'], noStdin);
  assert.equal(s.nodes.length, 3);
  assert.deepEqual(s.daemonSets.map((d) => d.metadata!.name).sort(), ['kube-proxy', 'node-exporter']);
  assert.ok(
    s.missing.some((m) => m.kind === 'ControllerRevision'),
    'cluster-info dump has no ControllerRevisions',
  );
});

const nodeCopy = (rv: string, heartbeat: string, label: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1', resourceVersion: rv, labels: { copy: label } },
  status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: heartbeat }] },
});

// Several snapshots of one cluster in one folder: the verdict must not depend on the -f order.
const DUPLICATE_CASES: { name: string; copies: object[]; kept: string }[] = [
  {
    name: 'higher resourceVersion wins',
    copies: [nodeCopy('120', '2020-01-01T00:00:00Z', 'old'), nodeCopy('99', '2020-01-01T00:00:00Z', 'older')],
    kept: 'old',
  },
  {
    name: 'resourceVersions compare as numbers, not text',
    copies: [nodeCopy('9', '2020-01-01T00:00:00Z', 'nine'), nodeCopy('10', '2020-01-01T00:00:00Z', 'ten')],
    kept: 'ten',
  },
  {
    name: 'same resourceVersion: the newer timestamps win',
    copies: [nodeCopy('5', '2020-01-01T00:00:09Z', 'later'), nodeCopy('5', '2020-01-01T00:00:01Z', 'earlier')],
    kept: 'later',
  },
  {
    name: 'no resourceVersion: the newer timestamps win',
    copies: [nodeCopy('', '2020-01-01T00:00:00.5Z', 'fraction'), nodeCopy('', '2020-01-01T00:00:00Z', 'whole')],
    kept: 'fraction',
  },
];

for (const c of DUPLICATE_CASES) {
  for (const [orderName, order] of [
    ['as listed', c.copies],
    ['reversed', [...c.copies].reverse()],
  ] as const) {
    test(`duplicates: ${c.name}, copies ${orderName}, with one warning`, async () => {
      const s = await loadFiles(['-'], async () => order.map((o) => JSON.stringify(o)).join('\n'));
      assert.equal(s.nodes.length, 1);
      assert.equal(s.nodes[0]!.metadata!.labels!['copy'], c.kept);
      assert.deepEqual(
        s.warnings.filter((w) => w.startsWith('duplicate')),
        [
          'duplicate objects in the input (same namespace and name): 1 Node; the newest copy of each (highest resourceVersion, then newest timestamps) was kept',
        ],
      );
    });
  }
}

test('"items": null in a typed list is a collected kind with no objects, not an ignored kind', async () => {
  const s = await loadFiles(
    ['-'],
    async () =>
      JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '1' }, items: null }) +
      '\n' +
      JSON.stringify({ apiVersion: 'v1', kind: 'EventList', items: null }) +
      '\n' +
      JSON.stringify({ kind: 'Node', metadata: { name: 'n' } }),
  );
  assert.equal(s.pods.length, 0);
  assert.ok(!s.missing.some((m) => m.kind === 'Pod' || m.kind === 'Event'), JSON.stringify(s.missing));
  assert.ok(!s.warnings.some((w) => w.includes('PodList')), s.warnings.join('; '));
});

test('a bare JSON array of objects that name their kind is read as a list', async () => {
  const s = await loadFiles(['-'], async () =>
    JSON.stringify([
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'a' } },
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'b' } },
    ]),
  );
  assert.deepEqual(
    s.nodes.map((n) => n.metadata!.name),
    ['a', 'b'],
  );
});

test('a bare JSON array of objects without kinds takes the kind its file is named after (older Sonobuoy)', async () => {
  const root = await dir({
    'resources/cluster/Nodes.json': JSON.stringify([{ metadata: { name: 'a' } }]),
    'resources/ns/kube-system/core_v1_pods.json': JSON.stringify([
      { metadata: { name: 'p', namespace: 'kube-system' } },
    ]),
    'resources/ns/kube-system/Things.json': JSON.stringify([{ metadata: { name: 't' } }]),
  });
  const s = await loadFiles([root], noStdin);
  assert.deepEqual([s.nodes.length, s.pods.length], [1, 1]);
  assert.equal(s.pods[0]!.kind, 'Pod');
  assert.match(s.warnings.join('\n'), /skipped .*Things\.json:1: expected a Kubernetes object, found a list/);
});

test('a file in a directory that holds no Kubernetes objects is skipped with one warning line', async () => {
  const root = await dir({
    'nodes.json': JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', items: [{ metadata: { name: 'n1' } }] }),
    'auth-cani.json': JSON.stringify([{ verbs: ['*'], resources: ['*'] }]),
    'notes.yaml': 'title: not an object\n',
    'broken.json': '{"kind": ',
  });
  const s = await loadFiles([root], noStdin);
  assert.equal(s.nodes.length, 1);
  const skipped = s.warnings.filter((w) => w.startsWith('skipped '));
  assert.equal(skipped.length, 3, skipped.join('\n'));
  assert.match(
    skipped.join('\n'),
    /auth-cani\.json:1: expected a Kubernetes object, found a list \(not read as Kubernetes objects\)/,
  );
  assert.match(skipped.join('\n'), /notes\.yaml:1: document has no "kind"/);
  assert.match(skipped.join('\n'), /broken\.json:1: invalid JSON/);
  assert.ok(skipped.every((w) => !w.includes('\n')));
  // Named on its own, the same file is an error: the user asked for it.
  await assert.rejects(
    loadFiles([join(root, 'auth-cani.json')], noStdin),
    /auth-cani\.json:1: expected a Kubernetes object, found a list$/,
  );
});

describe('a list in kubectl\'s old internal-type format is named as such, not "document has no kind"', () => {
  for (const [what, relative] of [
    ['in a directory', ''],
    ['named on its own', 'kube-system/pods.json'],
  ] as const) {
    test(`internal-type list ${what}`, async () => {
      const root = await dir({
        'kube-system/pods.json': JSON.stringify({
          selfLink: '/api/v1/namespaces/kube-system/pods',
          resourceVersion: '4225',
          Items: [],
        }),
      });
      await assert.rejects(loadFiles([join(root, relative)], noStdin), (err: unknown) => {
        assert.ok(err instanceof InputError);
        assert.match(
          err.message,
          /pods\.json:1: a list in kubectl's internal-type format .*dump again with a current kubectl/,
        );
        return true;
      });
    });
  }
});

const CLUSTER_INFO_STDOUT = [
  JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', items: [{ metadata: { name: 'n1' } }] }, null, 4),
  JSON.stringify({ kind: 'EventList', apiVersion: 'v1', items: null }, null, 4),
  JSON.stringify(
    { kind: 'PodList', apiVersion: 'v1', items: [{ metadata: { name: 'p', namespace: 'kube-system' } }] },
    null,
    4,
  ),
  '==== START logs for container agent of pod kube-system/p ====',
  'level=info msg="{ [ \\" not json"',
  'last line without a newline==== END logs for container agent of pod kube-system/p ====',
  '==== START logs for kube-system/p ====',
  '==== END logs for kube-system/p ====',
  JSON.stringify(
    { kind: 'DaemonSetList', apiVersion: 'apps/v1', items: [{ metadata: { name: 'd', namespace: 'kube-system' } }] },
    null,
    4,
  ),
  'Cluster info dumped to standard output',
  '',
].join('\n');

for (const chunkSize of [7, 64, 1 << 20]) {
  test(`kubectl cluster-info dump to standard output (documents one after another, log sections), chunks of ${chunkSize}`, async () => {
    const root = await dir({ 'dump.txt': CLUSTER_INFO_STDOUT });
    const s = await loadFiles([join(root, 'dump.txt')], noStdin, { chunkSize });
    assert.deepEqual([s.nodes.length, s.pods.length, s.daemonSets.length, s.events.length], [1, 1, 1, 0]);
    assert.ok(!s.missing.some((m) => m.kind === 'Event'));
  });
}

test('text after a JSON document that is not a log section is still an error', async () => {
  await assert.rejects(
    loadFiles(['-'], async () => '{"kind": "Node", "metadata": {"name": "n"}}\n==== STOP\n'),
    /<stdin>:2: invalid JSON: Unexpected non-whitespace character after JSON/,
  );
});

describe('bad input: one line naming the file (and line), as an InputError', () => {
  let root = '';
  before(async () => {
    root = await dir({
      'broken.yaml': `${NODE_YAML}---\nkind: Pod\nmetadata:\n  name: [unclosed\n`,
      'broken.json': '{"kind": "Pod",\n "metadata": }',
      'nokind.yaml': 'apiVersion: v1\nmetadata: {name: x}\n',
      'scalar.yaml': 'just a string\n',
      'empty.yaml': '# nothing\n',
      'emptydir/readme.md': 'x',
    });
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const cases: [string, RegExp][] = [
    ['missing.yaml', /missing\.yaml: no such file or directory$/],
    ['broken.yaml', /broken\.yaml:\d+: invalid YAML: /],
    ['broken.json', /broken\.json:2: invalid JSON: /],
    ['nokind.yaml', /nokind\.yaml:1: document has no "kind"$/],
    ['scalar.yaml', /scalar\.yaml:1: expected a Kubernetes object, found string$/],
    ['empty.yaml', /empty\.yaml: no Kubernetes objects found$/],
    ['emptydir', /emptydir: directory has no \.yaml, \.yml or \.json files$/],
  ];
  for (const [name, re] of cases) {
    test(`bad input: ${name}`, async () => {
      const path = join(root, name);
      await assert.rejects(loadFiles([path], noStdin), (err: unknown) => {
        assert.ok(err instanceof InputError, `${path}: ${String(err)}`);
        assert.match(err.message, re);
        assert.ok(!err.message.includes('\n'), 'one line');
        assert.equal(err.exitCode, 2);
        return true;
      });
    });
  }
  test(
    'bad input: a directory that cannot be read',
    { skip: process.getuid?.() === 0 ? 'root reads any directory' : false },
    async () => {
      const locked = join(root, 'locked');
      await mkdir(locked);
      await chmod(locked, 0);
      try {
        await assert.rejects(loadFiles([locked], noStdin), /cannot read directory/);
      } finally {
        await chmod(locked, 0o755);
      }
    },
  );
});
