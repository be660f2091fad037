/**
 * Parsing of YAML and JSON text into API objects, with the line each object starts at.
 * YAML uses js-yaml's CORE_SCHEMA so timestamps stay strings, as the API returns them.
 */
import yaml from 'js-yaml';
import { InputError } from '../model/errors.js';
import { aliasExpansionProblem, MAX_DEPTH } from './bounds.js';
import { jsonSyntaxError } from './json-scan.js';

export interface ParsedDocument {
  value: unknown;
  /** 1-based line where the document starts. */
  line: number;
  /** For a List, the 1-based line where each of its `items` starts, when the reader knew them (one per item). */
  itemLines?: number[];
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
    throw new InputError(
      `${file}:${line + (e.mark?.line ?? 0)}: invalid YAML: ${firstLine(e.reason ?? e.message ?? String(err))}`,
    );
  }
  // Without an anchor there is no alias, and js-yaml bounds the depth itself (maxDepth 100).
  if (text.includes('&')) {
    const problem = aliasExpansionProblem(value);
    if (problem === 'aliasing')
      throw new InputError(`${file}:${line}: invalid YAML: document contains excessive aliasing`);
    if (problem === 'depth')
      throw new InputError(`${file}:${line}: invalid YAML: aliases nest the document deeper than ${MAX_DEPTH} levels`);
  }
  return value;
}

/** The 1-based line of `offset` in `text`. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** Parses one JSON document (or several concatenated ones, as `kubectl get -o json` of several kinds prints). */
export function parseJson(text: string, file: string): ParsedDocument[] {
  try {
    return [{ value: JSON.parse(text), line: 1 }];
  } catch {
    // Where and why from our own scan, not from the engine's message (json-scan.ts).
    const error = jsonSyntaxError(text) ?? { offset: 0, message: 'not valid JSON' };
    const line = lineOfOffset(text, error.offset);
    // JSON is a subset of YAML: concatenated JSON documents are not, so report the JSON error.
    throw new InputError(`${file}:${line}: invalid JSON: ${error.message}`);
  }
}

/** Whether a source is JSON: by its extension, else (stdin, other names) by the first character of its text. */
export function isJsonSource(file: string, head: string): boolean {
  const trimmed = head.trimStart();
  const looksJson = trimmed.startsWith('{') || trimmed.startsWith('[');
  return file.endsWith('.json') || (!/\.ya?ml$/.test(file) && looksJson);
}
