/** The DaemonSets section: one collapsible part per DaemonSet, its body drawn when first opened. */
import type { ReportData } from '../data.js';
import { append, h, list, table } from './dom.js';
import { causesList } from './causes.js';
import { badge } from './look.js';
import { impactPart, lintPart, rolloutPart } from './parts.js';
import { HEALTH_LOOK } from './verdicts.js';

/** Everything about one DaemonSet; drawn when its part is first opened. */
export function daemonSetBody(data: ReportData, i: number): HTMLElement {
  const ds = data.daemonSets[i]!;
  const e = data.scan.daemonSets[i];
  const mine = <T extends { daemonSet: { namespace: string; name: string } }>(x: T) =>
    x.daemonSet.namespace === ds.namespace && x.daemonSet.name === ds.name;
  const counts = e
    ? table(
        ['', 'Desired', 'Current', 'Ready', 'Updated', 'Available', 'Misscheduled'],
        [
          [
            'reported (.status)',
            String(e.desired),
            String(e.current),
            String(e.ready),
            String(e.updated),
            String(e.available),
            String(e.misscheduled),
          ],
          [
            'recomputed',
            String(e.recomputed.desired),
            String(e.recomputed.current),
            String(e.recomputed.ready),
            String(e.recomputed.updated),
            String(e.recomputed.available),
            String(e.recomputed.misscheduled),
          ],
        ],
        { class: 'grid-table' },
      )
    : null;
  return h(
    'div',
    { class: 'ds-body' },
    h('p', {}, ds.headline),
    ds.causes.length ? h('div', {}, h('h4', {}, 'Root causes'), causesList(ds.causes)) : null,
    counts,
    e?.statusMismatch.length ? list(e.statusMismatch, { class: 'notes' }) : null,
    e?.problems.length
      ? h(
          'p',
          {},
          'Problems: ',
          ...e.problems.flatMap((p, j) => [j ? ', ' : '', h('code', {}, p), ` (${e.problemCounts[p] ?? 0})`]),
        )
      : null,
    e?.coverageGaps.length
      ? h(
          'div',
          {},
          h('h4', {}, 'Coverage gaps'),
          list(e.coverageGaps.map((g) => `${g.message}: ${g.nodes.join(', ')}`)),
        )
      : null,
    rolloutPart(ds),
    lintPart(data.lint.findings.filter(mine), data.lint.suppressed.filter(mine)),
    impactPart(ds),
    ds.notes.length ? h('div', { class: 'notes' }, h('h4', {}, 'Notes'), list(ds.notes)) : null,
  );
}

/** One collapsible part per DaemonSet, its body drawn on first opening (and all before printing). */
export function daemonSetsSection(data: ReportData): HTMLElement {
  const section = h(
    'section',
    { id: 'daemonsets', 'aria-labelledby': 'daemonsets-title' },
    h('h2', { id: 'daemonsets-title' }, 'DaemonSets'),
  );
  data.daemonSets.forEach((ds, i) => {
    const e = data.scan.daemonSets[i];
    const details = h(
      'details',
      { id: `ds-${i}`, class: 'ds' },
      h(
        'summary',
        {},
        e ? badge(HEALTH_LOOK, e.health) : '',
        ' ',
        h('strong', {}, `${ds.namespace}/${ds.name}`),
        ` — ${ds.headline}`,
      ),
    );
    details.addEventListener('toggle', () => {
      if (details.open && details.childElementCount === 1) append(details, daemonSetBody(data, i));
    });
    append(section, details);
  });
  return section;
}
