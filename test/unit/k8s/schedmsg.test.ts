// FailedScheduling messages in every form since 1.28 (FitError.Error, docs/semantics.md §4.3/§4.4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  codeForSchedulerReason,
  parseFitError,
  preemptionVerdict,
  targetNodeEntries,
} from '../../../src/k8s/schedmsg.js';

test('1.32+ form with the NodeAffinity pin noise and preemption suffix', () => {
  const m =
    "0/5 nodes are available: 1 Insufficient cpu, 4 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/5 nodes are available: 1 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.";
  const p = parseFitError(m)!;
  assert.equal(p.totalNodes, 5);
  assert.deepEqual(p.entries, [
    { count: 1, reason: 'Insufficient cpu' },
    { count: 4, reason: "node(s) didn't satisfy plugin(s) [NodeAffinity]" },
  ]);
  assert.deepEqual(
    targetNodeEntries(p).map((e) => e.reason),
    ['Insufficient cpu'],
  );
  assert.equal(preemptionVerdict(p.preemption), 'no-victims');
});

test('1.28 double period, 1.30 form without absent nodes, both taint wordings', () => {
  const old = parseFitError(
    '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling..',
  )!;
  assert.deepEqual(old.entries, [{ count: 1, reason: 'node(s) had untolerated taint {dedicated: gpu}' }]);
  assert.equal(old.preemption, '0/3 nodes are available: 1 Preemption is not helpful for scheduling.');
  assert.equal(codeForSchedulerReason(old.entries[0]!.reason), 'UntoleratedTaint');
  assert.equal(codeForSchedulerReason('node(s) had untolerated taint(s)'), 'UntoleratedTaint');
  const multi = parseFitError('0/5 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.')!;
  assert.deepEqual(
    multi.entries.map((e) => e.reason),
    ['Insufficient cpu', 'Insufficient memory'],
  );
  assert.equal(
    codeForSchedulerReason("node(s) didn't have free ports for the requested pod ports"),
    'HostPortConflict',
  );
  assert.equal(codeForSchedulerReason('Too many pods'), 'TooManyPods');
  assert.equal(preemptionVerdict('not eligible due to preemptionPolicy=Never.'), 'not-eligible');
});

test('PreFilter messages and non-scheduler text', () => {
  const pf = parseFitError('0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims.')!;
  assert.equal(pf.preFilter, 'pod has unbound immediate PersistentVolumeClaims');
  assert.equal(parseFitError('something else'), undefined);
});
