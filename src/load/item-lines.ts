/**
 * The line each item of a YAML `kind: List` starts at, for load notes, lint locations and SARIF
 * (a List's items would otherwise all point at its first line). The streaming reader knows the
 * lines of the entries it splits; for a List read whole, its text is scanned here as the stream
 * scans it: `items:` at column 0, then every `- ` at the first entry's indentation, lines that go
 * on with a quoted scalar, a flow collection or a block scalar skipped, up to a line indented no
 * deeper that is no entry. The lines are used only when there is one for each item.
 */
import { YamlContinuation } from './yaml-continuation.js';

const ITEMS_KEY = /^items:\s*(#.*)?$/;

/** Leading spaces of a line, or -1 for a blank or comment-only line. */
export function indentOf(line: string): number {
  let k = 0;
  while (k < line.length && line.charCodeAt(k) === 0x20) k++;
  if (k === line.length) return -1;
  const c = line.charCodeAt(k);
  if (c === 0x23 /* # */ || (c === 0x09 && line.trim() === '')) return -1;
  return k;
}

/** A `-` entry indicator at `indent`: followed by a space or the line's end. */
export function startsEntry(line: string, indent: number): boolean {
  return (
    line.charCodeAt(indent) === 0x2d /* - */ && (line.length === indent + 1 || line.charCodeAt(indent + 1) === 0x20)
  );
}

/**
 * The 1-based lines where the `count` items of the List in `text` (which starts at line `first`)
 * start, or undefined when the scan does not find exactly `count` entries.
 */
export function yamlItemLines(text: string, first: number, count: number): number[] | undefined {
  const continuation = new YamlContinuation();
  const out: number[] = [];
  let inItems = false;
  let indent = -1;
  let lineNo = first - 1;
  for (let pos = 0; pos <= text.length;) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    let l = text.slice(pos, end);
    if (l.endsWith('\r')) l = l.slice(0, -1);
    pos = end + 1;
    lineNo++;
    if (continuation.feed(l)) continue;
    if (!inItems) {
      inItems = l.charCodeAt(0) === 0x69 /* i */ && ITEMS_KEY.test(l);
      continue;
    }
    const k = indentOf(l);
    if (k < 0) continue;
    if (indent < 0) {
      if (!startsEntry(l, k)) break;
      indent = k;
    }
    if (k === indent && startsEntry(l, k)) out.push(lineNo);
    else if (k <= indent) break;
  }
  return out.length === count ? out : undefined;
}

/** The lines of the items of `value` (a List read from `text` at line `first`), when it has items. */
export function listItemLines(value: unknown, text: string, first: number): number[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const items = (value as Record<string, unknown>)['items'];
  if (!Array.isArray(items) || items.length === 0) return undefined;
  return yamlItemLines(text, first, items.length);
}
