/** Reading a report page's embedded document back in Node.js, as the page's script reads it. */
import type { ReportData } from '../../src/render/html/data.js';

const DATA = /<script type="application\/json" id="report-data">([^<]*)<\/script>/;

/** The document a report page embeds; fails when the page has none or more than one. */
export function embeddedData(html: string): ReportData {
  const all = html.match(new RegExp(DATA.source, 'g')) ?? [];
  if (all.length !== 1) throw new Error(`the page has ${all.length} data elements`);
  return JSON.parse(DATA.exec(html)![1]!) as ReportData;
}
