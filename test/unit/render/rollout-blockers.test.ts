// rollout's Blockers at a terminal's width: one blocker shared by nodes whose names are long (cloud
// node names: gke-<cluster>-<pool>-<hash>-<id>) must wrap with the prose, not run past the line
// and break inside a name; short heads keep the node list beside the mark as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rolloutAnswer } from '../../../src/analyze/diagnose.js';
import { renderRollout } from '../../../src/render/rollout.js';
import { renderContext } from '../../../src/render/context.js';
import { displayWidth } from '../../../src/render/wrap.js';
import { daemonSet, event, indexOf, node } from '../../kube/index.js';

/** A DaemonSet the API server refuses every pod of, on nodes with the given names. */
function refused(names: string[]) {
  const ds = daemonSet('agent', 'ops').build();
  const refusal = event(
    'DaemonSet',
    ds,
    'FailedCreate',
    'Error creating: pods "agent-x" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=10, limited: pods=10',
  );
  const index = indexOf({ nodes: names.map((n) => node(n).build()), daemonSets: [ds], events: [refusal] });
  return rolloutAnswer(index, ds, new Date(), 300);
}

const cases: { name: string; nodes: string[]; headLine: RegExp }[] = [
  {
    name: 'long node names: the list wraps with the prose, the code after it',
    nodes: ['a', 'b', 'c'].map((s) => `gke-prod-default-pool-3f1c2a7e-${s}k2d`),
    headLine: /^ {2}✗ nodes gke-prod-default-pool-3f1c2a7e-ak2d,$/,
  },
  {
    name: 'short node names: the list stays beside the mark, the code after two spaces',
    nodes: ['n1', 'n2', 'n3'],
    headLine: /^ {2}✗ nodes n1, n2, n3 {2}FailedCreate: /,
  },
];

for (const c of cases) {
  test(`rollout blockers at 80 columns: ${c.name}`, () => {
    const d = refused(c.nodes);
    assert.equal(d.blockers.length, 3, 'one blocker per node');
    const text = renderRollout(d, renderContext({ color: false, columns: 80, wrap: true }), false);
    const lines = text.split('\n');
    const at = lines.indexOf('Blockers:');
    assert.ok(at >= 0, text);
    assert.match(lines[at + 1]!, c.headLine);
    for (const l of lines) assert.ok(displayWidth(l) < 80, `wider than the terminal: ${l}`);
    // Every node is named, whole, in the block.
    const block = lines.slice(at + 1, lines.indexOf('', at + 1)).join(' ');
    for (const n of c.nodes) assert.ok(block.includes(n), `${n} missing from: ${block}`);
  });
}
