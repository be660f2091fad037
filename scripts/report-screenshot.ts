/**
 * docs/report.png, the README's picture of `ds-doctor report`: the demo report in headless
 * Chromium (test/browser/browser.ts): the coverage matrix with one cell's diagnosis open, its
 * root cause first.
 *
 *   npm run build && node dist/scripts/report-screenshot.js && pngquant --quality 75-95 --force --ext .png docs/report.png
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../test/harness.js';
import { launch, openReport } from '../test/browser/browser.js';

const OUT = 'docs/report.png';

const r = await runCli(['report', '-f', 'fixtures/demo', '--fail-on', 'none']);
if (r.code !== 0) throw new Error(r.stderr);
const file = join(mkdtempSync(join(tmpdir(), 'ds-doctor-shot-')), 'demo.html');
writeFileSync(file, r.stdout);
const browser = await launch();
try {
  const { page } = await openReport(browser, file, { viewport: { width: 1280, height: 760 } });
  await page.evaluate("document.getElementById('coverage').scrollIntoView()");
  // kube-system/calico-node on worker-5: kept off by the not-ready taint, with its root cause.
  await page.click('tr.node-row:has(th.node:text-is("worker-5")) td.cell[data-d="0"]');
  await page.screenshot({ path: OUT });
  process.stdout.write(`wrote ${OUT}\n`);
} finally {
  await browser.close();
}
