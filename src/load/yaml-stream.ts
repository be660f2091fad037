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
 *
 * This file holds the lines read into documents and a List's finish; a List read entry by entry
 * is src/load/yaml-stream-entries.ts, the stream's state and its translations (here and on the
 * worker) src/load/yaml-stream-queue.ts.
 */
import { InputError } from '../model/errors.js';
import { indentOf, startsEntry } from './item-lines.js';
import { YamlContinuation } from './yaml-continuation.js';
import { detach } from './yaml-stream-queue.js';
import { entriesText, YamlListEntries } from './yaml-stream-entries.js';

const DOC_START = /^---(\s.*)?$/;
const DOC_END = /^\.\.\.\s*$/;
const ITEMS_KEY = /^items:\s*(#.*)?$/;

/** Up to this size (characters), the lines of a document in progress are read again with the next chunk. */
const RESUME_MAX = 1 << 20;

/**
 * Splits pushed text into YAML documents and parses each; `onDocument` gets every non-empty
 * document with its starting line. Errors are InputErrors naming the file and line.
 */
export class YamlDocumentStream extends YamlListEntries {
  private partial = '';
  /** Lines of the current document passed to track() so far. */
  private tracked = 0;
  /** Whether the current document began on its `---` line (`--- {a: 1}`). */
  private markerContent = false;
  /** Whether track() has met the document's first content line. */
  private headSeen = false;

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
    if (
      this.chars > Math.min(RESUME_MAX, this.splitAbove) ||
      this.markerContent ||
      this.lineNo - this.lines.length !== this.start
    )
      return undefined;
    // A marker line in partial + chunk, looked for without joining them.
    const head = partial + chunk.slice(0, 4);
    if (!head.startsWith('---') && head.indexOf('\n---') < 0 && chunk.indexOf('\n---') < 0) return undefined;
    const lines = this.lines;
    this.lines = [];
    this.chars = 0;
    this.lineNo = this.start;
    return lines.length ? `${lines.join('\n')}\n${partial}${chunk}` : partial + chunk;
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

  private finishDocument(): void {
    this.settle();
    const line = this.start + 1;
    if (this.split) {
      this.flushEntry(false);
      const value = this.kept ? this.exactList(line) : this.joinList(this.around(line));
      if (value !== null && value !== undefined) {
        const split =
          (value as Record<string, unknown>)['items'] === this.items && this.itemLines.length === this.items.length;
        this.onDocument(
          split ? { value, line, itemLines: this.itemLines } : this.whole(value, this.kept?.join('\n'), line),
        );
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
    if (this.trailerIndent > 0)
      throw new InputError(`${this.file}:${this.trailerLine + 1}: invalid YAML: bad indentation of a mapping entry`);
    const head = this.load(this.before.join('\n'), line).value;
    const tail = this.trailer.length ? this.load(this.trailer.join('\n'), this.trailerLine + 1).value : undefined;
    // A sequence at column 0 after the items ends no mapping: js-yaml refuses it.
    if (!plainMapping(tail))
      throw new InputError(
        `${this.file}:${this.trailerLine + 1}: invalid YAML: end of the stream or a document separator is expected`,
      );
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
