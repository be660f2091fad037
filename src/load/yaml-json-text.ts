/**
 * What the YAML-to-JSON translator (src/load/yaml-json.ts) writes with: the character codes and
 * js-yaml's scalar rules it reads by (escapes, CORE_SCHEMA resolution, which characters start a
 * plain scalar), the JSON text it writes as UTF-8 bytes into one reused buffer, and the keys of a
 * mapping, to refuse a duplicate. `OUTSIDE` is thrown when the text leaves the subset; the
 * translator's entry points catch it.
 */
import { resolveCoreScalar } from './yaml-core.js';

/** Thrown inside the translator when the text leaves the subset; never escapes this module. */
export const OUTSIDE = new Error('outside the YAML subset translated to JSON');

/**
 * What is left to js-yaml anywhere in a text: characters its loader refuses in a scalar
 * (loader.js PATTERN_NON_PRINTABLE, \x85 aside), tabs, carriage returns (a line break to js-yaml),
 * byte order marks; the exact pattern runs only when the quick one (any surrogate) matches.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
export const UNSAFE_QUICK = /[\x00-\x09\x0B-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFEFF\uFFFE\uFFFF]/;
export const UNSAFE_EXACT =
  // eslint-disable-next-line no-control-regex -- the same
  /[\x00-\x09\x0B-\x1F\x7F-\x84\x86-\x9F\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
/** Nesting read here; deeper documents go to js-yaml, which bounds depth itself (maxDepth 100). */
export const MAX_DEPTH = 60;

export const SP = 0x20;
export const HASH = 0x23;
export const COLON = 0x3a;
export const DASH = 0x2d;
export const SQUOTE = 0x27;
export const DQUOTE = 0x22;

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

export function outside(): never {
  throw OUTSIDE;
}

/** Characters a JSON string cannot hold as they are, and surrogates (JSON.stringify escapes a lone one). */
// eslint-disable-next-line no-control-regex -- control characters need escapes in JSON
const JSON_ESCAPED = /["\\\x00-\x1F\uD800-\uDFFF]/;

/** A JS string as JSON text. */
export function jsonString(s: string): string {
  return JSON_ESCAPED.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** A value resolved from a plain scalar as JSON text; non-finite numbers have none. */
export function jsonValue(v: unknown): string {
  if (typeof v === 'string') return jsonString(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) outside();
    return Object.is(v, -0) ? '-0' : String(v);
  }
  return String(v);
}

/** js-yaml composeNode's implicit resolution under CORE_SCHEMA (src/load/yaml-core.ts). */
export function resolvePlain(s: string): unknown {
  return resolveCoreScalar(s);
}

/** Whether a plain scalar may resolve to something other than a string (a cheap look first). */
export function mayResolve(s: string): boolean {
  return mayResolveFrom(s.charCodeAt(0), s.length);
}

/** mayResolve of a scalar by its first character and length. */
export function mayResolveFrom(c: number, length: number): boolean {
  if ((c >= 0x30 && c <= 0x39) || c === DASH || c === 0x2b /* + */ || c === 0x2e /* . */) return true;
  if (c === 0x7e /* ~ */) return length === 1;
  // null, true, false in their three spellings.
  return (
    (length === 4 || length === 5) && (c === 0x6e || c === 0x4e || c === 0x74 || c === 0x54 || c === 0x66 || c === 0x46)
  );
}

/** True for a decimal integer JSON writes the same way and a double holds exactly (js-yaml reads `-0` as 0: not this). */
export function isPlainInteger(s: string): boolean {
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
export function plainKey(s: string): string {
  return mayResolve(s) ? String(resolvePlain(s)) : s;
}

/** Characters that cannot start a plain scalar in block context (js-yaml readPlainScalar), or start another node. */
export function startsNoPlain(c: number): boolean {
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
export class JsonBytes {
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
  return Buffer.from(bytes.data.buffer, bytes.data.byteOffset, bytes.data.length).toString(
    bytes.ascii ? 'latin1' : 'utf8',
  );
}

export const OUT = new JsonBytes();

/**
 * The keys of one mapping, as ranges of the JSON written (equal keys are equal JSON text), to
 * refuse a duplicate as js-yaml does (it throws "duplicated mapping key").
 */
export class KeySet {
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

/** What `breaks` line breaks inside a flow scalar become (js-yaml writeFoldedLines): a space, or one line feed fewer. */
export function folded(breaks: number): string {
  return breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
}

/** A double-quoted scalar's body with its escapes decoded (js-yaml readDoubleQuotedScalar). */
export function unescapeDouble(body: string): string {
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
