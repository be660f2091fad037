/**
 * Terminal-safe text: every string that came from a cluster or a dump (event and condition
 * messages, container messages, images, annotations, names, an API server's error text) is
 * untrusted, and a terminal acts on control characters in it. One escaping for the whole
 * program: the renderers (`render/sanitize.ts`) and the live loader's error lines use it.
 *
 * kubectl escapes ESC as `^[` and CR as `\r` in what it prints (kubernetes PR 112553,
 * `k8s.io/cli-runtime/pkg/printers/terminal.go#EscapeTerminal`). We escape more, and always
 * visibly (nothing is dropped): every C0 control (ESC `^[`, BEL `^G`, CR `\r`, LF `\n`, TAB `\t`),
 * DEL `^?`, the C1 controls U+0080–U+009F (U+009B acts as CSI) and the characters that reorder
 * or hide text (bidi embeddings, overrides, isolates and marks, line/paragraph separators,
 * the byte-order mark) as `\uXXXX`.
 */

/** Characters a terminal or a bidi-aware viewer acts on, which must never reach it raw. */
// eslint-disable-next-line no-control-regex
const TERMINAL_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** A character as a `\uXXXX` escape. */
export function unicodeEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  switch (ch) {
    case '\u001b':
      return '^[';
    case '\r':
      return '\\r';
    case '\n':
      return '\\n';
    case '\t':
      return '\\t';
    case '\u007f':
      return '^?';
    default:
      // Caret notation for the other C0 controls, as `cat -v` shows them (BEL is ^G).
      return code < 0x20 ? `^${String.fromCharCode(code + 0x40)}` : unicodeEscape(ch);
  }
}

/** `text` with every terminal control character made visible, on one line. */
export function escapeTerminal(text: string): string {
  return text.replace(TERMINAL_UNSAFE, visible);
}

/** `text` with every terminal control character made visible, keeping its line breaks. */
export function escapeTerminalLines(text: string): string {
  return text.split('\n').map(escapeTerminal).join('\n');
}

/** Whether `text` holds a character {@link escapeTerminal} would change. */
export function hasTerminalControls(text: string): boolean {
  TERMINAL_UNSAFE.lastIndex = 0;
  const found = TERMINAL_UNSAFE.test(text);
  TERMINAL_UNSAFE.lastIndex = 0;
  return found;
}
