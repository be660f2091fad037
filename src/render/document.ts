/** Machine-readable output: JSON and YAML of a result document (same content). */
import yaml from 'js-yaml';

export function renderJson(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function renderYaml(doc: unknown): string {
  return yaml.dump(doc, { noRefs: true, lineWidth: -1, sortKeys: false });
}
