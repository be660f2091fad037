// Lessons from the differential tests (test/diff): each case is a disagreement the generated
// scenarios found between ds-doctor and the real control plane (Kubernetes v1.35.4), reduced to
// the smallest input, with the upstream code that decided it. Named after what it taught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchNodeSelector } from '../../src/k8s/nodeaffinity.js';
import { nodeShouldRunDaemonPod } from '../../src/k8s/daemonpod.js';
import { daemonSet, node } from '../builders.js';

test('Gt/Lt compare 64-bit integers: a value that overflows int64 is not a number, so the term never matches', () => {
  // d6-51: `rank Lt [9223372036854775808]` on a node with rank=2. labels.NewRequirement parses the
  // value with strconv.ParseInt(v, 10, 64), which fails past 2^63-1; the term is a parse error and
  // NodeShouldRunDaemonPod said shouldRun=false. ds-doctor compared arbitrary-size integers and
  // said the node matched.
  const rank2 = node('n').label('rank', '2').build();
  const term = (operator: string, value: string) => ({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'rank', operator, values: [value] }] }] });
  assert.equal(matchNodeSelector(term('Lt', '9223372036854775808'), rank2).matches, false);
  assert.equal(matchNodeSelector(term('Lt', '9223372036854775807'), rank2).matches, true);
  assert.equal(matchNodeSelector(term('Gt', '-9223372036854775809'), rank2).matches, false);
  // The node's label goes through the same ParseInt.
  const huge = node('h').label('rank', '9223372036854775808').build();
  assert.equal(matchNodeSelector(term('Gt', '5'), huge).matches, false);
  assert.equal(matchNodeSelector(term('Gt', '5'), node('m').label('rank', '9223372036854775807').build()).matches, true);
  assert.match(matchNodeSelector(term('Lt', '9223372036854775808'), rank2).termMismatches[0]!.failures[0]!, /not a 64-bit integer/);

  const ds = daemonSet('agent').affinity(term('Lt', '9223372036854775808')).build();
  assert.equal(nodeShouldRunDaemonPod(rank2, ds).shouldRun, false);
});
