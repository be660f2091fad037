/**
 * Every registered reason code is produced somewhere, and every produced code is registered.
 * Each fixture dump (fixtures/demo, fixtures/cluster-info-dump, fixtures/scenarios/*,
 * fixtures/impact/*) goes through every analysis for every DaemonSet in it (every node's
 * verdict, the rollout, and the impact under each cascade); the codes it yields must be the
 * registry less ONLY_IN_UNIT_TESTS, and each code of that list must be named in the name of a
 * unit test that produces it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFiles } from '../../src/load/files.js';
import { SnapshotIndex } from '../../src/model/snapshot-index.js';
import { diagnoseAllNodes } from '../../src/analyze/placement/index.js';
import { diagnoseRollout } from '../../src/analyze/rollout/index.js';
import { analyzeImpact } from '../../src/analyze/impact/index.js';
import {
  CAUSE_RULES,
  IMPACT_FINDINGS,
  PLACEMENT_REASONS,
  PLAN_FINDINGS,
  ROLLOUT_REASONS,
} from '../../src/model/reasons/index.js';
import { causesOf } from '../../src/analyze/causes/index.js';
import { planDaemonSet } from '../../src/analyze/plan/index.js';
import { NOW } from '../builders.js';

type Family = 'placement' | 'rollout' | 'impact' | 'plan' | 'causes';

const REGISTRY: Record<Family, readonly string[]> = {
  placement: Object.keys(PLACEMENT_REASONS),
  rollout: Object.keys(ROLLOUT_REASONS),
  impact: Object.keys(IMPACT_FINDINGS),
  plan: Object.keys(PLAN_FINDINGS),
  causes: Object.keys(CAUSE_RULES),
};

/**
 * Codes that no fixture dump produces, each produced by a dedicated unit test whose name says
 * the code (checked below). Keep this list short: a code that a realistic dump can show belongs
 * in a fixture.
 */
const ONLY_IN_UNIT_TESTS: Record<Family, readonly string[]> = {
  // The controller's own refusals (placement.test.ts's table) and scheduler outcomes no dump
  // shows (reason-codes.test.ts).
  placement: [
    'ControllerNotObserved',
    'DaemonSetDeleting',
    'FailedScheduling',
    'NodeNameMismatch',
    'SchedulingGated',
    'SelectingAll',
    'VolumeConflict',
  ],
  // Rollout states no fixture rollout is caught in (reason-codes.test.ts, rollout.test.ts).
  rollout: ['DaemonSetDeleting', 'FailedCreate', 'InvalidBudget', 'OldPodsTerminating', 'OldPodsUnavailable'],
  // Roles and inputs no impact fixture has (reason-codes.test.ts).
  impact: ['NodeDnsLost', 'PodsNotInInput', 'ServiceLosesLocalEndpoints'],
  // Changes the two fixtures/plan manifests do not make (plan.test.ts).
  // Root causes the fixtures' stories do not hold (causes.test.ts).
  causes: [
    'CloudProviderNotInitialized',
    'HostPortHeldByDaemonSet',
    'KnownUpstreamBug',
    'LabelNotWritten',
    'LegacyOnDeleteDefault',
    'NetworkNotReadyAgentRunning',
    'NoNetworkAgent',
    'NodePressure',
    'NodeWithoutPodCIDR',
    'PullSecretNotCarried',
    'SelectsNoNode',
  ],
  plan: [
    'AdmissionRefused',
    'DeletionNeverConfirmed',
    'MetadataOnlyChange',
    'OnDeleteManual',
    'PodsWillBePending',
    'RoleOutageRisk',
    'RolloutWillStall',
    'StrategyOnlyChange',
    'SurgeHostPortStall',
  ],
};

function fixtureInputs(): string[][] {
  const dirs = (root: string, file: string) =>
    readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(root, e.name, file)))
      .map((e) => [join(root, e.name, file)]);
  return [
    ['fixtures/demo'],
    ['fixtures/cluster-info-dump'],
    ...dirs('fixtures/scenarios', 'dump.yaml'),
    ...dirs('fixtures/impact', 'cluster.yaml'),
  ];
}

async function producedCodes(): Promise<Record<Family, Set<string>>> {
  const produced: Record<Family, Set<string>> = {
    placement: new Set(),
    rollout: new Set(),
    impact: new Set(),
    plan: new Set(),
    causes: new Set(),
  };
  for (const input of fixtureInputs()) {
    const index = new SnapshotIndex(await loadFiles(input, async () => ''));
    for (const c of causesOf(index, index.snapshot.daemonSets, { now: NOW })) produced.causes.add(c.code);
    for (const ds of index.snapshot.daemonSets) {
      for (const v of diagnoseAllNodes(index, ds, NOW)) for (const r of v.reasons) produced.placement.add(r.code);
      const rollout = diagnoseRollout(index, ds, NOW);
      for (const r of rollout.reasons) produced.rollout.add(r.code);
      for (const b of rollout.blockers) produced.placement.add(b.code);
      for (const cascade of ['background', 'foreground', 'orphan'] as const) {
        for (const f of analyzeImpact(index, ds, cascade, NOW).findings) produced.impact.add(f.code);
      }
    }
  }
  // The change manifests of fixtures/plan against the demo dump.
  const demo = new SnapshotIndex(await loadFiles(['fixtures/demo'], async () => ''));
  for (const file of readdirSync('fixtures/plan')
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    for (const ds of (await loadFiles([join('fixtures/plan', file)], async () => '')).daemonSets) {
      for (const n of planDaemonSet(demo, ds, NOW).nodes) {
        if (n.reason) produced.placement.add(n.reason);
        for (const r of n.fit?.reasons ?? []) produced.placement.add(r.code);
      }
      for (const f of planDaemonSet(demo, ds, NOW).findings) produced.plan.add(f.code);
    }
  }
  return produced;
}

/**
 * The names of every test in test/unit: the first argument of each test() or it() call, and the
 * `name` of each case of a table whose cases become one test() each.
 */
function unitTestNames(dir = 'test/unit'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return unitTestNames(path);
    if (!e.name.endsWith('.test.ts')) return [];
    return [...readFileSync(path, 'utf8').matchAll(/(?:\b(?:test|it)\(\s*|\bname: )(['"`])((?:\\.|(?!\1).)*)\1/g)].map(
      (m) => m[2]!,
    );
  });
}

const produced = await producedCodes();
const families: Family[] = ['placement', 'rollout', 'impact', 'plan', 'causes'];

for (const family of families) {
  test(`every produced ${family} code is registered`, () => {
    const unknown = [...produced[family]].filter((c) => !REGISTRY[family].includes(c));
    assert.deepEqual(unknown, []);
  });

  test(`every registered ${family} code is produced by a fixture or listed as unit-test only`, () => {
    const missing = REGISTRY[family].filter((c) => !produced[family].has(c)).sort();
    assert.deepEqual(
      missing,
      [...ONLY_IN_UNIT_TESTS[family]].sort(),
      'the codes no fixture produces must be exactly ONLY_IN_UNIT_TESTS',
    );
  });

  test(`every unit-test-only ${family} code is named in a unit test's name`, () => {
    const names = unitTestNames();
    for (const code of ONLY_IN_UNIT_TESTS[family]) {
      assert.ok(REGISTRY[family].includes(code), `${code} is registered`);
      assert.ok(
        names.some((n) => new RegExp(`\\b${code}\\b`).test(n)),
        `no unit test names ${code}`,
      );
    }
  });
}
