// `rollout --watch`, its pure parts: kubectl's DaemonSetStatusViewer (k8s/rolloutstatus.ts), the
// watch events applied to a store (client/watch.ts, load/live-watch.ts), and the follower's lines and endings
// (analyze/rollout/follow.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DaemonSet } from '../../src/model/k8s-types.js';
import type { RolloutDiagnosis } from '../../src/model/results.js';
import { daemonSetStatusView } from '../../src/k8s/rolloutstatus.js';
import { handleWatchEvent, reconnectDelayMs, type WatchStore } from '../../src/client/watch.js';
import { normalizeWatched } from '../../src/load/live-watch.js';
import { durationText, followStep, startFollowing, type FollowOptions } from '../../src/analyze/rollout/follow.js';

interface St {
  generation?: number;
  observed?: number;
  desired: number;
  updated: number;
  available: number;
  strategy?: string;
}

function ds({ generation = 1, observed = 1, desired, updated, available, strategy }: St): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'foo', namespace: 'bar', generation },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: {},
      ...(strategy ? { updateStrategy: { type: strategy } } : {}),
    },
    status: {
      observedGeneration: observed,
      desiredNumberScheduled: desired,
      updatedNumberScheduled: updated,
      numberAvailable: available,
      currentNumberScheduled: desired,
      numberMisscheduled: 0,
      numberReady: available,
    },
  };
}

describe("kubectl's DaemonSetStatusViewer", () => {
  // The cases of TestDaemonSetStatusViewerStatus and TestDaemonSetStatusViewerStatusWithWrongUpdateStrategyType
  // (kubectl pkg/polymorphichelpers/rollout_status_test.go), and the defaulted strategy.
  const cases: { name: string; st: St; message: string; done: boolean; error?: true }[] = [
    {
      name: 'no pod updated yet',
      st: { desired: 1, updated: 0, available: 0 },
      message: 'Waiting for daemon set "foo" rollout to finish: 0 out of 1 new pods have been updated...',
      done: false,
    },
    {
      name: 'updated, not available',
      st: { desired: 1, updated: 1, available: 0 },
      message: 'Waiting for daemon set "foo" rollout to finish: 0 of 1 updated pods are available...',
      done: false,
    },
    {
      name: 'updated and available',
      st: { desired: 1, updated: 1, available: 1 },
      message: 'daemon set "foo" successfully rolled out',
      done: true,
    },
    {
      name: 'generation not observed',
      st: { generation: 2, observed: 1, desired: 1, updated: 1, available: 1 },
      message: 'Waiting for daemon set spec update to be observed...',
      done: false,
    },
    {
      name: 'no strategy written: RollingUpdate by default',
      st: { desired: 3, updated: 2, available: 3 },
      message: 'Waiting for daemon set "foo" rollout to finish: 2 out of 3 new pods have been updated...',
      done: false,
    },
    {
      name: 'OnDelete',
      st: { desired: 1, updated: 0, available: 0, strategy: 'OnDelete' },
      message: 'rollout status is only available for RollingUpdate strategy type',
      done: true,
      error: true,
    },
    {
      name: 'nothing desired',
      st: { desired: 0, updated: 0, available: 0 },
      message: 'daemon set "foo" successfully rolled out',
      done: true,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(daemonSetStatusView(ds(c.st)), {
        message: c.message,
        done: c.done,
        ...(c.error ? { error: true } : {}),
      });
    });
  }
});

const podObject = (name: string, rv: string, phase = 'Pending') => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name, namespace: 'bar', resourceVersion: rv },
  spec: { nodeName: 'n1' },
  status: { phase },
});

describe('watch events applied to a store (the reflector watchHandler)', () => {
  const cases: {
    name: string;
    held: string[];
    event: Record<string, unknown>;
    effect: string;
    keys: string[];
    rv: string;
    phase?: string;
  }[] = [
    {
      name: 'ADDED puts the object and advances the version',
      held: [],
      event: { type: 'ADDED', object: podObject('p1', '11') },
      effect: 'changed',
      keys: ['bar/p1'],
      rv: '11',
    },
    {
      name: 'MODIFIED replaces it',
      held: ['p1'],
      event: { type: 'MODIFIED', object: podObject('p1', '12', 'Running') },
      effect: 'changed',
      keys: ['bar/p1'],
      rv: '12',
      phase: 'Running',
    },
    {
      name: 'MODIFIED at the version held changes nothing',
      held: ['p1'],
      event: { type: 'MODIFIED', object: podObject('p1', '10') },
      effect: 'unchanged',
      keys: ['bar/p1'],
      rv: '10',
    },
    {
      name: 'DELETED removes it',
      held: ['p1'],
      event: { type: 'DELETED', object: podObject('p1', '13') },
      effect: 'changed',
      keys: [],
      rv: '13',
    },
    {
      name: 'DELETED of an object not held',
      held: [],
      event: { type: 'DELETED', object: podObject('p9', '13') },
      effect: 'unchanged',
      keys: [],
      rv: '13',
    },
    {
      name: 'BOOKMARK only advances the version',
      held: ['p1'],
      event: { type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '99' } } },
      effect: 'unchanged',
      keys: ['bar/p1'],
      rv: '99',
    },
    {
      name: 'ERROR 410 asks for a new list and keeps the version',
      held: ['p1'],
      event: {
        type: 'ERROR',
        object: {
          kind: 'Status',
          status: 'Failure',
          reason: 'Expired',
          code: 410,
          message: 'too old resource version: 5 (20)',
        },
      },
      effect: 'relist',
      keys: ['bar/p1'],
      rv: '10',
    },
    {
      name: 'ERROR 500 ends the watch',
      held: [],
      event: { type: 'ERROR', object: { kind: 'Status', code: 500, message: 'etcdserver: leader changed' } },
      effect: 'error',
      keys: [],
      rv: '10',
    },
    {
      name: 'an unknown type is ignored',
      held: [],
      event: { type: 'SOMETHING', object: podObject('p2', '30') },
      effect: 'unchanged',
      keys: [],
      rv: '30',
    },
    {
      name: 'an object without a name is skipped',
      held: [],
      event: { type: 'ADDED', object: { kind: 'Pod', metadata: { resourceVersion: '31' } } },
      effect: 'unchanged',
      keys: [],
      rv: '31',
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const store: WatchStore = {
        kind: 'Pod',
        objects: new Map(c.held.map((n) => [`bar/${n}`, podObject(n, '10') as never])),
        resourceVersion: '10',
      };
      const applied = handleWatchEvent(store, c.event, normalizeWatched);
      assert.equal(applied.effect, c.effect);
      assert.deepEqual([...store.objects.keys()], c.keys);
      assert.equal(store.resourceVersion, c.rv);
      if (c.phase)
        assert.equal((store.objects.get('bar/p1') as { status?: { phase?: string } }).status?.phase, c.phase);
    });
  }
  test('a held object is the loader shape: kind and apiVersion set', () => {
    const store: WatchStore = { kind: 'Pod', objects: new Map(), resourceVersion: '' };
    handleWatchEvent(
      store,
      {
        type: 'ADDED',
        object: { metadata: { name: 'p', namespace: 'bar', resourceVersion: '1', managedFields: [{}] } },
      },
      normalizeWatched,
    );
    const held = store.objects.get('bar/p')!;
    assert.equal(held.kind, 'Pod');
    assert.equal(held.apiVersion, 'v1');
    assert.equal((held.metadata as Record<string, unknown>)['managedFields'], undefined);
  });
  test('reconnects back off from 0.8s to 30s, as client-go', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 20].map(reconnectDelayMs),
      [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000],
    );
  });
});

describe('following a rollout: lines and endings', () => {
  const opts: FollowOptions = { startMs: 0, stuckAfterMs: 60_000, timeoutMs: 300_000, confirmMs: 5000 };
  const diag = (verdict: RolloutDiagnosis['verdict'], updated: number, available: number) =>
    ({ verdict, updated, available }) as RolloutDiagnosis;
  type Step = { at: number; st: St; verdict: RolloutDiagnosis['verdict']; lines: string[]; end?: string };
  const cases: { name: string; steps: Step[]; options?: Partial<FollowOptions> }[] = [
    {
      name: 'a rolling update to the end prints each line once',
      steps: [
        {
          at: 0,
          st: { desired: 2, updated: 0, available: 2 },
          verdict: 'Progressing',
          lines: ['Waiting for daemon set "foo" rollout to finish: 0 out of 2 new pods have been updated...'],
        },
        { at: 100, st: { desired: 2, updated: 0, available: 1 }, verdict: 'Progressing', lines: [] },
        {
          at: 200,
          st: { desired: 2, updated: 1, available: 1 },
          verdict: 'Progressing',
          lines: ['Waiting for daemon set "foo" rollout to finish: 1 out of 2 new pods have been updated...'],
        },
        {
          at: 300,
          st: { desired: 2, updated: 2, available: 1 },
          verdict: 'Progressing',
          lines: ['Waiting for daemon set "foo" rollout to finish: 1 of 2 updated pods are available...'],
        },
        {
          at: 400,
          st: { desired: 2, updated: 2, available: 2 },
          verdict: 'Complete',
          lines: ['daemon set "foo" successfully rolled out'],
          end: 'complete',
        },
      ],
    },
    {
      name: 'a spec update not yet observed, then the rollout',
      steps: [
        {
          at: 0,
          st: { generation: 3, observed: 2, desired: 1, updated: 1, available: 1 },
          verdict: 'Pending',
          lines: ['Waiting for daemon set spec update to be observed...'],
        },
        {
          at: 50,
          st: { generation: 3, observed: 3, desired: 1, updated: 0, available: 1 },
          verdict: 'Progressing',
          lines: ['Waiting for daemon set "foo" rollout to finish: 0 out of 1 new pods have been updated...'],
        },
      ],
    },
    {
      name: 'a Stuck diagnosis ends following once it held for confirmMs',
      steps: [
        {
          at: 0,
          st: { desired: 2, updated: 1, available: 1 },
          verdict: 'Stuck',
          lines: ['Waiting for daemon set "foo" rollout to finish: 1 out of 2 new pods have been updated...'],
        },
        { at: 4999, st: { desired: 2, updated: 1, available: 1 }, verdict: 'Stuck', lines: [] },
        {
          at: 5000,
          st: { desired: 2, updated: 1, available: 1 },
          verdict: 'Stuck',
          lines: [],
          end: 'stuck: the rollout is stuck',
        },
      ],
    },
    {
      name: 'a Stuck moment between two others does not end it',
      steps: [
        {
          at: 0,
          st: { desired: 2, updated: 1, available: 1 },
          verdict: 'Stuck',
          lines: ['Waiting for daemon set "foo" rollout to finish: 1 out of 2 new pods have been updated...'],
        },
        { at: 3000, st: { desired: 2, updated: 1, available: 1 }, verdict: 'Progressing', lines: [] },
        { at: 6000, st: { desired: 2, updated: 1, available: 1 }, verdict: 'Stuck', lines: [] },
        { at: 10_000, st: { desired: 2, updated: 1, available: 1 }, verdict: 'Stuck', lines: [] },
      ],
    },
    {
      name: 'no progress for --stuck-after ends it, whatever the diagnosis says',
      steps: [
        {
          at: 0,
          st: { desired: 2, updated: 1, available: 1 },
          verdict: 'Progressing',
          lines: ['Waiting for daemon set "foo" rollout to finish: 1 out of 2 new pods have been updated...'],
        },
        { at: 59_999, st: { desired: 2, updated: 1, available: 1 }, verdict: 'Progressing', lines: [] },
        {
          at: 60_000,
          st: { desired: 2, updated: 1, available: 1 },
          verdict: 'Progressing',
          lines: [],
          end: 'stuck: no progress for 1m (--stuck-after)',
        },
      ],
    },
    {
      name: 'progress in the pods alone restarts the --stuck-after clock',
      steps: [
        {
          at: 0,
          st: { desired: 2, updated: 1, available: 1 },
          verdict: 'Progressing',
          lines: ['Waiting for daemon set "foo" rollout to finish: 1 out of 2 new pods have been updated...'],
        },
        { at: 50_000, st: { desired: 2, updated: 1, available: 1 }, verdict: 'Progressing', lines: [] },
        { at: 100_000, st: { desired: 2, updated: 1, available: 1 }, verdict: 'Progressing', lines: [] },
      ],
    },
    {
      name: '--timeout ends it',
      options: { timeoutMs: 30_000 },
      steps: [
        {
          at: 0,
          st: { desired: 1, updated: 0, available: 1 },
          verdict: 'Progressing',
          lines: ['Waiting for daemon set "foo" rollout to finish: 0 out of 1 new pods have been updated...'],
        },
        {
          at: 30_000,
          st: { desired: 1, updated: 0, available: 1 },
          verdict: 'Progressing',
          lines: [],
          end: 'timeout: timed out after 30s (--timeout)',
        },
      ],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const o = { ...opts, ...c.options };
      const state = startFollowing(0);
      c.steps.forEach((s, i) => {
        // In "progress in the pods alone", the pods' available count moves at 50s.
        const available = c.name.startsWith('progress in the pods') && s.at >= 50_000 ? 2 : s.st.available;
        const step = followStep(state, ds(s.st), diag(s.verdict, s.st.updated, available), s.at, o);
        assert.deepEqual(step.lines, s.lines, `step ${i}`);
        const end = step.outcome
          ? `${step.outcome.end}${'why' in step.outcome ? `: ${step.outcome.why}` : ''}`
          : undefined;
        assert.equal(end, s.end, `step ${i}`);
      });
    });
  }
  test('durations read as the flags write them', () => {
    assert.deepEqual([0, 1000, 90_000, 600_000, 5_400_000, 3_600_000].map(durationText), [
      '0s',
      '1s',
      '1m30s',
      '10m',
      '1h30m',
      '1h',
    ]);
  });
});
