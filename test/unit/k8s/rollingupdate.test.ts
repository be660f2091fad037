// The node loop of the controller's rollingUpdate (kubernetes v1.35
// pkg/controller/daemon/update.go#rollingUpdate, docs/semantics.md §3.3–§3.4): which nodes hold the
// update back and which old pods are candidates. Cases are steps of the upstream tests in
// pkg/controller/daemon/update_test.go, named after them; "deletes N" there is
// min(candidates, maxUnavailable - numUnavailable) plus every unavailable old pod here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rollingUpdateNodes, type BudgetSlot, type NodeDaemonPods } from '../../../src/k8s/rollingupdate.js';
import type { Pod } from '../../../src/model/k8s-types.js';
import { NOW, daemonSet, pod } from '../../builders.js';

const ds = daemonSet('foo').build();
const HASH = 'new';

type State = 'old-ready' | 'old-unready' | 'new-ready' | 'new-unready' | 'new-min-ready' | 'old-terminating';

/** One pod of the given state on `node`: old pods carry hash `old`, new ones `new`. */
function podIn(node: string, state: State, i: number): Pod {
  const b = pod(`foo-${node}-${i}`)
    .ofDaemonSet(ds, node, state.startsWith('new') ? HASH : 'old', state.startsWith('new') ? '2' : '1')
    .on(node);
  if (state === 'old-ready' || state === 'new-ready' || state === 'old-terminating') b.ready(600);
  if (state === 'new-min-ready') b.ready(5);
  if (state === 'old-unready' || state === 'new-unready') b.waiting('ContainerCreating');
  if (state === 'old-terminating') b.terminating(10);
  return b.build();
}

/** Nodes `node-0`… with the given pod states each; `shouldRun` true unless said. */
function nodes(...states: (State[] | { states: State[]; shouldRun: boolean })[]): NodeDaemonPods[] {
  return states.map((s, n) => {
    const list = Array.isArray(s) ? s : s.states;
    return {
      node: `node-${n}`,
      pods: list.map((st, i) => podIn(`node-${n}`, st, i)),
      shouldRun: Array.isArray(s) ? true : s.shouldRun,
    };
  });
}

const five = (...s: State[]) => Array.from({ length: 5 }, () => [...s]);

interface Case {
  name: string;
  nodes: NodeDaemonPods[];
  surge: boolean;
  minReadySeconds?: number;
  /** `node-N: slot` for every node that holds the update back. */
  uses: string[];
  candidates: string[];
  numSurge: number;
}

const all = (n: number, slot: BudgetSlot) => Array.from({ length: n }, (_, i) => `node-${i}: ${slot}`);
const names = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `node-${from + i}`);

const CASES: Case[] = [
  {
    name: 'TestDaemonSetUpdatesPods: every old pod available → all are candidates, none holds budget',
    nodes: nodes(...five('old-ready')),
    surge: false,
    uses: [],
    candidates: names(0, 5),
    numSurge: 0,
  },
  {
    name: 'TestDaemonSetUpdatesPods: two new pods not ready yet hold maxUnavailable 2; the other old pods wait',
    nodes: nodes(['new-unready'], ['new-unready'], ['old-ready'], ['old-ready'], ['old-ready']),
    surge: false,
    uses: all(2, 'new-unavailable'),
    candidates: names(2, 5),
    numSurge: 0,
  },
  {
    name: 'TestDaemonSetUpdatesWhenNewPosIsNotReady: three unready new pods, two old candidates',
    nodes: nodes(['new-unready'], ['new-unready'], ['new-unready'], ['old-ready'], ['old-ready']),
    surge: false,
    uses: all(3, 'new-unavailable'),
    candidates: names(3, 5),
    numSurge: 0,
  },
  {
    name: 'TestDaemonSetUpdatesAllOldPodsNotReady: every unavailable old pod is replaced regardless of the budget',
    nodes: nodes(...five('old-unready')),
    surge: false,
    uses: all(5, 'old-unavailable'),
    candidates: [],
    numSurge: 0,
  },
  {
    name: 'TestDaemonSetUpdatesNoTemplateChanged: pods of the current revision, available → nothing to do',
    nodes: nodes(...five('new-ready')),
    surge: false,
    uses: [],
    candidates: [],
    numSurge: 0,
  },
  {
    name: 'TestGetUnavailableNumbers "Two nodes, one node without pods": the empty desired node counts as unavailable',
    nodes: nodes(['old-ready'], []),
    surge: false,
    uses: ['node-1: no-pod'],
    candidates: ['node-0'],
    numSurge: 0,
  },
  {
    name: 'TestGetUnavailableNumbers "Two nodes, one node without pods, surge": the manage loop creates it, no surge used',
    nodes: nodes(['old-ready'], []),
    surge: true,
    uses: ['node-1: no-pod'],
    candidates: ['node-0'],
    numSurge: 0,
  },
  {
    name: 'findUpdatedPodsOnNode not ok (two old pods): "treat it as an unavailable node"',
    nodes: nodes(['old-ready', 'old-ready'], ['old-ready']),
    surge: false,
    uses: ['node-0: duplicates'],
    candidates: ['node-1'],
    numSurge: 0,
  },
  {
    name: 'findUpdatedPodsOnNode not ok, surge: "treat it as a surge node"',
    nodes: nodes(['new-ready', 'new-ready'], ['old-ready']),
    surge: true,
    uses: ['node-0: duplicates'],
    candidates: ['node-1'],
    numSurge: 1,
  },
  {
    name: 'old and new pod side by side without surge: the manage loop deletes one, the node is unavailable',
    nodes: nodes(['old-ready', 'new-ready']),
    surge: false,
    uses: ['node-0: old-and-new'],
    candidates: [],
    numSurge: 0,
  },
  {
    name: 'a terminating old pod is ignored: the node has no pod for the loop',
    nodes: nodes(['old-terminating']),
    surge: false,
    uses: ['node-0: no-pod'],
    candidates: [],
    numSurge: 0,
  },
  {
    name: 'a node that should not run the pod and has none is not in the loop',
    nodes: nodes({ states: [], shouldRun: false }, ['old-ready']),
    surge: false,
    uses: [],
    candidates: ['node-1'],
    numSurge: 0,
  },
  {
    name: 'TestDaemonSetUpdatesPodsWithMaxSurge: every old pod available → all are surge candidates',
    nodes: nodes(...five('old-ready')),
    surge: true,
    uses: [],
    candidates: names(0, 5),
    numSurge: 0,
  },
  {
    name: 'TestDaemonSetUpdatesPodsWithMaxSurge: two new pods not ready next to their old ones use maxSurge 2',
    nodes: nodes(
      ['old-ready', 'new-unready'],
      ['old-ready', 'new-unready'],
      ['old-ready'],
      ['old-ready'],
      ['old-ready'],
    ),
    surge: true,
    uses: all(2, 'surging'),
    candidates: names(2, 5),
    numSurge: 2,
  },
  {
    name: 'TestDaemonSetUpdatesPodsWithMaxSurge: an available new pod next to the old one → the old one is deleted, no surge held',
    nodes: nodes(['old-ready', 'new-ready'], ['old-ready']),
    surge: true,
    uses: [],
    candidates: ['node-1'],
    numSurge: 0,
  },
  {
    name: 'TestDaemonSetUpdatesAllOldPodsNotReadyMaxSurge: every unavailable old pod gets its new pod regardless of maxSurge',
    nodes: nodes(...five('old-unready')),
    surge: true,
    uses: all(5, 'old-unavailable'),
    candidates: [],
    numSurge: 0,
  },
  {
    name: 'TestDaemonSetUpdatesAllOldPodsNotReadyMaxSurge: a new pod Ready within minReadySeconds still surges',
    nodes: nodes(['old-ready', 'new-min-ready'], ['old-ready']),
    surge: true,
    minReadySeconds: 15,
    uses: ['node-0: surging'],
    candidates: ['node-1'],
    numSurge: 1,
  },
  {
    name: 'minReadySeconds without surge: a new pod Ready for less than it is not available yet',
    nodes: nodes(['new-min-ready'], ['old-ready']),
    surge: false,
    minReadySeconds: 15,
    uses: ['node-0: new-unavailable'],
    candidates: ['node-1'],
    numSurge: 0,
  },
  {
    name: "surge: a new pod alone that is not available is the manage loop's, listed but not counted against maxSurge",
    nodes: nodes(['new-unready'], ['old-ready']),
    surge: true,
    uses: ['node-0: new-unavailable'],
    candidates: ['node-1'],
    numSurge: 0,
  },
];

for (const c of CASES) {
  test(`rollingUpdate node loop: ${c.name}`, () => {
    const got = rollingUpdateNodes(
      c.nodes,
      { hash: HASH, generation: 2, minReadySeconds: c.minReadySeconds ?? 0, now: NOW },
      c.surge,
    );
    assert.deepEqual(
      got.uses.map((u) => `${u.node}: ${u.slot}`),
      c.uses,
    );
    assert.deepEqual(got.candidates, c.candidates);
    assert.equal(got.numSurge, c.numSurge);
  });
}

test('rollingUpdate node loop: the pod that holds the budget is the new pod for old-and-new, the old one for old-unavailable', () => {
  const entries = nodes(['old-ready', 'new-unready'], ['old-unready']);
  const got = rollingUpdateNodes(entries, { hash: HASH, generation: 2, minReadySeconds: 0, now: NOW }, false);
  assert.deepEqual(
    got.uses.map((u) => u.pod?.metadata?.name),
    ['foo-node-0-1', 'foo-node-1-0'],
  );
});
