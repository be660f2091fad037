/**
 * The browser the report's tests drive: the machine's Chromium (Debian's `chromium`, which
 * .ci/run installs where it is missing), headless, through playwright-core, which downloads no
 * browser. A missing Chromium fails the tests with one line saying how to install it: they are
 * never skipped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** The Chromium binary: $CHROMIUM, else Debian's. */
export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM to its path; the browser tests do not skip`,
    );
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
export async function openReport(
  browser: Browser,
  file: string,
  options: BrowserContextOptions = {},
  timeoutMs = 60_000,
): Promise<{ page: Page; log: PageLog; readyMs: number }> {
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
  return page.$eval(
    selector,
    (el, p) => el.ownerDocument.defaultView.getComputedStyle(el).getPropertyValue(p),
    property,
  );
}

/** Sends the page a `beforeprint` or `afterprint` event, as printing does. */
export async function printEvent(page: Page, type: 'beforeprint' | 'afterprint'): Promise<void> {
  await page.evaluate(`window.dispatchEvent(new Event('${type}'))`);
}

/** The node names of the rows the matrix draws. */
export async function drawnRows(page: Page): Promise<string[]> {
  return page.$$eval('tr.node-row th.node', (ths) => ths.map((th) => th.textContent ?? ''));
}

/** Linux's clock ticks per second, in which /proc reports CPU time (USER_HZ: 100 on every Linux the project runs on). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time, in milliseconds, that the processes this test started (the browser it launched:
 * its own process, renderers, GPU and utility processes) have used so far, read from /proc. On a
 * machine shared with other work the wall time of an action grows with the load; its CPU time
 * does not, so the budgets are held on it.
 */
export function childrenCpuMs(): number {
  const root = process.pid;
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // the process ended
    }
    // pid (comm) state ppid … utime stime: the fields after the command's closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    parent.set(Number(entry), Number(fields[1]));
    ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parent.get(p), hops++)
      if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, t] of ticks) if (pid !== root && inTree(pid)) total += t;
  return (total * 1000) / TICKS_PER_SECOND;
}
