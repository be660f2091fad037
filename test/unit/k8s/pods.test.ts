// Ported from pkg/api/v1/pod/util_test.go (TestIsPodAvailable), pkg/controller/daemon/util
// (TestIsPodUpdated) and the controller's podByCreationTimestampAndPhase ordering.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compareDaemonPodAge, isPodAvailable, isPodReady, secondsUntilAvailable } from '../../../src/k8s/podutil.js';
import { currentRevision, isPodUpdated, templateGeneration } from '../../../src/k8s/revision.js';
import { NOW, ago, daemonSet, pod } from '../../builders.js';

describe('IsPodAvailable with minReadySeconds (1.34+: ready-since + minReady <= now)', () => {
  const cases: { name: string; readyFor?: number; min: number; want: boolean }[] = [
    { name: 'not ready', min: 0, want: false },
    { name: 'ready, minReady 0', readyFor: 0, min: 0, want: true },
    { name: 'ready 10s, minReady 30', readyFor: 10, min: 30, want: false },
    { name: 'ready exactly minReady (<= now)', readyFor: 30, min: 30, want: true },
    { name: 'ready 60s, minReady 30', readyFor: 60, min: 30, want: true },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const p =
        c.readyFor === undefined
          ? pod('p').on('n').waiting('ContainerCreating').build()
          : pod('p').on('n').ready(c.readyFor).build();
      assert.equal(isPodAvailable(p, c.min, NOW), c.want, c.name);
    });
  }
  test('a Ready condition without lastTransitionTime; seconds until available', () => {
    const noTime = pod('p')
      .on('n')
      .ready(5)
      .with((p) => {
        delete p.status!.conditions![0]!.lastTransitionTime;
      })
      .build();
    assert.equal(isPodReady(noTime), true);
    assert.equal(isPodAvailable(noTime, 10, NOW), false, 'zero lastTransitionTime with minReady > 0');
    assert.equal(secondsUntilAvailable(pod('p').on('n').ready(10).build(), 30, NOW), 20);
  });
});

describe('IsPodUpdated: hash or pod-template-generation', () => {
  const ds = daemonSet('d').build();
  const cases: { hash: string; gen: string; curHash: string; curGen: number | undefined; want: boolean }[] = [
    { hash: 'abc', gen: '1', curHash: 'abc', curGen: 2, want: true },
    { hash: 'old', gen: '2', curHash: 'abc', curGen: 2, want: true },
    { hash: 'old', gen: '1', curHash: 'abc', curGen: 2, want: false },
    { hash: 'old', gen: '1', curHash: '', curGen: undefined, want: false },
    { hash: '', gen: '1', curHash: '', curGen: 1, want: true },
  ];
  for (const c of cases) {
    test(JSON.stringify(c), () => {
      const p = pod('p').ofDaemonSet(ds, 'n', c.hash, c.gen).build();
      assert.equal(isPodUpdated(p, c.curHash, c.curGen), c.want, JSON.stringify(c));
    });
  }
  test('templateGeneration reads the pod-template-generation annotation', () => {
    assert.equal(templateGeneration(daemonSet('d').generation(3, 2).build()), 2);
  });
});

test('currentRevision: the revision whose data matches the template, else pods of the current generation', () => {
  const ds = daemonSet('d').generation(2).build();
  const rev = (n: number, hash: string, image: string) => ({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    revision: n,
    metadata: { name: `d-${hash}`, namespace: 'default', labels: { 'controller-revision-hash': hash } },
    data: {
      spec: {
        template: {
          ...JSON.parse(JSON.stringify(ds.spec!.template)),
          spec: { ...ds.spec!.template!.spec, containers: [{ name: 'd', image }] },
          $patch: 'replace',
        },
      },
    },
  });
  const revs = [rev(1, 'aaa', 'other:0'), rev(2, 'bbb', 'example/d:1.0')];
  assert.deepEqual([currentRevision(ds, revs, []).hash, currentRevision(ds, revs, []).source], ['bbb', 'revision']);
  const p = pod('p').ofDaemonSet(ds, 'n', 'ccc', '2').build();
  assert.deepEqual([currentRevision(ds, [], [p]).hash, currentRevision(ds, [], [p]).source], ['ccc', 'pods']);
  assert.equal(currentRevision(ds, [], []).source, 'unknown');
});

test('podByCreationTimestampAndPhase: bound first, then older, then name', () => {
  const pods = [
    pod('c').created(100).build(),
    pod('b').on('n').created(50).build(),
    pod('a').on('n').created(50).build(),
    pod('z').on('n').created(10).build(),
  ];
  assert.deepEqual(
    pods.sort(compareDaemonPodAge).map((p) => p.metadata!.name),
    ['a', 'b', 'z', 'c'],
  );
  assert.ok(ago(1) < ago(0));
});
