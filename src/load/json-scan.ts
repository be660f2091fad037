/**
 * A scan of JSON text (RFC 8259) that says where a value ends and where, and why, text is not
 * JSON. It builds nothing and is run only once JSON.parse has failed, so that positions and
 * messages are ours and never read out of an engine's error text (whose wording and position
 * suffix change between Node versions). It accepts exactly the texts JSON.parse accepts; nesting
 * is followed with an explicit stack, so no input can exhaust the call stack.
 */

export interface JsonSyntaxError {
  /** Offset of the character the error is at (the text's length when the input ended early). */
  offset: number;
  /** One line, without the text itself. */
  message: string;
}

export const END_OF_INPUT = 'Unexpected end of JSON input';
export const AFTER_JSON = 'Unexpected non-whitespace character after JSON';

/** Character codes of JSON's structure, shared with the streaming parser (json-stream.ts). */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;
const MINUS = 0x2d;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Ends the scan; caught in jsonValueEnd, never escapes this module. */
class Stop extends Error {
  constructor(readonly error: JsonSyntaxError) {
    super(error.message);
  }
}

/** Thrown to end the scan at `offset`: the end of input when it is past the text, else the character there. */
function stop(text: string, to: number, offset: number, message?: string): never {
  if (offset >= to) throw new Stop({ offset: to, message: END_OF_INPUT });
  if (message === undefined) {
    const c = text.charCodeAt(offset);
    message =
      c > 0x20 && c < 0x7f
        ? `Unexpected token '${text[offset]}'`
        : `Unexpected character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  throw new Stop({ offset, message });
}

function skipSpace(text: string, i: number, to: number): number {
  while (i < to && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The offset after the string whose quote is at `i`. */
function scanString(text: string, i: number, to: number): number {
  for (i++; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) stop(text, to, i, 'Bad control character in string literal');
    if (c !== BACKSLASH) continue;
    i++;
    if (i >= to) break;
    const e = text.charCodeAt(i);
    if (e === 0x75 /* u */) {
      for (let k = 1; k <= 4; k++)
        if (i + k >= to || !isHex(text.charCodeAt(i + k))) stop(text, to, i + k, 'Bad Unicode escape');
      i += 4;
    } else if ('"\\/bfnrt'.indexOf(text[i]!) < 0) {
      stop(text, to, i, 'Bad escaped character');
    }
  }
  return stop(text, to, to);
}

/** The offset after the number that starts at `i`. */
function scanNumber(text: string, i: number, to: number): number {
  if (text.charCodeAt(i) === MINUS) {
    i++;
    if (i >= to || !isDigit(text.charCodeAt(i))) stop(text, to, i, 'No number after minus sign in JSON');
  }
  if (!isDigit(text.charCodeAt(i))) stop(text, to, i);
  if (text.charCodeAt(i) === 0x30) i++;
  else while (i < to && isDigit(text.charCodeAt(i))) i++;
  if (i < to && text.charCodeAt(i) === 0x2e) {
    i++;
    if (i >= to || !isDigit(text.charCodeAt(i))) stop(text, to, i, 'Unterminated fractional number in JSON');
    while (i < to && isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (i < to && (e === 0x65 || e === 0x45)) {
    i++;
    const s = text.charCodeAt(i);
    if (i < to && (s === 0x2b || s === MINUS)) i++;
    if (i >= to || !isDigit(text.charCodeAt(i))) stop(text, to, i, 'Exponent part is missing a number in JSON');
    while (i < to && isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

/** The offset after the value that starts at or after `from` (leading whitespace skipped); throws Stop. */
function scanValue(text: string, from: number, to: number): number {
  /** Open containers: the closing character each waits for. */
  const open: number[] = [];
  let i = from;
  for (;;) {
    // A value.
    i = skipSpace(text, i, to);
    if (i >= to) stop(text, to, i);
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const close = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      i = skipSpace(text, i + 1, to);
      if (text.charCodeAt(i) === close && i < to) {
        i++;
      } else {
        open.push(close);
        if (close === CLOSE_BRACE) i = scanKey(text, i, to);
        continue;
      }
    } else if (c === QUOTE) {
      i = scanString(text, i, to);
    } else if (c === MINUS || isDigit(c)) {
      i = scanNumber(text, i, to);
    } else {
      const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x6e ? 'null' : undefined;
      if (word === undefined) stop(text, to, i);
      for (let k = 1; k < word.length; k++)
        if (i + k >= to || text.charCodeAt(i + k) !== word.charCodeAt(k)) stop(text, to, i + k);
      i += word.length;
    }
    // After a value: the containers it ends, then the next member's start.
    for (;;) {
      if (open.length === 0) return i;
      i = skipSpace(text, i, to);
      if (i >= to) stop(text, to, i);
      const d = text.charCodeAt(i);
      const close = open[open.length - 1]!;
      if (d === close) {
        open.pop();
        i++;
        continue;
      }
      if (d !== COMMA)
        stop(
          text,
          to,
          i,
          close === CLOSE_BRACE
            ? "Expected ',' or '}' after property value"
            : "Expected ',' or ']' after array element",
        );
      i++;
      if (close === CLOSE_BRACE) i = scanKey(text, skipSpace(text, i, to), to);
      break;
    }
  }
}

/** A member's key at `i` and its colon: the offset after the colon. */
function scanKey(text: string, i: number, to: number): number {
  if (i >= to || text.charCodeAt(i) !== QUOTE) stop(text, to, i, 'Expected double-quoted property name');
  i = skipSpace(text, scanString(text, i, to), to);
  if (i >= to || text.charCodeAt(i) !== COLON) stop(text, to, i, "Expected ':' after property name");
  return i + 1;
}

/**
 * Where the JSON value starting at `from` (after whitespace) ends in `text[from, to)`: the offset
 * after it, or the syntax error met before its end.
 */
export function jsonValueEnd(text: string, from = 0, to = text.length): number | JsonSyntaxError {
  try {
    return scanValue(text, from, to);
  } catch (err) {
    if (err instanceof Stop) return err.error;
    throw err;
  }
}

/** The first syntax error of a text JSON.parse refused (a value, then only whitespace), or undefined when it has none. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const end = jsonValueEnd(text);
  if (typeof end !== 'number') return end;
  const after = skipSpace(text, end, text.length);
  return after < text.length ? { offset: after, message: AFTER_JSON } : undefined;
}
