// Ported from k8s.io/component-helpers/resource/helpers_test.go (TestPodRequests with sidecars and
// init containers, overhead, pod-level resources) and the scheduler's noderesources fit_test.go
// (TestEnoughRequests: pod count, Insufficient <resource>, zero requests never insufficient),
// nodeports (TestNodePorts: 0.0.0.0 wildcard) and the rule that terminal pods free resources (docs/semantics.md §4.1).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fitsNode, podRequests, podsUsingNode } from '../../../src/k8s/resources.js';
import { hostPortConflicts, portsConflict, wantedHostPorts } from '../../../src/k8s/hostports.js';
import type { PodSpec } from '../../../src/model/k8s-types.js';
import { node, pod } from '../../builders.js';

const c = (name: string, requests: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  name,
  resources: { requests },
  ...extra,
});

describe('PodRequests: max(sum of containers + sidecars, init container peaks)', () => {
  const cases: { name: string; spec: PodSpec; cpu: number; memory?: number }[] = [
    { name: 'sum of containers', spec: { containers: [c('a', { cpu: '100m' }), c('b', { cpu: '200m' })] }, cpu: 300 },
    {
      name: 'init larger than containers',
      spec: { initContainers: [c('i', { cpu: '1' })], containers: [c('a', { cpu: '100m' })] },
      cpu: 1000,
    },
    {
      name: 'sidecar adds to the sum',
      spec: {
        initContainers: [c('s', { cpu: '100m' }, { restartPolicy: 'Always' })],
        containers: [c('a', { cpu: '200m' })],
      },
      cpu: 300,
    },
    {
      name: 'init after sidecar counts the sidecar',
      spec: {
        initContainers: [c('s', { cpu: '500m' }, { restartPolicy: 'Always' }), c('i', { cpu: '800m' })],
        containers: [c('a', { cpu: '100m' })],
      },
      cpu: 1300,
    },
    {
      name: 'init before sidecar does not',
      spec: {
        initContainers: [c('i', { cpu: '800m' }), c('s', { cpu: '500m' }, { restartPolicy: 'Always' })],
        containers: [c('a', { cpu: '100m' })],
      },
      cpu: 800,
    },
    {
      name: 'limits default missing requests',
      spec: { containers: [{ name: 'a', resources: { limits: { cpu: '250m' } } }] },
      cpu: 250,
    },
    { name: 'overhead is added', spec: { containers: [c('a', { cpu: '100m' })], overhead: { cpu: '50m' } }, cpu: 150 },
    {
      name: 'pod-level requests replace cpu/memory',
      spec: { containers: [c('a', { cpu: '100m', memory: '1Gi' })], resources: { requests: { cpu: '2' } } },
      cpu: 2000,
      memory: 1073741824,
    },
  ];
  for (const t of cases) {
    test(t.name, () => {
      const r = podRequests(t.spec);
      assert.equal(r.get('cpu') ?? 0, t.cpu, t.name);
      if (t.memory !== undefined) assert.equal(r.get('memory'), t.memory, t.name);
    });
  }
});

test('NodeResourcesFit: pod count, shortages, zero requests, terminal pods excluded', () => {
  const n = node('n').allocatable({ cpu: '2', memory: '4Gi', pods: '3', 'nvidia.com/gpu': '1' }).build();
  const busy = pod('busy').on('n').requests({ cpu: '1500m', memory: '1Gi' }).build();
  const done = pod('done').on('n').requests({ cpu: '2', memory: '4Gi' }).phase('Succeeded').build();
  const others = podsUsingNode([busy, done]);
  assert.deepEqual(
    others.map((p) => p.metadata!.name),
    ['busy'],
    'terminal pods do not count',
  );
  const want = pod('ds').requests({ cpu: '600m', memory: '1Gi', 'nvidia.com/gpu': '2' }).build();
  const fit = fitsNode(want, n, others);
  assert.deepEqual(
    fit.shortages.map((s) => s.resource),
    ['cpu', 'nvidia.com/gpu'],
  );
  assert.deepEqual(
    [fit.shortages[0]!.requested, fit.shortages[0]!.allocatable, fit.shortages[0]!.used],
    [600, 2000, 1500],
  );
  assert.equal(fit.tooManyPods, undefined);
  const zero = pod('zero').build();
  assert.deepEqual(fitsNode(zero, n, others).shortages, []);
  const full = [busy, pod('x').on('n').build(), pod('y').on('n').build()];
  assert.deepEqual(
    fitsNode(zero, n, full).tooManyPods,
    { allowed: 3, existing: 3 },
    'pod count is checked even with zero requests',
  );
  const terminating = pod('t').on('n').requests({ cpu: '1' }).terminating(5).build();
  assert.equal(podsUsingNode([terminating]).length, 1, 'terminating (non-terminal) pods still count');
});

test('NodePorts: (hostIP, protocol, port) with the 0.0.0.0 wildcard', () => {
  const p = (ip: string, port: number, protocol = 'TCP') => ({ ip, port, protocol });
  assert.equal(portsConflict(p('0.0.0.0', 80), p('10.0.0.1', 80)), true);
  assert.equal(portsConflict(p('10.0.0.1', 80), p('10.0.0.2', 80)), false);
  assert.equal(portsConflict(p('10.0.0.1', 80), p('10.0.0.1', 80)), true);
  assert.equal(portsConflict(p('0.0.0.0', 80, 'UDP'), p('0.0.0.0', 80)), false);
  const holder = pod('old')
    .on('n')
    .with((x) => {
      x.spec!.containers![0]!.ports = [{ containerPort: 9100, hostPort: 9100 }];
    })
    .build();
  const wanting = pod('new')
    .with((x) => {
      x.spec!.containers![0]!.ports = [{ containerPort: 9100, hostPort: 9100, hostIP: '127.0.0.1' }];
    })
    .build();
  assert.deepEqual(
    hostPortConflicts(wanting, [holder]).map((x) => x.holder),
    ['default/old'],
  );
  // Templates are not defaulted: hostNetwork containerPorts count only when asked for.
  const spec: PodSpec = { hostNetwork: true, containers: [{ name: 'a', ports: [{ containerPort: 9100 }] }] };
  assert.equal(wantedHostPorts(spec).length, 0);
  assert.equal(wantedHostPorts(spec, true)[0]!.port, 9100);
  const sidecar: PodSpec = {
    initContainers: [{ name: 's', restartPolicy: 'Always', ports: [{ containerPort: 1, hostPort: 8080 }] }],
  };
  assert.equal(wantedHostPorts(sidecar)[0]!.port, 8080, 'sidecar host ports count (1.34+)');
});
