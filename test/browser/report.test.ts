// The HTML report in a real browser (headless Chromium, test/browser/browser.ts): the demo
// report draws without a console error or a request, the matrix shows for every DaemonSet × node
// the verdict and reason `nodes` gives, a click or Enter shows what `why` says for the pair (root
// cause, reasons, evidence, fix, events), the filters pick the rows and columns they say, pools
// collapse to the right counts, the high contrast, forced-colours and print views keep their
// signals, and a hostile dump runs no script.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { runCli } from '../harness.js';
import { mainCode } from '../../src/render/html/cells.js';
import { htmlPage } from '../../src/render/html/report.js';
import type { RootCause } from '../../src/model/results.js';
import { computed, drawnCells, drawnRows, launch, openReport, printEvent } from './browser.js';
import { embeddedData } from './page-data.js';
import { HOSTILE_DS, HOSTILE_NODE, HOSTILE_POD, hostileDump } from './hostile-dump.js';
import { VERDICT_LOOK } from '../../src/render/html/page/verdicts.js';

const DEMO = ['-f', 'fixtures/demo'];
const dir = mkdtempSync(join(tmpdir(), 'ds-doctor-browser-'));

interface Row {
  node: string;
  verdict: string;
  reasons: { code: string; message: string; fix: string; evidence: string[] }[];
}

/** `nodes -o json` of every DaemonSet of the demo, by `namespace/name`. */
async function nodesOfDemo(refs: string[]): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  for (const ref of refs) out.set(ref, JSON.parse((await runCli(['nodes', ref, ...DEMO, '-o', 'json'])).stdout).nodes);
  return out;
}

async function writeReport(name: string, argv: string[], stdin?: string): Promise<{ file: string; html: string }> {
  const r = await runCli(['report', ...argv, '--fail-on', 'none'], stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, r.stderr);
  const file = join(dir, name);
  writeFileSync(file, r.stdout);
  return { file, html: r.stdout };
}

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('the demo report', async () => {
  const { file, html } = await writeReport('demo.html', DEMO);
  const data = embeddedData(html);
  const refs = data.daemonSets.map((d) => `${d.namespace}/${d.name}`);
  const nodes = await nodesOfDemo(refs);
  let page: Page;
  let log: Awaited<ReturnType<typeof openReport>>['log'];
  before(async () => {
    ({ page, log } = await openReport(browser, file));
  });

  test('opens with no console error, no script error and no request', () => {
    assert.deepEqual(log.errors, []);
    assert.deepEqual(log.requests, []);
  });

  test('the matrix has, for every DaemonSet × node, the verdict and main reason of nodes -o json', async () => {
    await page.click('#expand-all');
    const cells = await drawnCells(page);
    assert.equal(cells.length, refs.length * data.nodes.length);
    for (const c of cells) {
      const row = nodes.get(refs[c.d]!)![c.n]!;
      const where = `${refs[c.d]} on ${row.node}`;
      assert.equal(c.rowNode, row.node, where);
      assert.equal(c.verdict, row.verdict, where);
      assert.equal(c.code, mainCode(row.reasons.map((r) => r.code)) ?? '', where);
      assert.equal(
        c.text,
        `${VERDICT_LOOK[row.verdict]!.symbol}${c.code}`,
        `${where}: the cell shows its symbol and code`,
      );
      assert.equal(
        c.label,
        c.code ? `${row.verdict}: ${c.code}` : row.verdict,
        `${where}: the cell's name says its verdict`,
      );
    }
  });

  test('a click on each cell shows the verdict and every reason why gives for that pair, and Escape closes it', async () => {
    await page.click('#expand-all');
    for (const [d, ref] of refs.entries()) {
      for (const [n, [node]] of data.nodes.entries()) {
        const why = JSON.parse((await runCli(['why', ref, node, ...DEMO, '-o', 'json', '--fail-on', 'none'])).stdout);
        await page.click(`td.cell[data-d="${d}"][data-n="${n}"]`);
        const dialog = page.locator('dialog#detail');
        assert.ok(await dialog.isVisible(), `${ref} on ${node}: the diagnosis opens`);
        const text = (await dialog.textContent()) ?? '';
        assert.ok(text.includes(`${ref} on ${node}`), text);
        assert.ok(text.includes(why.verdict), `${ref} on ${node}: verdict ${why.verdict}`);
        for (const r of why.reasons) {
          for (const part of [r.code, r.message, r.fix, ...r.evidence])
            assert.ok(text.includes(part), `${ref} on ${node}: ${part}`);
        }
        for (const e of why.events) assert.ok(text.includes(e.message), `${ref} on ${node}: event ${e.message}`);
        for (const c of why.causes ?? [])
          for (const part of [c.code, c.summary, c.fix])
            assert.ok(text.includes(part), `${ref} on ${node}: root cause ${part}`);
        await page.keyboard.press('Escape');
        assert.ok(!(await dialog.isVisible()), 'Escape closes the diagnosis');
        assert.equal(await page.locator(':focus').getAttribute('data-n'), String(n), 'focus returns to the cell');
      }
    }
  });

  test('the keyboard moves between cells and Enter or Space opens one', async () => {
    await page.click('#expand-all');
    await page.focus('td.cell[tabindex="0"]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const at = {
      d: await page.locator(':focus').getAttribute('data-d'),
      n: await page.locator(':focus').getAttribute('data-n'),
    };
    const first = (await drawnCells(page))[0]!;
    const second = (await drawnCells(page)).find((c) => c.d === first.d + 1 && c.rowNode !== first.rowNode)!;
    assert.deepEqual(at, { d: String(first.d + 1), n: String(second.n) });
    assert.equal(await page.$$eval('td.cell[tabindex="0"]', (l) => l.length), 1, 'one tab stop in the grid');
    await page.keyboard.press('Enter');
    assert.ok(
      ((await page.locator('dialog#detail h2').textContent()) ?? '').includes(
        `${refs[first.d + 1]} on ${second.rowNode}`,
      ),
    );
    await page.keyboard.press('Escape');
    await page.keyboard.press(' ');
    assert.ok(await page.locator('dialog#detail').isVisible(), 'Space opens it too');
    await page.keyboard.press('Escape');
  });

  /** The rows the filters should leave, from the nodes JSON, in the matrix's order: by pool, then by name. */
  const expectRows = (columns: string[], keep: (row: Row) => boolean) =>
    data.nodes
      .map(([name, pool], n) => ({ name, pool, n }))
      .filter(({ n }) => columns.some((ref) => keep(nodes.get(ref)![n]!)))
      .sort((a, b) => a.pool - b.pool || a.n - b.n)
      .map((x) => x.name);

  test('the namespace filter keeps that namespace’s DaemonSets', async () => {
    await page.selectOption('#f-namespace', 'logging');
    await page.click('#expand-all');
    const cells = await drawnCells(page);
    assert.deepEqual([...new Set(cells.map((c) => refs[c.d]))], ['logging/fluent-bit']);
    await page.selectOption('#f-namespace', '');
  });

  for (const verdict of ['Unhealthy', 'Excluded', 'Pending']) {
    test(`the verdict filter (${verdict}) keeps the nodes with such a cell`, async () => {
      await page.selectOption('#f-verdict', verdict);
      await page.click('#expand-all');
      assert.deepEqual(
        await drawnRows(page),
        expectRows(refs, (r) => r.verdict === verdict),
      );
      const dimmed = (await drawnCells(page)).filter((c) => c.verdict !== verdict).length;
      assert.equal(await page.$$eval('td.cell.dim', (l) => l.length), dimmed, 'the other cells are dimmed, not hidden');
      await page.selectOption('#f-verdict', '');
    });
  }

  test('the pool filter keeps that pool’s nodes', async () => {
    const p = data.pools.indexOf('g5.12xlarge');
    await page.selectOption('#f-pool', String(p));
    await page.click('#expand-all');
    assert.deepEqual(
      await drawnRows(page),
      data.nodes.filter(([, pool]) => pool === p).map(([n]) => n),
    );
    await page.selectOption('#f-pool', '');
  });

  for (const [what, text, keep] of [
    ['a reason code', 'crashloop', (r: Row) => r.reasons.some((x) => x.code.toLowerCase().includes('crashloop'))],
    ['a node name', 'worker-3', (r: Row) => r.node.includes('worker-3')],
  ] as const) {
    test(`the text search finds ${what}`, async () => {
      await page.fill('#f-text', text);
      // The search waits 150 ms for the typing to stop.
      await page.waitForTimeout(300);
      await page.click('#expand-all');
      assert.deepEqual(await drawnRows(page), expectRows(refs, keep));
      await page.fill('#f-text', '');
      await page.waitForTimeout(300);
    });
  }

  test('collapsed pools show, per DaemonSet, the count of each verdict in the pool', async () => {
    await page.click('#collapse-all');
    assert.equal((await drawnRows(page)).length, 0);
    const sums = await page.$$eval('tr.pool-row', (rows) =>
      rows.map((r) => [...r.querySelectorAll('td.pool-sum')].map((td) => td.getAttribute('title') ?? '')),
    );
    const pools = [...new Set(data.nodes.map(([, p]) => p))].sort((a, b) => a - b);
    assert.equal(sums.length, pools.length);
    sums.forEach((perDs, i) => {
      const inPool = data.nodes.map(([, p], n) => (p === pools[i] ? n : -1)).filter((n) => n >= 0);
      perDs.forEach((title, d) => {
        const counts = new Map<string, number>();
        for (const n of inPool)
          counts.set(nodes.get(refs[d]!)![n]!.verdict, (counts.get(nodes.get(refs[d]!)![n]!.verdict) ?? 0) + 1);
        const expected = data.verdicts
          .filter((v) => counts.has(v))
          .map((v) => `${counts.get(v)} ${v}`)
          .join(', ');
        assert.equal(title, expected, `${data.pools[pools[i]!]} × ${refs[d]}`);
      });
    });
    await page.click('tr.pool-row .pool-toggle');
    assert.ok((await drawnRows(page)).length > 0, 'a pool expands on demand');
  });

  test('a DaemonSet’s part shows its rollout, budget, revisions, lint findings and delete risk', async () => {
    const d = refs.indexOf('logging/fluent-bit');
    const ds = data.daemonSets[d]!;
    await page.$eval(`#ds-${d}`, (el) => (el.open = true));
    await page.waitForSelector(`#ds-${d} .ds-body`);
    const text = (await page.locator(`#ds-${d}`).textContent()) ?? '';
    assert.ok(text.includes(`Rollout ${ds.rollout.verdict}`) || text.includes(ds.rollout.verdict), 'rollout verdict');
    assert.ok(text.includes(`maxUnavailable ${ds.rollout.maxUnavailable}`), 'budget');
    for (const v of ds.rollout.revisions) assert.ok(text.includes(v.hash), `revision ${v.hash}`);
    for (const line of ds.rollout.templateDiff) assert.ok(text.includes(line), `diff ${line}`);
    for (const f of data.lint.findings.filter((x) => x.daemonSet.name === 'fluent-bit'))
      assert.ok(text.includes(f.message), `lint ${f.rule}`);
    assert.ok(text.includes(`${ds.impact.risk} risk`), 'impact risk');
  });

  test('provenance: input, time judged at, ds-doctor version', async () => {
    const text = (await page.locator('#provenance').textContent()) ?? '';
    assert.ok(
      text.includes('fixtures/demo') &&
        text.includes(data.provenance.judgedAt) &&
        text.includes(`ds-doctor ${data.generator.version}`),
      text,
    );
  });

  test('high contrast: badges get a border, dimmed cells are struck through rather than faded', async () => {
    await page.emulateMedia({ contrast: 'more' });
    await page.click('#expand-all');
    assert.equal(await computed(page, '.badge', 'border-top-style'), 'solid');
    await page.selectOption('#f-verdict', 'Unhealthy');
    assert.equal(await computed(page, 'td.cell.dim', 'opacity'), '1');
    assert.equal(await computed(page, 'td.cell.dim', 'text-decoration-line'), 'line-through');
    await page.selectOption('#f-verdict', '');
    await page.emulateMedia({ contrast: null });
  });

  test('forced colours: badges keep a border, the symbols stay visible', async () => {
    await page.emulateMedia({ forcedColors: 'active' });
    assert.equal(await computed(page, '.badge', 'border-top-width'), '1px');
    assert.equal(await computed(page, 'td.cell .sym', 'display'), 'inline-block');
    await page.emulateMedia({ forcedColors: null });
  });

  test('print: the controls are hidden and every DaemonSet’s part opens before printing', async () => {
    await page.emulateMedia({ media: 'print' });
    assert.equal(await computed(page, 'form.filters', 'display'), 'none');
    await printEvent(page, 'beforeprint');
    assert.equal(await page.$$eval('details.ds:not([open])', (l) => l.length), 0);
    assert.equal(await page.$$eval('details.ds .ds-body', (l) => l.length), data.daemonSets.length);
    await printEvent(page, 'afterprint');
    await page.emulateMedia({ media: null });
  });

  test('root causes of the cause engine, when the scan has them, are listed with chain, nodes, evidence and fix', async () => {
    const cause: RootCause = {
      code: 'NetworkAgentNotRunning',
      severity: 'error',
      summary: 'worker-5 is NotReady: 2 DaemonSets have no healthy pod there',
      chain: ['kubelet stopped posting status', 'node.kubernetes.io/not-ready taint', 'pods not Ready'],
      nodes: ['worker-5'],
      cause: { kind: 'Node', name: 'worker-5' },
      affects: [
        { namespace: 'logging', name: 'fluent-bit' },
        { namespace: 'kube-system', name: 'calico-node' },
      ],
      evidence: ['node worker-5 Ready=Unknown'],
      fix: 'look at the kubelet on worker-5',
    };
    const withCauses = htmlPage({ ...data, scan: { ...data.scan, causes: [cause] } });
    const f = join(dir, 'causes.html');
    writeFileSync(f, withCauses);
    const opened = await openReport(browser, f);
    const text = (await opened.page.locator('#causes').textContent()) ?? '';
    for (const part of [
      cause.summary,
      ...cause.chain,
      'logging/fluent-bit',
      'kube-system/calico-node',
      ...cause.evidence,
      cause.fix,
      'Node worker-5',
    ])
      assert.ok(text.includes(part), part);
    assert.deepEqual(opened.log.errors, []);
    await opened.page.context().close();
  });
});

describe('the report of a hostile dump runs no script', async () => {
  const { file, html } = await writeReport('hostile.html', ['-f', '-'], hostileDump());
  const data = embeddedData(html);
  // With the page's Content-Security-Policy, and without it: the page must not depend on it.
  for (const bypassCSP of [false, true]) {
    test(`every string drawn, ${bypassCSP ? 'the Content-Security-Policy bypassed' : 'as written'}: no script ran, no dialog, no element from the dump`, async () => {
      const { page, log } = await openReport(browser, file, { bypassCSP });
      await page.click('#expand-all');
      // Every cell's diagnosis and every DaemonSet's part drawn.
      const cells = await drawnCells(page);
      for (const c of cells) {
        await page.click(`td.cell[data-d="${c.d}"][data-n="${c.n}"]`);
        await page.keyboard.press('Escape');
      }
      await printEvent(page, 'beforeprint');
      await page.fill('#f-text', 'svg');
      await page.waitForTimeout(300);
      assert.equal(await page.evaluate('window.__pwned'), undefined);
      assert.deepEqual(log.dialogs, []);
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
      assert.equal(await page.$$eval('img, svg, iframe, object, embed', (l) => l.length), 0);
      assert.equal(await page.$$eval('script', (l) => l.length), 2);
      await page.context().close();
    });
  }
  test('the hostile names are shown as text, their controls made visible', async () => {
    const { page } = await openReport(browser, file);
    await page.click('#expand-all');
    const body = (await page.textContent('body')) ?? '';
    assert.ok(body.includes(HOSTILE_NODE.replace('\u202e', '\\u202e')), 'node name');
    assert.ok(body.includes(HOSTILE_DS), 'DaemonSet name');
    assert.ok(!body.includes('\u202e') && !body.includes('\u001b'), 'no raw control');
    await page.fill('#f-text', HOSTILE_POD);
    await page.waitForTimeout(300);
    await page.click('#expand-all');
    assert.deepEqual(await drawnRows(page), ['worker-1'], 'the hostile pod name is searched as text');
    assert.ok(data.nodes.length > 0);
    await page.context().close();
  });
});
