/** A LabelSelector as the `labelSelector` query parameter of a list request. */
import type { LabelSelector } from '../model/k8s-types.js';

/** `app=x,tier in (a,b),k,!gone`; undefined for an empty selector (the controller refuses it). */
export function formatSelectorForQuery(selector: LabelSelector | undefined): string | undefined {
  if (!selector) return undefined;
  const parts = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const r of selector.matchExpressions ?? []) {
    const values = (r.values ?? []).join(',');
    if (r.operator === 'In') parts.push(`${r.key} in (${values})`);
    else if (r.operator === 'NotIn') parts.push(`${r.key} notin (${values})`);
    else if (r.operator === 'Exists') parts.push(r.key);
    else if (r.operator === 'DoesNotExist') parts.push(`!${r.key}`);
  }
  return parts.length ? parts.join(',') : undefined;
}
