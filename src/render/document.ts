/** Machine-readable output: JSON and YAML of a result document (same content). */
import yaml from 'js-yaml';
import { escapeJsonText, yamlNeedsEscaping } from './sanitize.js';

/** JSON text of a document; bidi and C1 controls in strings are `\uXXXX` escapes. */
export function renderJson(doc: unknown): string {
  return `${escapeJsonText(JSON.stringify(doc, null, 2))}\n`;
}

/**
 * YAML of a document. js-yaml writes bidi controls (U+202A–U+202E, U+2066–U+2069) raw, and
 * YAML can escape them only inside double-quoted scalars; a document holding one is written in
 * YAML's JSON-compatible flow style instead (valid YAML 1.2, the same data), where they are escaped.
 */
export function renderYaml(doc: unknown): string {
  const text = yaml.dump(doc, { noRefs: true, lineWidth: -1, sortKeys: false });
  return yamlNeedsEscaping(text) ? renderJson(doc) : text;
}
