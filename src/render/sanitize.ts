/**
 * The one sanitizer for text that leaves ds-doctor, built on `model/terminal-text.ts`: human
 * output (table, wide, Markdown) and stderr escape every control character of cluster text;
 * JSON, YAML and SARIF stay data but escape what a terminal or viewer would still act on.
 * Newlines and tabs that are our own layout are added by the renderers after this, so they survive.
 */
import { escapeTerminal, unicodeEscape } from '../model/terminal-text.js';

export { escapeTerminal, escapeTerminalLines, hasTerminalControls } from '../model/terminal-text.js';

/** What JSON.stringify and js-yaml leave raw although a terminal or viewer acts on it. */
const DATA_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

// Backslash-escapes what would let text become raw HTML, an autolink, an entity (`&#x202e;`),
// an inline link or image (`](`) or a code span in GitHub-flavoured Markdown; the backslash
// itself first, so that data cannot undo an escape. Brackets alone stay (paths like
// `containers[0]`): a link needs `](`, or a definition at the start of a line, which data never
// gets. Table cells escape `|` themselves (render/table.ts).
const MARKDOWN_ACTIVE = /[\\`<&]|\](?=\()/g;

/** `text` made inert as Markdown inline content (after {@link escapeTerminal}). */
export function escapeMarkdownText(text: string): string {
  return text.replace(MARKDOWN_ACTIVE, (c) => `\\${c}`);
}

/** How the strings of a document are escaped for people. */
export interface HumanEscapeOptions {
  markdown: boolean;
  /**
   * Keys whose strings may hold our own line breaks (a lint fix: a sentence, then a YAML
   * snippet): each line is escaped alone and the breaks kept; later lines go into a code block
   * in Markdown, so only the first line is escaped as Markdown text.
   */
  multilineKeys?: readonly string[];
}

function escapeString(text: string, markdown: boolean): string {
  const t = escapeTerminal(text);
  return markdown ? escapeMarkdownText(t) : t;
}

function escapeMultiline(text: string, markdown: boolean): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? escapeString(line, markdown) : escapeTerminal(line)))
    .join('\n');
}

/**
 * A copy of a result document with every string (values and keys) escaped for a terminal,
 * and for Markdown when asked: the renderers' one shared entry point, so no renderer can
 * print cluster text raw, and our own colours and layout, added after, still work.
 */
export function escapeDocumentForHumans<T>(doc: T, options: HumanEscapeOptions): T {
  const multiline = new Set(options.multilineKeys ?? []);
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (typeof value === 'string') {
      return key !== undefined && multiline.has(key)
        ? escapeMultiline(value, options.markdown)
        : escapeString(value, options.markdown);
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, undefined));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        Object.defineProperty(out, escapeString(k, options.markdown), {
          value: walk(v, k),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return value;
  };
  return walk(doc, undefined) as T;
}

/**
 * JSON text with the characters JSON.stringify leaves raw but a terminal or viewer acts on
 * (DEL, C1 controls, bidi controls, line separators) written as `\uXXXX` escapes: the data is
 * unchanged, since such characters can only occur inside JSON strings.
 */
export function escapeJsonText(json: string): string {
  return json.replace(DATA_UNSAFE, unicodeEscape);
}

// js-yaml escapes C0 and C1 controls and DEL in double-quoted scalars, but writes bidi controls
// raw in any style; a raw line feed or tab is YAML's own layout.
const YAML_UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;

/** Whether serialised YAML holds a raw character that a terminal or viewer acts on. */
export function yamlNeedsEscaping(text: string): boolean {
  return YAML_UNSAFE.test(text);
}
