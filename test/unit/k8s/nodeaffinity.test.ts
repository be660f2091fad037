// Ported from k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go
// (TestNodeSelectorMatch, TestPodMatchesNodeSelectorAndAffinityTerms) and the scheduler's
// NodeAffinity plugin tests: nodeSelector ANDed with required affinity, terms ORed,
// expressions ANDed, Gt/Lt integer comparison, matchFields with exactly one value.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { matchNodeSelector, matchRequiredNodeAffinity } from '../../../src/k8s/nodeaffinity.js';
import type { NodeSelectorTerm, PodSpec } from '../../../src/model/k8s-types.js';
import { node } from '../../builders.js';

const n = node('node-1').label('zone', 'a').label('gen', '5').label('gpu', '').build();

function terms(...t: NodeSelectorTerm[]) {
  return { nodeSelectorTerms: t };
}

describe('NodeSelector terms: ORed terms, ANDed expressions, every operator', () => {
  const cases: { name: string; sel: ReturnType<typeof terms>; want: boolean }[] = [
    {
      name: 'In match',
      sel: terms({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }),
      want: true,
    },
    {
      name: 'In no match',
      sel: terms({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }),
      want: false,
    },
    {
      name: 'NotIn on absent key matches',
      sel: terms({ matchExpressions: [{ key: 'rack', operator: 'NotIn', values: ['r1'] }] }),
      want: true,
    },
    { name: 'Exists empty value', sel: terms({ matchExpressions: [{ key: 'gpu', operator: 'Exists' }] }), want: true },
    { name: 'DoesNotExist', sel: terms({ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }), want: false },
    {
      name: 'Gt integer',
      sel: terms({ matchExpressions: [{ key: 'gen', operator: 'Gt', values: ['4'] }] }),
      want: true,
    },
    {
      name: 'Gt equal is false',
      sel: terms({ matchExpressions: [{ key: 'gen', operator: 'Gt', values: ['5'] }] }),
      want: false,
    },
    {
      name: 'Lt integer',
      sel: terms({ matchExpressions: [{ key: 'gen', operator: 'Lt', values: ['10'] }] }),
      want: true,
    },
    {
      name: 'Gt on non-integer label is false',
      sel: terms({ matchExpressions: [{ key: 'zone', operator: 'Gt', values: ['1'] }] }),
      want: false,
    },
    {
      name: 'Gt with two values is a parse error',
      sel: terms({ matchExpressions: [{ key: 'gen', operator: 'Gt', values: ['1', '2'] }] }),
      want: false,
    },
    {
      name: 'ANDed expressions',
      sel: terms({
        matchExpressions: [
          { key: 'zone', operator: 'In', values: ['a'] },
          { key: 'gen', operator: 'Lt', values: ['3'] },
        ],
      }),
      want: false,
    },
    {
      name: 'ORed terms',
      sel: terms(
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['x'] }] },
        { matchExpressions: [{ key: 'gen', operator: 'Exists' }] },
      ),
      want: true,
    },
    { name: 'empty term list matches nothing', sel: terms(), want: false },
    { name: 'only empty terms match nothing', sel: terms({}, { matchExpressions: [] }), want: false },
    {
      name: 'matchFields metadata.name In',
      sel: terms({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }),
      want: true,
    },
    {
      name: 'matchFields NotIn',
      sel: terms({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-1'] }] }),
      want: false,
    },
    {
      name: 'matchFields with several values is a parse error',
      sel: terms({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1', 'node-2'] }] }),
      want: false,
    },
    {
      name: 'parse error in one term, other term still counts',
      sel: terms(
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1', 'x'] }] },
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
      ),
      want: true,
    },
    {
      name: 'unknown operator never matches',
      sel: terms({ matchExpressions: [{ key: 'zone', operator: 'Matches', values: ['a'] }] }),
      want: false,
    },
    {
      name: 'unknown field never matches',
      sel: terms({ matchFields: [{ key: 'metadata.foo', operator: 'In', values: ['x'] }] }),
      want: false,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.equal(matchNodeSelector(c.sel, n).matches, c.want, c.name);
    });
  }
});

test('GetRequiredNodeAffinity: nodeSelector is ANDed with required affinity', () => {
  const spec: PodSpec = {
    nodeSelector: { zone: 'a' },
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: terms({
          matchExpressions: [{ key: 'gen', operator: 'Gt', values: ['9'] }],
        }),
      },
    },
  };
  const m = matchRequiredNodeAffinity(spec, n);
  assert.equal(m.matches, false);
  assert.equal(m.affinityFailed, true);
  assert.deepEqual(m.selectorMismatches, []);
  assert.match(m.termMismatches[0]!.failures[0]!, /gen Gt \[9\]: node has gen=5/);

  const sel = matchRequiredNodeAffinity({ nodeSelector: { zone: 'b', disk: 'ssd' } }, n);
  assert.deepEqual(sel.selectorMismatches, [
    { key: 'zone', want: 'b', have: 'a' },
    { key: 'disk', want: 'ssd', have: undefined },
  ]);
  assert.equal(matchRequiredNodeAffinity({}, n).matches, true);
});
