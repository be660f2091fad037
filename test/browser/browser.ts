/**
 * The browser the report's tests drive: the machine's Chromium (Debian's `chromium`, which
 * .ci/run installs where it is missing), headless, through playwright-core, which downloads no
 * browser. A missing Chromium fails the tests with one line saying how to install it: they are
 * never skipped.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** The Chromium binary: $CHROMIUM, else Debian's. */
export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM to its path; the browser tests do not skip`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true });
}

/** What a page did besides drawing itself: console errors, script errors, requests, dialogs. */
export interface PageLog {
  errors: string[];
  requests: string[];
  dialogs: string[];
}

/**
 * Opens a report file in a new page and waits until its script has drawn it (`data-ready` on the
 * root element); returns the page, what it logged and the milliseconds from navigation to ready.
 */
export async function openReport(browser: Browser, file: string, options: BrowserContextOptions = {}, timeoutMs = 60_000): Promise<{ page: Page; log: PageLog; readyMs: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const log: PageLog = { errors: [], requests: [], dialogs: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') log.errors.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => log.errors.push(`page error: ${e.message}`));
  const url = pathToFileURL(file).href;
  page.on('request', (r) => {
    if (r.url() !== url) log.requests.push(r.url());
  });
  page.on('dialog', (d) => {
    log.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  const started = Date.now();
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]', { timeout: timeoutMs });
  return { page, log, readyMs: Date.now() - started };
}

/** Every cell the matrix draws: DaemonSet and node index, verdict and code, as the page shows them. */
export interface DrawnCell {
  d: number;
  n: number;
  verdict: string;
  code: string;
  text: string;
  /** What a screen reader says: the verdict's word and the code. */
  label: string;
  rowNode: string;
}

export async function drawnCells(page: Page): Promise<DrawnCell[]> {
  return page.$$eval('td.cell', (tds) =>
    tds.map((td) => ({
      d: Number(td.getAttribute('data-d')),
      n: Number(td.getAttribute('data-n')),
      verdict: td.getAttribute('data-verdict') ?? '',
      code: td.getAttribute('data-code') ?? '',
      text: td.textContent ?? '',
      label: td.getAttribute('aria-label') ?? '',
      rowNode: td.parentElement?.querySelector('th.node')?.textContent ?? '',
    })),
  );
}

// The callbacks of $eval and evaluate run in the page; this project compiles without the DOM's
// types (only src/render/html/page/ has them), so the page's globals are reached through the
// element passed in, or named in an expression string.

/** A computed style property of the first element `selector` matches. */
export async function computed(page: Page, selector: string, property: string): Promise<string> {
  return page.$eval(selector, (el, p) => el.ownerDocument.defaultView.getComputedStyle(el).getPropertyValue(p), property);
}

/** Sends the page a `beforeprint` or `afterprint` event, as printing does. */
export async function printEvent(page: Page, type: 'beforeprint' | 'afterprint'): Promise<void> {
  await page.evaluate(`window.dispatchEvent(new Event('${type}'))`);
}

/** The node names of the rows the matrix draws. */
export async function drawnRows(page: Page): Promise<string[]> {
  return page.$$eval('tr.node-row th.node', (ths) => ths.map((th) => th.textContent ?? ''));
}
