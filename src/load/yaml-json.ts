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
 *
 * This file holds the block mappings and sequences and the entry points; the line cursor and the
 * scalars are src/load/yaml-json-scalars.ts, the JSON bytes written and the scalar rules
 * src/load/yaml-json-text.ts.
 */
import {
  COLON,
  DQUOTE,
  HASH,
  jsonString,
  type JsonTextBytes,
  KeySet,
  mayResolveFrom,
  OUT,
  OUTSIDE,
  outside,
  plainKey,
  SP,
  SQUOTE,
  startsNoPlain,
  UNSAFE_EXACT,
  UNSAFE_QUICK,
} from './yaml-json-text.js';
import { ScalarTranslator } from './yaml-json-scalars.js';

/** One document's translation; see the module comment. */
class Translator extends ScalarTranslator {
  document(): void {
    const src = this.src;
    if (UNSAFE_QUICK.test(src) && UNSAFE_EXACT.test(src)) outside();
    this.seek(0);
    if (this.ind < 0) outside();
    const at = this.p + this.ind;
    // A directive, and `---` at the start (js-yaml readDocument takes it for a marker, whatever
    // follows), belong to js-yaml's document reading.
    if (
      src.charCodeAt(at) === 0x25 /* % */ ||
      (this.ind === 0 && (src.startsWith('---', at) || src.startsWith('...', at)))
    )
      outside();
    if (this.isEntry(at)) this.sequence(this.ind);
    else this.mapping(this.ind, at);
    if (this.ind >= 0) outside();
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
