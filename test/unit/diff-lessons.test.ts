// Lessons from the differential tests (test/diff): each case is a disagreement the generated
// scenarios found between ds-doctor and the real control plane (Kubernetes v1.35.4), reduced to
// the smallest input, with the upstream code that decided it. Named after what it taught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchNodeSelector } from '../../src/k8s/nodeaffinity.js';
import { nodeShouldRunDaemonPod } from '../../src/k8s/daemonpod.js';
import { parseFitError, preemptionVerdict, targetNodeEntries } from '../../src/k8s/schedmsg.js';
import { whyNode } from '../../src/analyze/placement.js';
import { NOW, daemonSet, indexOf, node, pod } from '../builders.js';

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

test('the 1.35 FailedScheduling message puts DRA\'s PostFilter text before preemption\'s: the histogram ends at the first ". "', () => {
  // Every PodScheduled message the real scheduler wrote in the differential runs reads
  // "<histogram>. no new claims to deallocate, preemption: …": DynamicResources (on by default
  // since DRA went GA) runs as a PostFilter before DefaultPreemption, and RunPostFilterPlugins
  // joins their messages with ", ". When the target node's reason sorted last in the histogram,
  // ds-doctor lost it (and with it the reason code).
  const msg = "0/2 nodes are available: 1 node(s) didn't satisfy plugin(s) [NodeAffinity], 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";
  const parsed = parseFitError(msg)!;
  assert.deepEqual(targetNodeEntries(parsed), [{ count: 1, reason: 'node(s) had untolerated taint(s)' }]);
  assert.equal(parsed.preemption, '0/2 nodes are available: 2 Preemption is not helpful for scheduling.');
  assert.equal(preemptionVerdict(parsed.preemption), 'not-helpful');
  const never = parseFitError('0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn\'t satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.')!;
  assert.deepEqual(never.entries.map((e) => e.reason), ['Insufficient cpu', "node(s) didn't satisfy plugin(s) [NodeAffinity]"]);
  assert.equal(preemptionVerdict(never.preemption), 'not-eligible');

  // When the snapshot no longer shows the cause, the scheduler's reason still gives the code.
  const ds = daemonSet('agent').build();
  const n = node('n1').build();
  const pending = pod('agent-x').ofDaemonSet(ds, 'n1').unschedulable(msg).build();
  const d = whyNode(indexOf({ nodes: [n, node('n2').build()], daemonSets: [ds], pods: [pending] }), ds, n, NOW);
  assert.equal(d.verdict, 'Pending');
  assert.equal(d.reasons[0]!.code, 'UntoleratedTaint');
  assert.equal(d.reasons[0]!.short, 'node(s) had untolerated taint(s)');
});
