// The report of the benchmark's largest cluster, 5,000 nodes and 30 DaemonSets (bench/generate.ts,
// as `npm run bench`'s scale section makes it): the page stays within its size, opens within its
// budget with every pool collapsed to counts, and a filter, a pool's expansion and a cell's
// diagnosis each answer within theirs. The figures are printed as test diagnostics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NOW_ISO } from '../kube/time.js';
import { childrenCpuMs, launch, openReport } from './browser.js';
import { PAGE_ROWS } from '../../src/render/html/page/limits.js';
import { DUMP_VERSION } from '../../bench/generate.js';

/** The page's size target (README "Report"). */
export const SIZE_BUDGET_BYTES = 15_000_000;
/**
 * The browser's CPU time from navigation to the page drawn (pools collapsed). CPU time, not wall
 * time: the machines this runs on are shared, and under load the wall time grows several times
 * (both are printed).
 */
export const LOAD_BUDGET_MS = 6_000;
/** The browser's CPU time for a filter change, a pool's first page of rows, a cell's diagnosis. */
export const INTERACTION_BUDGET_MS = 2_000;

const NODES = 5000;
const DAEMONSETS = 30;
const DIR = join('bench', 'out', `report-${NODES}-${DAEMONSETS}ds`);

/** The dump, generated once and kept under bench/out (regenerated when its parameters change). */
function ensureDump(): string {
  const params = JSON.stringify({
    nodes: NODES,
    pods: NODES * 30 + NODES * DAEMONSETS,
    daemonSets: DAEMONSETS,
    seed: 1,
    version: DUMP_VERSION,
  });
  const stamp = join(DIR, 'params.json');
  const file = join(DIR, 'dump-compact.json');
  if (existsSync(file) && existsSync(stamp) && readFileSync(stamp, 'utf8') === params) return file;
  mkdirSync(DIR, { recursive: true });
  const args = [
    'dist/bench/generate.js',
    '--nodes',
    String(NODES),
    '--pods',
    String(NODES * 30 + NODES * DAEMONSETS),
    '--daemonsets',
    String(DAEMONSETS),
    '--formats',
    'json-compact',
    '--out',
    DIR,
  ];
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  assert.equal(r.status, 0, `node ${args.join(' ')} failed`);
  writeFileSync(stamp, params);
  return file;
}

test(`the report of ${NODES} nodes × ${DAEMONSETS} DaemonSets: size, load and interaction within budget`, async (t) => {
  const dump = ensureDump();
  const page = join(DIR, 'report.html');
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    ['bin/ds-doctor.js', 'report', '-f', dump, '--now', NOW_ISO, '-o', page, '--fail-on', 'none'],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  const reportMs = Date.now() - started;
  assert.equal(r.status, 0, r.stderr);
  const size = statSync(page).size;
  t.diagnostic(
    `ds-doctor report: ${(reportMs / 1000).toFixed(1)} s; page ${(size / 1e6).toFixed(1)} MB (budget ${SIZE_BUDGET_BYTES / 1e6} MB)`,
  );
  assert.ok(size <= SIZE_BUDGET_BYTES, `the page is ${size} bytes, over ${SIZE_BUDGET_BYTES}`);

  const browser = await launch();
  try {
    const draw = async () => {
      const cpu0 = childrenCpuMs();
      const opened = await openReport(browser, join(process.cwd(), page));
      const cpu = childrenCpuMs() - cpu0;
      t.diagnostic(`page drawn: ${cpu} ms of CPU (budget ${LOAD_BUDGET_MS} ms), ${opened.readyMs} ms of wall time`);
      return { ...opened, cpu };
    };
    // The CPU counted is every browser process's, which a busy machine or the browser's own
    // start-up work can only add to: over the budget, the page is drawn once more in a new
    // context, and the lower of the two counts.
    let drawn = await draw();
    if (drawn.cpu > LOAD_BUDGET_MS) {
      const again = await draw();
      if (again.cpu < drawn.cpu) drawn = again;
    }
    const { page: p, log, cpu: loadCpu } = drawn;
    assert.ok(loadCpu <= LOAD_BUDGET_MS, `drawn with ${loadCpu} ms of CPU, over ${LOAD_BUDGET_MS} ms`);
    assert.deepEqual(log.errors, []);
    assert.deepEqual(log.requests, []);
    // At this size the pools start collapsed: one row of counts each, no node row.
    assert.equal(await p.$$eval('tr.node-row', (l) => l.length), 0);
    assert.ok((await p.$$eval('tr.pool-row', (l) => l.length)) > 1);

    const timed = async (what: string, action: () => Promise<unknown>) => {
      const t0 = Date.now();
      const c0 = childrenCpuMs();
      await action();
      const cpu = childrenCpuMs() - c0;
      t.diagnostic(
        `${what}: ${cpu} ms of CPU (budget ${INTERACTION_BUDGET_MS} ms), ${Date.now() - t0} ms of wall time`,
      );
      assert.ok(cpu <= INTERACTION_BUDGET_MS, `${what} took ${cpu} ms of CPU`);
    };
    await timed('the verdict filter (Unhealthy)', async () => {
      await p.selectOption('#f-verdict', 'Unhealthy');
      await p.waitForSelector('tr.node-row');
    });
    await timed('back to every verdict', () => p.selectOption('#f-verdict', ''));
    await timed('the first pool expanded (its first 100 of 4,000 or more rows)', async () => {
      await p.click('tr.pool-row .pool-toggle');
      await p.waitForSelector('tr.node-row');
    });
    assert.equal(await p.$$eval('tr.node-row', (l) => l.length), PAGE_ROWS);
    await timed('a cell’s diagnosis', async () => {
      await p.click('td.cell');
      await p.waitForSelector('dialog#detail[open]');
    });
    assert.deepEqual(log.errors, []);
  } finally {
    await browser.close();
  }
});
