// scan: coverage gaps (nodes kept off by a custom taint), the same finding `why` warns about.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scan } from '../../src/analyze/scan.js';
import { whyNode } from '../../src/analyze/placement.js';
import { NOW, daemonSet, indexOf, node, pod } from '../builders.js';

const d = daemonSet('node-exporter', 'monitoring').build();
const ready = (n: string) => pod(`node-exporter-${n}`, 'monitoring').ofDaemonSet(d, n, 'hash1', '1').on(n).ready().build();

const cases = [
  { name: 'a business taint on dedicated nodes is a coverage gap (warning), as in why', taint: ['dedicated', 'gpu'] as const, gap: /1 node\(s\) had untolerated taint \{dedicated: gpu\}/ },
  { name: 'the control-plane taint is not a coverage gap: why reports it as info', taint: ['node-role.kubernetes.io/control-plane', undefined] as const, gap: undefined },
  { name: 'a system taint is not a coverage gap: why reports it as info', taint: ['node.cloudprovider.kubernetes.io/uninitialized', 'true'] as const, gap: undefined },
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
