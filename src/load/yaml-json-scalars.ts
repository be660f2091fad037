/**
 * The line cursor and the scalars of the YAML-to-JSON translator (src/load/yaml-json.ts): moving
 * to the next content line, plain scalars (also over several lines), single- and double-quoted
 * scalars (also over several lines), `|` and `>` block scalars with their indicators, each written
 * as JSON text the way js-yaml's loader.js function it names reads it. The block mappings and
 * sequences around them are the translator's own, which extends this class.
 */
import {
  COLON,
  DASH,
  DQUOTE,
  folded,
  HASH,
  isPlainInteger,
  jsonString,
  jsonValue,
  MAX_DEPTH,
  mayResolve,
  OUT,
  outside,
  resolvePlain,
  SP,
  SQUOTE,
  unescapeDouble,
} from './yaml-json-text.js';

/** One document's translation, as far as its lines and scalars go; see src/load/yaml-json.ts. */
export class ScalarTranslator {
  protected readonly out = OUT;
  protected readonly n: number;
  // The current content line (not blank, not a comment): its start, indentation and end.
  protected p = 0;
  protected ind = -1;
  protected eol = 0;
  /** Indentation of the first non-blank line (a comment too) met by the last seek, or -1. */
  protected firstIndent = -1;
  /** The line nextFilledLine found. */
  protected readonly filled = { start: 0, text: 0, end: 0 };
  protected depth = 0;

  constructor(protected readonly src: string) {
    this.n = src.length;
  }

  /** Moves to the next content line from the line starting at `from` (skipping blank and comment lines). */
  protected seek(from: number): void {
    const src = this.src;
    let firstIndent = -1;
    let i = from;
    while (i < this.n) {
      let k = i;
      while (src.charCodeAt(k) === SP) k++;
      let e = src.indexOf('\n', k);
      if (e < 0) e = this.n;
      if (k === e) {
        i = e + 1;
        continue;
      }
      if (firstIndent < 0) firstIndent = k - i;
      const c = src.charCodeAt(k);
      // A `---` or `...` line ends the document (js-yaml testDocumentSeparator): not translated.
      if (
        k === i &&
        (c === DASH || c === 0x2e) &&
        src.charCodeAt(k + 1) === c &&
        src.charCodeAt(k + 2) === c &&
        (k + 3 === e || src.charCodeAt(k + 3) === SP)
      )
        outside();
      if (c === HASH) {
        i = e + 1;
        continue;
      }
      this.p = i;
      this.ind = k - i;
      this.eol = e;
      this.firstIndent = firstIndent;
      return;
    }
    this.p = this.n;
    this.ind = -1;
    this.eol = this.n;
    this.firstIndent = firstIndent;
  }

  /** A `-` entry indicator at `i`: followed by a space or the line's end. */
  protected isEntry(i: number): boolean {
    return this.src.charCodeAt(i) === DASH && (i + 1 === this.eol || this.src.charCodeAt(i + 1) === SP);
  }

  protected enter(): void {
    if (++this.depth > MAX_DEPTH) outside();
  }

  protected trimEnd(from: number, to: number): number {
    while (to > from && this.src.charCodeAt(to - 1) === SP) to--;
    return to;
  }

  /** True when the current line from `i` holds only spaces or a comment after a space. */
  protected restIsEmpty(i: number): boolean {
    const src = this.src;
    let k = i;
    while (src.charCodeAt(k) === SP && k < this.eol) k++;
    return k === this.eol || (k > i && src.charCodeAt(k) === HASH);
  }

  /**
   * A plain scalar from `from` to `to` on a line ending at `lineEnd`, going on over the lines
   * below indented deeper than `parent` (js-yaml readPlainScalar: each line break between two of
   * its lines is a space, blank lines between them line feeds, each line's leading and trailing
   * spaces dropped). A continuation line that starts with `#`, or holds a comment or `: `, is
   * left to js-yaml. Leaves the cursor on the next content line.
   */
  protected multiLinePlain(from: number, to: number, lineEnd: number, parent: number): void {
    const src = this.src;
    let value = src.slice(from, to);
    let last = lineEnd;
    for (;;) {
      const breaks = this.nextFilledLine(last);
      const { start, text: k, end: e } = this.filled;
      if (!breaks || k - start <= parent) break;
      if (src.charCodeAt(k) === HASH) outside();
      let keep = k;
      for (let j = k; j < e; j++) {
        const c = src.charCodeAt(j);
        if (c === SP) continue;
        if (c === COLON && (j + 1 === e || src.charCodeAt(j + 1) === SP)) outside();
        if (c === HASH && src.charCodeAt(j - 1) === SP) outside();
        keep = j + 1;
      }
      value += folded(breaks) + src.slice(k, keep);
      last = e;
    }
    this.out.json(mayResolve(value) ? jsonValue(resolvePlain(value)) : jsonString(value));
    this.seek(last + 1);
    // Only what ended the scalar may follow: a line indented no deeper than its collection.
    if (this.firstIndent > parent) outside();
  }

  /**
   * A quoted scalar from `at` that does not close on its line (js-yaml readSingleQuotedScalar,
   * readDoubleQuotedScalar): each line break is a space, blank lines between line feeds, the
   * spaces around a break dropped. Left to js-yaml: an escaped line break, spaces before a break
   * in double quotes, a line of it at column 0 (a document marker, maybe), a multi-line key.
   */
  protected multiLineQuoted(at: number, parent: number): void {
    const src = this.src;
    const q = src.charCodeAt(at);
    let value = '';
    let from = at + 1;
    for (;;) {
      const close = this.closeOnLine(q, from);
      if (close >= 0) {
        value += this.quotedPart(q, from, close, false);
        let k = close + 1;
        while (src.charCodeAt(k) === SP) k++;
        if (src.charCodeAt(k) === COLON || !this.restIsEmpty(close + 1)) outside();
        this.out.json(JSON.stringify(value));
        this.scalarEnd(parent);
        return;
      }
      value += this.quotedPart(q, from, this.eol, true);
      const breaks = this.nextFilledLine(this.eol);
      const { start, text, end } = this.filled;
      // Unterminated, or a line at column 0: js-yaml's error, or a document marker.
      if (!breaks || text === start) outside();
      this.p = start;
      this.ind = text - start;
      this.eol = end;
      from = text;
      value += folded(breaks);
    }
  }

  /**
   * The next line after the line break at `pos` that holds more than spaces, in `filled` (its
   * start, its first other character, its end); returns the line breaks crossed to reach it, 0 at
   * the end of the text (js-yaml skipSeparationSpace, comments not skipped).
   */
  protected nextFilledLine(pos: number): number {
    const src = this.src;
    for (let breaks = 1; pos < this.n; breaks++) {
      const start = pos + 1;
      let k = start;
      while (src.charCodeAt(k) === SP) k++;
      let e = src.indexOf('\n', k);
      if (e < 0) e = this.n;
      if (k !== e) {
        this.filled.start = start;
        this.filled.text = k;
        this.filled.end = e;
        return breaks;
      }
      pos = e;
    }
    return 0;
  }

  /** The closing quote `q` on the current line from `from`, or -1; an escaped line break is left to js-yaml. */
  protected closeOnLine(q: number, from: number): number {
    const src = this.src;
    for (let i = from; i < this.eol; i++) {
      const c = src.charCodeAt(i);
      if (c === q) {
        // '' inside single quotes is one quote.
        if (q === SQUOTE && src.charCodeAt(i + 1) === SQUOTE && i + 1 < this.eol) {
          i++;
          continue;
        }
        return i;
      }
      if (c === 0x5c /* \ */ && q === DQUOTE) {
        if (i + 1 === this.eol) outside();
        i++;
      }
    }
    return -1;
  }

  /** The value of one line's part of a quoted scalar, `from` to `to`; `broken`: a line break follows. */
  protected quotedPart(q: number, from: number, to: number, broken: boolean): string {
    const src = this.src;
    if (broken) {
      if (q === DQUOTE) {
        if (src.charCodeAt(to - 1) === SP) outside();
      } else {
        while (to > from && src.charCodeAt(to - 1) === SP) to--;
      }
    }
    const body = src.slice(from, to);
    if (q === SQUOTE) return body.includes("''") ? body.replaceAll("''", "'") : body;
    return body.includes('\\') ? unescapeDouble(body) : body;
  }

  /**
   * After a scalar on one line: the next non-blank line must not be indented deeper than the
   * collection holding it (a plain scalar would go on there, js-yaml readPlainScalar; anything
   * else is an error). A comment line counts, to stay on the safe side.
   */
  protected scalarEnd(parent: number): void {
    this.seek(this.eol + 1);
    if (this.firstIndent > parent) outside();
  }

  /** Writes a plain scalar that may resolve (mayResolve), `from` to `to`, as js-yaml composeNode resolves it. */
  protected plainJson(from: number, to: number): void {
    const s = this.src.slice(from, to);
    this.out.json(isPlainInteger(s) ? s : jsonValue(resolvePlain(s)));
  }

  /** Writes a quoted scalar from `at` to `end` (after its closing quote). */
  protected quotedJson(at: number, end: number): void {
    const src = this.src;
    const body = src.slice(at + 1, end - 1);
    if (body.includes(src.charCodeAt(at) === SQUOTE ? "''" : '\\')) {
      this.out.json(JSON.stringify(this.quotedValue(at, end)));
      return;
    }
    this.out.byte(DQUOTE);
    this.out.raw(src, at + 1, end - 1);
    this.out.byte(DQUOTE);
  }

  /** The offset after the closing quote of a quoted scalar at `at`, which must close on its line. */
  protected quotedEnd(at: number): number {
    const end = this.quotedClose(at);
    return end < 0 ? outside() : end;
  }

  /** The offset after the closing quote of a quoted scalar at `at` on its line, or -1. */
  protected quotedClose(at: number): number {
    const close = this.closeOnLine(this.src.charCodeAt(at), at + 1);
    return close < 0 ? -1 : close + 1;
  }

  /** The value of a quoted scalar from `at` to `end` (js-yaml readSingleQuotedScalar, readDoubleQuotedScalar on one line). */
  protected quotedValue(at: number, end: number): string {
    const body = this.src.slice(at + 1, end - 1);
    if (this.src.charCodeAt(at) === SQUOTE) return body.includes("''") ? body.replaceAll("''", "'") : body;
    return body.includes('\\') ? unescapeDouble(body) : body;
  }

  /**
   * A literal (`|`) or folded (`>`) block scalar whose indicator is at `at` (js-yaml
   * readBlockScalar, line by line): `parent + 1` is its nodeIndent; the end of the text reads as
   * a line less indented than its text. Leaves the cursor on the next content line.
   */
  protected blockScalar(at: number, parent: number): void {
    const header = this.blockHeader(at, parent);
    const src = this.src;
    const folding = src.charCodeAt(at) === 0x3e;
    let { textIndent, detected } = header;
    let result = '';
    let emptyLines = 0;
    let didRead = false;
    let moreIndented = false;
    let line = this.eol + 1;
    for (; line < this.n;) {
      let k = line;
      while (src.charCodeAt(k) === SP && (!detected || k - line < textIndent)) k++;
      const lineIndent = k - line;
      if (!detected && lineIndent > textIndent) textIndent = lineIndent;
      let e = src.indexOf('\n', k);
      if (e < 0) e = this.n;
      if (k === e) {
        emptyLines++;
        line = e + 1;
        continue;
      }
      if (lineIndent < textIndent) break;
      if (folding) {
        if (src.charCodeAt(k) === SP) {
          moreIndented = true;
          result += '\n'.repeat(didRead ? 1 + emptyLines : emptyLines);
        } else if (moreIndented) {
          moreIndented = false;
          result += '\n'.repeat(emptyLines + 1);
        } else if (emptyLines === 0) {
          if (didRead) result += ' ';
        } else {
          result += '\n'.repeat(emptyLines);
        }
      } else {
        result += '\n'.repeat(didRead ? 1 + emptyLines : emptyLines);
      }
      didRead = true;
      detected = true;
      emptyLines = 0;
      result += src.slice(k, e);
      line = e + 1;
    }
    if (header.chomping === '+') result += '\n'.repeat(didRead ? 1 + emptyLines : emptyLines);
    else if (header.chomping === '' && didRead) result += '\n';
    this.out.json(JSON.stringify(result));
    this.seek(line);
  }

  /** A block scalar's header: chomping and indentation indicators, then spaces and a comment. */
  protected blockHeader(at: number, parent: number): { chomping: string; textIndent: number; detected: boolean } {
    const src = this.src;
    let chomping = '';
    let textIndent = parent + 1;
    let detected = false;
    let i = at + 1;
    for (; i < this.eol; i++) {
      const c = src.charCodeAt(i);
      if (c === 0x2b || c === DASH) {
        if (chomping) outside();
        chomping = c === DASH ? '-' : '+';
      } else if (c >= 0x31 && c <= 0x39) {
        if (detected) outside();
        textIndent = parent + 1 + (c - 0x30) - 1;
        detected = true;
      } else {
        break;
      }
    }
    // Then only spaces, and a comment after at least one.
    if (!this.restIsEmpty(i)) outside();
    return { chomping, textIndent, detected };
  }
}
