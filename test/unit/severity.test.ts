// The one severity order (src/model/severity.ts) behind reason sorting, lint sorting and --fail-on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Severity } from '../../src/model/results.js';
import { atOrAbove, bySeverity } from '../../src/model/severity.js';

const AT_OR_ABOVE: [Severity, Severity, boolean][] = [
  ['error', 'error', true],
  ['error', 'warning', true],
  ['warning', 'warning', true],
  ['warning', 'error', false],
  ['info', 'warning', false],
  ['info', 'info', true],
];
for (const [severity, level, expected] of AT_OR_ABOVE) {
  test(`${severity} is ${expected ? '' : 'not '}at or above ${level}`, () => {
    assert.equal(atOrAbove(severity, level), expected);
  });
}

test('bySeverity: most severe first, the given order kept among equals', () => {
  const items: { severity: Severity; id: string }[] = [
    { severity: 'info', id: 'i1' },
    { severity: 'warning', id: 'w1' },
    { severity: 'error', id: 'e1' },
    { severity: 'warning', id: 'w2' },
    { severity: 'error', id: 'e2' },
  ];
  assert.deepEqual(
    bySeverity(items).map((x) => x.id),
    ['e1', 'e2', 'w1', 'w2', 'i1'],
  );
});
