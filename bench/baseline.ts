/**
 * The benchmark's baseline: read a dump and parse it, nothing else.
 *
 *   node dist/bench/baseline.js stream|whole <file>
 *
 * `whole` is `readFile` + `JSON.parse` (or js-yaml's loadAll) of the whole text, which fails past
 * V8's longest string; `stream` reads the file in chunks and parses each item with the same
 * incremental parser the loader uses, keeping every parsed item, without pruning or indexing.
 * Prints one JSON line: items parsed, milliseconds, peak RSS in bytes.
 */
import { createReadStream, readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { JsonDumpParser } from '../src/load/json-stream.js';
import { YamlDocumentStream } from '../src/load/yaml-stream.js';

function countItems(value: unknown): number {
  const items = (value as { items?: unknown[] } | null)?.items;
  return Array.isArray(items) ? items.length : 1;
}

async function stream(file: string): Promise<number> {
  const source = createReadStream(file, { encoding: 'utf8', highWaterMark: 4 << 20 });
  if (file.endsWith('.json')) {
    const parser = new JsonDumpParser();
    for await (const chunk of source) parser.push(chunk as string);
    return countItems(parser.end());
  }
  const docs: unknown[] = [];
  const reader = new YamlDocumentStream(file, (d) => docs.push(d.value));
  for await (const chunk of source) reader.push(chunk as string);
  reader.end();
  return docs.reduce((n: number, d) => n + countItems(d), 0);
}

function whole(file: string): number {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.json')) return countItems(JSON.parse(text));
  return yaml.loadAll(text, undefined, { schema: yaml.CORE_SCHEMA }).reduce((n: number, d) => n + countItems(d), 0);
}

const [mode, file] = process.argv.slice(2);
if ((mode !== 'stream' && mode !== 'whole') || !file) {
  process.stderr.write('usage: baseline.js stream|whole <file>\n');
  process.exit(2);
}
const started = process.hrtime.bigint();
const items = mode === 'stream' ? await stream(file) : whole(file);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
process.stdout.write(`${JSON.stringify({ items, ms, maxRSS: process.resourceUsage().maxRSS * 1024 })}\n`);
