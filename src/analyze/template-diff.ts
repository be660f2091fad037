/**
 * What changed between two pod templates, in words a reviewer reads: images, env, resources,
 * tolerations, selectors, affinity — any field, with containers matched by name.
 */
import type { PodTemplateSpec } from '../model/k8s-types.js';

type Flat = Map<string, string>;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Flattens a value into path → JSON text; lists of named objects are keyed by name. */
function flatten(value: unknown, path: string, out: Flat): void {
  if (Array.isArray(value)) {
    const named = value.every((x) => isObject(x) && typeof x['name'] === 'string');
    if (named && value.length) {
      for (const x of value as Record<string, unknown>[]) flatten(x, `${path}[${x['name'] as string}]`, out);
    } else {
      out.set(path, JSON.stringify(value));
    }
    return;
  }
  if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$patch') continue;
      flatten(v, path ? `${path}.${k}` : k, out);
    }
    return;
  }
  if (value !== undefined) out.set(path, typeof value === 'string' ? value : JSON.stringify(value));
}

/** Lines like `spec.containers[fluent-bit].image: fluent/fluent-bit:3.0 → fluent/fluent-bit:3.1`. */
export function diffTemplates(
  before: PodTemplateSpec | undefined,
  after: PodTemplateSpec | undefined,
  limit = 25,
): string[] {
  const a: Flat = new Map();
  const b: Flat = new Map();
  flatten(before ?? {}, '', a);
  flatten(after ?? {}, '', b);
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  const lines: string[] = [];
  for (const k of keys) {
    const x = a.get(k);
    const y = b.get(k);
    if (x === y) continue;
    if (x === undefined) lines.push(`${k}: added ${y}`);
    else if (y === undefined) lines.push(`${k}: removed (was ${x})`);
    else lines.push(`${k}: ${x} → ${y}`);
  }
  return lines.length > limit ? [...lines.slice(0, limit), `… ${lines.length - limit} more change(s)`] : lines;
}

/** The images of a template, init containers first. */
export function templateImages(t: PodTemplateSpec | undefined): string[] {
  return [...(t?.spec?.initContainers ?? []), ...(t?.spec?.containers ?? [])].map((c) => c.image ?? '').filter(Boolean);
}
