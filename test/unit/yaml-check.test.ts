// DS_DOCTOR_CHECK_YAML=1 (src/load/yaml-check.ts): every translated text is read again with
// js-yaml; a difference fails the load with the file, the line and the first path that differs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTranslation, firstDifference } from '../../src/load/yaml-check.js';
import { envLoadOptions } from '../../src/load/files.js';
import { YamlDocumentStream } from '../../src/load/yaml-stream.js';
import { InputError } from '../../src/model/errors.js';
import type { ParsedDocument } from '../../src/load/parse.js';

test('YAML check: on with DS_DOCTOR_CHECK_YAML=1 only; DS_DOCTOR_WORKERS=0 keeps the translation on one thread', () => {
  assert.deepEqual(envLoadOptions({ DS_DOCTOR_CHECK_YAML: '1' }), { checkTranslation: true });
  assert.deepEqual(envLoadOptions({ DS_DOCTOR_CHECK_YAML: '0' }), {});
  assert.deepEqual(envLoadOptions({}), {});
  assert.deepEqual(envLoadOptions({ DS_DOCTOR_WORKERS: '0' }), { translator: 'inline' });
});

test('YAML check: the first path where two values differ', () => {
  const cases: [unknown, unknown, string | undefined][] = [
    [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, undefined],
    [{ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }, '$.a[1].b'],
    [{ a: 0 }, { a: -0 }, '$.a'],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, undefined],
    [{ a: 1, b: 2 }, { a: 1, c: 2 }, '$ (keys)'],
    [[1], { 0: 1 }, '$'],
    [NaN, NaN, undefined],
  ];
  for (const [a, b, want] of cases) assert.equal(firstDifference(a, b), want, JSON.stringify([a, b]));
});

test('YAML check: a value that is not what js-yaml reads fails with one line naming file, line and path', () => {
  assert.doesNotThrow(() => checkTranslation({ a: [1, 'x'] }, 'a:\n- 1\n- x\n', 'f.yaml', 3));
  assert.throws(
    () => checkTranslation({ a: [1, 'y'] }, 'a:\n- 1\n- x\n', 'f.yaml', 3),
    (err: unknown) =>
      err instanceof InputError &&
      err.message ===
        "f.yaml:3: the YAML translated to JSON differs from js-yaml's reading at $.a[1] (DS_DOCTOR_CHECK_YAML=1)",
  );
});

test('YAML check: the stream with the check on reads documents and a split List as without it', () => {
  const text = `a: 1\n---\napiVersion: v1\nitems:\n${'- n: 1\n  s: "x"\n'.repeat(50)}kind: List\n---\nb: [1]\n`;
  const read = (checkTranslation: boolean): ParsedDocument[] => {
    const docs: ParsedDocument[] = [];
    const s = new YamlDocumentStream(
      'x.yaml',
      (d) => docs.push(d),
      (v) => v,
      { splitAbove: 100, checkTranslation, translator: 'inline' },
    );
    for (let at = 0; at < text.length; at += 37) s.push(text.slice(at, at + 37));
    s.end();
    return docs;
  };
  assert.deepStrictEqual(read(true), read(false));
});
