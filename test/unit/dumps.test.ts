// What real dumps need beyond the loader: inputs without pods or nodes judged by the DaemonSets'
// status, pre-1.16 spec.templateGeneration, and the time a dump describes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeAbsentKinds, type NeededKind } from '../../src/analyze/input-evidence.js';
import { currentRevision, isPodUpdated, templateGenerationOf } from '../../src/k8s/revision.js';
import { snapshotTime } from '../../src/model/snapshot-time.js';
import type { DaemonSet, DaemonSetStatus, Pod } from '../../src/model/k8s-types.js';
import { daemonSet, node, pod, snapshotOf } from '../builders.js';

function withStatus(status: DaemonSetStatus | undefined, name = 'agent'): DaemonSet {
  return daemonSet(name, 'kube-system')
    .with((ds) => {
      if (status) ds.status = status;
      else delete ds.status;
    })
    .build();
}

const ZERO: DaemonSetStatus = {
  currentNumberScheduled: 0,
  numberMisscheduled: 0,
  desiredNumberScheduled: 0,
  numberReady: 0,
};

const ABSENCE_CASES: {
  name: string;
  absent: NeededKind[];
  daemonSets: DaemonSet[];
  accepted?: NeededKind[];
  refusal?: RegExp;
}[] = [
  {
    name: 'no pods, status counts none scheduled: collected, none',
    absent: ['Pod'],
    daemonSets: [withStatus({ ...ZERO, desiredNumberScheduled: 3 })],
    accepted: ['Pod'],
  },
  {
    name: 'no pods and no nodes, status desires none: both answerable',
    absent: ['Node', 'Pod'],
    daemonSets: [withStatus(ZERO)],
    accepted: ['Node', 'Pod'],
  },
  {
    name: 'no pods, status counts scheduled pods: the input contradicts itself',
    absent: ['Pod'],
    daemonSets: [withStatus({ ...ZERO, currentNumberScheduled: 2, desiredNumberScheduled: 2 })],
    refusal:
      /^the input has no Pod objects, but the status of daemonset kube-system\/agent counts 2 scheduled pod\(s\): why needs them \(add the output of kubectl get pods -n kube-system -l 'app=agent' -o yaml\)$/,
  },
  {
    name: 'no pods, misscheduled pods counted',
    absent: ['Pod'],
    daemonSets: [withStatus({ ...ZERO, numberMisscheduled: 1 })],
    refusal: /counts 1 scheduled pod\(s\)/,
  },
  {
    name: 'no nodes, status desires pods on nodes',
    absent: ['Node'],
    daemonSets: [withStatus({ ...ZERO, desiredNumberScheduled: 4 })],
    refusal:
      /^the input has no Node objects, but the status of daemonset kube-system\/agent wants a pod on 4 node\(s\): why needs them \(add the output of kubectl get nodes -o yaml\)$/,
  },
  {
    name: 'a bare manifest (no status) cannot tell',
    absent: ['Node', 'Pod'],
    daemonSets: [withStatus(undefined)],
    refusal:
      /^the input has no Node objects or Pod objects: why needs them \(add the output of kubectl get nodes,pods -A -o yaml\); for manifests alone, use ds-doctor lint$/,
  },
  {
    name: 'one of several DaemonSets with pods refuses, naming it',
    absent: ['Pod'],
    daemonSets: [withStatus(ZERO, 'a'), withStatus({ ...ZERO, currentNumberScheduled: 1 }, 'b')],
    refusal: /daemonset kube-system\/b counts 1/,
  },
  { name: 'no DaemonSet in scope: nothing to refuse', absent: ['Pod'], daemonSets: [], accepted: [] },
];

for (const c of ABSENCE_CASES) {
  test(`absent kinds: ${c.name}`, () => {
    const j = judgeAbsentKinds(c.absent, c.daemonSets, 'why');
    if (c.refusal) {
      assert.match(j.refusal ?? '<answered>', c.refusal);
      return;
    }
    assert.equal(j.refusal, undefined);
    assert.deepEqual(
      j.accepted.map((a) => a.kind),
      c.accepted,
    );
    for (const a of j.accepted)
      assert.match(
        a.note,
        a.kind === 'Pod'
          ? /^no Pod objects in the input: taken as none/
          : /^no Node objects in the input: .*desiredNumberScheduled 0/,
      );
  });
}

// kubernetes v1.15 pkg/controller/daemon/util/daemonset_util.go#IsPodUpdated compares the
// pod-template-generation label with the template generation, which an extensions/v1beta1
// DaemonSet (clusters before 1.16) carries in spec.templateGeneration, not in the annotation.
const GENERATION_CASES: {
  name: string;
  annotation?: string;
  spec?: number;
  label: string;
  field?: string;
  updated: boolean;
}[] = [
  {
    name: 'spec.templateGeneration decides when the annotation is absent',
    spec: 3,
    label: '3',
    field: 'spec.templateGeneration',
    updated: true,
  },
  {
    name: 'spec.templateGeneration: an older pod is outdated',
    spec: 3,
    label: '2',
    field: 'spec.templateGeneration',
    updated: false,
  },
  {
    name: 'the annotation wins over spec.templateGeneration',
    annotation: '4',
    spec: 3,
    label: '4',
    field: 'deprecated.daemonset.template.generation',
    updated: true,
  },
  { name: 'neither: no generation, so only the hash can match', label: '1', updated: false },
];

for (const c of GENERATION_CASES) {
  test(`template generation: ${c.name}`, () => {
    const ds = daemonSet('legacy')
      .with((d) => {
        delete d.metadata!.annotations!['deprecated.daemonset.template.generation'];
        if (c.annotation) d.metadata!.annotations!['deprecated.daemonset.template.generation'] = c.annotation;
        if (c.spec !== undefined) d.spec!.templateGeneration = c.spec;
      })
      .build();
    const p = pod('legacy-x').ofDaemonSet(ds, 'n1', 'somehash', c.label).build();
    const of = templateGenerationOf(ds);
    assert.equal(of?.field, c.field);
    const rev = currentRevision(ds, [], []);
    assert.equal(isPodUpdated(p, rev.hash, rev.generation), c.updated);
  });
}

/** Each field a dump is dated by, set alone (the rest of the object older): where it goes in an object. */
type TimeField = [where: string, place: (t: string) => Record<string, unknown>];
const TIME_FIELDS: TimeField[] = [
  ['metadata.creationTimestamp', (t) => ({ metadata: { name: 'x', creationTimestamp: t } })],
  ['metadata.deletionTimestamp', (t) => ({ metadata: { name: 'x', deletionTimestamp: t } })],
  ['lastTimestamp (Event)', (t) => ({ lastTimestamp: t })],
  ['firstTimestamp (Event)', (t) => ({ firstTimestamp: t })],
  ['eventTime (Event)', (t) => ({ eventTime: t })],
  ['deprecatedLastTimestamp (events.k8s.io Event)', (t) => ({ deprecatedLastTimestamp: t })],
  ['series.lastObservedTime', (t) => ({ series: { count: 2, lastObservedTime: t } })],
  ['status.startTime', (t) => ({ status: { startTime: t } })],
  ...['lastTransitionTime', 'lastHeartbeatTime', 'lastProbeTime', 'lastUpdateTime'].map((f): TimeField => [
    `status.conditions[].${f}`,
    (t) => ({ status: { conditions: [{ type: 'A' }, { type: 'Ready', [f]: t }] } }),
  ]),
  ...['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'].flatMap((list): TimeField[] => [
    [
      `status.${list}[].state.running.startedAt`,
      (t) => ({ status: { [list]: [{ name: 'a' }, { name: 'b', state: { running: { startedAt: t } } }] } }),
    ],
    [
      `status.${list}[].lastState.terminated.finishedAt`,
      (t) => ({ status: { [list]: [{ name: 'b', lastState: { terminated: { exitCode: 1, finishedAt: t } } }] } }),
    ],
  ]),
];
for (const [where, place] of TIME_FIELDS) {
  test(`the time a snapshot describes: ${where} is read`, () => {
    const older = node('n1').build();
    older.metadata!.creationTimestamp = '2017-01-01T00:00:00Z';
    // Whole seconds in UTC compare as text; a fraction is parsed: both forms are read.
    for (const t of ['2017-12-13T17:07:23Z', '2017-12-13T17:07:23.25+01:00']) {
      const obj = { kind: 'Pod', ...place(t) } as Pod;
      assert.equal(
        snapshotTime(snapshotOf({ nodes: [older], pods: [obj] }))?.getTime(),
        Date.parse(t),
        `${where} = ${t}`,
      );
    }
  });
}

test('the time a snapshot describes is its newest timestamp: heartbeats, container exits, events', () => {
  const n = node('n1').build();
  n.metadata!.creationTimestamp = '2017-01-01T00:00:00Z';
  n.status = { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2017-12-13T17:07:23Z' }] };
  const p = pod('p').build();
  p.metadata!.creationTimestamp = '2017-12-01T00:00:00Z';
  p.status = {
    containerStatuses: [
      {
        name: 'main',
        ready: false,
        restartCount: 1,
        lastState: { terminated: { exitCode: 1, finishedAt: '2017-12-13T17:09:00.5Z' } },
      },
    ],
  };
  const s = snapshotOf({ nodes: [n], pods: [p], daemonSets: [] });
  assert.equal(snapshotTime(s)?.toISOString(), '2017-12-13T17:09:00.500Z');
  const manifest = withStatus(undefined);
  delete manifest.metadata!.creationTimestamp;
  assert.equal(snapshotTime(snapshotOf({ daemonSets: [manifest] })), undefined, 'manifests describe no time');
});
