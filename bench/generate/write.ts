/**
 * The writers of a generated dump, one per layout, each fed item by item: kubectl's JSON List,
 * other JSON layouts, NDJSON, and YAML as documents or as a List (see bench/generate.ts).
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import yaml from 'js-yaml';
import { foldLikeKubectl } from '../yaml-fold.js';
import type { Obj } from './random.js';

/**
 * The layouts a dump can be written in: `json` as kubectl writes it (a List, four spaces),
 * `json-2` (`JSON.stringify(…, null, 2)`), `json-compact` (one item per line, as `jq -c` tools
 * write), `json-line` (the whole List on one line), `json-concat` (one object per line, no List:
 * NDJSON), `yaml` (multi-document `---` stream) and `yaml-list` (`kubectl get -o yaml`).
 */
export type Format = 'json' | 'json-2' | 'json-compact' | 'json-line' | 'json-concat' | 'yaml' | 'yaml-list';

/** The file name of each layout in a dump's folder. */
export const FILE_NAMES: Record<Format, string> = {
  json: 'dump.json',
  'json-2': 'dump-2.json',
  'json-compact': 'dump-compact.json',
  'json-line': 'dump-line.json',
  'json-concat': 'dump-concat.json',
  yaml: 'dump.yaml',
  'yaml-list': 'dump-list.yaml',
};

/** One writer per output format, each fed item by item. */
export interface Sink {
  item(obj: Obj, kind: string): void;
  close(): void;
}

class Out {
  private readonly fd: number;
  private parts: string[] = [];
  private size = 0;
  private pendingBytes = 0;
  bytes = 0;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  /** Bytes written so far, pending ones included: where the next write starts. */
  get position(): number {
    return this.bytes + this.pendingBytes;
  }
  write(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    this.pendingBytes += Buffer.byteLength(s);
    if (this.size > 4 << 20) this.flush();
  }
  flush(): void {
    if (!this.parts.length) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    this.bytes += buf.length;
    writeSync(this.fd, buf);
    this.parts = [];
    this.size = 0;
    this.pendingBytes = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

function jsonSink(path: string): Sink {
  const out = new Out(path);
  const spans: string[] = [];
  out.write('{\n    "apiVersion": "v1",\n    "items": [');
  let first = true;
  return {
    item(obj) {
      writeItem(out, spans, `${first ? '' : ','}\n        `, JSON.stringify(obj, null, 4).replace(/\n/g, '\n        '));
      first = false;
    },
    close() {
      out.write('\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n');
      out.close();
      writeFileSync(itemSpansFile(path), `${spans.join('\n')}\n`);
    },
  };
}

/** A List in another JSON layout: `indent` spaces per level, or compact with `lineBreaks` between items. */
function jsonLayoutSink(path: string, indent: number, lineBreaks: boolean): Sink {
  const out = new Out(path);
  const pad = ' '.repeat(indent);
  const spans: string[] = [];
  out.write(indent ? `{\n${pad}"apiVersion": "v1",\n${pad}"items": [` : '{"apiVersion":"v1","items":[');
  let first = true;
  return {
    item(obj) {
      const separator = `${first ? '' : ','}${indent ? `\n${pad}${pad}` : lineBreaks ? '\n' : ''}`;
      writeItem(
        out,
        spans,
        separator,
        indent ? JSON.stringify(obj, null, indent).replace(/\n/g, `\n${pad}${pad}`) : JSON.stringify(obj),
      );
      first = false;
    },
    close() {
      out.write(
        indent
          ? `\n${pad}],\n${pad}"kind": "List",\n${pad}"metadata": {\n${pad}${pad}"resourceVersion": ""\n${pad}}\n}\n`
          : `${lineBreaks ? '\n' : ''}],"kind":"List","metadata":{"resourceVersion":""}}\n`,
      );
      out.close();
      writeFileSync(itemSpansFile(path), `${spans.join('\n')}\n`);
    },
  };
}

/** NDJSON: each object on its own line, no List around them. */
function jsonConcatSink(path: string): Sink {
  const out = new Out(path);
  const spans: string[] = [];
  return {
    item(obj) {
      writeItem(out, spans, '', JSON.stringify(obj));
      out.write('\n');
    },
    close() {
      out.close();
      writeFileSync(itemSpansFile(path), `${spans.join('\n')}\n`);
    },
  };
}

export function sinkFor(f: Format, path: string): Sink {
  switch (f) {
    case 'json':
      return jsonSink(path);
    case 'json-2':
      return jsonLayoutSink(path, 2, true);
    case 'json-compact':
      return jsonLayoutSink(path, 0, true);
    case 'json-line':
      return jsonLayoutSink(path, 0, false);
    case 'json-concat':
      return jsonConcatSink(path);
    case 'yaml':
      return yamlSink(path);
    case 'yaml-list':
      return yamlListSink(path);
  }
}

/**
 * Where each item's JSON text lies in a JSON dump, as byte offsets `start end` one item a line in
 * `<file>.items`: the floor (bench/floor.ts) parses exactly those texts and does nothing else.
 */
export function itemSpansFile(path: string): string {
  return `${path}.items`;
}

/** Writes an item's text after its separator, noting the byte span of the text itself. */
function writeItem(out: Out, spans: string[], separator: string, text: string): void {
  out.write(separator);
  const start = out.position;
  out.write(text);
  spans.push(`${start} ${out.position}`);
}

function yamlSink(path: string): Sink {
  const out = new Out(path);
  return {
    item(obj) {
      out.write(`---\n${foldLikeKubectl(yaml.dump(obj, { lineWidth: -1, noRefs: true }))}`);
    },
    close() {
      out.close();
    },
  };
}

/** `kubectl get -o yaml` style: one `kind: List` document with items at column 0. */
function yamlListSink(path: string): Sink {
  const out = new Out(path);
  out.write('apiVersion: v1\nitems:\n');
  return {
    item(obj) {
      const text = foldLikeKubectl(yaml.dump([obj], { lineWidth: -1, noRefs: true }));
      out.write(text);
    },
    close() {
      out.write('kind: List\nmetadata:\n  resourceVersion: ""\n');
      out.close();
    },
  };
}
