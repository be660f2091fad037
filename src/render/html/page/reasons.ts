/** Reasons and events as `why <ds> <node>` prints them: a cell's panel and a DaemonSet's parts draw them alike. */
import type { EventSummary, ImpactFinding, Reason, RolloutReason } from '../../../model/results.js';
import { h, list, table, type Child } from './dom.js';
import { badge } from './look.js';
import { SEVERITY_LOOK } from './verdicts.js';

/** One reason (a node's, the rollout's, or an impact finding) with its evidence and fix. */
export function reasonBlock(r: Reason | RolloutReason | ImpactFinding, extra: Child = null): HTMLElement {
  return h(
    'div',
    { class: 'reason' },
    h(
      'p',
      { class: 'reason-head' },
      badge(SEVERITY_LOOK, r.severity),
      ' ',
      h('code', { class: 'reason-code' }, r.code),
      ' ',
      h('span', { class: 'reason-message' }, r.message),
    ),
    r.evidence.length
      ? h('div', { class: 'evidence' }, h('span', { class: 'label' }, 'Evidence'), list(r.evidence))
      : null,
    'fix' in r ? h('p', { class: 'fix' }, h('span', { class: 'label' }, 'Fix '), r.fix) : null,
    extra,
  );
}

/** A node's reasons, as `why <ds> <node>` prints them. */
export function reasonsBlock(reasons: Reason[]): HTMLElement {
  return reasons.length
    ? h('div', { class: 'reasons' }, ...reasons.map((r) => reasonBlock(r)))
    : h('p', {}, 'No reason to report.');
}

export function eventsTable(events: EventSummary[]): HTMLElement | null {
  if (!events.length) return null;
  return table(
    ['Type', 'Reason', 'Object', 'Count', 'Last seen', 'Message'],
    events.map((e) => [e.type, e.reason, e.object, String(e.count), e.lastSeen ?? '', e.message]),
    { class: 'grid-table' },
  );
}
