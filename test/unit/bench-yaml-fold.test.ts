// The bench writes its YAML dumps as kubectl's printer writes them (bench/yaml-fold.ts): the
// expected texts below are what sigs.k8s.io/yaml v1.6.0 JSONToYAML (go.yaml.in/yaml/v2, the
// writer behind `kubectl get -o yaml`) printed for the same values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import { foldLikeKubectl } from '../../bench/yaml-fold.js';

const MSG =
  '0/5000 nodes are available: 1 Insufficient cpu. preemption: 0/5000 nodes are available: 1 No preemption victims found for incoming pod.';
const CASES: { name: string; value: unknown; go: string }[] = [
  {
    name: 'a single-quoted value, a sequence entry, a compact mapping in a sequence',
    value: {
      a: {
        l: [
          '0/5000 nodes are available: 1 Insufficient cpu. preemption: 0/5000 nodes are available: 1 No preemption',
          'x',
        ],
        m: [
          {
            message:
              "it's 0/5000 nodes are available: 1 Insufficient cpu. preemption: 0/5000 nodes are available: 1 No preemption",
          },
        ],
        msg: MSG,
      },
    },
    go: `a:
  l:
  - '0/5000 nodes are available: 1 Insufficient cpu. preemption: 0/5000 nodes are
    available: 1 No preemption'
  - x
  m:
  - message: 'it''s 0/5000 nodes are available: 1 Insufficient cpu. preemption: 0/5000
      nodes are available: 1 No preemption'
  msg: '0/5000 nodes are available: 1 Insufficient cpu. preemption: 0/5000 nodes are
    available: 1 No preemption victims found for incoming pod.'
`,
  },
  {
    name: 'plain values, runs of spaces, quotes inside a plain value',
    value: {
      message:
        'Back-off restarting failed container main in pod x_y(0000)   with   double   spaces and more words to pass eighty',
      metadata: {
        annotations: {
          'x/y': "it's a 'quoted' long value with spaces that goes past the eighty column limit by far, yes it does",
        },
      },
    },
    go: `message: Back-off restarting failed container main in pod x_y(0000)   with   double   spaces
  and more words to pass eighty
metadata:
  annotations:
    x/y: it's a 'quoted' long value with spaces that goes past the eighty column limit
      by far, yes it does
`,
  },
];

for (const c of CASES) {
  test(`bench YAML folds like kubectl: ${c.name}`, () => {
    const mine = foldLikeKubectl(
      yaml.dump(c.value, { lineWidth: -1, noRefs: true, sortKeys: true, noArrayIndent: true }),
    );
    assert.equal(mine, c.go);
    assert.deepEqual(yaml.load(mine), c.value);
  });
}

test('bench YAML folds like kubectl: block scalars and short lines are left as they are', () => {
  const text = `a: |\n  ${'word '.repeat(30)}\nb: short\n`;
  assert.equal(foldLikeKubectl(text), text);
});
