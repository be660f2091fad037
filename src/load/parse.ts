/**
 * Parsing of YAML and JSON text into API objects, with the line each object starts at.
 * YAML uses js-yaml's CORE_SCHEMA so timestamps stay strings, as the API returns them.
 */
import yaml from 'js-yaml';
import { InputError } from '../model/errors.js';
import { aliasExpansionProblem, MAX_DEPTH } from './bounds.js';

export interface ParsedDocument {
  value: unknown;
  /** 1-based line where the document starts. */
  line: number;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}

/**
 * Parses one YAML document whose text starts at `line`; errors name the file and the line. A
 * document with anchors is refused when its aliases expand it too far or too deep (bounds.ts).
 */
export function loadYamlDocument(text: string, file: string, line: number): unknown {
  let value: unknown;
  try {
    value = yaml.load(text, { schema: yaml.CORE_SCHEMA, filename: file });
  } catch (err) {
    const e = err as { mark?: { line?: number }; reason?: string; message?: string };
    throw new InputError(`${file}:${line + (e.mark?.line ?? 0)}: invalid YAML: ${firstLine(e.reason ?? e.message ?? String(err))}`);
  }
  // Without an anchor there is no alias, and js-yaml bounds the depth itself (maxDepth 100).
  if (text.includes('&')) {
    const problem = aliasExpansionProblem(value);
    if (problem === 'aliasing') throw new InputError(`${file}:${line}: invalid YAML: document contains excessive aliasing`);
    if (problem === 'depth') throw new InputError(`${file}:${line}: invalid YAML: aliases nest the document deeper than ${MAX_DEPTH} levels`);
  }
  return value;
}

/**
 * The offset of the first JSON syntax error, found by a small recursive-descent scan (used only
 * after JSON.parse failed, since some engines' messages carry no position).
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    // The scan unwinds with the offset itself; jsonErrorOffset's own catch below receives it.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw i;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail();
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    return number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return -1;
  } catch (at) {
    return typeof at === 'number' ? at : 0;
  }
}

function jsonErrorLine(text: string): number {
  const at = jsonErrorOffset(text);
  return at < 0 ? 1 : text.slice(0, at).split('\n').length;
}

/** Parses one JSON document (or several concatenated ones, as `kubectl get -o json` of several kinds prints). */
export function parseJson(text: string, file: string): ParsedDocument[] {
  try {
    return [{ value: JSON.parse(text), line: 1 }];
  } catch (err) {
    const message = (err as Error).message;
    const pos = /position (\d+)/.exec(message);
    const line = pos ? text.slice(0, Number(pos[1])).split('\n').length : jsonErrorLine(text);
    // JSON is a subset of YAML: concatenated JSON documents are not, so report the JSON error.
    throw new InputError(`${file}:${line}: invalid JSON: ${firstLine(message.replace(/ in JSON at position \d+.*$/, ''))}`);
  }
}

/** Whether a source is JSON: by its extension, else (stdin, other names) by the first character of its text. */
export function isJsonSource(file: string, head: string): boolean {
  const trimmed = head.trimStart();
  const looksJson = trimmed.startsWith('{') || trimmed.startsWith('[');
  return file.endsWith('.json') || (!/\.ya?ml$/.test(file) && looksJson);
}
