/**
 * Where one JSON value of a streamed dump ends, for the streaming parser (src/load/json-stream.ts,
 * which extends this class): the value scanned character by character across chunks (strings,
 * scalars, containers by depth), and the guesses from the layout that let an item be handed to
 * `JSON.parse` without a scan (a pretty-printed item's closing line, an item or a document on one
 * line), each checked by `JSON.parse`.
 */
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  jsonSyntaxError,
  jsonValueEnd,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from './json-scan.js';

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

const SCALAR_END = /[,}\]\s]/g;

/** A line ends at `i` (LF, or the CR of CRLF). */
function isLineEnd(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c === NEWLINE || c === 0x0d;
}

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export const enum Kind {
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

/** The value being scanned and the items guessed so far; see the module comment. */
export class JsonItemReader {
  /** Characters consumed before the current chunk. */
  protected offset = 0;
  protected root: Record<string, unknown> = {};
  protected items: unknown[] = [];
  // The value being scanned: its kind, the pieces of it seen in earlier chunks, where it began.
  protected kind = Kind.Scalar;
  protected pieces: string[] = [];
  protected valueOffset = 0;
  protected depth = 0;
  protected inString = false;
  protected escape = false;
  protected guessFailures = 0;
  protected lineGuessFailures = 0;
  /**
   * The chunk (by its offset) and column where the last search for a closer found none: no later
   * item of that chunk at that column can find one either, so the search is not repeated.
   */
  protected missedChunk = -1;
  protected missedColumn = -1;
  /**
   * The text of an item that starts in a chunk and ends in a later one, from the whitespace before
   * it, held back to go in front of the next chunk (`carry`), so that its end is guessed as for any
   * other item rather than scanned character by character. `outOfText` is set when a guess ran out
   * of text before it could decide; `carried`, while the item held back is tried again (once).
   */
  protected carry = '';
  protected outOfText = false;
  protected carried = false;
  /** Set while an item whose closer was not found in its first chunk is scanned character by character. */
  protected scanningMissedGuess = false;
  /**
   * Lines, counted as the text goes by: the line the current chunk starts at, and the line at
   * `countedTo` in it. Each item's start line goes in `itemLines`, beside `items`; each
   * document's in `docLine`.
   */
  protected chunkLine = 1;
  protected countedTo = 0;
  protected countedLine = 1;
  protected itemLine = 1;
  protected itemLines: number[] = [];
  protected docLine = 1;

  constructor(protected readonly onItem: (value: unknown) => unknown) {}

  protected skipSpace(s: string, i: number): number {
    const n = s.length;
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    return i;
  }

  protected fail(s: string, i: number, message?: string): never {
    throw new JsonStreamError(message ?? `Unexpected token '${s[i]}'`, this.offset + i);
  }

  /** The kind of value that starts at `i`; a delimiter there is a syntax error. */
  protected kindAt(s: string, i: number): Kind {
    const c = s.charCodeAt(i);
    if (c === QUOTE) return Kind.String;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) return Kind.Container;
    if (c === COMMA || c === COLON || c === CLOSE_BRACE || c === CLOSE_BRACKET) this.fail(s, i);
    return Kind.Scalar;
  }

  protected begin(kind: Kind, i: number): void {
    this.kind = kind;
    this.pieces = [];
    this.valueOffset = this.offset + i;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
  }

  protected parse(text: string): unknown {
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
  protected prettyItemEnd(s: string, i: number): number {
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
  protected takeGuessedItem(s: string, i: number, end: number): number {
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
  protected lineItemEnd(s: string, i: number): number {
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
  protected lineDocumentEnd(s: string, i: number): number {
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
  protected scan(s: string, i: number): number {
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
  protected stringEnd(s: string, i: number): number {
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
