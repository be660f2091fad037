/**
 * Incremental JSON parsing for API dumps of any size. A dump such as `kubectl get … -o json` is
 * one object whose `items` array holds every object; past V8's longest string (about 512 MiB)
 * it cannot be read into one string, let alone `JSON.parse`d. This parser takes the text in
 * chunks, finds where each member of the top-level object and each element of its `items`
 * array ends, and hands that element alone to `JSON.parse`: the result is the same value as
 * `JSON.parse` of the whole text, built item by item.
 *
 * `kubectl cluster-info dump` without `--output-directory` prints one such object per list, one
 * after another, and after them each container's log between `==== START logs for …` and
 * `==== END logs for …` lines (older kubectl: then "Cluster info dumped to standard output"):
 * the parser returns every object and skips the log sections and that line.
 *
 * This file holds the parser's states over the chunks, the documents and the log sections; where
 * one value or item ends (scanned, or guessed from the layout) is src/load/json-stream-items.ts.
 */
import type { ParsedDocument } from './parse.js';
import {
  AFTER_JSON,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  END_OF_INPUT,
  jsonSyntaxError,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from './json-scan.js';
import { JsonItemReader, JsonStreamError, isSpace, Kind } from './json-stream-items.js';

const EQUALS = 0x3d;
const BOM = 0xfeff;
/** The most text held back from a chunk for the item that starts in it (see JsonDumpParser.carry). */
const CARRY_MAX = 256 << 10;
const LOG_START = '==== START logs for ';
const LOG_END = '==== END logs for ';
// Older kubectl ends its standard output with this line.
const DUMPED = 'Cluster info dumped to ';
const UPPER_C = 0x43;

const enum State {
  Start,
  Raw,
  KeyOrClose,
  Key,
  NextKey,
  Colon,
  ValueStart,
  Value,
  AfterMember,
  ItemOrClose,
  ItemStart,
  Item,
  AfterItem,
  Done,
  LogHead,
  LogBody,
  LogLineEnd,
}

/** Options of the streaming JSON parser. */
export interface JsonStreamOptions {
  /**
   * Whether an item's end is guessed from the layout (a closer at the item's indentation, an item
   * per line) before its text is scanned character by character; on by default.
   */
  layoutGuesses?: boolean;
}

/**
 * Parses one JSON document pushed in chunks. `onItem` receives each element of the top-level
 * object's `items` array as soon as it is parsed and returns what to keep (e.g. a pruned copy).
 */
export class JsonDumpParser extends JsonItemReader {
  private state = State.Start;
  private key = '';
  private raw: string[] = [];
  /** Set once the input has ended: nothing is held back any more. */
  private ended = false;
  /** Items held back whose end the next chunk did not let a guess find either: after 8, none is held back. */
  private carryMisses = 0;
  /** Documents completed before the current one (cluster-info dump's concatenated lists). */
  private readonly finished: unknown[] = [];
  /** Where each finished document starts, and the lines of its items (see `itemLines`). */
  private readonly finishedLines: { line: number; itemLines: number[] }[] = [];
  /** Text of a log section kept across chunks: its head until checked, or a tail that may start the end marker. */
  private logCarry = '';
  /** The line a section after a document starts with: a log section's, or the closing line's. */
  private marker = LOG_START;

  /**
   * `onDocument` receives each top-level document of concatenated ones (NDJSON) as it ends, and
   * returns what to keep, as `onItem` for the items of a List.
   */
  constructor(
    onItem: (value: unknown) => unknown = (v) => v,
    private readonly onDocument: (value: unknown) => unknown = (v) => v,
    options: JsonStreamOptions = {},
  ) {
    super(onItem);
    this.guesses = options.layoutGuesses !== false;
  }

  private readonly guesses: boolean;

  /**
   * Sets a member of the top-level object as JSON.parse does: as an own property, so a
   * `"__proto__"` key is data and never the object's prototype.
   */
  private setMember(value: unknown): void {
    Object.defineProperty(this.root, this.key, { value, writable: true, enumerable: true, configurable: true });
  }

  /** Feeds the next chunk of text. Throws JsonStreamError on a syntax error. */
  push(chunk: string): void {
    let s = chunk;
    if (this.carry) {
      s = this.carry + chunk;
      this.offset -= this.carry.length;
      this.carry = '';
      // What a search found missing in the chunk before says nothing of this longer text.
      this.missedChunk = -1;
    }
    const n = s.length;
    let i = 0;
    this.countedTo = 0;
    this.countedLine = this.chunkLine;
    if (this.offset === 0 && n > 0 && s.charCodeAt(0) === BOM) i = 1;
    while (i < n) {
      switch (this.state) {
        case State.Start: {
          i = this.skipSpace(s, i);
          if (i >= n) break;
          if (s.charCodeAt(i) === OPEN_BRACE) {
            this.docLine = this.lineAt(s, i);
            const end = this.guesses ? this.lineDocumentEnd(s, i) : -1;
            if (end >= 0) {
              this.state = State.Done;
              i = end;
              break;
            }
            this.state = State.KeyOrClose;
            i++;
          } else {
            // Not an object (an array or a scalar): no items to stream, parse it whole at the end.
            this.state = State.Raw;
            this.raw.push(s.slice(i));
            i = n;
          }
          break;
        }
        case State.Raw:
          this.raw.push(s.slice(i));
          i = n;
          break;
        case State.KeyOrClose:
        case State.NextKey: {
          i = this.skipSpace(s, i);
          if (i >= n) break;
          const c = s.charCodeAt(i);
          if (c === QUOTE) {
            this.begin(Kind.String, i);
            this.state = State.Key;
          } else if (c === CLOSE_BRACE && this.state === State.KeyOrClose) {
            this.state = State.Done;
            i++;
          } else {
            this.fail(s, i);
          }
          break;
        }
        case State.Key:
        case State.Value:
        case State.Item: {
          const start = i;
          const end = this.scan(s, i);
          if (end < 0) {
            this.pieces.push(s.slice(start));
            i = n;
            break;
          }
          // An item that ended in the chunk where its closer was not found was a failed guess (a
          // compact layout); one that crossed into another chunk may just have been cut by it.
          if (this.scanningMissedGuess && this.pieces.length === 0) this.guessFailures++;
          this.scanningMissedGuess = false;
          const text = this.pieces.length ? this.pieces.join('') + s.slice(start, end) : s.slice(start, end);
          this.pieces = [];
          const value = this.parse(text);
          if (this.state === State.Key) {
            this.key = value as string;
            this.state = State.Colon;
          } else if (this.state === State.Value) {
            this.setMember(value);
            this.state = State.AfterMember;
          } else {
            this.items.push(this.onItem(value));
            this.itemLines.push(this.itemLine);
            this.state = State.AfterItem;
          }
          i = end;
          break;
        }
        case State.Colon:
          i = this.skipSpace(s, i);
          if (i >= n) break;
          if (s.charCodeAt(i) !== COLON) this.fail(s, i);
          this.state = State.ValueStart;
          i++;
          break;
        case State.ValueStart: {
          i = this.skipSpace(s, i);
          if (i >= n) break;
          const c = s.charCodeAt(i);
          if (this.key === 'items' && c === OPEN_BRACKET) {
            this.items = [];
            this.itemLines = [];
            this.setMember(this.items);
            this.state = State.ItemOrClose;
            i++;
          } else {
            this.begin(this.kindAt(s, i), i);
            this.state = State.Value;
          }
          break;
        }
        case State.AfterMember: {
          i = this.skipSpace(s, i);
          if (i >= n) break;
          const c = s.charCodeAt(i);
          if (c === COMMA) this.state = State.NextKey;
          else if (c === CLOSE_BRACE) this.state = State.Done;
          else this.fail(s, i);
          i++;
          break;
        }
        case State.ItemOrClose:
        case State.ItemStart: {
          i = this.skipSpace(s, i);
          if (i >= n) break;
          const c = s.charCodeAt(i);
          if (c === CLOSE_BRACKET && this.state === State.ItemOrClose) {
            this.state = State.AfterMember;
            i++;
            break;
          }
          this.itemLine = this.lineAt(s, i);
          this.outOfText = false;
          const misses = this.guessMisses();
          const fast = this.guesses && c === OPEN_BRACE ? this.prettyItemEnd(s, i) : -1;
          if (fast >= 0) {
            this.carried = false;
            i = fast;
            this.state = State.AfterItem;
            break;
          }
          if (this.holdBack(s, i, misses)) {
            i = n;
            break;
          }
          this.begin(this.kindAt(s, i), i);
          this.state = State.Item;
          break;
        }
        case State.AfterItem: {
          i = this.skipSpace(s, i);
          if (i >= n) break;
          const c = s.charCodeAt(i);
          if (c === COMMA) this.state = State.ItemStart;
          else if (c === CLOSE_BRACKET) this.state = State.AfterMember;
          else this.fail(s, i);
          i++;
          break;
        }
        case State.Done: {
          i = this.skipSpace(s, i);
          if (i >= n) break;
          const c = s.charCodeAt(i);
          if (c === OPEN_BRACE) this.nextDocument();
          else if (c === EQUALS || c === UPPER_C) {
            this.marker = c === EQUALS ? LOG_START : DUMPED;
            this.state = State.LogHead;
          } else this.fail(s, i, AFTER_JSON);
          break;
        }
        case State.LogHead:
          i = this.logHead(s, i);
          break;
        case State.LogBody:
          i = this.logBody(s, i);
          break;
        case State.LogLineEnd: {
          const nl = s.indexOf('\n', i);
          if (nl < 0) i = n;
          else {
            i = nl + 1;
            this.state = State.Done;
          }
          break;
        }
      }
    }
    this.chunkLine = this.lineAt(s, n - this.carry.length);
    this.offset += n;
  }

  /**
   * The line at `i` of the current chunk `s`: the lines counted from the last place asked, forward
   * or back (items are found in order; the text held back for the next chunk may start before
   * the last item tried).
   */
  private lineAt(s: string, i: number): number {
    const from = Math.min(i, this.countedTo);
    const to = Math.max(i, this.countedTo);
    let lines = 0;
    for (let k = s.indexOf('\n', from); k >= 0 && k < to; k = s.indexOf('\n', k + 1)) lines++;
    this.countedLine += i >= this.countedTo ? lines : -lines;
    this.countedTo = i;
    return this.countedLine;
  }

  /** How many documents were completed before the current one. */
  get documentsBefore(): number {
    return this.finished.length;
  }

  /** Ends the input and returns every document it held (one, unless documents were concatenated). */
  endDocuments(): unknown[] {
    return [...this.finished, this.end()];
  }

  /** endDocuments, each document with its first line and its items' lines. */
  endParsed(): ParsedDocument[] {
    const values = this.endDocuments();
    const lines = [...this.finishedLines, { line: this.docLine, itemLines: this.itemLines }];
    return values.map((value, k) => ({ value, line: lines[k]!.line, itemLines: lines[k]!.itemLines }));
  }

  /** Guesses that failed so far, of every layout. */
  private guessMisses(): number {
    return this.guessFailures + this.lineGuessFailures;
  }

  /**
   * After the guesses for the item at `i` found no end: holds its text back for the next chunk
   * when they ran out of text without a failed guess (no more than `misses` before them), the item
   * was not held back already, and it is small enough. True when it was held back.
   */
  private holdBack(s: string, i: number, misses: number): boolean {
    const again = this.carried;
    this.carried = false;
    if (!this.outOfText) return false;
    if (again) {
      this.carryMisses++;
      return false;
    }
    if (this.ended || this.carryMisses >= 8 || s.length - i > CARRY_MAX || this.guessMisses() !== misses) return false;
    let k = i;
    while (k > 0 && isSpace(s.charCodeAt(k - 1))) k--;
    this.carry = s.slice(k);
    this.carried = true;
    return true;
  }

  /** Ends the input and returns the (last) parsed value. Throws JsonStreamError when it is incomplete. */
  end(): unknown {
    if (this.carry) {
      // No chunk follows: the item held back is read as it stands (scanned, as tried once).
      const rest = this.carry;
      this.carry = '';
      this.offset -= rest.length;
      this.ended = true;
      this.push(rest);
    }
    if (this.state === State.Done || this.state === State.LogLineEnd) return this.root;
    if (this.state === State.Raw) {
      const text = this.raw.join('');
      try {
        return JSON.parse(text);
      } catch {
        const error = jsonSyntaxError(text) ?? { offset: 0, message: 'not valid JSON' };
        throw new JsonStreamError(error.message, this.offset - text.length + error.offset);
      }
    }
    throw new JsonStreamError(END_OF_INPUT, this.offset);
  }

  /** Keeps the finished document and starts the next one at the current `{`. */
  private nextDocument(): void {
    this.finished.push(this.onDocument(this.root));
    this.finishedLines.push({ line: this.docLine, itemLines: this.itemLines });
    this.itemLines = [];
    this.root = {};
    this.key = '';
    this.items = [];
    this.state = State.Start;
  }

  /** Checks that a section after a document starts with its marker: a log section, or the closing line. */
  private logHead(s: string, i: number): number {
    const want = this.marker.length - this.logCarry.length;
    const text = this.logCarry + s.slice(i, i + want);
    if (!this.marker.startsWith(text)) {
      throw new JsonStreamError(AFTER_JSON, this.offset + i - this.logCarry.length);
    }
    if (text.length < this.marker.length) {
      this.logCarry = text;
      return s.length;
    }
    this.logCarry = '';
    this.state = this.marker === LOG_START ? State.LogBody : State.LogLineEnd;
    return i + want;
  }

  /** Skips a container's log up to its `==== END logs for` marker (the log need not end its line). */
  private logBody(s: string, i: number): number {
    const text = this.logCarry + s.slice(i);
    const at = text.indexOf(LOG_END);
    if (at < 0) {
      this.logCarry = text.slice(-(LOG_END.length - 1));
      return s.length;
    }
    const end = i + at + LOG_END.length - this.logCarry.length;
    this.logCarry = '';
    this.state = State.LogLineEnd;
    return end;
  }
}
