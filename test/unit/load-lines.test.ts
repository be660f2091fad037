// Every object read from a JSON or YAML `kind: List`, and from concatenated JSON documents, carries
// its own start line (not the List's) into the snapshot's origins, load notes, lint locations and
// SARIF startLine: on `kubectl get ds -o yaml` and `-o json` shaped Lists, read whole and split
// into entries (on this thread and on a worker, in small chunks), and on NDJSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { loadFiles, type LoadOptions } from '../../src/load/files.js';
import { daemonSet } from '../kube/daemonset.js';
import { runCli } from '../harness.js';

const noStdin = async () => '';

/** Three DaemonSets as `kubectl get ds -A -o …` lists them; the second with a field of the wrong type (a load note). */
function list(): Record<string, unknown> {
  const items = ['a', 'b', 'c'].map(
    (n) => daemonSet(`agent-${n}`, 'kube-system').build() as unknown as Record<string, unknown>,
  );
  (items[1]!['spec'] as Record<string, unknown>)['minReadySeconds'] = 'soon';
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

/** 1-based numbers of the lines matching `re`. */
function linesMatching(text: string, re: RegExp): number[] {
  return text.split('\n').flatMap((l, i) => (re.test(l) ? [i + 1] : []));
}

async function file(name: string, text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'ds-doctor-lines-')), name);
  await writeFile(path, text);
  return path;
}

async function originLines(path: string, options: LoadOptions = {}): Promise<{ lines: number[]; notes: string[] }> {
  const s = await loadFiles([path], noStdin, options);
  return { lines: s.daemonSets.map((d) => s.origins.get(d)?.line ?? 0), notes: s.warnings };
}

const YAML_LIST = yaml.dump(list(), { noArrayIndent: true });
const JSON_LIST = JSON.stringify(list(), null, 4);
const YAML_ITEMS = linesMatching(YAML_LIST, /^- /);
const JSON_ITEMS = linesMatching(JSON_LIST, /^ {8}\{$/);

test('item lines: the expected lines are three distinct lines past the first', () => {
  assert.equal(YAML_ITEMS.length, 3);
  assert.equal(JSON_ITEMS.length, 3);
  assert.ok(YAML_ITEMS[0]! > 1 && JSON_ITEMS[0]! > 1);
});

test('item lines: a YAML kind: List read whole, and split into entries in small chunks, here and on a worker', async () => {
  const path = await file('ds.yaml', YAML_LIST);
  const cases: LoadOptions[] = [
    {},
    { splitAbove: 0, chunkSize: 64 },
    { splitAbove: 0, chunkSize: 7, exactUpTo: 0 },
    { splitAbove: 0, chunkSize: 300, translator: 'worker' },
  ];
  for (const options of cases) {
    const { lines, notes } = await originLines(path, options);
    assert.deepStrictEqual(lines, YAML_ITEMS, JSON.stringify(options));
    assert.ok(
      notes.some((n) => n.includes(`ds.yaml:${YAML_ITEMS[1]}: DaemonSet kube-system/agent-b`)),
      notes.join('\n'),
    );
  }
});

test('item lines: a JSON List (kubectl -o json), whole and in small chunks', async () => {
  const path = await file('ds.json', JSON_LIST);
  for (const options of [{}, { chunkSize: 50 }, { chunkSize: 3 }] as LoadOptions[]) {
    const { lines, notes } = await originLines(path, options);
    assert.deepStrictEqual(lines, JSON_ITEMS, JSON.stringify(options));
    assert.ok(
      notes.some((n) => n.includes(`ds.json:${JSON_ITEMS[1]}: DaemonSet kube-system/agent-b`)),
      notes.join('\n'),
    );
  }
  // The same List on one line: every item on line 1.
  assert.deepStrictEqual((await originLines(await file('one.json', JSON.stringify(list())))).lines, [1, 1, 1]);
});

test('item lines: concatenated JSON documents, one per line and pretty-printed', async () => {
  const items = list()['items'] as unknown[];
  const ndjson = items.map((i) => JSON.stringify(i)).join('\n');
  assert.deepStrictEqual((await originLines(await file('ds.ndjson', ndjson))).lines, [1, 2, 3]);
  const pretty = items.map((i) => JSON.stringify(i, null, 2)).join('\n');
  const starts = linesMatching(pretty, /^\{$/);
  for (const chunkSize of [undefined, 40]) {
    assert.deepStrictEqual(
      (await originLines(await file('ds-pretty.json', pretty), chunkSize ? { chunkSize } : {})).lines,
      starts,
    );
  }
  // Lists concatenated, as `kubectl get ds,nodes -o json` prints them: each item at its line.
  const two = `${JSON_LIST}\n${JSON_LIST.replace(/agent-/g, 'other-')}`;
  const second = linesMatching(two, /^ {8}\{$/);
  const { lines } = await originLines(await file('two.json', two));
  assert.deepStrictEqual(lines, second);
});

test('item lines: lint locations and SARIF startLine point at each DaemonSet of the List', async () => {
  for (const [name, text, want] of [
    ['ds.yaml', YAML_LIST, YAML_ITEMS],
    ['ds.json', JSON_LIST, JSON_ITEMS],
  ] as const) {
    const path = await file(name, text);
    const run = await runCli(['lint', '-f', path, '-o', 'sarif']);
    const sarif = JSON.parse(run.stdout) as {
      runs: {
        results: { message: { text: string }; locations: { physicalLocation: { region: { startLine: number } } }[] }[];
      }[];
    };
    const byObject = new Map<string, Set<number>>();
    for (const r of sarif.runs[0]!.results) {
      const ds = /agent-[abc]/.exec(r.message.text)?.[0] ?? '?';
      for (const l of r.locations)
        byObject.set(ds, (byObject.get(ds) ?? new Set()).add(l.physicalLocation.region.startLine));
    }
    assert.ok(byObject.size >= 2, `${name}: findings about several DaemonSets: ${[...byObject.keys()].join(', ')}`);
    for (const [ds, lines] of byObject) {
      const k = ['agent-a', 'agent-b', 'agent-c'].indexOf(ds);
      if (k < 0) continue;
      assert.deepStrictEqual([...lines], [want[k]], `${name}: ${ds}`);
    }
  }
});
