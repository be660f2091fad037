/**
 * The evidence lines the pod-health judgements share (pod-health.ts, pod-creating.ts, and the
 * NodePressure cause): kubelet events as kubectl describe lists them, and a node pressure
 * condition that holds.
 */
import type { KubeEvent, NodeCondition } from '../model/k8s-types.js';
import type { Reason } from '../model/results.js';
import { parseRfc3339 } from '../model/duration.js';

/** A Reason before its short text is filled in from the registry. */
export type RawReason = Omit<Reason, 'short'> & { short?: string };

/** A node pressure condition that holds, as evidence: `DiskPressure=True (reason): message since time`. */
export function pressureConditionText(c: NodeCondition): string {
  return `${c.type}=True${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}${c.lastTransitionTime ? ` since ${c.lastTransitionTime}` : ''}`;
}

export function eventLine(e: KubeEvent): string {
  const n = e.count && e.count > 1 ? ` (x${e.count})` : '';
  return `event ${e.reason}: ${(e.message ?? '').trim()}${n}`;
}

export function latest(events: KubeEvent[], reasons: string[]): KubeEvent[] {
  return events
    .filter((e) => reasons.includes(e.reason ?? ''))
    .sort((a, b) => parseRfc3339(b.lastTimestamp ?? '') - parseRfc3339(a.lastTimestamp ?? ''))
    .slice(0, 2);
}
