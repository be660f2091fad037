/**
 * Incremental YAML reading for dumps of any size: documents are split at `---` / `...` lines
 * while the text streams in, and each is parsed on its own, exactly as the whole-text parser
 * splits them. A single huge `kind: List` document (what `kubectl get … -o yaml` prints) is
 * parsed item by item once it grows past a threshold (4 MiB): its `items:` block sequence is cut
 * at the lines that start a new `- ` entry at the items' indentation (not those that go on with a
 * quoted scalar or a flow collection of the line before), and each entry is parsed alone.
 * Up to 32 MiB the List's text is kept as well, and parsed whole when the entries alone cannot
 * give the whole text's answer: an alias (`*x`) to an anchor outside its entry, an entry that fails
 * or does not read as one item, keys before and after `items:` that repeat. Past 32 MiB an alias
 * to another entry's anchor is an error, and a key repeated after the items wins (kubectl never
 * writes anchors, nor repeats a key).
 * Past 8 MiB, the complete documents and entries of each chunk are translated to JSON partly on a
 * worker thread (src/load/yaml-translate.ts) while the objects of the chunk before are built here.
 * Past 256 MiB of YAML, the heap's growth between full collections is bounded from the process' start (src/load/heap.ts).
 */
import { InputError } from '../model/errors.js';
import { loadYamlDocument, type ParsedDocument } from './parse.js';
import { checkTranslation } from './yaml-check.js';
import { indentOf, listItemLines, startsEntry } from './item-lines.js';
import { YamlContinuation } from './yaml-continuation.js';
import { parseTranslation, yamlToJson } from './yaml-json.js';
import { AUTO_ABOVE, cpuSample, startTranslator, workerWanted, type TranslatorMode, type WorkerTranslator } from './yaml-translate.js';

/** Options of the streaming YAML reader. */
export interface YamlStreamOptions {
  /** Size (characters) above which a List document is parsed item by item. */
  splitAbove?: number;
  /**
   * Size (characters) up to which a List parsed item by item still gives exactly what parsing it
   * whole gives: its text is kept, and parsed whole when the items alone cannot say.
   */
  exactUpTo?: number;
  /** Where large texts are translated to JSON (src/load/yaml-translate.ts); `auto` by default. */
  translator?: TranslatorMode;
  /** Each translation is checked against js-yaml's reading (yaml-check.ts; the CLI sets it with DS_DOCTOR_CHECK_YAML=1). */
  checkTranslation?: boolean;
}

/** Characters of List entries translated in one batch when many are read at once. */
const BATCH = 1 << 20;
/** How far the worker's share moves after each round, against the time it sat idle or was waited for (moveShare). */
const SHARE_GAIN = 0.5;
/** The worker's share of a round's text, bounded: each side keeps some. */
const MIN_SHARE = 0.1;
const MAX_SHARE = 0.95;
/** How many batches ahead of the one being built the worker is given its own. */
const AHEAD = 4;

/** List entries sent to the worker before the ones sent last were taken back: the text resume makes, where its last entry starts, its parts. */
interface EarlyEntries {
  text: string;
  last: number;
  parts: string[];
  ticket: number;
}

/** Translated JSON whose objects are built later, while the next text is translated. */
interface Pending {
  /**
   * The translation; undefined for a document outside the subset (read with js-yaml, as its lines
   * would be) or still on the worker (see `awaiting`).
   */
  json: string | undefined;
  /**
   * The YAML it came from and its first line (`line`, plus the lines of `after` when it follows
   * that text), read with js-yaml should JSON.parse refuse the JSON.
   */
  yaml: string;
  line: number;
  after?: string;
  /** Entries of the List being split (their items go to it), or a whole document. */
  entries: boolean;
}

const DEFAULT_SPLIT_ABOVE = 4 << 20;
const DEFAULT_EXACT_UP_TO = 32 << 20;
const DOC_START = /^---(\s.*)?$/;
const DOC_END = /^\.\.\.\s*$/;
const ITEMS_KEY = /^items:\s*(#.*)?$/;

/** Up to this size (characters), the lines of a document in progress are read again with the next chunk. */
const RESUME_MAX = 1 << 20;

/** Line feeds in text from `from` to `to`. */
/** How many entries a text of complete List entries at column 0 holds (it starts with one; each line starting with `- ` starts one). */
function entryStarts(text: string): number {
  let n = 1;
  for (let at = text.indexOf('\n- '); at >= 0; at = text.indexOf('\n- ', at + 1)) n++;
  return n;
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A document's text as its lines joined give it: the carriage return before each line feed (and at the end) dropped. */
function linesOf(text: string): string {
  if (!text.includes('\r')) return text;
  const joined = text.replace(/\r\n/g, '\n');
  return joined.endsWith('\r') ? joined.slice(0, -1) : joined;
}

/** The text a split List's entry in progress is read again with: its lines, then the next chunk. */
function entriesText(lines: string[], partial: string, chunk: string): string {
  return `${lines.join('\n')}\n${partial}${chunk}`;
}

/** A line at column 0, after the first, that is neither blank nor a comment (CRLF lines included). */
const LINE_AT_COLUMN_0 = /\n(?![ #\n]|\r\n|$)/;

/**
 * The line feed before the next line from `from` starting with `---`, when that line is exactly
 * `---`; else -1 (`--- {a: 1}`, `---\r`, and `---x`, which may or may not be a marker, are left
 * to the line-by-line reading).
 */
function nextBareMarker(text: string, from: number): number {
  const at = text.indexOf('\n---', from);
  return at >= 0 && text.charCodeAt(at + 4) === 0x0a ? at : -1;
}

/** A line after the first starting with `---` or `...`: one pass for both. */
const MARKER_START = /\n(?:---|\.\.\.)/;

/** True when a line in text before `to` starts with `---` or `...` (a marker, maybe). */
function hasMarkerLine(text: string, to: number): boolean {
  if (text.startsWith('---') || text.startsWith('...')) return true;
  const at = text.search(MARKER_START);
  return at >= 0 && at < to;
}

/** True when every number in a parsed value is finite and not -0 (JSON.stringify carries it). */
function jsonSafe(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (typeof v !== 'object' || v === null) return true;
  if (Array.isArray(v)) return v.every(jsonSafe);
  for (const k in v) if (!jsonSafe((v as Record<string, unknown>)[k])) return false;
  return true;
}

/**
 * A copy of a parsed value that shares no memory with the document text. js-yaml's strings are
 * slices of the text, so each value would keep its whole document alive: on a large dump, the
 * copy halves the heap and costs little more time than the garbage collection it saves.
 */
function detach<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  // .inf, .nan and -0 do not survive JSON.stringify; structuredClone keeps them (and copies strings too).
  return jsonSafe(v) ? (JSON.parse(JSON.stringify(v)) as T) : structuredClone(v);
}

/**
 * Splits pushed text into YAML documents and parses each; `onDocument` gets every non-empty
 * document with its starting line. Errors are InputErrors naming the file and line.
 */
export class YamlDocumentStream {
  private partial = '';
  /** 0-based index of the next line. */
  private lineNo = 0;
  // The current document (whole mode): its lines, its 0-based start line and size.
  private lines: string[] = [];
  private start = 0;
  private chars = 0;
  /** Lines of the current document passed to track() so far. */
  private tracked = 0;
  /** Whether the current document began on its `---` line (`--- {a: 1}`). */
  private markerContent = false;
  // Where its `items:` block sequence is: the key's line, the entries' indentation and first lines.
  private itemsAt = -1;
  private itemIndent = -1;
  private itemStarts: number[] = [];
  private itemsEnd = -1;
  private unsplittable = false;
  /** Whether track() has met the document's first content line. */
  private headSeen = false;
  // Split mode: the lines around the items, the entry being read, the entries parsed.
  private split = false;
  private before: string[] = [];
  private trailer: string[] = [];
  private trailerLine = 0;
  /** The indentation of the line that ended the items: a mapping key at column 0, else no valid List. */
  private trailerIndent = 0;
  private entry: string[] = [];
  private entryLine = 0;
  private items: unknown[] = [];
  /** The line of each entry of the List being split, as each is found (one per item, once all are read). */
  private itemLines: number[] = [];
  /**
   * The lines (and translated runs of lines) of a List read entry by entry, while it is no larger
   * than exactUpTo: joined by line feeds, its whole text. Undefined past that size.
   */
  private kept: string[] | undefined;
  private keptChars = 0;
  /** The first error of an entry read alone while the text is kept: the List is then parsed whole. */
  private deferred: InputError | undefined;
  /** Quoted scalars and flow collections open across lines of the current document. */
  private continuation = new YamlContinuation();
  private readonly splitAbove: number;
  private readonly exactUpTo: number;
  private readonly mode: TranslatorMode;
  private readonly check: boolean;
  /** The worker translator, once started; whether starting one was tried. */
  private translator: WorkerTranslator | undefined;
  private started = false;
  /** The machine's CPU time when the stream began: whether a core is free is judged over the time since (yaml-translate.ts#workerWanted). */
  private readonly cpuAtStart = cpuSample();
  /** The worker's share of the characters translated at once (translateShared). */
  private share = 0.5;
  /** Characters pushed so far. */
  private pushed = 0;
  private pending: Pending[] = [];
  /** Documents of `pending` whose translations the worker still holds, by the ticket that answers them. */
  private awaiting: { ticket: number; docs: Pending[] }[] = [];
  /**
   * List entries of `pending` whose translation the worker still holds, taken back by collect(),
   * and the lines read before the text they were cut from (collect adds those of the entries
   * before them, `after`).
   */
  private sentEntries: { ticket: number; pending: Pending; lineNo: number; itemLines: number } | undefined;

  constructor(
    private readonly file: string,
    private readonly onDocument: (doc: ParsedDocument) => void,
    private readonly onItem: (value: unknown) => unknown = (v) => v,
    options: YamlStreamOptions = {},
  ) {
    this.splitAbove = options.splitAbove ?? DEFAULT_SPLIT_ABOVE;
    this.exactUpTo = options.exactUpTo ?? DEFAULT_EXACT_UP_TO;
    this.mode = options.translator ?? 'auto';
    this.check = options.checkTranslation ?? false;
  }

  /** Feeds the next chunk of text. */
  push(chunk: string): void {
    this.pushed += chunk.length;
    // The next entries go to the worker before the last ones are taken back, so that it has a
    // batch to work on while this thread takes them and builds the objects before.
    let early = this.sentEntries ? this.sendEarly(this.partial, chunk) : undefined;
    if (this.collect() && early) {
      // The entries taken back were read again, and the text the early ones came from with them.
      this.translator!.take(early.ticket);
      early = undefined;
    }
    let from = 0;
    // The text is made (and copied into one string) once: with the lines read again, or without.
    const resumed = this.resume(this.partial, chunk, early?.text);
    let text: string;
    if (resumed !== undefined) {
      text = resumed;
      from = this.split ? this.translateEntries(text, early) : this.translateDocuments(text);
    } else {
      text = this.partial + chunk;
    }
    for (;;) {
      const nl = text.indexOf('\n', from);
      if (nl < 0) break;
      const end = nl > from && text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
      this.line(text.slice(from, end));
      from = nl + 1;
    }
    this.partial = text.slice(from);
  }

  /**
   * Prepares reading whole documents or List entries from the text at once: the lines of the one
   * in progress go back in front of the text and the stream goes back to its first line. Undefined
   * (nothing changed) when the text cannot be read that way: a document past the split size, a
   * List whose items are indented, a text with no document marker.
   */
  private resume(partial: string, chunk: string, made?: string): string | undefined {
    if (this.split) {
      if (!this.resumesEntries()) return undefined;
      const lines = this.entry;
      this.entry = [];
      // The entry is found again in the text, and its line with it.
      if (lines.length) this.itemLines.pop();
      // The entry's lines are the last ones kept: they come back with the text.
      if (this.kept) {
        this.kept.length -= lines.length;
        for (const l of lines) this.keptChars -= l.length + 1;
      }
      this.lineNo = this.entryLine;
      // An entry's first line starts nothing open: the continuation starts afresh there.
      this.continuation = new YamlContinuation();
      return made ?? entriesText(lines, partial, chunk);
    }
    // Past the split size the document's items are tracked: it is read line by line from then on.
    if (this.chars > Math.min(RESUME_MAX, this.splitAbove) || this.markerContent || this.lineNo - this.lines.length !== this.start) return undefined;
    // A marker line in partial + chunk, looked for without joining them.
    const head = partial + chunk.slice(0, 4);
    if (!head.startsWith('---') && head.indexOf('\n---') < 0 && chunk.indexOf('\n---') < 0) return undefined;
    const lines = this.lines;
    this.lines = [];
    this.chars = 0;
    this.lineNo = this.start;
    return lines.length ? `${lines.join('\n')}\n${partial}${chunk}` : partial + chunk;
  }

  /** Whether a split List's entry in progress is read again with the next text (resume). */
  private resumesEntries(): boolean {
    return this.itemsEnd < 0 && this.itemIndent === 0 && this.entry.length > 0 && !this.deferred;
  }

  /**
   * Sends the worker its share of the entries of the text resume will make, before the entries
   * sent last are taken back (push); undefined when that text is not to be read this way.
   */
  private sendEarly(partial: string, chunk: string): EarlyEntries | undefined {
    const translator = this.translator;
    if (!translator || !this.split || !this.resumesEntries()) return undefined;
    const text = entriesText(this.entry, partial, chunk);
    const last = text.lastIndexOf('\n- ');
    if (last <= 0 || !text.startsWith('- ') || LINE_AT_COLUMN_0.test(text.slice(last + 1))) return undefined;
    const parts = this.shareEntries(text.slice(0, last + 1));
    return { text, last, parts, ticket: translator.submit([parts[parts.length - 1]!]) };
  }

  /**
   * Reads the complete entries at the start of the text (a split List's items at column 0) at
   * once, through their JSON translation; returns where the lines left to read start (0 when the
   * entries are outside the translated subset: the lines below read them as before). The objects
   * of the text before are built while this one is translated.
   *
   * With a worker, the last entries (its share) are sent to it and taken back only at the next
   * push (collect), as documents are (translateDocuments), when no line after the last entry's
   * first starts at column 0: the lines below then read the rest of this text into that entry
   * (it goes on in the next chunk) without building or ending anything, so that collect can still
   * read the entries sent as those lines would have.
   */
  private translateEntries(text: string, early?: EarlyEntries): number {
    const last = early ? early.last : text.lastIndexOf('\n- ');
    if (last <= 0 || !text.startsWith('- ')) return 0;
    const parts = early ? early.parts : this.shareEntries(text.slice(0, last + 1));
    const line = this.lineNo + 1;
    const translator = this.translator;
    if (translator && (early || !LINE_AT_COLUMN_0.test(text.slice(last + 1)))) {
      const theirs = parts[parts.length - 1]!;
      // Sent first, so that the worker starts while the text is checked and the objects before are built.
      const ticket = early ? early.ticket : translator.submit([theirs]);
      const mine = parts.length > 1 ? parts[0]! : undefined;
      let json: string | undefined;
      if (!hasMarkerLine(text, last)) {
        this.settle();
        json = mine === undefined ? '[' : this.toJson(mine);
      }
      if (json === undefined || json.charCodeAt(0) !== 0x5b) {
        // Read line by line, the entries sent too: their answer is not needed.
        translator.take(ticket);
        return 0;
      }
      if (mine !== undefined) this.pending.push({ json, yaml: mine, line, entries: true });
      const sent: Pending = { json: undefined, yaml: theirs, line, ...(mine !== undefined ? { after: mine } : {}), entries: true };
      this.pending.push(sent);
      this.sentEntries = { ticket, pending: sent, lineNo: this.lineNo, itemLines: this.itemLines.length + (mine === undefined ? 0 : entryStarts(mine)) };
    } else {
      if (hasMarkerLine(text, last)) return 0;
      const jsons = this.translateShared(parts);
      // A text starting with `- ` translates to a sequence, `[`; anything else is read line by line.
      if (jsons.some((json) => json === undefined || json.charCodeAt(0) !== 0x5b)) return 0;
      for (let i = 0; i < parts.length; i++) this.pending.push({ json: jsons[i]!, yaml: parts[i]!, line, ...(i ? { after: parts[i - 1]! } : {}), entries: true });
    }
    // The entries' lines: each line before the last entry's that starts with `- ` starts one.
    let lineNo = line;
    let from = 0;
    this.itemLines.push(lineNo);
    for (let at = text.indexOf('\n- '); at >= 0 && at < last; at = text.indexOf('\n- ', at + 1)) {
      lineNo += countLines(text, from, at + 1);
      from = at + 1;
      this.itemLines.push(lineNo);
    }
    this.lineNo += countLines(text, 0, last + 1);
    if (this.kept) this.keep(text.slice(0, last));
    return last + 1;
  }

  /**
   * Takes back the List entries sent to the worker (translateEntries), before anything else is
   * read. Outside the subset, they are read as their lines would have been (addSplit, which may
   * end the items, and leave a scalar open into the lines after them): from their first line,
   * then the lines read since into the entry in progress, which nothing has ended or built.
   * True when they were read again so.
   */
  private collect(): boolean {
    const sent = this.sentEntries;
    if (!sent) return false;
    this.sentEntries = undefined;
    const translator = this.translator!;
    const json = translator.take(sent.ticket)[0];
    this.moveShare(translator);
    const p = sent.pending;
    if (json !== undefined && json.charCodeAt(0) === 0x5b) {
      p.json = json;
      return false;
    }
    if (this.pending[this.pending.length - 1] !== p) throw new Error('List entries sent to the worker are not the last ones read');
    this.pending.pop();
    // Their entries' lines, and the entry's in progress, are found again as the lines are read.
    this.itemLines.length = sent.itemLines;
    const read = this.lineNo;
    const after = this.entry;
    // The text ends with a line feed: no line follows the last.
    const lines = linesOf(p.yaml).split('\n');
    lines.pop();
    this.entry = [];
    this.continuation = new YamlContinuation();
    this.lineNo = sent.lineNo + (p.after ? countLines(p.after, 0, p.after.length) : 0);
    for (const l of lines) {
      this.lineNo++;
      this.addSplit(l);
    }
    for (const l of after) {
      this.lineNo++;
      this.addSplit(l);
    }
    if (this.lineNo !== read) throw new Error(`List entries read again end at line ${this.lineNo}, not ${read}`);
    return true;
  }

  /**
   * Complete entries at column 0, cut in two at an entry so that the second part holds about the
   * worker's share (with no worker, whole). A line at column 0 starting with `- ` starts an entry
   * in any text the translator reads: no scalar it translates goes on at column 0.
   */
  private shareEntries(yaml: string): string[] {
    if (!this.worker()) return [yaml];
    const cut = yaml.indexOf('\n- ', Math.floor((1 - this.share) * yaml.length));
    return cut < 0 ? [yaml] : [yaml.slice(0, cut + 1), yaml.slice(cut + 1)];
  }

  /**
   * Reads the complete documents at the start of the text, each ended by a bare `---` line, at
   * once through their JSON translation; returns where the lines left to read start. It stops at
   * a document too large to read whole, and at any other marker line (`...`, `--- ` with more
   * after it), all of which the lines below read as before. A document outside the translated
   * subset is read by js-yaml when its turn comes (settle), from the same text its lines would
   * give: no line in it starts with `---` or `...`, and a carriage return before a line feed goes.
   *
   * With a worker, the last documents (about its share of the characters, the last one at least)
   * are sent to it and taken back only when the next text's documents have been sent: it
   * translates them while this thread builds the objects before them, translates the first ones,
   * and reads and splits the next chunk.
   */
  private translateDocuments(text: string): number {
    const dots = text.indexOf('\n...');
    // The documents, with the line count and start line before each, as the reading below leaves them.
    const docs: { pos: number; end: number; start: number }[] = [];
    let pos = 0;
    let lineNo = this.lineNo;
    let start = this.start;
    for (;;) {
      if (text.startsWith('---\n', pos)) {
        lineNo++;
        start = lineNo;
        pos += 4;
        continue;
      }
      if (text.startsWith('---', pos) || text.startsWith('...', pos)) break;
      const end = nextBareMarker(text, pos);
      // The lines of a document of splitAbove characters or more would be tracked for splitting.
      if (end < 0 || (dots >= 0 && dots < end) || end - pos >= this.splitAbove) break;
      docs.push({ pos, end, start });
      lineNo += countLines(text, pos, end + 1) + 1;
      start = lineNo;
      pos = end + 5;
    }
    this.lineNo = lineNo;
    this.start = start;
    if (!docs.length) return pos;
    const texts = docs.map((d) => text.slice(d.pos, d.end));
    const worker = this.worker();
    const mine = worker ? this.textsKept(texts) : texts.length;
    const ticket = worker ? worker.submit(texts.slice(mine)) : -1;
    this.settle();
    const sent: Pending[] = [];
    for (let i = 0; i < texts.length; i++) {
      const p: Pending = { json: i < mine ? this.toJson(texts[i]!) : undefined, yaml: texts[i]!, line: docs[i]!.start + 1, entries: false };
      this.pending.push(p);
      if (i >= mine) sent.push(p);
    }
    if (sent.length) this.awaiting.push({ ticket, docs: sent });
    return pos;
  }

  /**
   * How many of the texts this thread translates when the worker takes the rest: those that start
   * within this thread's share of the characters, the last text always the worker's.
   */
  private textsKept(texts: string[]): number {
    let total = 0;
    for (const t of texts) total += t.length;
    const keep = (1 - this.share) * total;
    let mine = 0;
    for (let at = 0; mine < texts.length - 1 && at < keep; mine++) at += texts[mine]!.length;
    return mine;
  }

  /** A text's JSON translation (yaml-json.ts); undefined when it is outside the subset, or the translator is off. */
  private toJson(text: string): string | undefined {
    return this.mode === 'off' ? undefined : yamlToJson(text);
  }

  /** The worker translator, started once the stream is large enough for it; undefined: everything is translated here. */
  private worker(): WorkerTranslator | undefined {
    if (!this.started && this.mode !== 'off' && (this.mode === 'worker' || (this.mode === 'auto' && this.pushed > AUTO_ABOVE && workerWanted(this.cpuAtStart)))) {
      this.started = true;
      this.translator = startTranslator();
    }
    return this.translator;
  }

  /**
   * The JSON of texts (undefined: outside the subset), in order. With a worker, the last texts
   * (about its share of the characters, the last one at least) are translated there while this
   * thread builds the objects of the texts before (settle) and translates the first ones; the share
   * moves after each round with the time either side waited for the other (moveShare).
   */
  private translateShared(texts: string[]): (string | undefined)[] {
    const worker = this.worker();
    if (!worker) {
      this.settle();
      return texts.map((t) => this.toJson(t));
    }
    const mine = this.textsKept(texts);
    const ticket = worker.submit(mine ? texts.slice(mine) : texts);
    this.settle();
    const here = texts.slice(0, mine).map((t) => this.toJson(t));
    const there = worker.take(ticket);
    this.moveShare(worker);
    return mine ? here.concat(there) : there;
  }

  /**
   * Gives the worker less of the next texts when this thread waited for its last batch, more when
   * it sat idle before the batch, in proportion to the time on the batch (at most a quarter more
   * or a fifth less a round, so that one slow round moves it little).
   */
  private moveShare(worker: WorkerTranslator): void {
    const r = worker.round;
    if (!r || r.busyMs <= 0) return;
    const factor = Math.min(1.25, Math.max(0.8, 1 + (SHARE_GAIN * (r.idleMs - r.waitedMs)) / r.busyMs));
    this.share = Math.min(MAX_SHARE, Math.max(MIN_SHARE, this.share * factor));
  }

  /** Builds the objects of the translations read so far, in order: called before anything else is handed on. */
  private settle(): void {
    if (!this.pending.length) return;
    for (const { ticket, docs } of this.awaiting.splice(0)) {
      const jsons = this.translator!.take(ticket);
      this.moveShare(this.translator!);
      for (let i = 0; i < docs.length; i++) docs[i]!.json = jsons[i];
    }
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) {
      if (p.entries && p.json === undefined) throw new Error('List entries were to be built before the worker answered for them');
      if (p.json === undefined) {
        // A document outside the subset, as the lines of the text would read it.
        const yaml = linesOf(p.yaml);
        const { value, owned } = this.load(yaml, p.line, null);
        if (value !== null && value !== undefined) this.onDocument(this.whole(owned ? value : detach(value), yaml, p.line));
        continue;
      }
      const read = parseTranslation(p.json);
      const line = p.line + (p.after ? countLines(p.after, 0, p.after.length) : 0);
      const value = read ? read.value : detach(loadYamlDocument(p.yaml, this.file, line));
      if (read && this.check) checkTranslation(value, p.yaml, this.file, line);
      if (p.entries) for (const item of value as unknown[]) this.items.push(this.onItem(item));
      else this.onDocument(this.whole(value, p.yaml, p.line));
    }
  }

  /** Stops the worker thread, if one was started; the stream reads nothing more. */
  close(): void {
    this.awaiting = [];
    this.sentEntries = undefined;
    this.translator?.close();
    this.translator = undefined;
  }

  /** Ends the input: the last line and document are parsed, and the worker thread stopped. */
  end(): void {
    this.collect();
    const last = this.partial.endsWith('\r') ? this.partial.slice(0, -1) : this.partial;
    this.partial = '';
    this.line(last);
    this.finishDocument();
    this.close();
  }

  private line(l: string): void {
    const i = this.lineNo++;
    const c = l.charCodeAt(0);
    if (c === 0x2d /* - */ && DOC_START.test(l)) {
      this.finishDocument();
      this.start = i + 1;
      // "--- {a: 1}": content on the marker line belongs to the new document.
      const rest = l.slice(3).trim();
      if (rest && !rest.startsWith('#')) {
        this.start = i;
        this.markerContent = true;
        this.add(rest);
      }
      return;
    }
    if (c === 0x2e /* . */ && DOC_END.test(l)) {
      this.finishDocument();
      this.start = i + 1;
      return;
    }
    this.add(l);
  }

  private add(l: string): void {
    if (this.split) {
      if (this.kept) this.keep(l);
      this.addSplit(l);
      return;
    }
    this.lines.push(l);
    this.chars += l.length + 1;
    if (this.chars <= this.splitAbove) return;
    // Where the items start is looked for only once a document is large enough to be split:
    // the lines kept so far are caught up first, in order, so the outcome is the same.
    for (; this.tracked < this.lines.length; this.tracked++) this.track(this.lines[this.tracked]!, this.tracked);
    if (!this.unsplittable && this.itemStarts.length > 0) this.enterSplit();
  }

  /** Follows where the `items:` entries start, while the document is kept whole. */
  private track(l: string, index: number): void {
    if (this.unsplittable || this.itemsEnd >= 0) return;
    // A line that goes on with a quoted scalar or a flow collection starts nothing.
    if (this.continuation.feed(l)) return;
    if (this.itemsAt < 0) {
      // A document whose first line is indented is no mapping with `items:` at column 0.
      if (!this.headSeen && indentOf(l) >= 0) {
        this.headSeen = true;
        if (indentOf(l) > 0) this.unsplittable = true;
      }
      if (l.charCodeAt(0) === 0x69 /* i */ && ITEMS_KEY.test(l)) this.itemsAt = index;
      return;
    }
    const k = indentOf(l);
    if (k < 0) return;
    if (this.itemIndent < 0) {
      if (startsEntry(l, k)) {
        this.itemIndent = k;
        this.itemStarts.push(index);
      } else {
        this.unsplittable = true;
      }
      return;
    }
    if (k === this.itemIndent && startsEntry(l, k)) this.itemStarts.push(index);
    else if (k <= this.itemIndent) {
      this.itemsEnd = index;
      this.trailerIndent = k;
    }
  }

  /**
   * Keeps the text of a List read entry by entry (a line, or lines joined by line feeds); past
   * exactUpTo it is dropped, and an error deferred till the end is thrown now.
   */
  private keep(text: string): void {
    this.kept!.push(text);
    this.keptChars += text.length + 1;
    if (this.keptChars <= this.exactUpTo) return;
    this.kept = undefined;
    if (this.deferred) throw this.deferred;
  }

  private enterSplit(): void {
    this.split = true;
    if (this.chars <= this.exactUpTo) {
      this.kept = this.lines;
      this.keptChars = this.chars;
    }
    this.before = this.lines.slice(0, this.itemsAt);
    const starts = this.itemStarts;
    for (const from of starts) this.itemLines.push(this.start + from + 1);
    const stop = this.itemsEnd >= 0 ? this.itemsEnd : this.lines.length;
    const complete: { text: string; line: number }[] = [];
    for (let j = 0; j < starts.length; j++) {
      const from = starts[j]!;
      const to = j + 1 < starts.length ? starts[j + 1]! : stop;
      this.entry = this.lines.slice(from, to);
      this.entryLine = this.start + from;
      if (j + 1 < starts.length || this.itemsEnd >= 0) complete.push(this.takeEntry(true));
    }
    this.emitEntries(complete);
    if (this.itemsEnd >= 0) {
      this.trailer = this.lines.slice(this.itemsEnd);
      this.trailerLine = this.start + this.itemsEnd;
    }
    this.lines = [];
    this.itemStarts = [];
  }

  private addSplit(l: string): void {
    if (this.itemsEnd >= 0) {
      this.trailer.push(l);
      return;
    }
    const k = this.continuation.feed(l) ? -1 : indentOf(l);
    if (k < 0) {
      this.entry.push(l);
      return;
    }
    if (k === this.itemIndent && startsEntry(l, k)) {
      this.flushEntry();
      this.entry = [l];
      this.entryLine = this.lineNo - 1;
      this.itemLines.push(this.lineNo);
    } else if (k <= this.itemIndent) {
      this.flushEntry();
      this.itemsEnd = 0;
      this.trailerIndent = k;
      this.trailer = [l];
      this.trailerLine = this.lineNo - 1;
    } else {
      this.entry.push(l);
    }
  }

  /**
   * Parses the entry read so far. `followed`: a line of the document comes after it, so its text
   * ends with that line break, as in the whole document (a `|+` scalar at its end keeps its last
   * blank line).
   */
  private flushEntry(followed = true): void {
    if (!this.entry.length) return;
    if (this.deferred) {
      this.entry = [];
      return;
    }
    this.settle();
    this.emitEntry(this.takeEntry(followed));
  }

  /** The text of the entry read so far, its indentation cut, and its first line; the entry is emptied. */
  private takeEntry(followed: boolean): { text: string; line: number } {
    const cut = this.itemIndent;
    const body = cut > 0 ? this.entry.map((l) => l.slice(Math.min(cut, l.length - l.trimStart().length))).join('\n') : this.entry.join('\n');
    this.entry = [];
    return { text: followed ? `${body}\n` : body, line: this.entryLine + 1 };
  }

  /**
   * Parses the entries of the first part of a List, read before it was split, in order, into its
   * items: translated in batches, each batch's objects built while the next is translated.
   */
  private emitEntries(entries: { text: string; line: number }[]): void {
    this.settle();
    const batches: { text: string; line: number }[][] = [];
    let batch: { text: string; line: number }[] = [];
    let size = 0;
    for (const e of entries) {
      batch.push(e);
      size += e.text.length;
      if (size >= BATCH) {
        batches.push(batch);
        batch = [];
        size = 0;
      }
    }
    if (batch.length) batches.push(batch);
    // Each batch, decided a few ahead, goes to the worker for its share of them; the rest are
    // translated here between building the objects of the batches before.
    const worker = this.worker();
    const tickets: number[] = [];
    let owed = 0;
    const assign = (j: number): void => {
      if (!worker || j >= batches.length) return;
      owed += this.share;
      tickets[j] = owed >= 1 ? worker.submit(batches[j]!.map((e) => e.text)) : -1;
      if (owed >= 1) owed--;
    };
    for (let j = 0; j < AHEAD; j++) assign(j);
    for (let k = 0; k < batches.length; k++) {
      assign(k + AHEAD);
      const batch = batches[k]!;
      const ticket = tickets[k] ?? -1;
      let jsons: (string | undefined)[];
      if (worker && ticket >= 0) {
        jsons = worker.take(ticket);
        this.moveShare(worker);
      } else {
        jsons = batch.map((e) => this.toJson(e.text));
      }
      for (let i = 0; i < batch.length; i++) this.emitEntry(batch[i]!, jsons[i] ?? null);
    }
  }

  /** Parses one entry of a split List into its items; `json`: its translation when made already (null: outside the subset). */
  private emitEntry(e: { text: string; line: number }, json?: string | null): void {
    if (this.deferred) return;
    try {
      const { value, owned } = this.loadEntry(e.text, e.line, json);
      if (!Array.isArray(value) || value.length !== 1) {
        throw new InputError(`${this.file}:${e.line}: invalid YAML: a List entry that does not read as one item`);
      }
      this.items.push(this.onItem(owned ? value[0] : detach(value[0])));
    } catch (err) {
      // While the text is kept, the whole text decides at the end (an alias may resolve there).
      if (!(err instanceof InputError) || !this.kept) throw err;
      this.deferred = err;
    }
  }

  /**
   * Parses one document or entry: through its JSON translation when it is in the subset kubectl
   * writes (the value then owns its memory), else with js-yaml (its strings are slices of the text).
   */
  private load(text: string, line: number, json: string | null = this.toJson(text) ?? null): { value: unknown; owned: boolean } {
    const translated = json === null ? undefined : parseTranslation(json);
    if (translated && this.check) checkTranslation(translated.value, text, this.file, line);
    if (translated) return { value: translated.value, owned: true };
    return { value: loadYamlDocument(text, this.file, line), owned: false };
  }

  /** Parses one entry of a split List; an alias to another entry's anchor says why it cannot resolve. */
  private loadEntry(text: string, line: number, json?: string | null): { value: unknown; owned: boolean } {
    try {
      return this.load(text, line, json);
    } catch (err) {
      if (err instanceof InputError && err.message.includes('unidentified alias')) {
        throw new InputError(`${err.message} (a List over ${Math.round(this.exactUpTo / 2 ** 20)} MiB is read entry by entry, and an alias must refer to an anchor in its own entry)`);
      }
      throw err;
    }
  }

  /** A document read whole from `text` (undefined: no longer held), with its items' lines when it is a List. */
  private whole(value: unknown, text: string | undefined, line: number): ParsedDocument {
    const itemLines = text === undefined ? undefined : listItemLines(value, text, line);
    return itemLines ? { value, line, itemLines } : { value, line };
  }

  private finishDocument(): void {
    this.settle();
    const line = this.start + 1;
    if (this.split) {
      this.flushEntry(false);
      const value = this.kept ? this.exactList(line) : this.joinList(this.around(line));
      if (value !== null && value !== undefined) {
        const split = (value as Record<string, unknown>)['items'] === this.items && this.itemLines.length === this.items.length;
        this.onDocument(split ? { value, line, itemLines: this.itemLines } : this.whole(value, this.kept?.join('\n'), line));
      }
    } else if (this.lines.length) {
      const text = this.lines.join('\n');
      const { value, owned } = this.load(text, line);
      if (value !== null && value !== undefined) this.onDocument(this.whole(owned ? value : detach(value), text, line));
    }
    this.lines = [];
    this.chars = 0;
    this.tracked = 0;
    this.markerContent = false;
    this.itemsAt = -1;
    this.itemIndent = -1;
    this.itemStarts = [];
    this.itemsEnd = -1;
    this.unsplittable = false;
    this.headSeen = false;
    this.split = false;
    this.continuation = new YamlContinuation();
    this.before = [];
    this.trailer = [];
    this.trailerIndent = 0;
    this.entry = [];
    this.items = [];
    this.itemLines = [];
    this.kept = undefined;
    this.keptChars = 0;
    this.deferred = undefined;
  }

  /** The keys before `items:` and after the items of a List read entry by entry, each parsed alone. */
  private around(line: number): { head: unknown; tail: unknown } {
    // `items:` at column 0 then a key indented less than the entries: js-yaml refuses it.
    if (this.trailerIndent > 0) throw new InputError(`${this.file}:${this.trailerLine + 1}: invalid YAML: bad indentation of a mapping entry`);
    const head = this.load(this.before.join('\n'), line).value;
    const tail = this.trailer.length ? this.load(this.trailer.join('\n'), this.trailerLine + 1).value : undefined;
    // A sequence at column 0 after the items ends no mapping: js-yaml refuses it.
    if (!plainMapping(tail)) throw new InputError(`${this.file}:${this.trailerLine + 1}: invalid YAML: end of the stream or a document separator is expected`);
    return { head, tail };
  }

  /** A List read entry by entry: the keys before `items:`, the items, the keys after. */
  private joinList({ head, tail }: { head: unknown; tail: unknown }): Record<string, unknown> {
    return {
      ...(head && typeof head === 'object' ? (head as Record<string, unknown>) : {}),
      items: this.items,
      ...(tail && typeof tail === 'object' ? (tail as Record<string, unknown>) : {}),
    };
  }

  /**
   * A List read entry by entry whose text is kept: joined as above when that is what the whole
   * text reads as, else the whole text parsed (its value, or its error). The whole text is needed
   * when an entry failed alone, or when the keys around `items:` do not make one plain mapping
   * with them (a key repeated, a part that is not a mapping or fails alone).
   */
  private exactList(line: number): unknown {
    if (!this.deferred) {
      try {
        const parts = this.around(line);
        if (plainMapping(parts.head) && plainMapping(parts.tail)) {
          const keys = [...Object.keys(parts.head ?? {}), 'items', ...Object.keys(parts.tail ?? {})];
          if (new Set(keys).size === keys.length) return this.joinList(parts);
        }
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
      }
    }
    const { value, owned } = this.load(this.kept!.join('\n'), line);
    return owned ? value : detach(value);
  }
}

/** Null or undefined (nothing), or a mapping that is not a sequence. */
function plainMapping(v: unknown): v is Record<string, unknown> | null | undefined {
  return v === null || v === undefined || (typeof v === 'object' && !Array.isArray(v));
}
