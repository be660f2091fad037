// Streaming loaders: the same documents as the whole-text parser on every fixture, whatever the
// chunk boundaries; item-by-item YAML Lists; errors that name the file and line.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFiles, readDocuments } from '../../src/load/files.js';
import { JsonDumpParser } from '../../src/load/json-stream.js';
import { JsonStreamError } from '../../src/load/json-stream-items.js';
import { jsonSyntaxError } from '../../src/load/json-scan.js';
import { YamlDocumentStream } from '../../src/load/yaml-stream.js';
import type { YamlStreamOptions } from '../../src/load/yaml-stream-queue.js';
import { isJsonSource, loadYamlDocument, parseJson, type ParsedDocument } from '../../src/load/parse.js';
import { listItemLines } from '../../src/load/item-lines.js';
import { InputError } from '../../src/model/errors.js';
import type { ClusterSnapshot } from '../../src/model/snapshot.js';

// The whole-text parse the streaming loader must agree with: YAML split at `---` lines of the
// whole text (independently of the streaming splitter), JSON parsed whole.
/** Splits multi-document YAML at `---` lines, keeping each document's starting line. */
function splitYamlDocuments(text: string): { body: string; line: number }[] {
  const lines = text.split(/\r?\n/);
  const docs: { body: string; line: number }[] = [];
  let start = 0;
  let current: string[] = [];
  lines.forEach((l, i) => {
    if (/^---(\s.*)?$/.test(l)) {
      if (current.length) docs.push({ body: current.join('\n'), line: start + 1 });
      current = [];
      start = i + 1;
      // "--- {a: 1}": content on the marker line belongs to the new document.
      const rest = l.slice(3).trim();
      if (rest && !rest.startsWith('#')) {
        current.push(rest);
        start = i;
      }
    } else if (/^\.\.\.\s*$/.test(l)) {
      if (current.length) docs.push({ body: current.join('\n'), line: start + 1 });
      current = [];
      start = i + 1;
    } else {
      current.push(l);
    }
  });
  if (current.length) docs.push({ body: current.join('\n'), line: start + 1 });
  return docs;
}

/** Parses YAML (one or more documents); errors name the file and the line; a List's items with their lines (item-lines.ts). */
function parseYaml(text: string, file: string): ParsedDocument[] {
  const out: ParsedDocument[] = [];
  for (const doc of splitYamlDocuments(text)) {
    const value = loadYamlDocument(doc.body, file, doc.line);
    const itemLines = listItemLines(value, doc.body, doc.line);
    if (value !== null && value !== undefined) out.push({ value, line: doc.line, ...(itemLines ? { itemLines } : {}) });
  }
  return out;
}

/** Documents without their items' lines (the whole-text JSON parser has none; test/unit/load-lines.test.ts checks them). */
function withoutItemLines(docs: ParsedDocument[]): ParsedDocument[] {
  return docs.map((d) => ({ value: d.value, line: d.line }));
}

/** Parses a file's text whole, JSON or YAML as the loader decides. */
const parseText = (text: string, file: string): ParsedDocument[] =>
  (isJsonSource(file, text) ? parseJson : parseYaml)(text, file);

const noStdin = async () => '';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (/\.(ya?ml|json)$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

async function tmp(name: string, text: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ds-doctor-stream-'));
  const path = join(root, name);
  await writeFile(path, text);
  return path;
}

function lists(s: ClusterSnapshot) {
  const { origins: _o, ...rest } = s;
  return rest;
}

test('every fixture file streams to the documents the whole-text parser returns, chunked as read, in small chunks, and split entry by entry', async () => {
  const files = [...(await filesUnder('fixtures/demo')), ...(await filesUnder('fixtures/cluster-info-dump'))];
  assert.ok(files.length > 20);
  for (const file of files) {
    const whole = parseText(await readFile(file, 'utf8'), file);
    for (const options of [{}, { chunkSize: 509 }, { chunkSize: 4099, splitAbove: 0, exactUpTo: 0 }]) {
      const docs = await readDocuments(file, noStdin, options);
      const json = isJsonSource(file, '');
      assert.deepStrictEqual(json ? withoutItemLines(docs) : docs, whole, `${file} ${JSON.stringify(options)}`);
    }
  }
});

test('whole snapshots (objects, origins, missing kinds, warnings) do not depend on chunking or List splitting', async () => {
  for (const dir of ['fixtures/demo', 'fixtures/cluster-info-dump']) {
    const a = await loadFiles([dir], noStdin);
    const b = await loadFiles([dir], noStdin, { chunkSize: 97, splitAbove: 0, exactUpTo: 0 });
    assert.deepStrictEqual(lists(b), lists(a), dir);
    a.pods.forEach((p, i) => assert.deepStrictEqual(b.origins.get(b.pods[i]!), a.origins.get(p)));
    assert.ok(a.origins.get(a.nodes[0]!)!.line >= 1);
  }
});

const TRICKY = {
  apiVersion: 'v1',
  items: [
    {
      kind: 'ConfigMap',
      metadata: {
        name: 'q"uote\\',
        annotations: { a: '} ] { [ "', b: '\\\\"\\', c: 'üñí © 😀 \u2028', d: '\n\t\u0001' },
      },
      data: { n: [1, -2.5e3, true, false, null, [], {}] },
    },
    {
      kind: 'Pod',
      metadata: { name: 'p', managedFields: [{ manager: 'kubelet' }], labels: { x: 'y' } },
      spec: { nodeName: 'n' },
    },
    'not an object',
    12345,
    [[[]]],
  ],
  kind: 'List',
  metadata: { resourceVersion: '', continue: '}"' },
};

function parseChunks(chunks: string[]): unknown {
  const parser = new JsonDumpParser();
  for (const c of chunks) parser.push(c);
  return parser.end();
}

test("JSON: a split at every position, inside strings, escapes, numbers and literals, gives JSON.parse's value", () => {
  for (const text of [
    JSON.stringify(TRICKY),
    JSON.stringify(TRICKY, null, 4),
    `\uFEFF ${JSON.stringify(TRICKY, null, 1)}\n`,
  ]) {
    const want = JSON.parse(text.replace(/^\uFEFF/, ''));
    for (let at = 0; at <= text.length; at++) {
      assert.deepStrictEqual(parseChunks([text.slice(0, at), text.slice(at)]), want, `split at ${at}`);
    }
    assert.deepStrictEqual(parseChunks([...text]), want, 'one character per chunk');
  }
});

/** TRICKY as a compact List with one item per line, as `jq -c`-minded tools write it. */
function compactPerLine(list: typeof TRICKY, space = ''): string {
  const items = list.items.map((i) => `${space}${JSON.stringify(i)}`).join(',\n');
  return `{"apiVersion":"v1","items":[\n${items}\n],"kind":"List","metadata":${JSON.stringify(list.metadata)}}\n`;
}

/** Items that start with the same key, as an API server's do; some hold a nested list that looks like the next item. */
const SAME_HEAD = [
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'a',
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'DaemonSet' },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
      ],
    },
  },
  { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b', annotations: { note: '},{"apiVersion":"v1"}' } } },
  {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'n',
      managedFields: [
        { apiVersion: 'v1' },
        { apiVersion: 'v1' },
        { apiVersion: 'v1' },
        { apiVersion: 'v1' },
        { apiVersion: 'v1' },
        { apiVersion: 'v1' },
      ],
    },
  },
  { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'c' } },
  { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'd' } },
];

const LAYOUTS: [string, string][] = [
  [
    'a List on one line, items with the same first key, nested lists that look like the next item',
    JSON.stringify({ apiVersion: 'v1', items: SAME_HEAD, kind: 'List' }),
  ],
  ['compact, one item per line', compactPerLine(TRICKY)],
  ['compact, one indented item per line', compactPerLine(TRICKY, '  ')],
  [
    'compact, an item whose line also closes the list',
    `{"items":[\n${JSON.stringify(TRICKY.items[0])},\n{"a":"},\\n"}]}\n`,
  ],
  [
    'pretty items, then a compact item on one line',
    `{"items": [\n    {\n        "a": 1\n    },\n    {"b": "\\n    }"}\n]}`,
  ],
];
for (const [name, text] of LAYOUTS) {
  test(`JSON layout ${name}: a split at every position gives JSON.parse's value, each item handed over once`, () => {
    const want = JSON.parse(text);
    for (let at = 0; at <= text.length; at++) {
      const seen: unknown[] = [];
      const parser = new JsonDumpParser((v) => {
        seen.push(v);
        return v;
      });
      parser.push(text.slice(0, at));
      parser.push(text.slice(at));
      assert.deepStrictEqual(parser.end(), want, `split at ${at}`);
      assert.deepStrictEqual(seen, want.items, `items handed over, split at ${at}`);
    }
  });
}

test("JSON: concatenated one-line documents (NDJSON) give each line's JSON.parse value; List items go through onItem", () => {
  const lines = [
    JSON.stringify(TRICKY.items[0]),
    '{"__proto__":{"kind":"NodeList"},"kind":"Pod"}',
    JSON.stringify({ kind: 'List', items: [{ a: 1 }, { b: 2 }] }),
  ];
  const text = `${lines.join('\n')}\n`;
  for (let at = 0; at <= text.length; at++) {
    const parser = new JsonDumpParser((v) => ({ kept: v }));
    parser.push(text.slice(0, at));
    parser.push(text.slice(at));
    const docs = parser.endDocuments();
    assert.deepStrictEqual(
      docs,
      [JSON.parse(lines[0]!), JSON.parse(lines[1]!), { kind: 'List', items: [{ kept: { a: 1 } }, { kept: { b: 2 } }] }],
      `split at ${at}`,
    );
    assert.equal(Object.getPrototypeOf(docs[1]), Object.prototype, `__proto__ is data, split at ${at}`);
  }
});

test('files: UTF-8 characters cut by a chunk boundary decode whole, at any chunk size', async () => {
  const text = JSON.stringify({ ...TRICKY, items: [TRICKY.items[0]] }, null, 2);
  const path = await tmp('utf8.json', text);
  for (const chunkSize of [1, 2, 3, 5, 64]) {
    assert.deepStrictEqual(
      withoutItemLines(await readDocuments(path, noStdin, { chunkSize })),
      [{ value: JSON.parse(text), line: 1 }],
      `chunks of ${chunkSize} bytes`,
    );
  }
});

test('files: a JSON file over one piece (64 KiB) decodes whole where its pieces and its reads cut a UTF-8 character, and a YAML one too', async () => {
  // Items of 1, 2, 3 and 4-byte characters: somewhere each piece boundary of 65,536 bytes (and
  // each read of 100,003) falls inside one.
  const items = Array.from({ length: 120 }, (_, i) => ({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: `cm-${i}` },
    data: { text: ['a', 'ü', '€', '😀'][i % 4]!.repeat(1000 + i) },
  }));
  const list = { apiVersion: 'v1', kind: 'List', items };
  for (const [name, text] of [
    ['compact.json', JSON.stringify(list)],
    [
      'lines.json',
      `{"apiVersion":"v1","kind":"List","items":[\n${items.map((o) => JSON.stringify(o)).join(',\n')}\n]}\n`,
    ],
    ['pretty.json', JSON.stringify(list, null, 4)],
  ] as const) {
    assert.ok(Buffer.byteLength(text) > 4 * 65536, name);
    const path = await tmp(name, text);
    for (const options of [{}, { chunkSize: 100_003 }]) {
      assert.deepStrictEqual(
        withoutItemLines(await readDocuments(path, noStdin, options)),
        [{ value: JSON.parse(text), line: 1 }],
        `${name} ${JSON.stringify(options)}`,
      );
    }
  }
  const yamlText = items.map((o) => `---\n${JSON.stringify(o)}\n`).join('');
  const docs = await readDocuments(await tmp('docs.yaml', yamlText), noStdin, { chunkSize: 100_003 });
  assert.deepStrictEqual(
    docs.map((d) => d.value),
    items,
  );
});

test('JSON: other top-level shapes parse whole; items are handed over one by one as they end', () => {
  assert.deepStrictEqual(parseChunks(['[1,', '2]']), [1, 2]);
  assert.deepStrictEqual(parseChunks(['{}']), {});
  assert.deepStrictEqual(parseChunks(['{"kind":"DaemonSet","spec":{"a":[1]}}']), {
    kind: 'DaemonSet',
    spec: { a: [1] },
  });
  const seen: unknown[] = [];
  const parser = new JsonDumpParser((v) => {
    seen.push(v);
    return v;
  });
  // Items on one line are scanned: each is out as soon as it ends, before the List has ended.
  parser.push('{"items":[{"k":1},{"k"');
  assert.deepStrictEqual(seen, [{ k: 1 }]);
  parser.push(':2},{"k":3},{"k"');
  assert.deepStrictEqual(seen, [{ k: 1 }, { k: 2 }, { k: 3 }], 'the first items are out before the List has ended');
  parser.push(':4}],"kind":"List"}');
  assert.deepStrictEqual(parser.end(), { items: [{ k: 1 }, { k: 2 }, { k: 3 }, { k: 4 }], kind: 'List' });
  // Items of other first keys, spaced, the same.
  const other = new JsonDumpParser();
  for (const chunk of ['{"items": [{"a": 1}, {"b"', ': 2}, {"c": 3}, {"d"', ': 4}], "kind": "List"}'])
    other.push(chunk);
  assert.deepStrictEqual(other.end(), { items: [{ a: 1 }, { b: 2 }, { c: 3 }, { d: 4 }], kind: 'List' });
});

describe('JSON: syntax errors carry the offset of the bad character', () => {
  const cases: [string, number, RegExp][] = [
    ['{"items": [{"a": 1},, {}]}', 20, /Unexpected token/],
    ['{"items": [{"a": 1}]} x', 22, /after JSON/],
    ['{"items": [{"a": 1}', 19, /end of JSON input/],
    ['{"items": [{"a": }]}', 17, /Unexpected token/],
    ['{"a" 1}', 5, /Unexpected token/],
  ];
  for (const [text, offset, message] of cases) {
    test(text, () => {
      assert.throws(
        () => parseChunks([text.slice(0, 7), text.slice(7)]),
        (err: unknown) => {
          assert.ok(err instanceof JsonStreamError, text);
          assert.equal(err.offset, offset, text);
          assert.match(err.message, message);
          return true;
        },
      );
    });
  }
});

test('files: managedFields are dropped while reading, from JSON items and YAML documents alike', async () => {
  const json = await tmp('dump.json', JSON.stringify({ kind: 'List', items: [TRICKY.items[1]] }, null, 2));
  const yamlFile = await tmp(
    'pod.yaml',
    'kind: Pod\nmetadata:\n  name: p\n  managedFields:\n  - manager: kubelet\n  namespace: ns\n',
  );
  const s = await loadFiles([json, yamlFile], noStdin);
  assert.deepStrictEqual(
    s.pods.map((p) => p.metadata),
    [
      { name: 'p', labels: { x: 'y' } },
      { name: 'p', namespace: 'ns' },
    ],
  );
  assert.deepStrictEqual(Object.keys(s.pods[1]!.metadata!), ['name', 'namespace'], 'key order kept');
});

test('files: a big JSON error is one line with the file and the line of the bad character', async () => {
  const items = Array.from({ length: 50 }, (_, i) => ({ kind: 'Pod', metadata: { name: `p${i}`, namespace: 'ns' } }));
  const good = JSON.stringify({ apiVersion: 'v1', items, kind: 'List' }, null, 4);
  const lines = good.split('\n');
  const bad = lines.findIndex((l) => l.includes('"p31"'));
  lines[bad] = lines[bad]!.replace('"p31",', '"p31" "oops",');
  const path = await tmp('big.json', lines.join('\n'));
  for (const options of [{ chunkSize: 100, wholeTextErrors: 0 }, { chunkSize: 100 }]) {
    await assert.rejects(loadFiles([path], noStdin, options), (err: unknown) => {
      assert.ok(err instanceof InputError);
      assert.match(err.message, new RegExp(`big\\.json:${bad + 1}: invalid JSON: `));
      assert.ok(!err.message.includes('\n'));
      return true;
    });
  }
  const truncated = await tmp('cut.json', good.slice(0, good.length / 2));
  await assert.rejects(
    loadFiles([truncated], noStdin, { chunkSize: 64, wholeTextErrors: 0 }),
    /cut\.json:\d+: invalid JSON: Unexpected end of JSON input$/,
  );
});

const LIST_YAML = [
  'apiVersion: v1', // 1
  'items:', // 2
  '# a comment before the first item', // 3
  '- apiVersion: v1', // 4
  '  kind: Pod', // 5
  '  metadata:', // 6
  '    name: a', // 7
  '    annotations:', // 8
  '      script: |', // 9
  '        - not an item', // 10
  '        items:', // 11
  '', // 12
  '      quoted: "x', // 13
  '        y"', // 14
  '- kind: Pod', // 15
  '  metadata: {name: b}', // 16
  'kind: List', // 17
  'metadata:', // 18
  '  resourceVersion: ""', // 19
].join('\n');

/** The documents of a text read by the YAML stream in chunks of `size`. */
function streamed(text: string, size: number, options: YamlStreamOptions): ParsedDocument[] {
  const docs: ParsedDocument[] = [];
  const stream = new YamlDocumentStream(
    'x.yaml',
    (d) => docs.push(d),
    (v) => v,
    options,
  );
  for (let i = 0; i < text.length; i += size) stream.push(text.slice(i, i + size));
  stream.end();
  return docs;
}

test('YAML: a List document parsed item by item equals the whole document, items at any indentation', async () => {
  for (const text of [
    LIST_YAML,
    LIST_YAML.replace(/\n(- | {2})/g, (m) => `\n  ${m.slice(1)}`),
    `${LIST_YAML}\n---\n${LIST_YAML}\n...\n`,
  ]) {
    const whole = parseText(text, 'x.yaml');
    for (const splitAbove of [0, 40, 1e9]) {
      for (const size of [1, 5, 1000]) {
        // exactUpTo 0: no whole-text fallback, the entries alone must give the answer.
        assert.deepStrictEqual(
          streamed(text, size, { splitAbove, exactUpTo: 0 }),
          whole,
          `splitAbove ${splitAbove}, chunks of ${size}`,
        );
      }
    }
  }
});

/** Lists whose entries hold lines that look like a new entry but go on with a scalar or a collection. */
const CONTINUED: [string, string][] = [
  ['a double-quoted scalar over lines', 'items:\n- a: "foo\n- bar \\" baz\n- qux"\n- b: 1\nkind: List\n'],
  ['a single-quoted scalar over lines', "items:\n- a: 'it''s\n- not an entry'\n- b: 1\nkind: List\n"],
  ['a quoted key, then a quoted value over lines', 'items:\n- "k: x": "y\n- z"\n- b: 1\nkind: List\n'],
  ['a flow sequence over lines', 'items:\n- a: [1,\n2, "]",\n 3]\n- b: 1\nkind: List\n'],
  ['a flow mapping over lines, with an anchor', 'items:\n- a: &x {k: "v\n- w",\nm: 1}\n- b: 1\nkind: List\n'],
  [
    'a block scalar with a quote and a dash',
    'items:\n- a: |\n    - not an entry\n    "\n- b: >-\n   \'\n\n   x\n- c: 1\nkind: List\n',
  ],
  ['quotes inside plain scalars and comments', "items:\n- a: it's # don't\n- b: x\"y\n- c: 1\nkind: List\n"],
];
for (const [name, text] of CONTINUED) {
  test(`YAML List split item by item: ${name} stays in its entry`, () => {
    const whole = parseText(text, 'x.yaml');
    for (const size of [1, 7, 1000]) {
      assert.deepStrictEqual(streamed(text, size, { splitAbove: 0, exactUpTo: 0 }), whole, `chunks of ${size}`);
    }
  });
}

test('YAML List split item by item past exactUpTo: an alias to an anchor of another entry is an error naming its line', () => {
  const text = 'items:\n- a: &x {k: 1}\n- b: *x\nkind: List\n';
  assert.deepStrictEqual(
    parseText(text, 'x.yaml')[0]!.value,
    { items: [{ a: { k: 1 } }, { b: { k: 1 } }], kind: 'List' },
    'whole, the alias resolves',
  );
  assert.throws(
    () => streamed(text, text.length, { splitAbove: 0, exactUpTo: 0 }),
    (err: unknown) =>
      err instanceof InputError &&
      /^x\.yaml:3: invalid YAML: unidentified alias "x" \(a List over 0 MiB is read entry by entry, and an alias must refer to an anchor in its own entry\)$/.test(
        err.message,
      ),
  );
});

/**
 * Lists whose entries, read alone, do not give what the whole text gives: up to exactUpTo the
 * kept text is parsed whole, so the stream answers as the whole-text parse (value or error).
 */
const NOT_ALONE: [string, string][] = [
  ['an alias to an anchor of an earlier entry', 'items:\n- a: &x {k: 1}\n- b: *x\nkind: List\n'],
  ['an alias to an anchor before items:', 'base: &b {k: 1}\nitems:\n- a: *b\n- c: 2\nkind: List\n'],
  ['an alias after the items to an anchor of an entry', 'items:\n- a: &x 1\n- b: 2\nkind: List\nmetadata: {ref: *x}\n'],
  ['a merge key from another entry', 'items:\n- &m {k: 1, j: 2}\n- <<: *m\n  j: 3\nkind: List\n'],
  ['a key before and after the items', 'kind: List\nitems:\n- a: 1\n- b: 2\nkind: List\n'],
  ['items: twice', 'items:\n- a: 1\nkind: List\nitems: []\n'],
  ['an entry that is broken', 'items:\n- a: 1\n- b: [2\n- c: 3\nkind: List\n'],
  ['an alias to an anchor nowhere', 'items:\n- a: 1\n- b: *nowhere\nkind: List\n'],
  ['comments between items: and the first entry, no keys after', 'items:\n# none yet\n\n- a: 1\n- b: 2\n'],
];
for (const [name, text] of NOT_ALONE) {
  test(`YAML List split item by item within exactUpTo: ${name} reads as the whole text`, () => {
    const outcome = (f: () => unknown): unknown => {
      try {
        return { value: f() };
      } catch (err) {
        assert.ok(err instanceof InputError, String(err));
        return { error: err.message };
      }
    };
    const whole = outcome(() => parseText(text, 'x.yaml'));
    for (const size of [1, 7, 1000]) {
      assert.deepStrictEqual(
        outcome(() => streamed(text, size, { splitAbove: 0 })),
        whole,
        `chunks of ${size}`,
      );
    }
  });
}

test('YAML List split item by item: an entry error found within exactUpTo is thrown once the List passes it', () => {
  const entries = Array.from({ length: 50 }, (_, i) => `- kind: Pod\n  metadata: {name: p${i}}\n`).join('');
  const text = `items:\n- a: 1\n- b: *x\n${entries}kind: List\n`;
  assert.throws(
    () => streamed(text, text.length, { splitAbove: 0, exactUpTo: 200 }),
    (err: unknown) =>
      err instanceof InputError &&
      /^x\.yaml:3: invalid YAML: unidentified alias "x" \(a List over 0 MiB is read entry by entry/.test(err.message),
  );
});

test('YAML: an error inside an item of a split List names the line in the file', async () => {
  const text = LIST_YAML.replace('  metadata: {name: b}', '  metadata: {name: [b}');
  const path = await tmp('list.yaml', text);
  for (const splitAbove of [0, undefined]) {
    await assert.rejects(
      loadFiles([path], noStdin, { chunkSize: 16, ...(splitAbove === undefined ? {} : { splitAbove, exactUpTo: 0 }) }),
      (err: unknown) => {
        assert.ok(err instanceof InputError);
        assert.match(err.message, /list\.yaml:16: invalid YAML: /);
        assert.ok(!err.message.includes('\n'));
        return true;
      },
    );
  }
});

test('YAML: values are copied off the document text, and numbers JSON cannot carry survive the copy', async () => {
  const path = await tmp(
    'odd.yaml',
    'kind: ConfigMap\nmetadata: {name: odd}\ndata:\n  big: .inf\n  none: .nan\n  text: a string longer than thirteen characters\n',
  );
  const [doc] = await readDocuments(path, noStdin);
  assert.deepStrictEqual(doc, parseText(await readFile(path, 'utf8'), path)[0]);
  const data = (doc!.value as { data: Record<string, unknown> }).data;
  assert.equal(data['big'], Infinity);
  assert.ok(Number.isNaN(data['none']));
});

async function* pieces(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

test('stdin streams in chunks: same snapshot as the file, JSON errors still name the line', async () => {
  const text = JSON.stringify(
    {
      apiVersion: 'v1',
      items: Array.from({ length: 40 }, (_, i) => ({ kind: 'Pod', metadata: { name: `p${i}`, namespace: 'ns' } })),
      kind: 'List',
    },
    null,
    4,
  );
  const fromFile = await loadFiles([await tmp('pods.json', text)], noStdin);
  // Pieces of 100 characters as they come (chunks of 100), and joined into larger chunks.
  for (const chunkSize of [100, 1000, undefined]) {
    const fromStdin = await loadFiles(['-'], noStdin, {
      stdinChunks: () => pieces(text, 100),
      ...(chunkSize === undefined ? {} : { chunkSize }),
    });
    assert.deepStrictEqual(fromStdin.pods, fromFile.pods, `chunks of ${chunkSize}`);
  }
  const lines = text.split('\n');
  const bad = lines.findIndex((l) => l.includes('"p27"'));
  lines[bad] = lines[bad]!.replace('"p27"', '"p27" 1');
  const broken = lines.join('\n');
  // The whole text's first error, as parse.ts reports it (our scan, not the engine's message).
  const exact = jsonSyntaxError(broken)!.message;
  for (const wholeTextErrors of [0, undefined]) {
    await assert.rejects(
      loadFiles(['-'], noStdin, {
        stdinChunks: () => pieces(broken, 64),
        chunkSize: 64,
        ...(wholeTextErrors === undefined ? {} : { wholeTextErrors }),
      }),
      (err: unknown) => {
        assert.ok(err instanceof InputError);
        assert.match(err.message, new RegExp(`^<stdin>:${bad + 1}: invalid JSON: `));
        if (wholeTextErrors === undefined) assert.ok(err.message.endsWith(`: ${exact}`), err.message);
        return true;
      },
    );
  }
  const yamlText = 'kind: Node\nmetadata: {name: a}\n---\nkind: Node\nmetadata: {name: b}\n';
  const yamlStdin = await loadFiles(['-'], noStdin, { stdinChunks: () => pieces(yamlText, 7), chunkSize: 7 });
  assert.deepStrictEqual(
    yamlStdin.nodes.map((n) => n.metadata?.name),
    ['a', 'b'],
  );
});

test('streaming JSON: a top-level "__proto__" key is an own property, as JSON.parse makes it, not the prototype', () => {
  const parser = new JsonDumpParser((x) => x);
  parser.push('{"__proto__": {"kind": "NodeList"}, "apiVersion": "v1", "items": []}');
  const root = parser.end() as Record<string, unknown>;
  assert.deepEqual(root, JSON.parse('{"__proto__": {"kind": "NodeList"}, "apiVersion": "v1", "items": []}'));
  assert.equal(Object.getPrototypeOf(root), Object.prototype);
  assert.equal(root['kind'], undefined);
});
