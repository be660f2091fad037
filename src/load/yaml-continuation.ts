/**
 * Which lines of a YAML text continue a scalar or a flow collection begun on an earlier line: a
 * quoted string may go on over lines (`"foo` / `- bar"` is one string, whatever the second line
 * looks like), and so may a flow collection (`[a,` / `b]`). The YAML List splitter cuts a
 * `kind: List` at lines that start a new `- ` entry; a continuation line never starts one.
 * The lines of a block scalar (`|`, `>`) are indented deeper than the line of its indicator and
 * are text: nothing in them opens a quote.
 */

const DQUOTE = 0x22;
const SQUOTE = 0x27;
const BACKSLASH = 0x5c;
const MAY_OPEN = /["'[{|>]/;

/** Tracks open quoted scalars and flow collections across lines. */
export class YamlContinuation {
  /** The quote of an open quoted scalar, or 0. */
  private quote = 0;
  /** Depth of open flow collections (`[`, `{`). */
  private flow = 0;
  /** Indentation of the line that began a block scalar, or -1 outside one. */
  private blockParent = -1;

  /** True while a quoted scalar or a flow collection is open. */
  get open(): boolean {
    return this.quote !== 0 || this.flow > 0;
  }

  /** Reads one line; returns true when it continues what an earlier line opened. */
  feed(line: string): boolean {
    if (this.blockParent >= 0) {
      const k = lineIndent(line);
      if (k < 0 || k > this.blockParent) return false;
      this.blockParent = -1;
    }
    const continues = this.open;
    // Most lines hold nothing that could open a quote, a collection or a block scalar.
    if (!continues && !MAY_OPEN.test(line)) return false;
    let i = 0;
    if (this.quote) {
      i = this.closeQuote(line, 0);
      if (i < 0) return true;
    }
    if (this.flow > 0) {
      this.scanFlow(line, i);
      return true;
    }
    this.scanBlock(line, i);
    return continues;
  }

  /** After the opening quote: the offset after the closing one, or -1 (the scalar goes on). */
  private closeQuote(line: string, i: number): number {
    const q = this.quote;
    for (;;) {
      const at = line.indexOf(q === DQUOTE ? '"' : "'", i);
      if (at < 0) return -1;
      if (q === DQUOTE) {
        let k = at - 1;
        while (k >= i && line.charCodeAt(k) === BACKSLASH) k--;
        if ((at - 1 - k) % 2 === 1) {
          i = at + 1;
          continue;
        }
      } else if (line.charCodeAt(at + 1) === SQUOTE) {
        i = at + 2;
        continue;
      }
      this.quote = 0;
      return at + 1;
    }
  }

  /**
   * Block context from `i`: the places a node starts (after indentation, `- `, `key: `, an
   * anchor or tag); a quote there opens a quoted scalar, a bracket a flow collection.
   */
  private scanBlock(line: string, i: number): void {
    const n = line.length;
    for (;;) {
      while (i < n && line.charCodeAt(i) === 0x20) i++;
      if (i >= n) return;
      const c = line.charCodeAt(i);
      if (c === 0x2d /* - */ && (i + 1 === n || line.charCodeAt(i + 1) === 0x20)) {
        i += 1;
        continue;
      }
      if (c === DQUOTE || c === SQUOTE) {
        this.quote = c;
        i = this.closeQuote(line, i + 1);
        if (i < 0) return;
        // A quoted key: its value follows the colon.
        while (i < n && line.charCodeAt(i) === 0x20) i++;
        if (line.charCodeAt(i) !== 0x3a /* : */) return;
        i++;
        continue;
      }
      if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
        this.scanFlow(line, i);
        return;
      }
      if (c === 0x26 /* & */ || c === 0x21 /* ! */) {
        const sp = line.indexOf(' ', i);
        if (sp < 0) return;
        i = sp;
        continue;
      }
      if (c === 0x7c /* | */ || c === 0x3e /* > */) {
        this.blockParent = lineIndent(line);
        return;
      }
      if (c === 0x23 /* # */) return;
      // A plain key (`key: value`) or a plain scalar, which ends the line's nodes.
      const colon = plainKeyEnd(line, i);
      if (colon < 0) return;
      i = colon + 1;
    }
  }

  /** Inside flow collections from `i`: brackets counted outside quoted scalars. */
  private scanFlow(line: string, i: number): void {
    const n = line.length;
    while (i < n) {
      const c = line.charCodeAt(i);
      if (c === DQUOTE || c === SQUOTE) {
        this.quote = c;
        i = this.closeQuote(line, i + 1);
        if (i < 0) return;
        continue;
      }
      if (c === 0x5b || c === 0x7b) this.flow++;
      else if (c === 0x5d || c === 0x7d) {
        this.flow--;
        if (this.flow <= 0) {
          this.flow = 0;
          return;
        }
      } else if (c === 0x23 && line.charCodeAt(i - 1) === 0x20) return;
      i++;
    }
  }
}

/** The colon that ends a plain key (followed by a space or the line's end), or -1. */
function plainKeyEnd(line: string, i: number): number {
  for (;;) {
    const at = line.indexOf(':', i);
    if (at < 0) return -1;
    if (at + 1 === line.length || line.charCodeAt(at + 1) === 0x20) {
      // ` #` before it starts a comment: no key on this line.
      const hash = line.indexOf(' #', i);
      return hash >= 0 && hash < at ? -1 : at;
    }
    i = at + 1;
  }
}

/** Leading spaces of a line, or -1 when it is blank. */
function lineIndent(line: string): number {
  let k = 0;
  while (k < line.length && line.charCodeAt(k) === 0x20) k++;
  return k === line.length ? -1 : k;
}
