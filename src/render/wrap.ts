/**
 * Fitting text to the terminal: visible width (colour codes count nothing, wide characters two
 * columns, combining marks none), cutting a cell to a width with an ellipsis while keeping its
 * colour codes, and wrapping prose with a hanging indent. Words are never split: a token longer
 * than the line (a label key, a URL) stands on its own line, and a command to copy (`kubectl …`,
 * `$ …`) stands on its own line whenever the text takes more than one. Renderers call
 * {@link wrapLines} through the RenderContext's `wrap` width, which is Infinity when stdout is not
 * a terminal: piped output keeps one line per item, as kubectl's does.
 */

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
// eslint-disable-next-line no-control-regex
const ANSI_AT_START = /^\u001b\[[0-9;]*m/;

/** Text without colour codes. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * Columns one code point takes in a terminal: 0 for combining marks and zero-width characters,
 * 2 for East Asian wide and fullwidth characters and emoji (Unicode's East_Asian_Width W and F
 * blocks, as terminals draw them), 1 otherwise.
 */
export function charWidth(cp: number): number {
  if (cp === 0) return 0;
  if (
    (cp >= 0x300 && cp <= 0x36f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0x20d0 && cp <= 0x20ff)
  )
    return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f680 && cp <= 0x1f6ff) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Columns `text` takes on a terminal (colour codes count nothing). */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of stripAnsi(text)) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/**
 * `text` cut to at most `max` columns, its last visible character an ellipsis; colour codes are
 * kept, those after the cut included, so that every colour opened is closed again.
 */
export function truncateVisible(text: string, max: number): string {
  if (max < 1 || displayWidth(text) <= max) return text;
  let out = '';
  let width = 0;
  let cut = false;
  let rest = text;
  while (rest) {
    const code = ANSI_AT_START.exec(rest);
    if (code) {
      out += code[0];
      rest = rest.slice(code[0].length);
      continue;
    }
    const ch = String.fromCodePoint(rest.codePointAt(0)!);
    rest = rest.slice(ch.length);
    if (cut) continue;
    const w = charWidth(ch.codePointAt(0)!);
    if (width + w > max - 1) {
      out += '…';
      cut = true;
      continue;
    }
    out += ch;
    width += w;
  }
  return out;
}

/**
 * A word of prose, or a whole command to copy (never broken, and alone on its line when the text
 * wraps), with the spaces before it in the text (kept when it stays on the same line).
 */
interface Unit {
  text: string;
  gap: string;
  command: boolean;
}

/** Whether a word opens a command to copy: `kubectl …` (also after an opening parenthesis or backtick) or a `$ ` prompt. */
function opensCommand(word: string): boolean {
  const plain = stripAnsi(word);
  return /^[(`]?kubectl$/.test(plain) || plain === '$';
}

/** The change of parenthesis depth over a word. */
function depthOf(word: string): number {
  let depth = 0;
  for (const ch of word) depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
  return depth;
}

/**
 * Splits prose into units: words, and commands (`kubectl …` up to the parenthesis that closes
 * around it, a `;` or `,` that ends the clause, or the end; the parentheses of the command itself,
 * as in `"$(date +%s)"`, are kept).
 */
function units(text: string): Unit[] {
  const words = [...text.matchAll(/( *)(\S+)/g)].map((m) => ({ gap: m[1]!, text: m[2]! }));
  const out: Unit[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!opensCommand(word.text)) {
      out.push({ ...word, command: false });
      continue;
    }
    let joined = word.text;
    // An opening parenthesis before `kubectl` belongs to the prose around the command.
    let depth = depthOf(word.text) - (word.text.startsWith('(') ? 1 : 0);
    let end = false;
    while (!end && i + 1 < words.length) {
      const next = words[++i]!;
      depth += depthOf(next.text);
      joined += next.gap + next.text;
      const plain = stripAnsi(next.text);
      if (depth < 0 || /[;,`]$/.test(plain)) end = true;
    }
    out.push({ text: joined, gap: word.gap, command: true });
  }
  return out;
}

/**
 * Wraps one paragraph to `width` columns: the first line starts with `first`, the others with
 * `hang` (by default as many spaces as `first` is wide; when that would leave less than half the
 * line, four spaces more than `first`'s own indentation). Without a finite width, or when it
 * fits, the paragraph stays one line.
 */
export function wrapLines(
  first: string,
  text: string,
  width: number,
  hang?: string,
  options: WrapOptions = {},
): string[] {
  const line = first + text;
  if (!Number.isFinite(width) || displayWidth(line) <= width) return [line];
  const firstWidth = displayWidth(first);
  let indent = hang ?? ' '.repeat(firstWidth);
  if (hang === undefined && width - firstWidth < Math.max(24, Math.floor(width / 2))) {
    indent = ' '.repeat((/^ */.exec(stripAnsi(first))?.[0].length ?? 0) + 4);
  }
  const lines: string[] = [];
  let current = first;
  let empty = true;
  let afterCommand = false;
  const flush = () => {
    lines.push(current.trimEnd());
    current = indent;
    empty = true;
  };
  const leading = /^ */.exec(stripAnsi(first))?.[0].length ?? 0;
  for (const unit of units(text)) {
    const u =
      options.elideLongCommands && unit.command
        ? { ...unit, text: elided(unit.text, width - displayWidth(indent)) }
        : unit;
    const gap = empty ? '' : u.gap || ' ';
    const fits = displayWidth(current) + gap.length + displayWidth(u.text) <= width;
    if (!empty && (u.command || afterCommand || !fits)) flush();
    // A word too wide for the hanging indent (a long host path under a wide label) moves left, to
    // four spaces past the paragraph's own indent or to that indent, rather than run past the line
    // and be broken by the terminal; it then stands on its own line.
    const own = displayWidth(u.text);
    if (empty && lines.length > 0 && displayWidth(indent) + own > width) {
      const room = [leading + 4, leading].find((n) => n + own <= width);
      if (room !== undefined) {
        lines.push(' '.repeat(room) + u.text);
        afterCommand = true;
        continue;
      }
    }
    current += (empty ? '' : gap) + u.text;
    empty = false;
    afterCommand = u.command;
  }
  if (!empty || lines.length === 0) lines.push(current.trimEnd());
  return lines;
}

/** {@link wrapLines} joined into one string. */
export function wrap(first: string, text: string, width: number, hang?: string, options: WrapOptions = {}): string {
  return wrapLines(first, text, width, hang, options).join('\n');
}

export interface WrapOptions {
  /**
   * A command wider than the line is cut after its last word that fits and pointed to `-o wide`
   * (the default outputs), rather than left for the terminal to wrap (wide output keeps it whole).
   */
  elideLongCommands?: boolean;
}

/** What stands for a command too wide to copy from the line. */
const ELIDED = '… (the whole command: -o wide)';

/** `command` itself when it fits `room` columns, else its first words and {@link ELIDED}. */
export function elided(command: string, room: number): string {
  if (displayWidth(command) <= room) return command;
  let kept = '';
  for (const word of command.split(' ')) {
    const next = kept ? `${kept} ${word}` : word;
    if (displayWidth(next) + 1 + ELIDED.length > room) break;
    kept = next;
  }
  return kept ? `${kept} ${ELIDED}` : ELIDED;
}
