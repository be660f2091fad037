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
 */
import { AFTER_JSON, BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, END_OF_INPUT, jsonSyntaxError, jsonValueEnd, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-scan.js';
import type { ParsedDocument } from './parse.js';

/** A syntax error at a character offset of the whole input. */
export class JsonStreamError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const SPACE = 0x20;
const NEWLINE = 0x0a;
const EQUALS = 0x3d;
const BOM = 0xfeff;
/** The most text held back from a chunk for the item that starts in it (see JsonDumpParser.carry). */
const CARRY_MAX = 256 << 10;
const LOG_START = '==== START logs for ';
const LOG_END = '==== END logs for ';
// Older kubectl ends its standard output with this line.
const DUMPED = 'Cluster info dumped to ';
const UPPER_C = 0x43;

const SCALAR_END = /[,}\]\s]/g;

/** A line ends at `i` (LF, or the CR of CRLF). */
function isLineEnd(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c === NEWLINE || c === 0x0d;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

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

const enum Kind {
  String,
  Container,
  Scalar,
}

/**
 * Where the line `column` spaces and `}` starts in `s` from `from` on (the offset of its newline),
 * or -1. Found from each `}`, which pretty-printed text has fewer of than lines: `indexOf` with
 * the whole pattern is slow on indented text, whose spaces let a string search advance only one
 * character at a time.
 */
function closingLine(s: string, from: number, column: number): number {
  for (let at = s.indexOf('}', from + column + 1); at >= 0; at = s.indexOf('}', at + 1)) {
    const nl = at - column - 1;
    if (s.charCodeAt(nl) !== NEWLINE) continue;
    let k = column;
    while (k > 0 && s.charCodeAt(nl + k) === SPACE) k--;
    if (k === 0) return nl;
  }
  return -1;
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
export class JsonDumpParser {
  private state = State.Start;
  /** Characters consumed before the current chunk. */
  private offset = 0;
  private root: Record<string, unknown> = {};
  private key = '';
  private items: unknown[] = [];
  private raw: string[] = [];
  // The value being scanned: its kind, the pieces of it seen in earlier chunks, where it began.
  private kind = Kind.Scalar;
  private pieces: string[] = [];
  private valueOffset = 0;
  private depth = 0;
  private inString = false;
  private escape = false;
  private guessFailures = 0;
  private lineGuessFailures = 0;
  /**
   * The chunk (by its offset) and column where the last search for a closer found none: no later
   * item of that chunk at that column can find one either, so the search is not repeated.
   */
  private missedChunk = -1;
  private missedColumn = -1;
  /**
   * The text of an item that starts in a chunk and ends in a later one, from the whitespace before
   * it, held back to go in front of the next chunk (`carry`), so that its end is guessed as for any
   * other item rather than scanned character by character. `outOfText` is set when a guess ran out
   * of text before it could decide; `carried`, while the item held back is tried again (once).
   */
  private carry = '';
  private outOfText = false;
  private carried = false;
  /** Set once the input has ended: nothing is held back any more. */
  private ended = false;
  /** Items held back whose end the next chunk did not let a guess find either: after 8, none is held back. */
  private carryMisses = 0;
  /** Set while an item whose closer was not found in its first chunk is scanned character by character. */
  private scanningMissedGuess = false;
  /** Documents completed before the current one (cluster-info dump's concatenated lists). */
  private readonly finished: unknown[] = [];
  /** Where each finished document starts, and the lines of its items (see `itemLines`). */
  private readonly finishedLines: { line: number; itemLines: number[] }[] = [];
  /**
   * Lines, counted as the text goes by: the line the current chunk starts at, and the line at
   * `countedTo` in it. Each item's start line goes in `itemLines`, beside `items`; each
   * document's in `docLine`.
   */
  private chunkLine = 1;
  private countedTo = 0;
  private countedLine = 1;
  private itemLine = 1;
  private itemLines: number[] = [];
  private docLine = 1;
  /** Text of a log section kept across chunks: its head until checked, or a tail that may start the end marker. */
  private logCarry = '';
  /** The line a section after a document starts with: a log section's, or the closing line's. */
  private marker = LOG_START;

  /**
   * `onDocument` receives each top-level document of concatenated ones (NDJSON) as it ends, and
   * returns what to keep, as `onItem` for the items of a List.
   */
  constructor(
    private readonly onItem: (value: unknown) => unknown = (v) => v,
    private readonly onDocument: (value: unknown) => unknown = (v) => v,
    options: JsonStreamOptions = {},
  ) {
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

  private skipSpace(s: string, i: number): number {
    const n = s.length;
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    return i;
  }

  private fail(s: string, i: number, message?: string): never {
    throw new JsonStreamError(message ?? `Unexpected token '${s[i]}'`, this.offset + i);
  }

  /** The kind of value that starts at `i`; a delimiter there is a syntax error. */
  private kindAt(s: string, i: number): Kind {
    const c = s.charCodeAt(i);
    if (c === QUOTE) return Kind.String;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) return Kind.Container;
    if (c === COMMA || c === COLON || c === CLOSE_BRACE || c === CLOSE_BRACKET) this.fail(s, i);
    return Kind.Scalar;
  }

  private begin(kind: Kind, i: number): void {
    this.kind = kind;
    this.pieces = [];
    this.valueOffset = this.offset + i;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
  }

  private parse(text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      const error = jsonSyntaxError(text) ?? { offset: 0, message: 'not valid JSON' };
      throw new JsonStreamError(error.message, this.valueOffset + error.offset);
    }
  }

  /**
   * Pretty-printed dumps (kubectl's, `JSON.stringify(…, null, n)`) close an item with a newline,
   * the item's own indentation and `}`; nothing inside it can look like that, since deeper lines
   * are indented further and strings hold no raw newline. The guess is checked by JSON.parse:
   * a text that starts at the item's `{` and parses as one value ends at its matching `}`.
   * Returns the offset after the item, or -1 to scan it character by character instead.
   */
  private prettyItemEnd(s: string, i: number): number {
    if (this.guessFailures >= 8) return -1;
    let k = i - 1;
    while (k >= 0 && s.charCodeAt(k) === 0x20) k--;
    if (k < 0 || s.charCodeAt(k) !== 0x0a) return -1;
    const column = i - k - 1;
    const missed = this.missedChunk === this.offset && this.missedColumn === column;
    const at = missed ? -1 : closingLine(s, i, column);
    if (at < 0) {
      this.missedChunk = this.offset;
      this.missedColumn = column;
      // An item whose first line is its brace alone is pretty-printed: its closer is past the chunk.
      if (isLineEnd(s, i + 1)) {
        this.outOfText = true;
        return -1;
      }
      return this.lineItemEnd(s, i);
    }
    const end = this.takeGuessedItem(s, i, at + column + 2);
    if (end >= 0) return end;
    // Another layout (or a broken item): after a few misses, stop guessing, since each miss
    // costs a search and a failed parse.
    this.guessFailures++;
    return -1;
  }

  /**
   * Parses `s[i, end)` as one item and hands it on. Returns the offset after the item: `end`, or
   * less when the text held the whole item and more after it (a scan finds where the item
   * ended, and the item alone is parsed again); -1 when the guessed end was wrong.
   */
  private takeGuessedItem(s: string, i: number, end: number): number {
    let value: unknown;
    try {
      value = JSON.parse(s.slice(i, end));
    } catch {
      const at = jsonValueEnd(s, i, end);
      if (typeof at !== 'number' || at <= i || at >= end) return -1;
      try {
        value = JSON.parse(s.slice(i, at));
      } catch {
        return -1;
      }
      end = at;
    }
    this.items.push(this.onItem(value));
    this.itemLines.push(this.itemLine);
    return end;
  }

  /**
   * Compact dumps with one item per line (`jq -c`, NDJSON-minded tools) end an item at its line's
   * end, before an optional comma: the same guess as the pretty closer, checked the same way by
   * JSON.parse. Returns the offset after the item, or -1 to scan it character by character.
   */
  private lineItemEnd(s: string, i: number): number {
    this.scanningMissedGuess = true;
    if (this.lineGuessFailures >= 8) return -1;
    const nl = s.indexOf('\n', i);
    if (nl < 0) {
      this.outOfText = true;
      return -1;
    }
    let end = nl;
    while (end > i && isSpace(s.charCodeAt(end - 1))) end--;
    if (s.charCodeAt(end - 1) === COMMA) end--;
    const itemEnd = this.takeGuessedItem(s, i, end);
    if (itemEnd < 0) {
      this.lineGuessFailures++;
      return -1;
    }
    this.scanningMissedGuess = false;
    return itemEnd;
  }

  /**
   * A document on one line (NDJSON, concatenated compact objects) is parsed whole when its line
   * ends in this chunk: the result is the same as member by member, with each List item handed
   * to `onItem`. Returns the offset after the document, or -1 to parse it member by member.
   */
  private lineDocumentEnd(s: string, i: number): number {
    if (this.lineGuessFailures >= 8) return -1;
    const nl = s.indexOf('\n', i);
    if (nl < 0) return -1;
    let value: unknown;
    try {
      value = JSON.parse(s.slice(i, nl));
    } catch {
      this.lineGuessFailures++;
      return -1;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return -1;
    const root = value as Record<string, unknown>;
    const items = root['items'];
    if (Array.isArray(items)) {
      root['items'] = items.map((item) => this.onItem(item));
      this.itemLines = items.map(() => this.docLine);
    }
    this.root = root;
    return nl;
  }

  /** Scans the current value from `i`; returns the offset after it, or -1 when the chunk ends first. */
  private scan(s: string, i: number): number {
    switch (this.kind) {
      case Kind.String: {
        // The opening quote is at `i` in the value's first chunk only.
        if (!this.inString) {
          this.inString = true;
          i++;
        }
        const end = this.stringEnd(s, i);
        if (end >= 0) this.inString = false;
        return end;
      }
      case Kind.Scalar: {
        SCALAR_END.lastIndex = i;
        return SCALAR_END.test(s) ? SCALAR_END.lastIndex - 1 : -1;
      }
      case Kind.Container: {
        // One pass over the character codes, each string skipped by its own inner loop: a compact
        // item is mostly short strings, where a search per structural character costs more than
        // reading each character.
        const n = s.length;
        if (this.inString) {
          const end = this.stringEnd(s, i);
          if (end < 0) return -1;
          this.inString = false;
          i = end;
        }
        let depth = this.depth;
        while (i < n) {
          let c = s.charCodeAt(i++);
          if (c === QUOTE) {
            for (;;) {
              if (i >= n) {
                this.inString = true;
                this.depth = depth;
                return -1;
              }
              c = s.charCodeAt(i++);
              if (c === QUOTE) break;
              if (c === BACKSLASH) {
                if (i >= n) {
                  this.inString = true;
                  this.escape = true;
                  this.depth = depth;
                  return -1;
                }
                i++;
              }
            }
          } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
            depth++;
          } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) {
            this.depth = 0;
            return i;
          }
        }
        this.depth = depth;
        return -1;
      }
    }
  }

  /** Inside a string from `i`: the offset after its closing quote, or -1 (remembering a trailing backslash). */
  private stringEnd(s: string, i: number): number {
    const n = s.length;
    if (this.escape) {
      this.escape = false;
      i++;
      if (i > n) return -1;
    }
    const from = i;
    for (;;) {
      const q = s.indexOf('"', i);
      if (q < 0) {
        let k = n - 1;
        while (k >= from && s.charCodeAt(k) === BACKSLASH) k--;
        this.escape = (n - 1 - k) % 2 === 1;
        return -1;
      }
      let k = q - 1;
      while (k >= from && s.charCodeAt(k) === BACKSLASH) k--;
      if ((q - 1 - k) % 2 === 0) return q + 1;
      i = q + 1;
    }
  }
}
