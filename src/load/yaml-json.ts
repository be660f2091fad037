/**
 * Translates one YAML document (or one entry of a `kind: List`) of the subset kubectl and
 * `yaml.dump` write into JSON text, in one pass over its lines, for `JSON.parse` to build: its
 * objects are compact and its strings its own, so nothing has to be copied off the YAML text.
 *
 * The subset: block mappings and sequences (also kubectl's `- ` at the key's indentation and the
 * compact `- key: v` / `- - x`), plain scalars on one line resolved as js-yaml's CORE_SCHEMA
 * resolves them (null, booleans, ints, floats; timestamps stay strings), single- and double-quoted
 * scalars on one line (every escape js-yaml knows), `|` and `>` block scalars with their
 * indicators, empty `{}` / `[]`, comments. On anything else (anchors, aliases, tags, flow
 * collections with content, multi-line plain or quoted scalars, tabs, characters js-yaml refuses,
 * duplicate keys, odd indentation, `? ` keys, non-finite numbers) it answers undefined and the
 * caller parses the text with js-yaml, so the value and the error text are always js-yaml's.
 * Each rule below names the js-yaml 4 loader.js function whose behaviour it reproduces; js-yaml is
 * pinned exactly in package.json, and test/yaml-property.ts checks the two agree on random text.
 */
import { resolveCoreScalar } from './yaml-core.js';

/** Thrown inside the translator when the text leaves the subset; never escapes this module. */
const OUTSIDE = new Error('outside the YAML subset translated to JSON');

/**
 * What is left to js-yaml anywhere in a text: characters its loader refuses in a scalar
 * (loader.js PATTERN_NON_PRINTABLE, \x85 aside), tabs, carriage returns (a line break to js-yaml),
 * byte order marks; the exact pattern runs only when the quick one (any surrogate) matches.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const UNSAFE_QUICK = /[\x00-\x09\x0B-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFEFF\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex -- the same
const UNSAFE_EXACT = /[\x00-\x09\x0B-\x1F\x7F-\x84\x86-\x9F\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
/** Nesting read here; deeper documents go to js-yaml, which bounds depth itself (maxDepth 100). */
const MAX_DEPTH = 60;

const SP = 0x20;
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;
const SQUOTE = 0x27;
const DQUOTE = 0x22;

/** js-yaml loader.js simpleEscapeSequence, without the tab (tabs leave the subset). */
const SIMPLE_ESCAPES = new Map<number, string>(
  Object.entries({
    '0': '\x00',
    a: '\x07',
    b: '\x08',
    t: '\x09',
    n: '\x0A',
    v: '\x0B',
    f: '\x0C',
    r: '\x0D',
    e: '\x1B',
    ' ': ' ',
    '"': '"',
    '/': '/',
    '\\': '\\',
    N: '\x85',
    _: '\xA0',
    L: '\u2028',
    P: '\u2029',
  }).map(([k, v]) => [k.charCodeAt(0), v]),
);

function outside(): never {
  throw OUTSIDE;
}

/** Characters a JSON string cannot hold as they are, and surrogates (JSON.stringify escapes a lone one). */
// eslint-disable-next-line no-control-regex -- control characters need escapes in JSON
const JSON_ESCAPED = /["\\\x00-\x1F\uD800-\uDFFF]/;

/** A JS string as JSON text. */
function jsonString(s: string): string {
  return JSON_ESCAPED.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** A value resolved from a plain scalar as JSON text; non-finite numbers have none. */
function jsonValue(v: unknown): string {
  if (typeof v === 'string') return jsonString(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) outside();
    return Object.is(v, -0) ? '-0' : String(v);
  }
  return String(v);
}

/** js-yaml composeNode's implicit resolution under CORE_SCHEMA (src/load/yaml-core.ts). */
function resolvePlain(s: string): unknown {
  return resolveCoreScalar(s);
}

/** Whether a plain scalar may resolve to something other than a string (a cheap look first). */
function mayResolve(s: string): boolean {
  return mayResolveFrom(s.charCodeAt(0), s.length);
}

/** mayResolve of a scalar by its first character and length. */
function mayResolveFrom(c: number, length: number): boolean {
  if ((c >= 0x30 && c <= 0x39) || c === DASH || c === 0x2b /* + */ || c === 0x2e /* . */) return true;
  if (c === 0x7e /* ~ */) return length === 1;
  // null, true, false in their three spellings.
  return (length === 4 || length === 5) && (c === 0x6e || c === 0x4e || c === 0x74 || c === 0x54 || c === 0x66 || c === 0x46);
}

/** True for a decimal integer JSON writes the same way and a double holds exactly (js-yaml reads `-0` as 0: not this). */
function isPlainInteger(s: string): boolean {
  let i = s.charCodeAt(0) === DASH ? 1 : 0;
  const n = s.length - i;
  if (n < 1 || n > 15) return false;
  if (s.charCodeAt(i) === 0x30) return s.length === 1;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** The key a plain scalar makes: js-yaml storeMappingPair turns the resolved node into a string. */
function plainKey(s: string): string {
  return mayResolve(s) ? String(resolvePlain(s)) : s;
}

/** Characters that cannot start a plain scalar in block context (js-yaml readPlainScalar), or start another node. */
function startsNoPlain(c: number): boolean {
  // Whitespace, , [ ] { } # & * ! | > ' " % @ ` ? and : (the last two only before a space in
  // js-yaml; left out here whatever follows).
  return (
    c === SP ||
    c === 0x2c ||
    c === 0x5b ||
    c === 0x5d ||
    c === 0x7b ||
    c === 0x7d ||
    c === HASH ||
    c === 0x26 ||
    c === 0x2a ||
    c === 0x21 ||
    c === 0x7c ||
    c === 0x3e ||
    c === SQUOTE ||
    c === DQUOTE ||
    c === 0x25 ||
    c === 0x40 ||
    c === 0x60 ||
    c === 0x3f ||
    c === COLON
  );
}

/**
 * The JSON text being written, as UTF-8 bytes in one buffer reused from entry to entry: no
 * string is made for each piece (a rope of millions of pieces costs more in garbage collection
 * than the translation itself), and one decode makes the text JSON.parse reads.
 */
class JsonBytes {
  private buf = Buffer.allocUnsafe(1 << 20);
  private o = 0;
  /** Whether every byte so far is ASCII (the text then decodes as latin1, the fastest way). */
  private ascii = true;

  reset(): void {
    this.o = 0;
    this.ascii = true;
  }

  /** Room for `n` more bytes. */
  private room(n: number): void {
    if (this.o + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.o + n));
    this.buf.copy(bigger, 0, 0, this.o);
    this.buf = bigger;
  }

  /** Bytes written so far. */
  get pos(): number {
    return this.o;
  }

  /** Drops what was written after `o`. */
  rewind(o: number): void {
    this.o = o;
  }

  /** Bytes `from` to `to` as a latin1 string: the same bytes, the same string. */
  slice(from: number, to: number): string {
    return this.buf.toString('latin1', from, to);
  }

  /** True when the `n` bytes at `a` are those at `b`. */
  equal(a: number, b: number, n: number): boolean {
    const buf = this.buf;
    for (let k = 0; k < n; k++) if (buf[a + k] !== buf[b + k]) return false;
    return true;
  }

  /**
   * Copies a plain scalar of `src` from `from` inside a JSON string, up to a ` #` comment or
   * `eol`, trailing spaces dropped; returns where it ends in `src`, or, when a `: ` (or a colon at
   * the line's end) comes first, -1 minus the colon's offset (what was copied is then a key).
   */
  plain(src: string, from: number, eol: number): number {
    this.room(3 * (eol - from));
    const buf = this.buf;
    let o = this.o;
    // Output and source ends after the last character that is not a space.
    let keepO = o;
    let keepI = from;
    for (let i = from; i < eol; i++) {
      const c = src.charCodeAt(i);
      if (c === SP) {
        buf[o++] = c;
        continue;
      }
      if (c === HASH && src.charCodeAt(i - 1) === SP) break;
      if (c === COLON && (i + 1 === eol || src.charCodeAt(i + 1) === SP)) {
        this.o = keepO;
        return -1 - i;
      }
      if (c >= 0x80) {
        o = this.multiByte(src, i, c, o);
        if (c >= 0xd800 && c <= 0xdbff) i++;
      } else {
        if (c === DQUOTE || c === 0x5c) buf[o++] = 0x5c;
        buf[o++] = c;
      }
      keepO = o;
      keepI = i + 1;
    }
    this.o = keepO;
    return keepI;
  }

  byte(c: number): void {
    this.room(1);
    this.buf[this.o++] = c;
  }

  /** ASCII text as it is (punctuation, literals, numbers). */
  ascii7(s: string): void {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.o++] = s.charCodeAt(i);
  }

  /** Characters `from` to `to` of `src` inside a JSON string: `"` and `\\` escaped, the rest as UTF-8. */
  raw(src: string, from: number, to: number): void {
    // At most 3 bytes a character: an escape is 2, a surrogate pair 4 for 2 characters.
    this.room(3 * (to - from));
    const buf = this.buf;
    let o = this.o;
    for (let i = from; i < to; i++) {
      const c = src.charCodeAt(i);
      if (c >= 0x80) {
        o = this.multiByte(src, i, c, o);
        if (c >= 0xd800 && c <= 0xdbff) i++;
        continue;
      }
      if (c === DQUOTE || c === 0x5c) buf[o++] = 0x5c;
      buf[o++] = c;
    }
    this.o = o;
  }

  /** Text that is JSON already (escaped), as UTF-8. */
  json(s: string): void {
    this.room(3 * s.length);
    const buf = this.buf;
    let o = this.o;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) buf[o++] = c;
      else {
        o = this.multiByte(s, i, c, o);
        if (c >= 0xd800 && c <= 0xdbff) i++;
      }
    }
    this.o = o;
  }

  /** UTF-8 of the character at `i` (a surrogate pair whole: the text holds no lone surrogate). */
  private multiByte(s: string, i: number, c: number, o: number): number {
    const buf = this.buf;
    this.ascii = false;
    if (c < 0x800) {
      buf[o++] = 0xc0 | (c >> 6);
      buf[o++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00);
      buf[o++] = 0xf0 | (cp >> 18);
      buf[o++] = 0x80 | ((cp >> 12) & 0x3f);
      buf[o++] = 0x80 | ((cp >> 6) & 0x3f);
      buf[o++] = 0x80 | (cp & 0x3f);
    } else {
      buf[o++] = 0xe0 | (c >> 12);
      buf[o++] = 0x80 | ((c >> 6) & 0x3f);
      buf[o++] = 0x80 | (c & 0x3f);
    }
    return o;
  }

  text(): string {
    return this.buf.toString(this.ascii ? 'latin1' : 'utf8', 0, this.o);
  }

  /** The bytes written, in a buffer of their own (one that can be moved to another thread). */
  bytes(): JsonTextBytes {
    const data = new Uint8Array(this.o);
    data.set(this.buf.subarray(0, this.o));
    return { data, ascii: this.ascii };
  }
}

/** JSON text as UTF-8 bytes; `ascii` when every byte is ASCII (it then decodes as latin1). */
export interface JsonTextBytes {
  data: Uint8Array;
  ascii: boolean;
}

/** The text of translated bytes (what yamlToJson returns for the same YAML). */
export function jsonTextOf(bytes: JsonTextBytes): string {
  return Buffer.from(bytes.data.buffer, bytes.data.byteOffset, bytes.data.length).toString(bytes.ascii ? 'latin1' : 'utf8');
}

const OUT = new JsonBytes();

/**
 * The keys of one mapping, as ranges of the JSON written (equal keys are equal JSON text), to
 * refuse a duplicate as js-yaml does (it throws "duplicated mapping key").
 */
class KeySet {
  private readonly ranges: number[] = [];
  private set: Set<string> | undefined;

  constructor(private readonly out: JsonBytes) {}

  /** Adds the key written from `from` to `to`; false when the mapping has it already. */
  add(from: number, to: number): boolean {
    if (this.set) {
      const key = this.out.slice(from, to);
      if (this.set.has(key)) return false;
      this.set.add(key);
      return true;
    }
    const r = this.ranges;
    const n = to - from;
    for (let j = 0; j < r.length; j += 2) if (r[j + 1]! - r[j]! === n && this.out.equal(r[j]!, from, n)) return false;
    r.push(from, to);
    if (r.length > 32) {
      this.set = new Set();
      for (let j = 0; j < r.length; j += 2) this.set.add(this.out.slice(r[j]!, r[j + 1]!));
    }
    return true;
  }
}

/** One document's translation; see the module comment. */
class Translator {
  private readonly out = OUT;
  private readonly n: number;
  // The current content line (not blank, not a comment): its start, indentation and end.
  private p = 0;
  private ind = -1;
  private eol = 0;
  /** Indentation of the first non-blank line (a comment too) met by the last seek, or -1. */
  private firstIndent = -1;
  /** The line nextFilledLine found. */
  private readonly filled = { start: 0, text: 0, end: 0 };
  private depth = 0;

  constructor(private readonly src: string) {
    this.n = src.length;
  }

  document(): void {
    const src = this.src;
    if (UNSAFE_QUICK.test(src) && UNSAFE_EXACT.test(src)) outside();
    this.seek(0);
    if (this.ind < 0) outside();
    const at = this.p + this.ind;
    // A directive, and `---` at the start (js-yaml readDocument takes it for a marker, whatever
    // follows), belong to js-yaml's document reading.
    if (src.charCodeAt(at) === 0x25 /* % */ || (this.ind === 0 && (src.startsWith('---', at) || src.startsWith('...', at)))) outside();
    if (this.isEntry(at)) this.sequence(this.ind);
    else this.mapping(this.ind, at);
    if (this.ind >= 0) outside();
  }

  /** Moves to the next content line from the line starting at `from` (skipping blank and comment lines). */
  private seek(from: number): void {
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
      if (k === i && (c === DASH || c === 0x2e) && src.charCodeAt(k + 1) === c && src.charCodeAt(k + 2) === c && (k + 3 === e || src.charCodeAt(k + 3) === SP)) outside();
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
  private isEntry(i: number): boolean {
    return this.src.charCodeAt(i) === DASH && (i + 1 === this.eol || this.src.charCodeAt(i + 1) === SP);
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) outside();
  }

  /**
   * A block mapping whose first key starts at `at` on the current line; its later keys start
   * lines indented `col` (js-yaml readBlockMapping).
   */
  private mapping(col: number, at: number): void {
    this.enter();
    const keys = new KeySet(this.out);
    this.out.byte(0x7b);
    for (;;) {
      const after = this.key(at, keys);
      this.value(after, col, false);
      if (this.ind < col) break;
      at = this.p + col;
      // Deeper: "bad indentation of a mapping entry"; a `- ` here belongs to no key.
      if (this.ind > col || this.isEntry(at)) outside();
      this.out.byte(0x2c);
    }
    this.out.byte(0x7d);
    this.depth--;
  }

  /** A block sequence whose `-` is at column `col` of the current line (js-yaml readBlockSequence). */
  private sequence(col: number): void {
    this.enter();
    this.out.byte(0x5b);
    for (;;) {
      this.value(this.p + col + 1, col, true);
      if (this.ind < col) break;
      if (this.ind > col) outside();
      if (!this.isEntry(this.p + col)) break;
      this.out.byte(0x2c);
    }
    this.out.byte(0x5d);
    this.depth--;
  }

  /** Writes the key at `at` and its colon; returns the offset after the colon. */
  private key(at: number, keys: KeySet): number {
    const src = this.src;
    const c = src.charCodeAt(at);
    const o0 = this.out.pos;
    let k: number;
    if (c === DQUOTE || c === SQUOTE) {
      const end = this.quotedEnd(at);
      k = end;
      while (src.charCodeAt(k) === SP) k++;
      if (src.charCodeAt(k) !== COLON || !(k + 1 === this.eol || src.charCodeAt(k + 1) === SP)) outside();
      this.out.json(jsonString(this.quotedValue(at, end)));
    } else {
      if (startsNoPlain(c) || this.isEntry(at)) outside();
      this.out.byte(DQUOTE);
      const r = this.out.plain(src, at, this.eol);
      if (r >= 0) outside();
      k = -1 - r;
      const end = this.trimEnd(at, k);
      if (mayResolveFrom(c, end - at)) {
        // 1, 0x10, true, null…: the key is the resolved value as a string.
        this.out.rewind(o0);
        this.out.json(jsonString(plainKey(src.slice(at, end))));
      } else {
        this.out.byte(DQUOTE);
      }
    }
    this.keyOnce(o0, this.out.pos, keys);
    this.out.byte(COLON);
    return k + 1;
  }

  /** Refuses a key met before in the mapping, and keys with a meaning of their own (`<<`, `__proto__`). */
  private keyOnce(from: number, to: number, keys: KeySet): void {
    const n = to - from;
    if (n === 4 || n === 11) {
      const key = this.out.slice(from, to);
      if (key === '"<<"' || key === '"__proto__"') outside();
    }
    if (!keys.add(from, to)) outside();
  }

  private trimEnd(from: number, to: number): number {
    while (to > from && this.src.charCodeAt(to - 1) === SP) to--;
    return to;
  }

  /** True when the current line from `i` holds only spaces or a comment after a space. */
  private restIsEmpty(i: number): boolean {
    const src = this.src;
    let k = i;
    while (src.charCodeAt(k) === SP && k < this.eol) k++;
    return k === this.eol || (k > i && src.charCodeAt(k) === HASH);
  }

  /**
   * The node after a key's colon or an entry's `-`, from offset `i` of the current line; `parent`
   * is the indentation of the mapping or sequence holding it (js-yaml composeNode). Leaves the
   * cursor on the next content line.
   */
  private value(i: number, parent: number, inSequence: boolean): void {
    const src = this.src;
    while (src.charCodeAt(i) === SP && i < this.eol) i++;
    if (i === this.eol || src.charCodeAt(i) === HASH) {
      this.nodeBelow(parent, inSequence);
      return;
    }
    const c = src.charCodeAt(i);
    const col = i - this.p;
    if (this.isEntry(i)) {
      // `- - x`; after a key (`a: - x`) js-yaml refuses it.
      if (!inSequence) outside();
      this.sequence(col);
    } else if (c === 0x7c /* | */ || c === 0x3e /* > */) {
      this.blockScalar(i, parent);
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      this.emptyFlow(i, parent);
    } else if (c === DQUOTE || c === SQUOTE) {
      const end = this.quotedClose(i);
      if (end < 0) {
        this.multiLineQuoted(i, parent);
        return;
      }
      let k = end;
      while (src.charCodeAt(k) === SP) k++;
      if (src.charCodeAt(k) === COLON) {
        // `- "key": v`, a compact mapping; after a key, js-yaml refuses it.
        if (!inSequence) outside();
        this.mapping(col, i);
        return;
      }
      if (!this.restIsEmpty(end)) outside();
      this.quotedJson(i, end);
      this.scalarEnd(parent);
    } else {
      if (startsNoPlain(c)) outside();
      const o0 = this.out.pos;
      this.out.byte(DQUOTE);
      const end = this.out.plain(src, i, this.eol);
      if (end < 0) {
        // `- key: v`, a compact mapping; `a: b: c` js-yaml refuses.
        if (!inSequence) outside();
        this.out.rewind(o0);
        this.mapping(col, i);
        return;
      }
      const lineEnd = this.eol;
      this.seek(lineEnd + 1);
      if (this.firstIndent > parent) {
        // Lines indented deeper go on with the scalar (kubectl folds long strings at 80 columns),
        // unless the first line ended in a comment: js-yaml's error then.
        for (let k = end; k < lineEnd; k++) if (src.charCodeAt(k) !== SP) outside();
        this.out.rewind(o0);
        this.multiLinePlain(i, end, lineEnd, parent);
        return;
      }
      if (mayResolveFrom(c, end - i)) {
        this.out.rewind(o0);
        this.plainJson(i, end);
      } else {
        this.out.byte(DQUOTE);
      }
    }
  }

  /**
   * A plain scalar from `from` to `to` on a line ending at `lineEnd`, going on over the lines
   * below indented deeper than `parent` (js-yaml readPlainScalar: each line break between two of
   * its lines is a space, blank lines between them line feeds, each line's leading and trailing
   * spaces dropped). A continuation line that starts with `#`, or holds a comment or `: `, is
   * left to js-yaml. Leaves the cursor on the next content line.
   */
  private multiLinePlain(from: number, to: number, lineEnd: number, parent: number): void {
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
  private multiLineQuoted(at: number, parent: number): void {
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
  private nextFilledLine(pos: number): number {
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
  private closeOnLine(q: number, from: number): number {
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
  private quotedPart(q: number, from: number, to: number, broken: boolean): string {
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
  private scalarEnd(parent: number): void {
    this.seek(this.eol + 1);
    if (this.firstIndent > parent) outside();
  }

  /**
   * The node on the lines after `key:` or `-` with nothing after it: a collection indented deeper,
   * a sequence at a key's own indentation (kubectl's layout), or null.
   */
  private nodeBelow(parent: number, inSequence: boolean): void {
    this.seek(this.eol + 1);
    const ind = this.ind;
    if (ind > parent) {
      const at = this.p + ind;
      // A scalar alone on the line below its key is not translated: mapping() refuses a non-key.
      if (this.isEntry(at)) this.sequence(ind);
      else this.mapping(ind, at);
    } else if (!inSequence && ind === parent && this.isEntry(this.p + ind)) {
      this.sequence(ind);
    } else {
      // After an empty entry js-yaml readBlockSequence takes a `- ` line indented less as the
      // same sequence's next entry (`- - x\n  -\n- y` is [[x, null, y]]): left to js-yaml.
      if (inSequence && ind >= 0 && ind < parent && this.isEntry(this.p + ind)) outside();
      this.out.ascii7('null');
    }
  }

  /** `{}` or `[]` (spaces inside allowed), alone on the rest of its line. */
  private emptyFlow(i: number, parent: number): void {
    const src = this.src;
    const open = src.charCodeAt(i);
    let k = i + 1;
    while (src.charCodeAt(k) === SP && k < this.eol) k++;
    if (src.charCodeAt(k) !== open + 2 /* ] or } */ || !this.restIsEmpty(k + 1)) outside();
    this.out.ascii7(open === 0x5b ? '[]' : '{}');
    this.scalarEnd(parent);
  }

  /** Writes a plain scalar that may resolve (mayResolve), `from` to `to`, as js-yaml composeNode resolves it. */
  private plainJson(from: number, to: number): void {
    const s = this.src.slice(from, to);
    this.out.json(isPlainInteger(s) ? s : jsonValue(resolvePlain(s)));
  }

  /** Writes a quoted scalar from `at` to `end` (after its closing quote). */
  private quotedJson(at: number, end: number): void {
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
  private quotedEnd(at: number): number {
    const end = this.quotedClose(at);
    return end < 0 ? outside() : end;
  }

  /** The offset after the closing quote of a quoted scalar at `at` on its line, or -1. */
  private quotedClose(at: number): number {
    const close = this.closeOnLine(this.src.charCodeAt(at), at + 1);
    return close < 0 ? -1 : close + 1;
  }

  /** The value of a quoted scalar from `at` to `end` (js-yaml readSingleQuotedScalar, readDoubleQuotedScalar on one line). */
  private quotedValue(at: number, end: number): string {
    const body = this.src.slice(at + 1, end - 1);
    if (this.src.charCodeAt(at) === SQUOTE) return body.includes("''") ? body.replaceAll("''", "'") : body;
    return body.includes('\\') ? unescapeDouble(body) : body;
  }

  /**
   * A literal (`|`) or folded (`>`) block scalar whose indicator is at `at` (js-yaml
   * readBlockScalar, line by line): `parent + 1` is its nodeIndent; the end of the text reads as
   * a line less indented than its text. Leaves the cursor on the next content line.
   */
  private blockScalar(at: number, parent: number): void {
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
  private blockHeader(at: number, parent: number): { chomping: string; textIndent: number; detected: boolean } {
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

/** What `breaks` line breaks inside a flow scalar become (js-yaml writeFoldedLines): a space, or one line feed fewer. */
function folded(breaks: number): string {
  return breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
}

/** A double-quoted scalar's body with its escapes decoded (js-yaml readDoubleQuotedScalar). */
function unescapeDouble(body: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const b = body.indexOf('\\', from);
    if (b < 0) return out + body.slice(from);
    out += body.slice(from, b);
    const e = body.charCodeAt(b + 1);
    const simple = SIMPLE_ESCAPES.get(e);
    if (simple !== undefined) {
      out += simple;
      from = b + 2;
      continue;
    }
    const len = e === 0x78 /* x */ ? 2 : e === 0x75 /* u */ ? 4 : e === 0x55 /* U */ ? 8 : 0;
    const hex = body.slice(b + 2, b + 2 + len);
    if (!len || hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) outside();
    out += charFromCodepoint(parseInt(hex, 16));
    from = b + 2 + len;
  }
}

/** js-yaml loader.js charFromCodepoint (also its surrogates for a code point past U+10FFFF). */
function charFromCodepoint(c: number): string {
  if (c <= 0xffff) return String.fromCharCode(c);
  return String.fromCharCode(((c - 0x010000) >> 10) + 0xd800, ((c - 0x010000) & 0x03ff) + 0xdc00);
}

/**
 * The JSON text of one YAML document, or undefined when it is outside the subset (then js-yaml
 * reads it). `JSON.parse` of the text gives what js-yaml's `load` with CORE_SCHEMA gives.
 */
export function yamlToJson(text: string): string | undefined {
  return translate(text) ? OUT.text() : undefined;
}

/** yamlToJson's text as bytes of their own, for a worker thread to hand over (src/load/yaml-worker.ts). */
export function yamlToJsonBytes(text: string): JsonTextBytes | undefined {
  return translate(text) ? OUT.bytes() : undefined;
}

/** Translates into OUT; false when the text is outside the subset. */
function translate(text: string): boolean {
  OUT.reset();
  try {
    new Translator(text).document();
  } catch (err) {
    if (err === OUTSIDE) return false;
    throw err;
  }
  return true;
}

/** The value of one YAML document read through its JSON translation, or undefined when it is outside the subset. */
export function readYamlAsJson(text: string): { value: unknown } | undefined {
  const json = yamlToJson(text);
  return json === undefined ? undefined : parseTranslation(json);
}

/**
 * The value of a translation's JSON text; undefined is never expected (a translation JSON.parse
 * refuses is left to js-yaml, which reads the YAML).
 */
export function parseTranslation(json: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(json) as unknown };
  } catch {
    return undefined;
  }
}
