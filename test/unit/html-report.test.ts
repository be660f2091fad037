// The HTML report's document and page (src/render/html/): the per-node cells pack and unpack to
// the rows they came from, the embedded JSON cannot end its element, and the page allows only its
// own script and style and makes no request.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { CellPacker, templated, untemplated, unpackCell, type CellRow } from '../../src/render/html/cells.js';
import { NODE_MARK, POD_MARK } from '../../src/render/html/data.js';
import { packReport, type ReportInput } from '../../src/render/html/pack.js';
import { htmlPage, scriptSafeJson } from '../../src/render/html/report.js';
import { VERDICTS, type Reason } from '../../src/model/results.js';
import { embeddedData } from '../browser/page-data.js';

function reason(over: Partial<Reason> = {}): Reason {
  return {
    code: 'UntoleratedTaint',
    severity: 'warning',
    short: 'node(s) had untolerated taint {dedicated: gpu}',
    message: 'node worker-7 has taint dedicated=gpu:NoSchedule that the DaemonSet does not tolerate',
    evidence: ['node taint dedicated=gpu:NoSchedule', 'pod agent-x1 is not on worker-7'],
    fix: 'add a toleration',
    ...over,
  };
}

describe('a reason is templated on the node and pod names and back', () => {
  const cases: { name: string; r: Reason; node: string; pod?: string; templated: boolean }[] = [
    { name: 'the node name in the message and evidence', r: reason(), node: 'worker-7', templated: true },
    { name: 'the pod name too', r: reason(), node: 'worker-7', pod: 'agent-x1', templated: true },
    {
      name: 'a pod named after its node keeps its own marker',
      r: reason({ message: 'pod kube-proxy-worker-7 on worker-7' }),
      node: 'worker-7',
      pod: 'kube-proxy-worker-7',
      templated: true,
    },
    {
      name: 'neither name in the text',
      r: reason({ message: 'x', evidence: [], short: 's', fix: 'f' }),
      node: 'worker-7',
      pod: 'p',
      templated: false,
    },
    { name: 'a node name holding a marker', r: reason(), node: `worker-7${NODE_MARK}`, templated: false },
    {
      name: 'a reason holding a marker',
      r: reason({ fix: `add ${POD_MARK} worker-7` }),
      node: 'worker-7',
      templated: false,
    },
    { name: 'an empty node name', r: reason(), node: '', templated: false },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const t = templated(c.r, c.node, c.pod);
      assert.equal(t.t === 1, c.templated);
      assert.deepEqual(untemplated(t, c.node, c.pod), c.r);
    });
  }
});

describe('cells pack into shared tables and unpack to the rows', () => {
  const rows: CellRow[] = [
    { node: 'worker-7', verdict: 'Excluded', reasons: [reason()] },
    {
      node: 'worker-8',
      verdict: 'Excluded',
      reasons: [
        reason({
          message: reason().message.replace('worker-7', 'worker-8'),
          evidence: ['node taint dedicated=gpu:NoSchedule', 'pod agent-x1 is not on worker-8'],
        }),
      ],
    },
    {
      node: 'worker-9',
      verdict: 'Healthy',
      reasons: [],
      pod: { name: 'agent-x1', phase: 'Running', ready: true, revision: 'abc', updated: true, restarts: 0, age: '5d' },
    },
    {
      node: 'worker-10',
      verdict: 'Unhealthy',
      reasons: [
        reason({ code: 'CrashLoopBackOff', severity: 'error', message: 'container c of agent-x2 keeps crashing' }),
      ],
      pod: { name: 'agent-x2', phase: 'Running', ready: false, revision: 'abc', updated: false, restarts: 6 },
      events: [
        { type: 'Warning', reason: 'BackOff', message: 'Back-off restarting', count: 3, object: 'pod/agent-x2' },
      ],
      causes: [
        {
          code: 'NetworkAgentNotRunning',
          severity: 'error',
          summary: 'worker-10: network not ready → calico-node has no pod there',
          chain: ['network not ready', 'calico-node has no pod there'],
          nodes: ['worker-10'],
          cause: { kind: 'DaemonSet', namespace: 'kube-system', name: 'calico-node' },
          affects: [{ namespace: 'ns', name: 'agent' }],
          evidence: ['node worker-10 NetworkUnavailable'],
          fix: 'tolerate the not-ready taint',
        },
      ],
    },
  ];
  const packer = new CellPacker(VERDICTS);
  const cells = rows.map((r) => packer.cell(r));
  for (const [i, row] of rows.entries()) {
    test(`${row.node} (${row.verdict}) unpacks to its row`, () => {
      assert.deepEqual(
        unpackCell(
          {
            verdicts: [...VERDICTS],
            reasons: packer.reasons,
            strings: packer.strings,
            events: packer.events,
            causes: packer.causes,
          },
          cells[i]!,
          row.node,
        ),
        row,
      );
    });
  }
  test('the reason of two nodes that differs only by the node name is stored once', () => {
    assert.deepEqual(cells[0]![1], [0]);
    assert.deepEqual(cells[1]![1], [0]);
    assert.equal(packer.reasons.length, 2);
  });
  test('a healthy cell without reasons or events is short', () => {
    assert.equal(cells[2]!.length, 3);
    assert.equal(cells[2]![1], 0);
  });
});

describe('the embedded JSON cannot end its element and reads back the same', () => {
  const values = [
    '</script><script>alert(1)</script>',
    '<!-- <script>',
    '"><img src=x onerror=alert(1)>',
    'a & b &amp;',
    'a\u2028b\u2029c',
    '\u202eevil\u009b2J',
    '</SCRIPT >',
  ];
  for (const v of values) {
    test(JSON.stringify(v), () => {
      const text = scriptSafeJson({ v, [v]: [v] });
      assert.doesNotMatch(text, /[<>&\u2028\u2029\u202e\u009b]/);
      assert.deepEqual(JSON.parse(text), { v, [v]: [v] });
    });
  }
});

function input(): ReportInput {
  const node = { node: 'n1', verdict: 'Healthy' as const, reasons: [] };
  return {
    generator: { version: '0.1.0', commit: 'abc1234' },
    provenance: {
      source: 'files',
      inputs: ['dump.yaml'],
      judgedAt: '2026-11-29T12:00:00Z',
      judgedAtFrom: 'flag',
      scope: 'all namespaces in the input',
      missing: [],
      warnings: [],
      command: 'ds-doctor report -f dump.yaml',
    },
    groupBy: '',
    nodes: [{ name: 'n1', pool: '' }],
    scan: {
      apiVersion: 'ds-doctor/v1',
      kind: 'ScanReport',
      scope: 'all namespaces in the input',
      daemonSets: [],
      causes: [],
      notes: [],
    },
    daemonSets: [
      {
        namespace: 'ns',
        name: 'evil</script>\u001b[2J',
        diagnosis: { headline: '1/1 nodes healthy', summary: { verdicts: { Healthy: 1 }, reasons: {} } },
        rows: [node],
        rollout: {} as ReportInput['daemonSets'][number]['rollout'],
        impact: {} as ReportInput['daemonSets'][number]['impact'],
      },
    ],
    lint: {
      apiVersion: 'ds-doctor/v1',
      kind: 'LintReport',
      findings: [],
      suppressed: [],
      notChecked: [],
      daemonSets: 1,
    },
  };
}

describe('the page', () => {
  const script = 'document.title = "x";';
  const html = htmlPage(packReport(input()), script);
  test('its Content-Security-Policy allows its own script and style by hash, and nothing else', () => {
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(script).digest('base64');
    assert.match(csp, /^default-src 'none'; /);
    assert.ok(csp.includes(`script-src 'sha256-${hash}'`), csp);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });
  test('it loads nothing: no src, href or link to anything outside the page', () => {
    assert.doesNotMatch(html, /\s(src|href)=|<link|@import|url\(/i);
    assert.equal((html.match(/<script/g) ?? []).length, 2);
  });
  test('cluster text is escaped for people in the data (as the table output escapes it), and kept as text', () => {
    const data = embeddedData(html);
    assert.equal(data.daemonSets[0]!.name, 'evil</script>^[[2J');
  });
  test('a page script that could end its element is refused', () => {
    assert.throws(() => htmlPage(packReport(input()), 'x = "</script>"'), /<\/script/);
  });
  test('rows that are not one per node in order are refused', () => {
    const bad = input();
    bad.daemonSets[0]!.rows = [{ node: 'n2', verdict: 'Healthy', reasons: [] }];
    assert.throws(() => packReport(bad), /not one per node/);
  });
});
