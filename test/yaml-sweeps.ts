/**
 * The YAML stream (src/load/yaml-stream.ts) against js-yaml reading the whole text, over chunk
 * sizes and split thresholds: every YAML file of the fixtures, of ../shared/vendor and
 * ../shared/realdumps, generated bench dumps, and tables of texts where the stream's ways of
 * reading meet. `npm test` runs a few sizes of each (test/unit/yaml-json.test.ts); `npm run
 * test:slow` every size (test/slow/yaml-sweeps.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { readYamlAsJson } from '../src/load/yaml-json.js';
import { YamlDocumentStream } from '../src/load/yaml-stream.js';
import type { TranslatorMode } from '../src/load/yaml-translate.js';
import { loadYamlDocument, type ParsedDocument } from '../src/load/parse.js';
import { listItemLines } from '../src/load/item-lines.js';
import { generate } from '../bench/generate.js';

type Outcome = { value: unknown } | { error: string };

export function jsYaml(text: string): Outcome {
  try {
    return { value: yaml.load(text, { schema: yaml.CORE_SCHEMA }) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** Asserts the translation agrees with js-yaml; returns whether the text was translated. */
export function agrees(text: string, what: string): boolean {
  const mine = readYamlAsJson(text);
  if (mine === undefined) return false;
  assert.deepStrictEqual(mine, jsYaml(text), what);
  return true;
}

/** YAML files under a folder, recursively. */
export function yamlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...yamlFilesUnder(p));
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}

export type StreamOutcome = { docs: ParsedDocument[] } | { error: string };

/** Documents of a text split at `---` lines (as the stream splits them), with their first lines. */
export function documentsOf(text: string): { body: string; line: number }[] {
  const docs: { body: string; line: number }[] = [];
  let lines: string[] = [];
  let start = 1;
  text.split('\n').forEach((raw, i) => {
    const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (/^---(\s.*)?$/.test(l) || /^\.\.\.\s*$/.test(l)) {
      if (lines.length) docs.push({ body: lines.join('\n'), line: start });
      lines = [];
      start = i + 2;
      const rest = l.startsWith('---') ? l.slice(3).trim() : '';
      if (rest && !rest.startsWith('#')) {
        lines.push(rest);
        start = i + 1;
      }
    } else {
      lines.push(l);
    }
  });
  if (lines.length) docs.push({ body: lines.join('\n'), line: start });
  return docs;
}

/** The stream (translator first, js-yaml when it declines) and the whole-text parse (js-yaml only) of one text. */
export function bothWays(
  text: string,
  splitAbove?: number,
  chunk = Math.max(text.length, 1),
  translator: TranslatorMode = 'auto',
  exactUpTo = 0,
): { stream: StreamOutcome; whole: StreamOutcome } {
  let stream: StreamOutcome;
  try {
    const docs: ParsedDocument[] = [];
    const s = new YamlDocumentStream(
      'x.yaml',
      (d) => docs.push(d),
      (v) => v,
      // Split, with no whole-text fallback unless told: the entries alone must give the whole text's answer.
      splitAbove === undefined ? { translator } : { splitAbove, exactUpTo, translator },
    );
    for (let at = 0; at < text.length; at += chunk) s.push(text.slice(at, at + chunk));
    s.end();
    stream = { docs };
  } catch (err) {
    stream = { error: (err as Error).message };
  }
  let whole: StreamOutcome;
  try {
    const docs: ParsedDocument[] = [];
    for (const d of documentsOf(text)) {
      const value = loadYamlDocument(d.body, 'x.yaml', d.line);
      // A List's items at their lines (item-lines.ts): the stream found them entry by entry.
      const itemLines = listItemLines(value, d.body, d.line);
      if (value !== null && value !== undefined)
        docs.push({ value, line: d.line, ...(itemLines ? { itemLines } : {}) });
    }
    whole = { docs };
  } catch (err) {
    whole = { error: (err as Error).message };
  }
  return { stream, whole };
}

// The stream reads whole documents and List entries from each chunk through their translation,
// and everything else line by line: where one way ends and the other begins must not matter.
export const STREAM_CASES: { name: string; text: string }[] = [
  { name: 'documents ended by bare markers, one outside the subset', text: 'a: 1\n---\nb: [1, 2]\n---\nc: 3\n---\n' },
  {
    name: 'a marker with content, a `...` end, comments only',
    text: 'a: 1\n--- {b: 2}\n---\nc: 3\n...\n# only\n---\nd: |\n  x\n\n---\ne: 4\n',
  },
  { name: 'lines starting with --- that are no markers', text: 'a: 1\n---x: 2\n---\n---y: 3\n' },
  // A document outside the subset, read by js-yaml once its turn comes, from the text its lines give.
  {
    name: 'documents with CRLF lines between bare markers',
    text: "a: 1\n---\nb: [1, 2]\r\nc: |\r\n  x\r\n\r\n---\nd: \"3\r\r\n---\ne: '4\r\n  5'\r\n---\nf: 6\r\n",
  },
  {
    name: 'a document that fails among documents ended by bare markers',
    text: `${'a: 1\n---\n'.repeat(20)}b: [1, 2\n---\n${'c: 3\n---\n'.repeat(20)}`,
  },
  {
    name: 'empty and comment-only documents between bare markers',
    text: 'a: 1\n---\n\n---\n# c\n---\n   \n---\nb: 2\n---\n',
  },
  { name: 'a marker followed by a no-break space', text: 'a: 1\n---\u00a0x\nb: 2\n---\nc: 3\n' },
  // js-yaml's values are copied off the text: -0 and .inf must survive the copy.
  { name: 'a document outside the subset holding -0.0 and .inf', text: 'a: -0.0\nb: .inf\nc: [1]\n---\nd: -00\n' },
  {
    name: 'a List whose entries are indented and end at a key indented as they are',
    text: `apiVersion: v1\nitems:\n${' - n: 1\n'.repeat(30)} kind: List\n`,
  },
  {
    name: 'a List whose items end at a sequence at column 0',
    text: `apiVersion: v1\nitems:\n${'  - n: 1\n'.repeat(30)}- - x\n`,
  },
  {
    name: 'a List whose first line is indented, then broken entries',
    text: ` apiVersion: v1\nitems:\n${'- n: 1\n'.repeat(30)}-\n    a: 1\n   b: 2\nkind: List\n`,
  },
  {
    name: 'a List whose entries hold a multi-line quoted scalar starting a line with "- "',
    text: `apiVersion: v1\nitems:\n${'- a: 1\n  b: x\n'.repeat(30)}- c: "one\n- two"\n${'- d: 2\n'.repeat(30)}kind: List\n`,
  },
  {
    name: 'a List whose entries hold scalars folded as kubectl folds them',
    text: `apiVersion: v1\nitems:\n${"- message: 'one two three\n    four five'\n  note: six seven\n    eight\n  list:\n  - 'nine\n    ten'\n".repeat(30)}kind: List\n`,
  },
  {
    name: 'a List with block scalars keeping trailing blank lines',
    text: `items:\n${'- s: |+\n    x\n\n'.repeat(40)}kind: List\n`,
  },
  { name: 'a List ended by a marker', text: `items:\n${'- n: 1\n'.repeat(60)}---\nkind: Pod\n` },
  // Entries sent to the worker and found outside the subset are read one by one when their turn comes.
  {
    name: 'a List with entries outside the subset among many',
    text: `items:\n${'- n: 1\n  s: x\n'.repeat(40)}- m: [1]\n# c\n- "q": 2\n${'- n: 2\n'.repeat(40)}- m: {a: 1}\n${'- n: 3\n'.repeat(40)}kind: List\n`,
  },
  {
    name: 'a List whose keys after the items hold a sequence at column 0',
    text: `items:\n${'- n: 1\n'.repeat(40)}kind: List\nmore:\n- m: [1]\n${'- n: 2\n'.repeat(40)}`,
  },
  {
    name: 'a List with a broken entry among many',
    text: `items:\n${'- n: 1\n'.repeat(40)}- m: [1\n${'- n: 2\n'.repeat(40)}kind: List\n`,
  },
  {
    name: 'a List with an entry outside the subset, CRLF lines',
    text: `items:\r\n${'- n: 1\r\n'.repeat(30)}- m: [1]\r\n${'- n: 2\r\n'.repeat(30)}kind: List\r\n`,
  },
];

// On a worker, the last documents or entries of each chunk are taken back only after the next
// chunk's are sent; those outside the subset are then read one by one, and entries only when no
// line among them could end the items. Every chunk size moves where each chunk ends.
export const DEFERRED_CASES: { name: string; text: string }[] = [
  {
    name: 'keys after the items, a sequence at column 0 among them',
    text: `items:\n${'- n: 1\n'.repeat(100)}kind: List\nmore:\n- a: 1\n- b: [2]\n`,
  },
  {
    name: 'entries outside the subset, a comment and a broken entry',
    text: `items:\n${'- n: 1\n'.repeat(60)}- m: [1]\n# c\n${'- n: 2\n'.repeat(30)}- "q": {a: 1}\n- b: [1\n${'- n: 3\n'.repeat(30)}kind: List\n`,
  },
  {
    name: 'an entry whose quoted scalar goes on at column 0 with "- "',
    text: `items:\n${'- n: 1\n'.repeat(60)}- c: "one\n- two"\n${'- n: 2\n'.repeat(30)}- d: [1,\n- 2]\n${'- n: 3\n'.repeat(30)}kind: List\n`,
  },
  {
    name: 'documents outside the subset, CRLF lines, a broken one',
    text: `${'a: 1\n---\n'.repeat(30)}b: [1]\r\nc: 2\r\n---\n${'d: 3\n---\n'.repeat(30)}e: [1\n---\nf: 4\n`,
  },
];

type Split = readonly [splitAbove: number | undefined, chunk: number | undefined];

/** The sizes a sweep runs. */
interface Matrix {
  files: readonly Split[];
  generated: readonly Split[];
  generatedWorker: readonly Split[];
  streamSplits: readonly (number | undefined)[];
  streamChunks: readonly (number | undefined)[];
  streamWorkerChunks: readonly number[];
  deferredChunks: readonly number[];
}

/**
 * npm test: one split and one chunk size of each kind, the seeded property test
 * (test/yaml-property.ts) covering random texts in random chunks; the sweeps run in test:slow.
 */
const QUICK: Matrix = {
  files: [[0, 97]],
  generated: [[0, 61]],
  generatedWorker: [[0, 4099]],
  streamSplits: [undefined, 0],
  streamChunks: [7],
  streamWorkerChunks: [7],
  deferredChunks: [137],
};

const FULL: Matrix = {
  files: [
    [undefined, undefined],
    [undefined, 97],
    [0, 97],
    [300, 4099],
  ],
  generated: [undefined, 0, 5000].flatMap((s) => [undefined, 61, 4099, 65536].map((c) => [s, c] as const)),
  generatedWorker: [
    [undefined, 4099],
    [0, 4099],
    [5000, 65536],
    [0, 61],
  ],
  streamSplits: [undefined, 0, 40],
  streamChunks: [undefined, 1, 7, 64, 200],
  streamWorkerChunks: [7, 200],
  deferredChunks: Array.from({ length: 68 }, (_, i) => 20 + 13 * i),
};

/** Registers the sweeps: `quick` (npm test) or `full` (npm run test:slow). */
export function yamlSweeps(level: 'quick' | 'full'): void {
  const m = level === 'quick' ? QUICK : FULL;
  const label = level === 'quick' ? '' : ' (every size)';
  // npm test reads the fixtures; the vendor manifests and real dumps are read in test:slow.
  for (const dir of level === 'quick' ? ['fixtures'] : ['fixtures', '../shared/vendor', '../shared/realdumps']) {
    test(`YAML to JSON${label}: every YAML file under ${dir} reads as js-yaml reads it`, (t) => {
      if (!existsSync(dir)) {
        t.skip(`${dir} is absent (a copy of shared/ beside the checkout holds it)`);
        return;
      }
      const files = yamlFilesUnder(dir);
      assert.ok(files.length > 0, `no YAML file under ${dir}`);
      let translated = 0;
      let docs = 0;
      for (const f of files) {
        const text = readFileSync(f, 'utf8');
        for (const [splitAbove, chunk] of m.files) {
          const { stream, whole } = bothWays(text, splitAbove, chunk);
          assert.deepStrictEqual(stream, whole, `${f} split above ${splitAbove}, chunks of ${chunk}`);
        }
        for (const d of documentsOf(text)) {
          docs++;
          if (agrees(d.body, f)) translated++;
        }
      }
      t.diagnostic(`${dir}: ${files.length} files, ${translated} of ${docs} documents translated`);
      assert.ok(translated > 0, `none of the documents under ${dir} was translated`);
    });
  }

  test(`YAML to JSON${label}: generated bench dumps, as \`---\` documents and as a kind: List read entry by entry`, () => {
    const out = mkdtempSync(join(tmpdir(), 'ds-doctor-yaml-json-'));
    const { files } = generate({
      nodes: 6,
      pods: 40,
      seed: 3,
      out,
      formats: ['yaml', 'yaml-list'],
      managedFields: true,
    });
    const stream = readFileSync(files.yaml!, 'utf8');
    for (const d of documentsOf(stream))
      assert.ok(agrees(d.body, 'a generated document'), 'every generated document is translated');
    const list = readFileSync(files['yaml-list']!, 'utf8');
    assert.ok(agrees(list, 'the generated List'), 'the generated List is translated');
    // As kubectl writes them: long strings folded over lines (bench/yaml-fold.ts), read on the fast path.
    assert.match(list, /: '[^'\n]*\n +[^'\n]*'\n/, 'the generated List holds a folded quoted scalar');
    for (const text of [stream, list]) {
      for (const [splitAbove, chunk] of m.generated) {
        const both = bothWays(text, splitAbove, chunk);
        assert.deepStrictEqual(both.stream, both.whole, `split above ${splitAbove}, chunks of ${chunk}`);
      }
      // The same, translated on a worker thread while the stream builds the objects before.
      for (const [splitAbove, chunk] of m.generatedWorker) {
        const both = bothWays(text, splitAbove, chunk, 'worker');
        assert.deepStrictEqual(both.stream, both.whole, `worker, split above ${splitAbove}, chunks of ${chunk}`);
      }
    }
  });

  for (const c of STREAM_CASES) {
    test(`YAML to JSON in the stream${label}: ${c.name}`, () => {
      for (const splitAbove of m.streamSplits) {
        for (const chunk of m.streamChunks) {
          const { stream, whole } = bothWays(c.text, splitAbove, chunk);
          assert.deepStrictEqual(stream, whole, `split above ${splitAbove}, chunks of ${chunk}`);
        }
        for (const chunk of m.streamWorkerChunks) {
          const { stream, whole } = bothWays(c.text, splitAbove, chunk, 'worker');
          assert.deepStrictEqual(stream, whole, `worker, split above ${splitAbove}, chunks of ${chunk}`);
        }
      }
    });
  }

  // On a worker, the last documents or entries of each chunk are taken back only after the next
  // chunk's are sent; those outside the subset are then read one by one, and entries only when no
  // line among them could end the items. Each chunk size moves where each chunk ends.
  for (const c of DEFERRED_CASES) {
    test(`YAML to JSON on a worker, chunk sizes ${m.deferredChunks[0]}–${m.deferredChunks[m.deferredChunks.length - 1]}${label}: ${c.name}`, () => {
      for (const chunk of m.deferredChunks) {
        for (const splitAbove of [0, 40]) {
          const { stream, whole } = bothWays(c.text, splitAbove, chunk, 'worker');
          assert.deepStrictEqual(stream, whole, `split above ${splitAbove}, chunks of ${chunk}`);
        }
      }
    });
  }
}
