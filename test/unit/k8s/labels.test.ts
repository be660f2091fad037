// Ported from k8s.io/apimachinery/pkg/labels selector_test.go and
// pkg/apis/meta/v1/helpers_test.go (TestLabelSelectorAsSelector): nil selects nothing, {} selects
// everything, matchLabels and matchExpressions are ANDed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compileLabelSelector,
  formatLabelSelector,
  parseSelectorString,
  selectorMatches,
} from '../../../src/k8s/labels.js';

test('LabelSelectorAsSelector: nil vs empty', () => {
  assert.equal(selectorMatches(undefined, { a: 'b' }), false);
  const empty = compileLabelSelector({});
  assert.ok(empty.ok && empty.empty && empty.matches({}));
});

describe('matchLabels and matchExpressions', () => {
  const cases: { sel: Parameters<typeof selectorMatches>[0]; labels: Record<string, string>; want: boolean }[] = [
    { sel: { matchLabels: { app: 'x' } }, labels: { app: 'x', extra: '1' }, want: true },
    { sel: { matchLabels: { app: 'x' } }, labels: { app: 'y' }, want: false },
    {
      sel: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] },
      labels: { tier: 'b' },
      want: true,
    },
    { sel: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] }, labels: {}, want: false },
    { sel: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['a'] }] }, labels: {}, want: true },
    {
      sel: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['a'] }] },
      labels: { tier: 'a' },
      want: false,
    },
    { sel: { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, labels: { tier: '' }, want: true },
    { sel: { matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, labels: { tier: '' }, want: false },
    {
      sel: { matchLabels: { app: 'x' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
      labels: { app: 'x' },
      want: false,
    },
  ];
  for (const c of cases) {
    test(JSON.stringify(c), () => {
      assert.equal(selectorMatches(c.sel, c.labels), c.want, JSON.stringify(c));
    });
  }
});

test('invalid requirements are parse errors (and select nothing)', () => {
  assert.equal(compileLabelSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }).ok, false);
  assert.equal(compileLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }).ok, false);
  assert.equal(compileLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }).ok, false);
  assert.equal(selectorMatches({ matchExpressions: [{ key: 'a', operator: 'Bogus' }] }, { a: '1' }), false);
});

test('kubectl -l strings parse like labels.Parse', () => {
  const sel = parseSelectorString('node-pool=gpu,zone in (a, b),tier!=web,spot,!old');
  assert.deepEqual(sel.matchLabels, { 'node-pool': 'gpu' });
  assert.equal(selectorMatches(sel, { 'node-pool': 'gpu', zone: 'b', tier: 'db', spot: '' }), true);
  assert.equal(selectorMatches(sel, { 'node-pool': 'gpu', zone: 'b', tier: 'web', spot: '' }), false);
  assert.equal(selectorMatches(sel, { 'node-pool': 'gpu', zone: 'b', spot: '', old: '1' }), false);
  assert.throws(() => parseSelectorString('a=b,,c'), /empty requirement/);
  assert.throws(() => parseSelectorString('a b c'), /cannot parse/);
  assert.equal(formatLabelSelector(sel), 'node-pool=gpu,zone in (a,b),tier notin (web),spot,!old');
});
