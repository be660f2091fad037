/**
 * `ds-doctor report`: one self-contained HTML page. The page embeds the report document (data.ts)
 * as JSON in a `<script type="application/json">` element and draws it with its own script
 * (page/, inlined): no request leaves the page (its Content-Security-Policy allows none, and
 * only its own script and style by hash), and no string of the cluster reaches the HTML parser:
 * in the JSON, `<`, `>`, `&` and the line separators are `\u` escapes, so no value can end the
 * element, and the script puts every string into the document as text.
 */
import { createHash } from 'node:crypto';
import { unicodeEscape } from '../../model/terminal-text.js';
import { escapeJsonText } from '../sanitize.js';
import type { ReportData } from './data.js';
import { packReport, type ReportInput } from './pack.js';
import { PAGE_SCRIPT } from './page-script.js';
import { REPORT_CSS } from './style.js';

export type { ReportInput } from './pack.js';

/**
 * JSON that can sit inside a `<script>` element: `<`, `>` and `&` (which could end the element or
 * open a comment), U+2028 and U+2029, and what escapeJsonText escapes (C1 and bidi controls)
 * written as `\u` escapes, which JSON.parse reads back as the same characters.
 */
export function scriptSafeJson(value: unknown): string {
  return escapeJsonText(JSON.stringify(value)).replace(/[<>&\u2028\u2029]/g, unicodeEscape);
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The page for an already packed document, with the given page script (tests pass their own). */
export function htmlPage(data: ReportData, script: string = PAGE_SCRIPT): string {
  if (/<\/script|<!--/i.test(script)) throw new Error('the page script holds "</script" or "<!--"');
  const csp = [
    `default-src 'none'`,
    `script-src ${sha256(script)}`,
    `style-src ${sha256(REPORT_CSS)}`,
    `img-src data:`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<meta name="generator" content="ds-doctor ${data.generator.version.replace(/[^0-9A-Za-z.+-]/g, '')}">`,
    '<title>ds-doctor report</title>',
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<div id="app"><noscript><p>This report is drawn by its script: open it in a browser with JavaScript on. Its data is the JSON in the element with id "report-data".</p></noscript></div>',
    `<script type="application/json" id="report-data">${scriptSafeJson(data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The report page of the analyses' results. */
export function renderHtmlReport(input: ReportInput): string {
  return htmlPage(packReport(input));
}
