/**
 * Checks of the harness's own pure parts, run before every differential run (and alone with
 * `--self-check`): the generator is deterministic, the scheduler's message is split the way
 * FitError.Error builds it, and the verdict mapping gives what the README's table says.
 */
import assert from 'node:assert/strict';
import type { DaemonSet, KubeEvent, Pod } from '../../src/model/k8s-types.js';
import { codeForScheduler, createErrorKind, kubernetesTruth, schedulerReasons } from './compare.js';
import { generateScenario } from './generate.js';
import { planTruth } from './plan-compare.js';
import { generatePlanScenario } from './plan-generate.js';
import { FIX_PROBLEMS, generateFixScenario, renameFixScenario } from './fix-generate.js';
import { reduceScenario } from './repro.js';

function podOn(name: string, node: string, opts: { bound?: boolean; ready?: boolean; scheduled?: string } = {}): Pod {
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      creationTimestamp: '2026-01-01T00:00:00Z',
      ownerReferences: [{ kind: 'DaemonSet', name: 'ds', uid: 'ds-uid', controller: true }],
    },
    spec: {
      ...(opts.bound ? { nodeName: node } : {}),
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
          },
        },
      },
    },
    status: {
      conditions: [
        ...(opts.ready ? [{ type: 'Ready', status: 'True' }] : []),
        ...(opts.scheduled
          ? [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: opts.scheduled }]
          : []),
      ],
    },
  };
}

export function selfCheck(): void {
  // Determinism: the same seed and index give the same scenario, forced kind or not.
  for (const [seed, index] of [
    [1, 0],
    [7, 12],
    [9001, 44],
  ] as const) {
    const a = JSON.stringify(generateScenario(seed, index));
    assert.equal(JSON.stringify(generateScenario(seed, index)), a, `scenario ${seed}/${index} is not deterministic`);
    const s = generateScenario(seed, index);
    assert.equal(
      JSON.stringify(generateScenario(seed, index, s.kind === 'rollout' ? 'rollout' : 'placement')),
      a,
      `--kind ${s.kind} changes scenario ${seed}/${index}`,
    );
  }
  planSelfCheck();
  fixSelfCheck();
  const s = generateScenario(3, 1, 'placement');
  const cut = reduceScenario(s, undefined, [s.nodes[0]!.object.metadata!.name!], `${s.id}r`);
  assert.ok(
    JSON.stringify(cut).includes(`${s.id}r-n0`) && !JSON.stringify(cut).includes(`"${s.id}-`),
    'reduceScenario renames every object',
  );

  // FitError.Error: histogram, then the PostFilter messages.
  const msg =
    "0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.";
  assert.deepEqual(schedulerReasons(msg), ['Insufficient cpu', 'Insufficient memory']);
  assert.deepEqual(
    schedulerReasons(
      "0/2 nodes are available: 1 node(s) didn't satisfy plugin(s) [NodeAffinity], 1 node(s) had untolerated taint(s).",
    ),
    ['node(s) had untolerated taint(s)'],
  );
  assert.equal(codeForScheduler("node(s) didn't have free ports for the requested pod ports"), 'HostPortConflict');
  assert.equal(codeForScheduler('Too many pods'), 'TooManyPods');
  assert.equal(
    createErrorKind('Error creating: pods "a-1" is forbidden: exceeded quota: quota, requested: pods=1'),
    'ResourceQuota',
  );
  assert.equal(
    createErrorKind(
      '(combined from similar events): Error creating: pods "a-1" is forbidden: violates PodSecurity "baseline:latest": host namespaces',
    ),
    'PodSecurity',
  );

  // The verdict mapping.
  const ds: DaemonSet = { metadata: { name: 'ds', namespace: 'ns', uid: 'ds-uid' } };
  const pods = [
    podOn('a', 'healthy', { bound: true, ready: true }),
    podOn('b', 'unhealthy', { bound: true }),
    podOn('c', 'pending', { scheduled: msg }),
    podOn('d', 'misscheduled', { bound: true, ready: true }),
  ];
  const events: KubeEvent[] = [
    {
      reason: 'FailedCreate',
      message: 'Error creating: pods "ds-x" is forbidden: exceeded quota: quota',
      involvedObject: { uid: 'ds-uid' },
      lastTimestamp: '2026-01-01T00:00:00Z',
    },
  ];
  const nodes = ['healthy', 'unhealthy', 'pending', 'misscheduled', 'missing', 'excluded'];
  const probe = {
    full: new Set(['healthy', 'unhealthy', 'pending', 'missing']),
    sel: new Set(['healthy', 'unhealthy', 'pending', 'missing', 'misscheduled']),
    tol: new Set(['healthy', 'unhealthy', 'pending', 'missing']),
  };
  const truth = new Map(kubernetesTruth(ds, nodes, pods, events, probe).map((t) => [t.node, t]));
  assert.deepEqual(
    nodes.map((n) => truth.get(n)!.verdict),
    ['Healthy', 'Unhealthy', 'Pending', 'Misscheduled', 'Missing', 'Excluded'],
  );
  assert.deepEqual(truth.get('pending')!.codes, ['InsufficientResource']);
  assert.deepEqual(truth.get('misscheduled')!.codes, ['UntoleratedTaint']);
  assert.deepEqual(truth.get('excluded')!.codes, ['NodeSelectorMismatch', 'UntoleratedTaint']);
  assert.equal(truth.get('missing')!.createError, 'ResourceQuota');
}

function daemonPod(name: string, node: string, hash: string, bound: boolean, terminating = false): Pod {
  const p = podOn(name, node, { bound });
  p.metadata = {
    ...p.metadata,
    labels: { 'controller-revision-hash': hash },
    ...(terminating ? { deletionTimestamp: '2026-01-01T00:01:00Z' } : {}),
  };
  return p;
}

/** Plan mode: the generator is deterministic and draws every change; the end-state mapping is plan-compare.ts's table. */
function planSelfCheck(): void {
  const kinds = new Set<string>();
  for (let i = 0; i < 60; i++) {
    const a = JSON.stringify(generatePlanScenario(9003, i));
    assert.equal(JSON.stringify(generatePlanScenario(9003, i)), a, `plan scenario 9003/${i} is not deterministic`);
    kinds.add(generatePlanScenario(9003, i).change!.kind);
  }
  assert.equal(kinds.size, 11, `plan changes drawn in 60 scenarios: ${[...kinds].join(', ')}`);
  const ds: DaemonSet = { metadata: { name: 'ds', namespace: 'ns', uid: 'ds-uid' } };
  const before = [
    daemonPod('f', 'n7', 'old', true),
    daemonPod('a', 'n1', 'old', true),
    daemonPod('b', 'n2', 'old', true),
    daemonPod('c', 'n3', 'old', true),
    daemonPod('d', 'n4', 'new', true),
  ];
  const after = [
    daemonPod('a', 'n1', 'old', true), // kept (OnDelete, or the rollout stopped)
    daemonPod('b', 'n2', 'old', true, true),
    daemonPod('b2', 'n2', 'new', false), // replaced, the new pod Pending
    daemonPod('c', 'n3', 'old', true, true), // deleted: the node is no longer wanted
    daemonPod('d', 'n4', 'new', true), // already of the new revision
    daemonPod('e', 'n5', 'new', true), // gained
    daemonPod('f', 'n7', 'old', true),
    daemonPod('f2', 'n7', 'new', false), // a surge pod Pending next to the old one
  ];
  const t = planTruth(
    ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7'],
    { ds, pods: before },
    { ds, pods: after, hash: 'new' },
    new Set(['n1', 'n2', 'n4', 'n5', 'n7']),
  );
  assert.deepEqual(
    t.map((x) => `${x.node} ${x.effect} ${x.states.join('|')} ${x.beforeDeleted}`),
    [
      'n1 replace old-kept false',
      'n2 replace new-pending true',
      'n3 lose none true',
      'n4 keep old-kept|new-bound false',
      'n5 gain new-bound false',
      'n6 none none false',
      'n7 replace old-kept|new-pending false',
    ],
  );
}

/**
 * Fix mode: the generator is deterministic; the CI set (seed 9101, 10 scenarios) draws every
 * problem, and both ways of the two-way fix; a renamed copy keeps no old name.
 */
function fixSelfCheck(): void {
  const seen = new Set<string>();
  for (let i = 0; i < 10; i++) {
    const a = JSON.stringify(generateFixScenario(9101, i));
    assert.equal(JSON.stringify(generateFixScenario(9101, i)), a, `fix scenario 9101/${i} is not deterministic`);
    const f = generateFixScenario(9101, i);
    seen.add(`${f.problem}/${f.pick % 2}`);
  }
  for (const p of FIX_PROBLEMS) assert.ok(seen.has(`${p}/0`) || seen.has(`${p}/1`), `the fix CI set draws ${p}`);
  // BudgetHeldByDeadNodes' two ways (delete the Node, or raise maxUnavailable) are both applied.
  assert.ok(
    (seen.has('dead-budget/0') && seen.has('dead-terminating/1')) ||
      (seen.has('dead-budget/1') && seen.has('dead-terminating/0')),
    'the fix CI set applies both ways of BudgetHeldByDeadNodes',
  );
  const f = generateFixScenario(9101, 1);
  const copy = JSON.stringify(renameFixScenario(f, `${f.scenario.id}f1`));
  assert.ok(
    copy.includes(`${f.scenario.id}f1-n`) && !copy.includes(`"${f.scenario.id}-`),
    'renameFixScenario renames every object and node change',
  );
}
