// `report`: the page's embedded document holds, for every DaemonSet × node, what `nodes` and
// `why` say for that pair; -o writes a file; bad flags are one line and exit 2; a hostile dump's
// strings stay data inside the one data element. The page itself is tested in a browser
// (test/browser/).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../harness.js';
import { unpackCell } from '../../src/render/html/cells.js';
import { embeddedData } from '../browser/page-data.js';
import { HOSTILE_DS, HOSTILE_NODE, HTML_PAYLOADS, hostileDump } from '../browser/hostile-dump.js';

const DEMO = ['-f', 'fixtures/demo'];

describe('report -f fixtures/demo', async () => {
  const r = await runCli(['report', ...DEMO]);
  const data = embeddedData(r.stdout);
  const scan = JSON.parse((await runCli(['scan', ...DEMO, '-o', 'json'])).stdout);

  test('writes one HTML page to stdout and exits as scan does (1: problems found)', () => {
    assert.equal(
      r.code,
      scan.daemonSets.some((d: { health: string }) => d.health !== 'Healthy' && d.health !== 'RollingOut') ? 1 : 0,
    );
    assert.match(r.stdout, /^<!DOCTYPE html>\n/);
    assert.match(r.stdout, /<\/html>\n$/);
  });
  test('holds the scan as scan -o json gives it', () => {
    assert.deepEqual(data.scan, scan);
  });
  test('groups nodes by the first pool label present (node.kubernetes.io/instance-type in the demo)', () => {
    assert.equal(data.groupBy, 'node.kubernetes.io/instance-type');
    assert.deepEqual(data.pools, ['g5.12xlarge', 'm5.xlarge']);
  });
  test('says where its answers come from', () => {
    assert.deepEqual(data.provenance.inputs, ['fixtures/demo']);
    // The test's clock is 4 s after the demo's newest timestamp: a fresh dump is judged now.
    assert.equal(data.provenance.judgedAtFrom, 'clock');
    assert.equal(data.provenance.command, 'ds-doctor report -f fixtures/demo');
    assert.match(data.generator.version, /^\d+\.\d+\.\d+/);
  });
  for (const [d, ds] of data.daemonSets.entries()) {
    const ref = `${ds.namespace}/${ds.name}`;
    test(`${ref}: every cell is the row of nodes -o json, its events those of why -o json`, async () => {
      const nodes = JSON.parse((await runCli(['nodes', ref, ...DEMO, '-o', 'json'])).stdout);
      assert.equal(nodes.nodes.length, data.nodes.length);
      for (const [n, [name]] of data.nodes.entries()) {
        const { events, causes, ...row } = unpackCell(data, data.daemonSets[d]!.cells[n]!, name);
        assert.deepEqual(row, nodes.nodes[n], `${ref} on ${name}`);
        const why = JSON.parse((await runCli(['why', ref, name, ...DEMO, '-o', 'json', '--fail-on', 'none'])).stdout);
        assert.deepEqual(events ?? [], why.events, `events of ${ref} on ${name}`);
        assert.deepEqual(row.reasons, why.reasons, `reasons of ${ref} on ${name}`);
        assert.deepEqual(causes ?? [], why.causes ?? [], `root causes of ${ref} on ${name}`);
      }
    });
    test(`${ref}: the headline and root causes of why <ds>`, async () => {
      const why = JSON.parse((await runCli(['why', ref, ...DEMO, '-o', 'json', '--fail-on', 'none'])).stdout);
      assert.equal(ds.headline, why.headline);
      assert.deepEqual(ds.causes, why.causes ?? []);
    });
    test(`${ref}: rollout and impact as their commands give them`, async () => {
      const rollout = JSON.parse((await runCli(['rollout', ref, ...DEMO, '-o', 'json'])).stdout);
      const impact = JSON.parse((await runCli(['impact', ref, ...DEMO, '-o', 'json'])).stdout);
      assert.deepEqual(ds.rollout, rollout);
      assert.deepEqual(ds.impact, impact);
    });
  }
  test('holds the lint findings as lint -o json gives them', async () => {
    const lint = JSON.parse((await runCli(['lint', ...DEMO, '-o', 'json'])).stdout);
    assert.deepEqual(data.lint.findings, lint.findings);
  });
});

describe('report flags', () => {
  test('-o FILE writes the page there and says so on stderr', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ds-doctor-report-')), 'demo.html');
    const r = await runCli(['report', ...DEMO, '-o', file, '--fail-on', 'none']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`wrote ${file}: 6 DaemonSet\\(s\\) × 9 node\\(s\\), [\\d.]+ MB`));
    assert.match(readFileSync(file, 'utf8'), /^<!DOCTYPE html>/);
  });
  test('-o into a missing directory: one line, exit 2', async () => {
    const r = await runCli(['report', ...DEMO, '-o', '/nonexistent/dir/x.html']);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr
        .split('\n')
        .filter((l) => l.startsWith('error:'))
        .join('\n'),
      'error: -o/--output: cannot write /nonexistent/dir/x.html: ENOENT',
    );
  });
  test('--group-by picks the label nodes are grouped by', async () => {
    const data = embeddedData((await runCli(['report', ...DEMO, '--group-by', 'topology.kubernetes.io/zone'])).stdout);
    assert.equal(data.groupBy, 'topology.kubernetes.io/zone');
    assert.deepEqual(data.pools, ['us-east-1a', 'us-east-1b', 'us-east-1c']);
  });
  test('--group-by a label no node carries: one line, exit 2', async () => {
    const r = await runCli(['report', ...DEMO, '--group-by', 'example.com/pool']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: --group-by: no node carries the label "example.com\/pool"/m);
  });
  test('-n narrows the DaemonSets and the scope', async () => {
    const data = embeddedData((await runCli(['report', ...DEMO, '-n', 'logging'])).stdout);
    assert.deepEqual(
      data.daemonSets.map((d) => d.name),
      ['fluent-bit'],
    );
    assert.equal(data.provenance.scope, 'namespace logging');
  });
});

describe('report of a hostile dump', async () => {
  const r = await runCli(['report', '-f', '-', '--fail-on', 'none'], { stdin: hostileDump() });
  test('exits 0 with --fail-on none', () => assert.equal(r.code, 0, r.stderr));
  test('the page has two script elements, its data and its own script, and no other element from the dump', () => {
    assert.equal((r.stdout.match(/<script/gi) ?? []).length, 2);
    // The handlers' text is in the data, where no tag can start (its `<` are \u003c).
    assert.doesNotMatch(r.stdout, /<(img|svg)|<!--|<\/script[^>]*>(?!\n(<script>|<\/body>))/i);
  });
  test('the dump text is data: the payloads are in the document, terminal controls made visible', () => {
    const data = embeddedData(r.stdout);
    const text = JSON.stringify(data);
    assert.ok(
      text.includes(JSON.stringify(HTML_PAYLOADS['a script element']).slice(1, -1)),
      'the script payload is kept as text',
    );
    assert.ok(
      data.daemonSets.some((d) => d.name === HOSTILE_DS),
      'the DaemonSet name is kept',
    );
    assert.ok(
      data.nodes.some(([n]) => n === HOSTILE_NODE.replace('\u202e', '\\u202e')),
      'the node name is kept, its bidi override made visible',
    );
    // The controls the dump holds must be nowhere raw: that is what the pattern finds.
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(text, /[\u001b\u009b\u202e\u2028\u2029]/);
  });
});
