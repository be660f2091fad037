// What the file loaders drop from each object (src/load/prune.ts): managedFields, and the fields a
// pod of another controller than a DaemonSet is not read for. test/cli/neighbour-pods.test.ts
// checks over every fixture and real dump that no command reads what is dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { daemonSet, node, pod, ago, NOW } from '../builders.js';
import type { Pod } from '../../src/model/k8s-types.js';
import { slimNeighbourPod } from '../../src/load/prune.js';
import { ObjectStage } from '../../src/load/stage.js';
import { emptySnapshot } from '../../src/model/snapshot.js';
import { loadFiles } from '../../src/load/files.js';
import { snapshotTime } from '../../src/model/snapshot-time.js';

const ds = daemonSet('agent', 'kube-system').build();

/** A pod of a ReplicaSet on n1 with what a real one carries: env, probes, mounts, a sidecar, conditions and container statuses. */
function workload(
  name = 'web-1',
  controller: { kind: string; controller?: unknown } = { kind: 'ReplicaSet', controller: true },
): Pod {
  return pod(name)
    .on('n1')
    .requests({ cpu: '250m', memory: '128Mi' })
    .ready(300)
    .with((p) => {
      p.metadata!.ownerReferences = [
        {
          apiVersion: 'apps/v1',
          kind: controller.kind,
          name: 'web-5d4f',
          uid: 'uid-rs',
          controller: controller.controller as boolean,
        },
      ];
      const c = p.spec!.containers![0]!;
      Object.assign(c, {
        ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
        env: [{ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }],
        livenessProbe: { httpGet: { path: '/healthz', port: 8080 } },
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
        securityContext: { runAsNonRoot: true },
        imagePullPolicy: 'IfNotPresent',
        terminationMessagePath: '/dev/termination-log',
      });
      p.spec!.initContainers = [
        {
          name: 'proxy',
          image: 'envoy:1.30',
          restartPolicy: 'Always',
          resources: { requests: { cpu: '100m' } },
          args: ['--log-level', 'warn'],
        },
      ];
      p.spec!.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-1' } }];
      p.spec!.hostNetwork = false;
      p.spec!.dnsPolicy = 'ClusterFirst';
      p.status!.nominatedNodeName = 'n2';
      p.status!.hostIP = '10.0.0.1';
      // The newest time of the pod: a container restart after Ready turned true.
      p.status!.containerStatuses![0]!.state = { running: { startedAt: ago(60) } };
    })
    .build();
}

/** What the object stage makes of a value read from a file, and the newest time slimming recorded for it. */
function slimmed<T>(value: T, stage = new ObjectStage(emptySnapshot())): { value: T; dropped: number | undefined } {
  stage.read(value);
  return {
    value,
    dropped: typeof value === 'object' && value !== null ? stage.snapshot.prunedTimes.get(value) : undefined,
  };
}

test('a pod of a ReplicaSet keeps what it holds on its node and drops the rest; the newest time it carried is kept', () => {
  const { value: p, dropped } = slimmed(workload());
  assert.deepEqual(p.spec!.containers, [
    {
      name: 'main',
      image: 'example/app:1.0',
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
      resources: { requests: { cpu: '250m', memory: '128Mi' } },
    },
  ]);
  assert.deepEqual(p.spec!.initContainers, [
    { name: 'proxy', image: 'envoy:1.30', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } },
  ]);
  // The spec's own fields, metadata and the status' phase and nomination stay.
  assert.deepEqual(p.spec!.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-1' } }]);
  assert.equal(p.spec!.nodeName, 'n1');
  assert.equal(p.spec!.dnsPolicy, 'ClusterFirst');
  assert.equal(p.metadata!.ownerReferences![0]!.kind, 'ReplicaSet');
  assert.deepEqual(p.status, { phase: 'Running', nominatedNodeName: 'n2' });
  assert.equal(dropped, Date.parse(ago(60)));
});

// Pods a DaemonSet owns or may adopt, other kinds, and values slimming cannot read as a pod: untouched.
const UNTOUCHED: [string, () => unknown][] = [
  ['a pod of a DaemonSet', () => pod('agent-x', 'kube-system').ofDaemonSet(ds, 'n1').ready().build()],
  [
    'a pod of a DaemonSet of another API group (kind DaemonSet, as OpenKruise writes it)',
    () => workload('a', { kind: 'DaemonSet', controller: true }),
  ],
  ['an orphan (no ownerReferences): a DaemonSet may adopt it', () => pod('orphan').on('n1').ready().build()],
  ['an owner that is not the controller', () => workload('b', { kind: 'ReplicaSet', controller: false })],
  ['controller written as a string', () => workload('c', { kind: 'ReplicaSet', controller: 'true' })],
  ['a controller without a kind', () => workload('d', { kind: undefined as unknown as string, controller: true })],
  ['ownerReferences not a list', () => ({ ...workload('e'), metadata: { name: 'e', ownerReferences: 'ReplicaSet' } })],
  ['metadata not a map', () => ({ ...workload('f'), metadata: 'x' })],
  [
    'a ReplicaSet-owned object of another kind',
    () => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'g', ownerReferences: [{ kind: 'ReplicaSet', name: 'r', controller: true }] },
      data: { a: 'b' },
    }),
  ],
  ['not an object', () => 'Pod'],
  ['null', () => null],
];
for (const [what, make] of UNTOUCHED) {
  test(`kept whole: ${what}`, () => {
    const value = make();
    const before = structuredClone(value);
    assert.equal(slimNeighbourPod(value), undefined);
    assert.deepEqual(value, before);
  });
}

test('a pod of another controller with malformed containers and status: what is not a map or list stays for the shape check', () => {
  const p = workload() as unknown as Record<string, unknown>;
  const spec = p['spec'] as Record<string, unknown>;
  spec['containers'] = [null, 'main', { name: 'ok', env: [] }];
  spec['initContainers'] = 'none';
  p['status'] = ['Running'];
  slimNeighbourPod(p);
  assert.deepEqual(spec['containers'], [null, 'main', { name: 'ok' }]);
  assert.equal(spec['initContainers'], 'none');
  assert.deepEqual(p['status'], ['Running']);
});

test('the object stage slims a pod once: adding the pod it read changes nothing more, and keeps the first newest time', () => {
  const stage = new ObjectStage(emptySnapshot());
  const { value: p, dropped } = slimmed(workload(), stage);
  const once = structuredClone(p);
  stage.add(p);
  assert.deepEqual(p, once);
  assert.equal(stage.snapshot.prunedTimes.get(p), dropped);
});

test('managedFields go from every object, slimmed or not', () => {
  const p = pod('agent-x', 'kube-system').ofDaemonSet(ds, 'n1').build();
  Object.assign(p.metadata!, { managedFields: [{ manager: 'kubelet' }] });
  const w = workload();
  Object.assign(w.metadata!, { managedFields: [{ manager: 'kube-controller-manager' }] });
  assert.ok(!('managedFields' in slimmed(p).value.metadata!));
  assert.ok(!('managedFields' in slimmed(w).value.metadata!));
});

test('with slimming off (an option of the load), a pod of another controller is kept whole; from a live cluster, always', () => {
  for (const stage of [
    new ObjectStage(emptySnapshot(), { slim: false }),
    new ObjectStage(emptySnapshot('live'), {}, false),
  ]) {
    const w = workload();
    const before = structuredClone(w);
    assert.deepEqual(slimmed(w, stage), { value: before, dropped: undefined });
  }
});

async function dump(objects: unknown[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-prune-'));
  const file = join(dir, 'dump.yaml');
  await writeFile(file, yaml.dump({ apiVersion: 'v1', kind: 'List', items: objects }));
  return file;
}

test('a dump is dated by the dropped times too: a container start of a ReplicaSet pod that is the newest time in the dump', async () => {
  const old = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString().replace('.000Z', 'Z');
  const n = node('n1').build();
  n.status!.conditions = [{ type: 'Ready', status: 'True', lastHeartbeatTime: old(7200) }];
  const w = workload();
  w.metadata!.creationTimestamp = old(9000);
  w.status!.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: old(8000) }];
  w.status!.containerStatuses = [{ name: 'main', state: { running: { startedAt: old(3000) } } }];
  const snapshot = await loadFiles([await dump([n, w])], async () => '');
  assert.equal(snapshot.pods[0]!.status!.containerStatuses, undefined, 'the pod was slimmed');
  assert.equal(snapshotTime(snapshot)?.toISOString(), new Date(old(3000)).toISOString());
});

test('duplicate copies of a ReplicaSet pod are ranked by the times slimming dropped: the newer copy is kept', async () => {
  const copy = (startedSecondsAgo: number, cpu: string) => {
    const w = workload();
    w.metadata!.resourceVersion = '100';
    w.spec!.containers![0]!.resources = { requests: { cpu } };
    w.status!.containerStatuses = [{ name: 'main', state: { running: { startedAt: ago(startedSecondsAgo) } } }];
    return w;
  };
  // The newer copy's text is the smaller, so that the last tie-break (the text) would pick the other.
  for (const order of [
    [copy(50, '1'), copy(500, '2')],
    [copy(500, '2'), copy(50, '1')],
  ]) {
    const snapshot = await loadFiles([await dump(order)], async () => '');
    assert.equal(snapshot.pods.length, 1);
    assert.deepEqual(snapshot.pods[0]!.spec!.containers![0]!.resources, { requests: { cpu: '1' } });
  }
});
