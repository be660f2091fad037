// Ported from k8s.io/apimachinery/pkg/api/resource quantity_test.go (TestQuantityParse,
// TestMilliValue): suffixes, exponents, fractions, and rounding up.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatAmount,
  isQuantity,
  milliValue,
  parseQuantity,
  resourceAmount,
  value,
} from '../../../src/k8s/quantity.js';

describe('milliValue (Quantity.MilliValue rounds up)', () => {
  const cases: [string, number][] = [
    ['100m', 100],
    ['1', 1000],
    ['0.5', 500],
    ['1.5', 1500],
    ['2500m', 2500],
    ['0.1', 100],
    ['1n', 1],
    ['1u', 1],
    ['1001u', 2],
    ['1e3', 1_000_000],
    ['1E-3', 1],
    ['.5', 500],
    ['+1', 1000],
    ['0', 0],
  ];
  for (const [q, want] of cases) {
    test(q, () => {
      assert.equal(milliValue(q), want, q);
    });
  }
});

describe('value (Quantity.Value rounds up) with binary and decimal suffixes', () => {
  const cases: [string, number][] = [
    ['1Ki', 1024],
    ['1Mi', 1048576],
    ['1Gi', 1073741824],
    ['1Ti', 1024 ** 4],
    ['1Pi', 1024 ** 5],
    ['1k', 1000],
    ['1M', 1e6],
    ['1G', 1e9],
    ['1T', 1e12],
    ['1P', 1e15],
    ['1E', 1e18],
    ['128974848', 128974848],
    ['129e6', 129000000],
    ['123Mi', 128974848],
    ['1.5Gi', 1610612736],
    ['100m', 1],
    ['0.1', 1],
    ['110', 110],
    ['12e-1', 2],
  ];
  for (const [q, want] of cases) {
    test(q, () => {
      assert.equal(value(q), want, q);
    });
  }
});

describe('malformed quantities are rejected', () => {
  for (const q of ['', 'abc', '1.2.3', '1Ki5', '1ki', '--1', '1 Gi', 'Mi']) {
    test(`parseQuantity(${JSON.stringify(q)}) is undefined`, () => {
      assert.equal(parseQuantity(q), undefined, q);
    });
  }
  test('milliValue("abc") throws invalid quantity', () => {
    assert.throws(() => milliValue('abc'), /invalid quantity/);
  });
});

test('resourceAmount uses millicores for cpu only', () => {
  assert.equal(resourceAmount('cpu', '250m'), 250);
  assert.equal(resourceAmount('memory', '256Mi'), 268435456);
  assert.equal(resourceAmount('nvidia.com/gpu', '2'), 2);
});

test('formatAmount prints what a person reads', () => {
  assert.equal(formatAmount('cpu', 1500), '1500m');
  assert.equal(formatAmount('cpu', 2000), '2');
  assert.equal(formatAmount('memory', 268435456), '256Mi');
  assert.equal(formatAmount('memory', 1610612736), '1.5Gi');
  assert.equal(formatAmount('pods', 110), '110');
});

for (const q of [
  '100m',
  '1.5Gi',
  '1e3',
  '1E-1000',
  '1e1001',
  '2',
  ' 4 ',
  '.5',
  '+1',
  '-5m',
  'abc',
  '1Ki2',
  '1.2.3',
  '',
  '5 Gi',
  '1e',
  64,
  1e308,
  -1,
]) {
  test(`isQuantity agrees with parseQuantity: ${JSON.stringify(q)}`, () => {
    assert.equal(isQuantity(q), parseQuantity(q) !== undefined);
  });
}

test('isQuantity answers the same for a string seen before, and after its bounded memory of answers is cleared', () => {
  const inputs = ['100m', 'abc', '1e1001', '1e3'];
  const first = inputs.map((q) => isQuantity(q));
  // More distinct strings than the memory holds, so it is cleared at least once.
  for (let i = 0; i < 5000; i++) assert.equal(isQuantity(`${i}Mi`), true);
  assert.deepEqual(
    inputs.map((q) => isQuantity(q)),
    first,
  );
  assert.deepEqual(first, [true, false, false, true]);
});
