// Loader: every input form of DESIGN.md and every bad input, each with a one-line error that names
// the file (and line) and maps to exit code 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, chmod } from 'node:fs/promises';
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
const DS_YAML = 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: d\n  namespace: ns\nspec:\n  selector:\n    matchLabels: {app: d}\n';

test('multi-document YAML keeps timestamps as strings and records lines', async () => {
  const root = await dir({ 'all.yaml': `${NODE_YAML}---\n${DS_YAML}` });
  const s = await loadFiles([join(root, 'all.yaml')], noStdin);
  assert.equal(s.nodes.length, 1);
  assert.equal(typeof s.nodes[0]!.metadata!.creationTimestamp, 'string');
  assert.equal(s.origins.get(s.daemonSets[0]!)?.line, 7);
  assert.ok(s.missing.some((m) => m.kind === 'Pod'), 'kinds absent from the input are recorded as missing');
  assert.ok(!s.missing.some((m) => m.kind === 'Node'));
});

test('JSON object, kind: List, typed *List without item kinds, and an empty typed list', async () => {
  const root = await dir({
    'ds.json': JSON.stringify({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd', namespace: 'ns' } }),
    'list.yaml': `apiVersion: v1\nkind: List\nitems:\n- ${NODE_YAML.replace(/\n/g, '\n  ').trimEnd()}\n`,
    'pods.json': JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items: [{ metadata: { name: 'p', namespace: 'ns' } }] }),
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
    'deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\n',
  });
  const s = await loadFiles([root], noStdin);
  assert.equal(s.nodes.length, 1);
  assert.match(s.warnings.join('\n'), /ignored 2 object\(s\) of kinds ds-doctor does not use: ConfigMap \(1\), Deployment \(1\)/);
});

test('stdin with -', async () => {
  const s = await loadFiles(['-'], async () => DS_YAML);
  assert.equal(s.daemonSets[0]!.metadata!.name, 'd');
});

test('events.k8s.io/v1 events are normalised to the core/v1 fields', async () => {
  const s = await loadFiles(['-'], async () => 'apiVersion: events.k8s.io/v1\nkind: Event\nmetadata: {name: e, namespace: ns}\nregarding: {kind: Pod, name: p, namespace: ns}\nnote: hello\nreason: BackOff\ndeprecatedCount: 4\n');
  assert.deepEqual([s.events[0]!.involvedObject?.name, s.events[0]!.message, s.events[0]!.count], ['p', 'hello', 4]);
});

test('kubectl cluster-info dump --output-directory layout', async () => {
  const s = await loadFiles(['fixtures/cluster-info-dump'], noStdin);
  assert.equal(s.nodes.length, 3);
  assert.deepEqual(s.daemonSets.map((d) => d.metadata!.name).sort(), ['kube-proxy', 'node-exporter']);
  assert.ok(s.missing.some((m) => m.kind === 'ControllerRevision'), 'cluster-info dump has no ControllerRevisions');
});

test('duplicates: the last one read wins, with a warning', async () => {
  const s = await loadFiles(['-'], async () => `${NODE_YAML}---\n${NODE_YAML}`);
  assert.equal(s.nodes.length, 1);
  assert.match(s.warnings.join(), /1 duplicate Node/);
});

test('bad input: one line naming the file (and line), as an InputError', async () => {
  const root = await dir({
    'broken.yaml': `${NODE_YAML}---\nkind: Pod\nmetadata:\n  name: [unclosed\n`,
    'broken.json': '{"kind": "Pod",\n "metadata": }',
    'nokind.yaml': 'apiVersion: v1\nmetadata: {name: x}\n',
    'scalar.yaml': 'just a string\n',
    'empty.yaml': '# nothing\n',
    'emptydir/readme.md': 'x',
  });
  const cases: [string, RegExp][] = [
    [join(root, 'missing.yaml'), /missing\.yaml: no such file or directory$/],
    [join(root, 'broken.yaml'), /broken\.yaml:\d+: invalid YAML: /],
    [join(root, 'broken.json'), /broken\.json:2: invalid JSON: /],
    [join(root, 'nokind.yaml'), /nokind\.yaml:1: document has no "kind"$/],
    [join(root, 'scalar.yaml'), /scalar\.yaml:1: expected a Kubernetes object, found string$/],
    [join(root, 'empty.yaml'), /empty\.yaml: no Kubernetes objects found$/],
    [join(root, 'emptydir'), /emptydir: directory has no \.yaml, \.yml or \.json files$/],
  ];
  for (const [path, re] of cases) {
    await assert.rejects(loadFiles([path], noStdin), (err: unknown) => {
      assert.ok(err instanceof InputError, `${path}: ${String(err)}`);
      assert.match(err.message, re);
      assert.ok(!err.message.includes('\n'), 'one line');
      assert.equal(err.exitCode, 2);
      return true;
    });
  }
  if (process.getuid?.() !== 0) {
    const locked = join(root, 'locked');
    await mkdir(locked);
    await chmod(locked, 0);
    await assert.rejects(loadFiles([locked], noStdin), /cannot read directory/);
  }
});
