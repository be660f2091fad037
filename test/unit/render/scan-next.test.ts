// scan's "Next:" lines at a terminal's width: the command to copy stays whole on its line; when a
// comment beside it would run past the line (long namespace and DaemonSet names), the comment goes
// on the line above instead. Piped output keeps the comment beside the command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scan } from '../../../src/analyze/scan.js';
import { renderScan } from '../../../src/render/scan.js';
import { renderContext } from '../../../src/render/context.js';
import { displayWidth } from '../../../src/render/wrap.js';
import { daemonSet, event, indexOf, node } from '../../kube/index.js';

/** The Next: block of scan over one DaemonSet the API server refuses every pod of. */
function nextBlock(namespace: string, name: string, wrap: boolean): string[] {
  const ds = daemonSet(name, namespace).build();
  const refusal = event('DaemonSet', ds, 'FailedCreate', 'Error creating: pods "x" is forbidden: exceeded quota: pods');
  const index = indexOf({ nodes: [node('n1').build()], daemonSets: [ds], events: [refusal] });
  const text = renderScan(
    scan(index, [ds], new Date(), 'all namespaces'),
    renderContext({ color: false, columns: 80, wrap }),
    false,
  );
  const lines = text.split('\n');
  const at = lines.indexOf('Next:');
  assert.ok(at >= 0, text);
  return lines.slice(at + 1, lines.indexOf('', at + 1) < 0 ? undefined : lines.indexOf('', at + 1));
}

const cases: { name: string; namespace: string; ds: string; wrap: boolean; lines: string[] }[] = [
  {
    name: 'short names: the comment beside the command',
    namespace: 'ops',
    ds: 'agent',
    wrap: true,
    lines: ['  ds-doctor why ops/agent  # the reason on each node'],
  },
  {
    name: 'long names on a terminal: the comment above the command',
    namespace: 'observability-collection-system',
    ds: 'opentelemetry-collector-agent',
    wrap: true,
    lines: [
      '  # the reason on each node',
      '  ds-doctor why observability-collection-system/opentelemetry-collector-agent',
    ],
  },
  {
    name: 'long names piped: one line each, as before',
    namespace: 'observability-collection-system',
    ds: 'opentelemetry-collector-agent',
    wrap: false,
    lines: ['  ds-doctor why observability-collection-system/opentelemetry-collector-agent  # the reason on each node'],
  },
];

for (const c of cases) {
  test(`scan Next at 80 columns: ${c.name}`, () => {
    const lines = nextBlock(c.namespace, c.ds, c.wrap);
    assert.deepEqual(lines, c.lines);
    if (c.wrap) for (const l of lines) assert.ok(displayWidth(l) < 80, l);
  });
}
