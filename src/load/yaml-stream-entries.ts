/**
 * A `kind: List` read entry by entry by the streaming YAML reader (src/load/yaml-stream.ts, which
 * extends this class): its `items:` cut at the lines that start an entry, each entry parsed alone
 * (translated in batches, sent to the worker early and taken back after the next chunk's), its
 * text kept up to `exactUpTo` for the whole text's answer when the entries alone cannot give it.
 */
import { InputError } from '../model/errors.js';
import { indentOf, startsEntry } from './item-lines.js';
import { YamlContinuation } from './yaml-continuation.js';
import { type Pending, countLines, linesOf, detach, YamlTranslationQueue } from './yaml-stream-queue.js';

/** Characters of List entries translated in one batch when many are read at once. */
const BATCH = 1 << 20;
/** How many batches ahead of the one being built the worker is given its own. */
const AHEAD = 4;

/** List entries sent to the worker before the ones sent last were taken back: the text resume makes, where its last entry starts, its parts. */
interface EarlyEntries {
  text: string;
  last: number;
  parts: string[];
  ticket: number;
}

/** How many entries a text of complete List entries at column 0 holds (it starts with one; each line starting with `- ` starts one). */
function entryStarts(text: string): number {
  let n = 1;
  for (let at = text.indexOf('\n- '); at >= 0; at = text.indexOf('\n- ', at + 1)) n++;
  return n;
}

/** The text a split List's entry in progress is read again with: its lines, then the next chunk. */
export function entriesText(lines: string[], partial: string, chunk: string): string {
  return `${lines.join('\n')}\n${partial}${chunk}`;
}

/** A line at column 0, after the first, that is neither blank nor a comment (CRLF lines included). */
const LINE_AT_COLUMN_0 = /\n(?![ #\n]|\r\n|$)/;

/** A line after the first starting with `---` or `...`: one pass for both. */
const MARKER_START = /\n(?:---|\.\.\.)/;

/** True when a line in text before `to` starts with `---` or `...` (a marker, maybe). */
function hasMarkerLine(text: string, to: number): boolean {
  if (text.startsWith('---') || text.startsWith('...')) return true;
  const at = text.search(MARKER_START);
  return at >= 0 && at < to;
}

/** A List read entry by entry; see the module comment. */
export class YamlListEntries extends YamlTranslationQueue {
  // Where its `items:` block sequence is: the key's line, the entries' indentation and first lines.
  protected itemsAt = -1;
  protected itemIndent = -1;
  protected itemStarts: number[] = [];
  protected itemsEnd = -1;
  protected unsplittable = false;
  /** The line of each entry of the List being split, as each is found (one per item, once all are read). */
  protected itemLines: number[] = [];
  /**
   * The lines (and translated runs of lines) of a List read entry by entry, while it is no larger
   * than exactUpTo: joined by line feeds, its whole text. Undefined past that size.
   */
  protected kept: string[] | undefined;
  protected keptChars = 0;
  /** The first error of an entry read alone while the text is kept: the List is then parsed whole. */
  protected deferred: InputError | undefined;
  /** Quoted scalars and flow collections open across lines of the current document. */
  protected continuation = new YamlContinuation();

  /** Whether a split List's entry in progress is read again with the next text (resume). */
  protected resumesEntries(): boolean {
    return this.itemsEnd < 0 && this.itemIndent === 0 && this.entry.length > 0 && !this.deferred;
  }

  /**
   * Sends the worker its share of the entries of the text resume will make, before the entries
   * sent last are taken back (push); undefined when that text is not to be read this way.
   */
  protected sendEarly(partial: string, chunk: string): EarlyEntries | undefined {
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
  protected translateEntries(text: string, early?: EarlyEntries): number {
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
      const sent: Pending = {
        json: undefined,
        yaml: theirs,
        line,
        ...(mine !== undefined ? { after: mine } : {}),
        entries: true,
      };
      this.pending.push(sent);
      this.sentEntries = {
        ticket,
        pending: sent,
        lineNo: this.lineNo,
        itemLines: this.itemLines.length + (mine === undefined ? 0 : entryStarts(mine)),
      };
    } else {
      if (hasMarkerLine(text, last)) return 0;
      const jsons = this.translateShared(parts);
      // A text starting with `- ` translates to a sequence, `[`; anything else is read line by line.
      if (jsons.some((json) => json === undefined || json.charCodeAt(0) !== 0x5b)) return 0;
      for (let i = 0; i < parts.length; i++)
        this.pending.push({
          json: jsons[i]!,
          yaml: parts[i]!,
          line,
          ...(i ? { after: parts[i - 1]! } : {}),
          entries: true,
        });
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
  protected collect(): boolean {
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
    if (this.pending[this.pending.length - 1] !== p)
      throw new Error('List entries sent to the worker are not the last ones read');
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
   * Keeps the text of a List read entry by entry (a line, or lines joined by line feeds); past
   * exactUpTo it is dropped, and an error deferred till the end is thrown now.
   */
  protected keep(text: string): void {
    this.kept!.push(text);
    this.keptChars += text.length + 1;
    if (this.keptChars <= this.exactUpTo) return;
    this.kept = undefined;
    if (this.deferred) throw this.deferred;
  }

  protected addSplit(l: string): void {
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
  protected flushEntry(followed = true): void {
    if (!this.entry.length) return;
    if (this.deferred) {
      this.entry = [];
      return;
    }
    this.settle();
    this.emitEntry(this.takeEntry(followed));
  }

  /** The text of the entry read so far, its indentation cut, and its first line; the entry is emptied. */
  protected takeEntry(followed: boolean): { text: string; line: number } {
    const cut = this.itemIndent;
    const body =
      cut > 0
        ? this.entry.map((l) => l.slice(Math.min(cut, l.length - l.trimStart().length))).join('\n')
        : this.entry.join('\n');
    this.entry = [];
    return { text: followed ? `${body}\n` : body, line: this.entryLine + 1 };
  }

  /**
   * Parses the entries of the first part of a List, read before it was split, in order, into its
   * items: translated in batches, each batch's objects built while the next is translated.
   */
  protected emitEntries(entries: { text: string; line: number }[]): void {
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
  protected emitEntry(e: { text: string; line: number }, json?: string | null): void {
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

  /** Parses one entry of a split List; an alias to another entry's anchor says why it cannot resolve. */
  protected loadEntry(text: string, line: number, json?: string | null): { value: unknown; owned: boolean } {
    try {
      return this.load(text, line, json);
    } catch (err) {
      if (err instanceof InputError && err.message.includes('unidentified alias')) {
        throw new InputError(
          `${err.message} (a List over ${Math.round(this.exactUpTo / 2 ** 20)} MiB is read entry by entry, and an alias must refer to an anchor in its own entry)`,
        );
      }
      throw err;
    }
  }
}
