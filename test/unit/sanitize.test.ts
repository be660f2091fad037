// The one output sanitizer (src/render/sanitize.ts): what each control character becomes.
// kubectl's own cases (kubernetes PR 112553, cli-runtime printers/terminal.go): ESC → ^[, CR → \r.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import { escapeMarkdownText, escapeTerminal } from '../../src/render/sanitize.js';
import { renderJson, renderYaml } from '../../src/render/document.js';

const TERMINAL: [string, string, string][] = [
  ['ESC as kubectl escapes it (PR 112553)', '\u001b[2J', '^[[2J'],
  ['CR as kubectl escapes it (PR 112553)', 'a\rb', 'a\\rb'],
  ['OSC title with BEL', '\u001b]0;t\u0007', '^[]0;t^G'],
  ['LF in data is not a line of ours', 'a\nb', 'a\\nb'],
  ['TAB', 'a\tb', 'a\\tb'],
  ['NUL and backspace in caret notation', '\u0000\b', '^@^H'],
  ['DEL', '\u007f', '^?'],
  ['C1 CSI (U+009B)', '\u009b2J', '\\u009b2J'],
  ['RLO (U+202E)', '\u202eabc', '\\u202eabc'],
  ['LRI..PDI (U+2066, U+2069)', '\u2066x\u2069', '\\u2066x\\u2069'],
  ['LRE..PDF (U+202A, U+202C)', '\u202ax\u202c', '\\u202ax\\u202c'],
  ['line separator U+2028', 'a\u2028b', 'a\\u2028b'],
  ['plain text and non-ASCII letters are untouched', 'café ✗ 日本 → ok', 'café ✗ 日本 → ok'],
];
for (const [name, input, want] of TERMINAL) {
  test(`escapeTerminal: ${name}`, () => assert.equal(escapeTerminal(input), want));
}

const MARKDOWN: [string, string, string][] = [
  ['raw HTML', '<img src=x>', '\\<img src=x>'],
  ['inline link', '[a](http://e)', '[a\\](http://e)'],
  ['entity', '&#x202e;', '\\&#x202e;'],
  ['code span', '`x`', '\\`x\\`'],
  ['a backslash cannot undo an escape', '\\](x)', '\\\\\\](x)'],
  ['brackets of a path stay', 'containers[0].image', 'containers[0].image'],
];
for (const [name, input, want] of MARKDOWN) {
  test(`escapeMarkdownText: ${name}`, () => assert.equal(escapeMarkdownText(input), want));
}

const DATA = { message: 'a\u202eb\u2066c\u2069 \u009b \u007f \u001b[2J', [`k\u202e`]: 1 };

test('JSON: bidi, C1 and DEL are \\u escapes; the data is the same', () => {
  const text = renderJson(DATA);
  assert.ok(!/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text), text);
  assert.deepEqual(JSON.parse(text), DATA);
});

test('YAML: a document with bidi controls is written in flow style with them escaped; the data is the same', () => {
  const text = renderYaml(DATA);
  // eslint-disable-next-line no-control-regex -- the check is for control characters
  assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text), text);
  assert.deepEqual(yaml.load(text), DATA);
});

test('YAML: C0/C1 controls alone are quoted and escaped by js-yaml, block style kept', () => {
  const doc = { a: 'x\u009by\u001b[2J\r', b: ['plain'] };
  const text = renderYaml(doc);
  assert.match(text, /^a: "x\\x9By\\e\[2J\\r"\nb:\n {2}- plain\n$/);
  assert.deepEqual(yaml.load(text), doc);
});
