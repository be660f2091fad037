/**
 * Loads a ClusterSnapshot from files: multi-document YAML, JSON, `kind: List` and `*List`,
 * directories (recursive, walked by src/load/directories.ts), `-` for stdin, and
 * `kubectl cluster-info dump --output-directory`.
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { readFile } from 'node:fs/promises';
import type { KubeObject } from '../model/k8s-types.js';
import { InputError } from '../model/errors.js';
import { emptySnapshot, SNAPSHOT_KINDS, type ClusterSnapshot, type SnapshotKind } from '../model/snapshot.js';
import { isJsonSource, parseJson, type ParsedDocument } from './parse.js';
import { ObjectStage, type StageOptions } from './stage.js';
import { JsonDumpParser, type JsonStreamOptions } from './json-stream.js';
import { JsonStreamError } from './json-stream-items.js';
import { YamlDocumentStream } from './yaml-stream.js';
import type { YamlStreamOptions } from './yaml-stream-queue.js';
import { expandPaths } from './directories.js';

/** Reads standard input to the end. */
export type StdinReader = () => Promise<string>;

/**
 * How files are read: the source's chunk size, the decoders' options (when a YAML List is parsed
 * item by item, where YAML is translated, the JSON parser's layout guesses) and the object stage's
 * (slimming, sharing). Every optimisation is on unless turned off here (the benchmark's --ablate).
 */
export interface LoadOptions extends YamlStreamOptions, JsonStreamOptions, StageOptions {
  /** Bytes per chunk read from a file; characters per chunk of stdin (its pipe pieces are joined up to it). */
  chunkSize?: number;
  /** Size up to which a JSON syntax error is reported from a scan of the whole text. */
  wholeTextErrors?: number;
  /** Standard input as text chunks; without it, stdin is read whole with the StdinReader. */
  stdinChunks?: () => AsyncIterable<string>;
}

/**
 * The load options a user sets through the environment (the CLI passes its environment in):
 * `DS_DOCTOR_WORKERS=0` keeps the YAML translation on one thread, `DS_DOCTOR_CHECK_YAML=1` checks
 * every translated text against js-yaml's reading (yaml-check.ts).
 */
export function envLoadOptions(env: Readonly<Record<string, string | undefined>>): LoadOptions {
  return {
    ...(env['DS_DOCTOR_WORKERS'] === '0' ? { translator: 'inline' as const } : {}),
    ...(env['DS_DOCTOR_CHECK_YAML'] === '1' ? { checkTranslation: true } : {}),
  };
}

/**
 * Bytes per chunk read from a file (characters, for stdin). 1 MiB rather than 4, as measured on
 * the bench's 1,000-node dumps (120–200 MiB, every layout): the same time within the noise, and
 * 60–230 MiB less peak RSS.
 */
const CHUNK = 1 << 20;
/**
 * Bytes of a JSON file handed to the parser at a time: each chunk read is decoded in pieces of
 * this size. A string above 128 KiB is allocated in V8's large-object space, where one that
 * outlives a young collection waits for a full one: with 1 MiB pieces, 30 MiB of a 120 MiB compact
 * dump's peak was text already parsed (measured: the same time within the noise, 29 MiB less
 * peak RSS). YAML keeps whole chunks: its stream and worker pay per piece.
 */
const JSON_PIECE = 64 << 10;
// Below this size a JSON syntax error is reported from the whole text (parse.ts parseJson: the
// first error of the text as a whole); above it the streaming parser's own message is used.
const WHOLE_TEXT_ERRORS = 64 << 20;

function readError(path: string, err: unknown): InputError {
  return new InputError(`${path}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}

/**
 * Pieces joined into chunks of at least `size` characters (the last one may be shorter): a pipe
 * hands over 64 KiB at a time, and the parsers' cost per chunk is paid per piece otherwise.
 */
async function* joined(pieces: AsyncIterable<string>, size: number): AsyncGenerator<string> {
  let held: string[] = [];
  let chars = 0;
  for await (const piece of pieces) {
    held.push(piece);
    chars += piece.length;
    if (chars < size) continue;
    yield held.join('');
    held = [];
    chars = 0;
  }
  if (held.length) yield held.join('');
}

/**
 * The text of a source in chunks: a file read `size` bytes at a time, each read decoded in pieces of
 * at most `piece.bytes` bytes (read again before each piece, so a caller may change it once it
 * knows the format); stdin as it comes (joined into chunks), or whole.
 */
async function* chunks(
  path: string,
  readStdin: StdinReader,
  size: number,
  stdinChunks?: () => AsyncIterable<string>,
  piece: { bytes: number } = { bytes: size },
): AsyncGenerator<string> {
  if (path === '-') {
    if (stdinChunks) yield* joined(stdinChunks(), size);
    else yield await readStdin();
    return;
  }
  // UTF-8 sequences cut by a piece's or a read's end are joined by the decoder. Pieces stay heap
  // strings: a latin1 decode would be faster but makes large external strings, whose memory
  // accounting triggers full garbage collections once the heap is large.
  const decoder = new StringDecoder('utf8');
  try {
    for await (const read of createReadStream(path, { highWaterMark: size })) {
      const bytes = read as Buffer;
      for (let at = 0; at < bytes.length;) {
        const end = Math.min(bytes.length, at + Math.max(1, piece.bytes));
        const text = decoder.write(end - at === bytes.length ? bytes : bytes.subarray(at, end));
        if (text) yield text;
        at = end;
      }
    }
  } catch (err) {
    throw readError(path, err);
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** Counts the lines up to a character offset of a source, to place a streaming parser's error. */
async function lineAt(path: string, readStdin: StdinReader, offset: number, size: number): Promise<number> {
  let line = 1;
  let seen = 0;
  for await (const chunk of chunks(path, readStdin, size)) {
    const upto = Math.min(chunk.length, offset - seen);
    for (let i = chunk.indexOf('\n'); i >= 0 && i < upto; i = chunk.indexOf('\n', i + 1)) line++;
    seen += chunk.length;
    if (seen >= offset) break;
  }
  return line;
}

/**
 * What stdin has shown so far, to place a JSON error after the fact (stdin cannot be read again):
 * the line each chunk starts at, the last chunks' text, and all of it while it is small.
 */
class StdinText {
  private readonly starts: number[] = [];
  private readonly lines: number[] = [];
  private readonly recent: string[] = [];
  private all: string[] | undefined = [];
  private offset = 0;
  private line = 1;

  constructor(private readonly wholeLimit: number) {}

  add(chunk: string): void {
    this.starts.push(this.offset);
    this.lines.push(this.line);
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) this.line++;
    this.offset += chunk.length;
    // API objects are at most 1.5 MiB (etcd's limit), so an error lies within the last chunks.
    this.recent.push(chunk);
    if (this.recent.length > 4) this.recent.shift();
    if (this.all) {
      this.all.push(chunk);
      if (this.offset > this.wholeLimit) this.all = undefined;
    }
  }

  /** The whole text, while it is small enough to have been kept. */
  whole(): string | undefined {
    return this.all?.join('');
  }

  lineAt(offset: number): number {
    let k = this.starts.length - 1;
    while (k > 0 && this.starts[k]! > offset) k--;
    const text = this.recent[this.recent.length - (this.starts.length - k)];
    if (text === undefined) return this.lines[k] ?? 1;
    return this.lines[k]! + text.slice(0, offset - this.starts[k]!).split('\n').length - 1;
  }
}

/**
 * Parses one source while it is read, handing each document to `onDocument`: JSON through the
 * streaming parser (items parsed one by one), YAML document by document. Which of the two is
 * chosen by the extension, or for stdin and other names by the first character, as before.
 * `onItem` gets each item of a List as it is parsed.
 */
async function parseSource(
  path: string,
  name: string,
  readStdin: StdinReader,
  options: LoadOptions,
  onDocument: (doc: ParsedDocument) => void,
  onItem: <T>(item: T) => T,
): Promise<void> {
  const size = options.chunkSize ?? CHUNK;
  const piece = { bytes: size };
  const source = chunks(path, readStdin, size, options.stdinChunks, piece);
  const first = await source.next();
  const head = first.done ? '' : first.value;
  if (!isJsonSource(name, head)) {
    const yamlStream = new YamlDocumentStream(name, onDocument, onItem, options);
    try {
      if (!first.done) yamlStream.push(head);
      for await (const chunk of source) yamlStream.push(chunk);
      yamlStream.end();
    } finally {
      yamlStream.close();
    }
    return;
  }
  piece.bytes = Math.min(size, JSON_PIECE);
  // Concatenated documents (NDJSON) are held until the input ends, as a List's items are: each
  // goes through `onItem` as it ends, so a pod among them is checked and shared while it is young.
  const parser = new JsonDumpParser(onItem, onItem, options);
  const wholeLimit = options.wholeTextErrors ?? WHOLE_TEXT_ERRORS;
  const stdin = path === '-' ? new StdinText(wholeLimit) : undefined;
  let read = 0;
  try {
    if (!first.done) {
      read += head.length;
      stdin?.add(head);
      parser.push(head);
    }
    for await (const chunk of source) {
      read += chunk.length;
      stdin?.add(chunk);
      parser.push(chunk);
    }
    for (const doc of parser.endParsed()) onDocument(doc);
  } catch (err) {
    if (!(err instanceof JsonStreamError)) throw err;
    await source.return(undefined);
    // Small enough to hold whole: report the first error of the text as a whole
    // (not after concatenated documents: the whole text would stop at the second).
    const single = parser.documentsBefore === 0;
    if (single && stdin) {
      const text = stdin.whole();
      if (text !== undefined) parseJson(text, name);
    } else if (single && read <= wholeLimit) {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (e) {
        throw readError(path, e);
      }
      parseJson(text, name);
    }
    const line = stdin ? stdin.lineAt(err.offset) : await lineAt(path, readStdin, err.offset, size);
    throw new InputError(`${name}:${line}: invalid JSON: ${err.message}`);
  }
}

/** Reads one file (or `-`) into its documents, as the loader reads it; `onItem` gets each item of a List, and each of concatenated JSON documents, as it is parsed. */
export async function readDocuments(
  path: string,
  readStdin: StdinReader,
  options: LoadOptions = {},
  onItem: <T>(item: T) => T = (v) => v,
): Promise<ParsedDocument[]> {
  const docs: ParsedDocument[] = [];
  await parseSource(path, path === '-' ? '<stdin>' : path, readStdin, options, (doc) => docs.push(doc), onItem);
  return docs;
}

/**
 * Why a parsed document is not a Kubernetes object (or a list of them), or undefined when it is.
 * A list in kubectl's old internal-type form is named as such, with what to do instead.
 */
function notAnObject(value: unknown, file: string): string | undefined {
  if (Array.isArray(value)) {
    // A bare array of objects (Sonobuoy's resource files) is a list when each object names its
    // kind, or when the file is named after one (older Sonobuoy: `Pods.json`, `core_v1_pods.json`).
    const objects = value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
    if (objects && (kindFromFileName(file) || value.every((v) => typeof (v as KubeObject).kind === 'string')))
      return undefined;
    return 'expected a Kubernetes object, found a list';
  }
  if (typeof value !== 'object' || value === null)
    return `expected a Kubernetes object, found ${value === null ? 'null' : typeof value}`;
  const obj = value as Record<string, unknown>;
  if (typeof obj['kind'] === 'string' && obj['kind'] !== '') return undefined;
  if ('Items' in obj || 'TypeMeta' in obj || 'ObjectMeta' in obj) {
    return 'a list in kubectl\'s internal-type format ("Items", objects without kind or apiVersion), as older kubectl versions wrote kubectl cluster-info dump; dump again with a current kubectl (kubectl cluster-info dump --output-directory <dir>, or kubectl get <kind> -A -o json)';
  }
  return 'document has no "kind"';
}

/**
 * The kind a file's name says it holds, as Sonobuoy names its resource files: `Pods.json`,
 * `DaemonSets.json` (0.10 and before) or `core_v1_pods.json`, `apps_v1_daemonsets.json`.
 */
function kindFromFileName(file: string): SnapshotKind | undefined {
  const base = (file.split(/[\\/]/).pop() ?? '').replace(/\.json$/i, '').toLowerCase();
  const plural = base.includes('_') ? base.slice(base.lastIndexOf('_') + 1) : base;
  return (Object.keys(SNAPSHOT_KINDS) as SnapshotKind[]).find((k) => SNAPSHOT_KINDS[k].plural === plural);
}

/** Adds one parsed document (an object or a List of objects) to the snapshot through the object stage. */
function addDocument(stage: ObjectStage, doc: ParsedDocument, file: string, seen: Set<SnapshotKind>): void {
  const value = doc.value;
  const problem = notAnObject(value, file);
  if (problem) throw new InputError(`${file}:${doc.line}: ${problem}`);
  const fileKind = Array.isArray(value) ? kindFromFileName(file) : undefined;
  const obj = (
    Array.isArray(value) ? { kind: fileKind ? `${fileKind}List` : 'List', items: value } : value
  ) as KubeObject;
  const kind = obj.kind!;
  const items = obj['items'];
  // A typed list with `"items": null` (how kubectl writes an empty list) is a collected, empty kind.
  if (kind.endsWith('List') && (Array.isArray(items) || items === null || items === undefined)) {
    const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
    if (itemKind && itemKind in SNAPSHOT_KINDS) seen.add(itemKind as SnapshotKind);
    const list = (items ?? []) as unknown[];
    // Each item at its own line when the reader knew them all (item-lines.ts, json-stream.ts).
    const lines = doc.itemLines?.length === list.length ? doc.itemLines : undefined;
    for (const [k, item] of list.entries()) {
      const line = lines?.[k] ?? doc.line;
      if (typeof item !== 'object' || item === null) {
        throw new InputError(`${file}:${line}: ${kind} has an item that is not an object`);
      }
      const it = item as KubeObject;
      if (!it.kind && itemKind) it.kind = itemKind;
      addDocument(stage, { value: it, line }, file, seen);
    }
    return;
  }
  if (stage.add(obj, { file, line: doc.line })) seen.add(kind as SnapshotKind);
}

/**
 * Reads a file found in a directory: its documents, or, when it is not Kubernetes objects (a
 * support bundle's other JSON, a broken file), undefined and a warning, as kubectl skips files it
 * cannot read when told to continue. An internal-type dump is an error: it is cluster state that
 * must be dumped again, not a stray file.
 */
async function readDirectoryFile(
  path: string,
  readStdin: StdinReader,
  options: LoadOptions,
  stage: ObjectStage,
  warnings: string[],
): Promise<ParsedDocument[] | undefined> {
  let docs: ParsedDocument[];
  try {
    docs = await readDocuments(path, readStdin, options, (item) => stage.read(item));
  } catch (err) {
    if (!(err instanceof InputError) || err.message.startsWith(`${path}: cannot read`)) throw err;
    warnings.push(`skipped ${err.message} (not read as Kubernetes objects)`);
    return undefined;
  }
  for (const doc of docs) {
    const problem = notAnObject(doc.value, path);
    if (!problem) continue;
    if (problem.includes('internal-type')) throw new InputError(`${path}:${doc.line}: ${problem}`);
    warnings.push(`skipped ${path}:${doc.line}: ${problem} (not read as Kubernetes objects)`);
    return undefined;
  }
  return docs;
}

/**
 * Loads every path into one snapshot. Kinds that appear nowhere (not even as an empty list)
 * are recorded as missing, so analyses can say what they could not see. A file found in a
 * directory that holds no Kubernetes objects is skipped with a warning; a file named on its own
 * must be read.
 */
export async function loadFiles(
  paths: string[],
  readStdin: StdinReader,
  options: LoadOptions = {},
): Promise<ClusterSnapshot> {
  const { files: sources, warnings } = await expandPaths(paths);
  const stage = new ObjectStage(emptySnapshot('files'), options);
  const snapshot = stage.snapshot;
  snapshot.warnings.push(...warnings);
  const seen = new Set<SnapshotKind>();
  const skipped: string[] = [];
  let objects = 0;
  for (const { path, inDirectory } of sources) {
    const name = path === '-' ? '<stdin>' : path;
    if (inDirectory) {
      const docs = await readDirectoryFile(path, readStdin, options, stage, skipped);
      for (const doc of docs ?? []) addDocument(stage, doc, name, seen);
      objects += docs?.length ?? 0;
      continue;
    }
    const add = (doc: ParsedDocument) => {
      addDocument(stage, doc, name, seen);
      objects++;
    };
    await parseSource(path, name, readStdin, options, add, (item) => stage.read(item));
  }
  if (objects === 0) {
    throw new InputError(`${paths.join(', ')}: no Kubernetes objects found${skipped.length ? ` (${skipped[0]})` : ''}`);
  }
  snapshot.warnings.push(...skipped);
  for (const kind of Object.keys(SNAPSHOT_KINDS) as SnapshotKind[]) {
    if (!seen.has(kind)) snapshot.missing.push({ kind, reason: 'absent' });
  }
  return stage.finish();
}
