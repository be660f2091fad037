// The JSON scan (src/load/json-scan.ts) that finds where a value ends and where text stops being
// JSON once JSON.parse has refused it: it accepts exactly what JSON.parse accepts (a table, then
// seeded random edits of a real object), and says where and why, in its own words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AFTER_JSON, END_OF_INPUT, jsonSyntaxError, jsonValueEnd } from '../../src/load/json-scan.js';
import { lineOfOffset } from '../../src/load/parse.js';
import { Rng } from '../diff/rng.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const CASES: [text: string, offset: number | undefined, message?: string][] = [
  ['{}', undefined],
  [' [1, -0.5e+3, "a\\u00e9\\n", true, false, null, {"k": []}] ', undefined],
  ['"\\/"', undefined],
  ['', 0, END_OF_INPUT],
  ['{"a": 1', 7, END_OF_INPUT],
  ['{"a": "b', 8, END_OF_INPUT],
  ['{"a": 1}}', 8, AFTER_JSON],
  ['{"a": 1} {"b": 2}', 9, AFTER_JSON],
  ['{"a" 1}', 5, "Expected ':' after property name"],
  ['{a: 1}', 1, 'Expected double-quoted property name'],
  ['{"a": 1 "b": 2}', 8, "Expected ',' or '}' after property value"],
  ['[1 2]', 3, "Expected ',' or ']' after array element"],
  ['[1,]', 3, "Unexpected token ']'"],
  ['[01]', 2, "Expected ',' or ']' after array element"],
  ['[-]', 2, 'No number after minus sign in JSON'],
  ['[1.]', 3, 'Unterminated fractional number in JSON'],
  ['[1e]', 3, 'Exponent part is missing a number in JSON'],
  ['["a\tb"]', 3, 'Bad control character in string literal'],
  ['["\\x"]', 3, 'Bad escaped character'],
  ['["\\u12g4"]', 6, 'Bad Unicode escape'],
  ['[tru]', 4, "Unexpected token ']'"],
  ['[nul', 4, END_OF_INPUT],
  ['[\u0001]', 1, 'Unexpected character U+0001'],
  ['{"a":1,}', 7, 'Expected double-quoted property name'],
];

test('JSON scan: a table of texts, their first error and its offset', () => {
  for (const [text, offset, message] of CASES) {
    const error = jsonSyntaxError(text);
    assert.equal(error === undefined, parses(text), `agrees with JSON.parse: ${text}`);
    assert.deepStrictEqual(error, offset === undefined ? undefined : { offset, message }, text);
  }
});

test('JSON scan: where a value ends when more text follows it', () => {
  assert.equal(jsonValueEnd('{"a": [1, {"b": "}"}]}, {"c": 2}'), 22);
  assert.equal(jsonValueEnd('xx  "s" 1', 2), 7);
  assert.deepStrictEqual(jsonValueEnd('[1, 2] [3]', 0, 4), { offset: 4, message: END_OF_INPUT });
  assert.deepStrictEqual(jsonValueEnd('[1, 2'), { offset: 5, message: END_OF_INPUT });
});

test('JSON scan: deep nesting is followed without recursion', () => {
  const deep = '['.repeat(200_000) + ']'.repeat(200_000);
  assert.equal(jsonSyntaxError(deep), undefined);
  assert.deepStrictEqual(jsonSyntaxError(deep.slice(0, -1)), { offset: 399_999, message: END_OF_INPUT });
});

test('JSON scan: 5,000 seeded random edits of a real object are refused exactly when JSON.parse refuses them', () => {
  const list = JSON.parse(readFileSync('fixtures/cluster-info-dump/kube-system/daemonsets.json', 'utf8')) as {
    items: unknown[];
  };
  const base = JSON.stringify(list, null, 2).slice(0, 3000);
  const compact = JSON.stringify(list.items[0]);
  const rng = new Rng(41, 2);
  const alphabet = [
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    '\\',
    'u',
    '0',
    '1',
    '-',
    '.',
    'e',
    '+',
    ' ',
    '\n',
    't',
    'n',
    'f',
    '\t',
    '\u0001',
    'x',
  ];
  let refused = 0;
  for (let n = 0; n < 5_000; n++) {
    const from = rng.int(0, 400);
    let text = base.slice(from, from + rng.int(0, 600));
    for (let k = rng.int(0, 3); k > 0; k--) {
      const at = rng.int(0, text.length);
      const op = rng.int(0, 2);
      if (op === 0) text = text.slice(0, at) + rng.pick(alphabet) + text.slice(at);
      else if (op === 1) text = text.slice(0, at) + text.slice(at + 1);
      else text = text.slice(0, at) + rng.pick(alphabet) + text.slice(at + 1);
    }
    if (rng.chance(0.3)) text = compact.slice(0, rng.int(0, compact.length));
    const error = jsonSyntaxError(text);
    assert.equal(error === undefined, parses(text), JSON.stringify(text));
    if (error) {
      refused++;
      assert.ok(error.offset >= 0 && error.offset <= text.length, JSON.stringify(text));
      assert.ok(!error.message.includes('\n'));
    }
  }
  assert.ok(refused > 2_500, `${refused} refused`);
});

test('JSON scan: lineOfOffset counts the lines before an offset', () => {
  assert.equal(lineOfOffset('a\nb\nc', 0), 1);
  assert.equal(lineOfOffset('a\nb\nc', 1), 1);
  assert.equal(lineOfOffset('a\nb\nc', 2), 2);
  assert.equal(lineOfOffset('a\nb\nc', 5), 3);
});
