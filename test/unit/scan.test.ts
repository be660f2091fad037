// scan: coverage gaps (nodes kept off by a custom taint), the same finding `why` warns about; the
// note on pods whose DaemonSet the input lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podsOfAbsentDaemonSets, scan } from '../../src/analyze/scan.js';
import { whyNode } from '../../src/analyze/placement/index.js';
import type { DaemonSet, Pod } from '../../src/model/k8s-types.js';
import { NOW, daemonSet, indexOf, node, pod } from '../builders.js';

const d = daemonSet('node-exporter', 'monitoring').build();
const ready = (n: string) =>
  pod(`node-exporter-${n}`, 'monitoring').ofDaemonSet(d, n, 'hash1', '1').on(n).ready().build();

const cases = [
  {
    name: 'a business taint on dedicated nodes is a coverage gap (warning), as in why',
    taint: ['dedicated', 'gpu'] as const,
    gap: /1 node\(s\) had untolerated taint \{dedicated: gpu\}/,
  },
  {
    name: 'the control-plane taint is not a coverage gap: why reports it as info',
    taint: ['node-role.kubernetes.io/control-plane', undefined] as const,
    gap: undefined,
  },
  {
    name: 'a system taint is not a coverage gap: why reports it as info',
    taint: ['node.cloudprovider.kubernetes.io/uninitialized', 'true'] as const,
    gap: undefined,
  },
];

for (const c of cases) {
  test(c.name, () => {
    const nodes = [node('a').build(), node('b').taint(c.taint[0], c.taint[1], 'NoSchedule').build()];
    const index = indexOf({ nodes, daemonSets: [d], pods: [ready('a')] });
    const entry = scan(index, [d], NOW, 'all namespaces').daemonSets[0]!;
    const why = whyNode(index, d, nodes[1]!, NOW);
    assert.equal(entry.health, 'Healthy');
    if (c.gap) {
      assert.equal(why.reasons[0]!.severity, 'warning');
      assert.equal(entry.coverageGaps.length, 1);
      assert.match(entry.coverageGaps[0]!.message, c.gap);
      assert.deepEqual(entry.coverageGaps[0]!.nodes, ['b']);
    } else {
      assert.equal(why.reasons[0]!.severity, 'info');
      assert.deepEqual(entry.coverageGaps, []);
    }
  });
}

// The note on pods whose DaemonSet the input lacks, counted in the index's one pass over the pods.
const elsewhere = daemonSet('node-exporter', 'other').build();
const absent = (name: string, namespace = 'monitoring') => daemonSet(name, namespace).build();
const podOf = (ds: DaemonSet, n: string, name = `${ds.metadata!.name}-${n}`) =>
  pod(name, ds.metadata!.namespace).ofDaemonSet(ds, n).on(n).ready().build();
const absentCases: { name: string; pods: Pod[]; note: RegExp | undefined }[] = [
  { name: 'the pods of present DaemonSets give no note', pods: [ready('a'), ready('b')], note: undefined },
  {
    name: 'pods without a controller give no note',
    pods: [pod('bare', 'monitoring').on('a').build()],
    note: undefined,
  },
  {
    name: 'a DaemonSet of the same name in another namespace is absent',
    pods: [ready('a'), podOf(elsewhere, 'a'), podOf(elsewhere, 'b')],
    note: /^2 pod\(s\) are owned by DaemonSets that are not in the input: other\/node-exporter \(2\);/,
  },
  {
    name: 'a present DaemonSet matched by name, whatever the uid of the reference',
    pods: [podOf({ ...d, metadata: { ...d.metadata, uid: 'another-uid' } }, 'a')],
    note: undefined,
  },
  {
    name: 'past ten owners, the rest are counted',
    pods: Array.from({ length: 12 }, (_, i) => podOf(absent(`agent-${String(i).padStart(2, '0')}`), 'a')),
    note: /^12 pod\(s\) are owned by DaemonSets that are not in the input: monitoring\/agent-00 \(1\),.* monitoring\/agent-09 \(1\) and 2 more;/,
  },
];
for (const c of absentCases) {
  test(`pods of absent DaemonSets: ${c.name}`, () => {
    const index = indexOf({ nodes: [node('a').build(), node('b').build()], daemonSets: [d], pods: c.pods });
    const note = podsOfAbsentDaemonSets(index);
    if (c.note) assert.match(note ?? '', c.note);
    else assert.equal(note, undefined);
  });
}
