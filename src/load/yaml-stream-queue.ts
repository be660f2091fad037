/**
 * The state of the streaming YAML reader (src/load/yaml-stream.ts) and its translations: the
 * documents and List entries translated to JSON (src/load/yaml-json.ts) here or, past 8 MiB, partly
 * on a worker thread (src/load/yaml-translate.ts), whose share moves against the time it sat idle
 * or was waited for; their objects are built in order (settle), and a text outside the subset is
 * read with js-yaml as its lines would have been. The List entries and the documents are read by
 * the classes that extend this one (src/load/yaml-stream-entries.ts, src/load/yaml-stream.ts).
 */
import { loadYamlDocument, type ParsedDocument } from './parse.js';
import { checkTranslation } from './yaml-check.js';
import { listItemLines } from './item-lines.js';
import { parseTranslation, yamlToJson } from './yaml-json.js';
import {
  AUTO_ABOVE,
  cpuSample,
  startTranslator,
  workerWanted,
  type TranslatorMode,
  type WorkerTranslator,
} from './yaml-translate.js';

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

/** How far the worker's share moves after each round, against the time it sat idle or was waited for (moveShare). */
const SHARE_GAIN = 0.5;
/** The worker's share of a round's text, bounded: each side keeps some. */
const MIN_SHARE = 0.1;
const MAX_SHARE = 0.95;

/** Translated JSON whose objects are built later, while the next text is translated. */
export interface Pending {
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

/** Line feeds in text from `from` to `to`. */
export function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A document's text as its lines joined give it: the carriage return before each line feed (and at the end) dropped. */
export function linesOf(text: string): string {
  if (!text.includes('\r')) return text;
  const joined = text.replace(/\r\n/g, '\n');
  return joined.endsWith('\r') ? joined.slice(0, -1) : joined;
}

/**
 * The line feed before the next line from `from` starting with `---`, when that line is exactly
 * `---`; else -1 (`--- {a: 1}`, `---\r`, and `---x`, which may or may not be a marker, are left
 * to the line-by-line reading).
 */
function nextBareMarker(text: string, from: number): number {
  const at = text.indexOf('\n---', from);
  return at >= 0 && text.charCodeAt(at + 4) === 0x0a ? at : -1;
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
export function detach<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  // .inf, .nan and -0 do not survive JSON.stringify; structuredClone keeps them (and copies strings too).
  return jsonSafe(v) ? (JSON.parse(JSON.stringify(v)) as T) : structuredClone(v);
}

/** The stream's state and its translations; see the module comment. */
export class YamlTranslationQueue {
  /** 0-based index of the next line. */
  protected lineNo = 0;
  // The current document (whole mode): its lines, its 0-based start line and size.
  protected lines: string[] = [];
  protected start = 0;
  protected chars = 0;
  // Split mode: the lines around the items, the entry being read, the entries parsed.
  protected split = false;
  protected before: string[] = [];
  protected trailer: string[] = [];
  protected trailerLine = 0;
  /** The indentation of the line that ended the items: a mapping key at column 0, else no valid List. */
  protected trailerIndent = 0;
  protected entry: string[] = [];
  protected entryLine = 0;
  protected items: unknown[] = [];
  protected readonly splitAbove: number;
  protected readonly exactUpTo: number;
  protected readonly mode: TranslatorMode;
  protected readonly check: boolean;
  /** The worker translator, once started; whether starting one was tried. */
  protected translator: WorkerTranslator | undefined;
  protected started = false;
  /** The machine's CPU time when the stream began: whether a core is free is judged over the time since (yaml-translate.ts#workerWanted). */
  protected readonly cpuAtStart = cpuSample();
  /** The worker's share of the characters translated at once (translateShared). */
  protected share = 0.5;
  /** Characters pushed so far. */
  protected pushed = 0;
  protected pending: Pending[] = [];
  /** Documents of `pending` whose translations the worker still holds, by the ticket that answers them. */
  protected awaiting: { ticket: number; docs: Pending[] }[] = [];
  /**
   * List entries of `pending` whose translation the worker still holds, taken back by collect(),
   * and the lines read before the text they were cut from (collect adds those of the entries
   * before them, `after`).
   */
  protected sentEntries: { ticket: number; pending: Pending; lineNo: number; itemLines: number } | undefined;

  constructor(
    protected readonly file: string,
    protected readonly onDocument: (doc: ParsedDocument) => void,
    protected readonly onItem: (value: unknown) => unknown = (v) => v,
    options: YamlStreamOptions = {},
  ) {
    this.splitAbove = options.splitAbove ?? DEFAULT_SPLIT_ABOVE;
    this.exactUpTo = options.exactUpTo ?? DEFAULT_EXACT_UP_TO;
    this.mode = options.translator ?? 'auto';
    this.check = options.checkTranslation ?? false;
  }

  /**
   * Complete entries at column 0, cut in two at an entry so that the second part holds about the
   * worker's share (with no worker, whole). A line at column 0 starting with `- ` starts an entry
   * in any text the translator reads: no scalar it translates goes on at column 0.
   */
  protected shareEntries(yaml: string): string[] {
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
  protected translateDocuments(text: string): number {
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
      const p: Pending = {
        json: i < mine ? this.toJson(texts[i]!) : undefined,
        yaml: texts[i]!,
        line: docs[i]!.start + 1,
        entries: false,
      };
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
  protected textsKept(texts: string[]): number {
    let total = 0;
    for (const t of texts) total += t.length;
    const keep = (1 - this.share) * total;
    let mine = 0;
    for (let at = 0; mine < texts.length - 1 && at < keep; mine++) at += texts[mine]!.length;
    return mine;
  }

  /** A text's JSON translation (yaml-json.ts); undefined when it is outside the subset, or the translator is off. */
  protected toJson(text: string): string | undefined {
    return this.mode === 'off' ? undefined : yamlToJson(text);
  }

  /** The worker translator, started once the stream is large enough for it; undefined: everything is translated here. */
  protected worker(): WorkerTranslator | undefined {
    if (
      !this.started &&
      this.mode !== 'off' &&
      (this.mode === 'worker' || (this.mode === 'auto' && this.pushed > AUTO_ABOVE && workerWanted(this.cpuAtStart)))
    ) {
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
  protected translateShared(texts: string[]): (string | undefined)[] {
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
  protected moveShare(worker: WorkerTranslator): void {
    const r = worker.round;
    if (!r || r.busyMs <= 0) return;
    const factor = Math.min(1.25, Math.max(0.8, 1 + (SHARE_GAIN * (r.idleMs - r.waitedMs)) / r.busyMs));
    this.share = Math.min(MAX_SHARE, Math.max(MIN_SHARE, this.share * factor));
  }

  /** Builds the objects of the translations read so far, in order: called before anything else is handed on. */
  protected settle(): void {
    if (!this.pending.length) return;
    for (const { ticket, docs } of this.awaiting.splice(0)) {
      const jsons = this.translator!.take(ticket);
      this.moveShare(this.translator!);
      for (let i = 0; i < docs.length; i++) docs[i]!.json = jsons[i];
    }
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) {
      if (p.entries && p.json === undefined)
        throw new Error('List entries were to be built before the worker answered for them');
      if (p.json === undefined) {
        // A document outside the subset, as the lines of the text would read it.
        const yaml = linesOf(p.yaml);
        const { value, owned } = this.load(yaml, p.line, null);
        if (value !== null && value !== undefined)
          this.onDocument(this.whole(owned ? value : detach(value), yaml, p.line));
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

  /**
   * Parses one document or entry: through its JSON translation when it is in the subset kubectl
   * writes (the value then owns its memory), else with js-yaml (its strings are slices of the text).
   */
  protected load(
    text: string,
    line: number,
    json: string | null = this.toJson(text) ?? null,
  ): { value: unknown; owned: boolean } {
    const translated = json === null ? undefined : parseTranslation(json);
    if (translated && this.check) checkTranslation(translated.value, text, this.file, line);
    if (translated) return { value: translated.value, owned: true };
    return { value: loadYamlDocument(text, this.file, line), owned: false };
  }

  /** A document read whole from `text` (undefined: no longer held), with its items' lines when it is a List. */
  protected whole(value: unknown, text: string | undefined, line: number): ParsedDocument {
    const itemLines = text === undefined ? undefined : listItemLines(value, text, line);
    return itemLines ? { value, line, itemLines } : { value, line };
  }
}
