/**
 * The floor of a JSON dump: read the file in 1 MiB chunks and `JSON.parse` each item's text,
 * nothing else. The generator notes where each item's text lies (`<file>.items`, byte offsets),
 * so the floor does no scanning of its own: any loader must at least read the bytes and parse
 * the items, which is what this costs. 1 MiB chunks, as the loader reads: on the lean compact
 * dump of 1,000 nodes they made the floor itself faster than 4 MiB did (1.32–1.36 s against
 * 1.55–1.68 s) and smaller (271–272 MiB of peak RSS against 335–339 MiB).
 *
 *   node dist/bench/floor.js <file.json>
 *
 * Prints one JSON line: items parsed, milliseconds, peak RSS in bytes.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { itemSpansFile } from './generate.js';

async function floor(file: string): Promise<number> {
  const spans = readFileSync(itemSpansFile(file), 'latin1')
    .trim()
    .split('\n')
    .map((l) => l.split(' ').map(Number) as [number, number]);
  const items: unknown[] = [];
  let next = 0;
  // Bytes of the file from `base` on that are not yet parsed.
  let carry: Buffer = Buffer.alloc(0);
  let base = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const buf = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    const end = base + buf.length;
    while (next < spans.length && spans[next]![1] <= end) {
      const [from, to] = spans[next++]!;
      items.push(JSON.parse(buf.toString('utf8', from - base, to - base)));
    }
    // The next item may start past this buffer (the text between two items can cross a chunk's
    // end): then nothing is carried, and the next chunk starts at `end`.
    const keep = next < spans.length ? Math.min(Math.max(spans[next]![0], base), end) : end;
    carry = buf.subarray(keep - base);
    base = keep;
  }
  return items.length;
}

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: floor.js <file.json>\n');
  process.exit(2);
}
const started = process.hrtime.bigint();
const items = await floor(file);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
process.stdout.write(`${JSON.stringify({ items, ms, maxRSS: process.resourceUsage().maxRSS * 1024 })}\n`);
