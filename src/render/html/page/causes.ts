/**
 * Root causes on the page: the section across DaemonSets (the cause engine's causes, else the
 * scan's problems by code and the coverage gaps), and the list a cell's panel and a DaemonSet's
 * part show.
 */
import type { RootCause } from '../../../model/results.js';
import type { ReportData } from '../data.js';
import { append, facts, h, list, plural, refText, table } from './dom.js';
import { LONG } from './limits.js';
import { badge } from './look.js';
import { SEVERITY_LOOK } from './verdicts.js';

function causeItem(c: RootCause): HTMLElement {
  const nodes = c.nodes.slice(0, LONG);
  return h(
    'li',
    { class: 'cause' },
    h('h3', {}, badge(SEVERITY_LOOK, c.severity), ' ', h('code', {}, c.code), ` ${c.summary}`),
    facts([
      ['Cause', `${c.cause.kind} ${refText(c.cause)}`],
      ['Affects', c.affects.map(refText).join(', ')],
      [
        'Nodes',
        c.nodes.length
          ? `${plural(c.nodes.length, 'node')}: ${nodes.join(', ')}${c.nodes.length > nodes.length ? ', …' : ''}`
          : '',
      ],
      ['Chain', c.chain.length ? h('ol', { class: 'chain' }, ...c.chain.map((s) => h('li', {}, s))) : ''],
      ['Evidence', list(c.evidence)],
      ['Fix', h('span', { class: 'fix' }, c.fix)],
      ['Reference', c.reference ?? ''],
    ]),
  );
}

/** Root causes as a list, most important first (the panel of a cell, a DaemonSet's part). */
export function causesList(causes: readonly RootCause[]): HTMLElement | null {
  return causes.length ? h('ol', { class: 'causes' }, ...causes.map(causeItem)) : null;
}

/** Root causes across DaemonSets: the cause engine's when the scan has them, else the scan's problems grouped by code. */
export function causesSection(data: ReportData): HTMLElement {
  const section = h(
    'section',
    { id: 'causes', 'aria-labelledby': 'causes-title' },
    h('h2', { id: 'causes-title' }, 'Root causes'),
  );
  const causes = data.scan.causes;
  if (causes?.length) {
    append(section, h('ol', { class: 'causes' }, ...causes.map(causeItem)));
    return section;
  }
  const byCode = new Map<string, { ds: string; index: number; count: number }[]>();
  data.scan.daemonSets.forEach((e, index) => {
    for (const [code, count] of Object.entries(e.problemCounts)) {
      const l = byCode.get(code) ?? [];
      l.push({ ds: refText(e), index, count });
      byCode.set(code, l);
    }
  });
  const groups = [...byCode.entries()].sort(
    (a, b) => b[1].reduce((s, x) => s + x.count, 0) - a[1].reduce((s, x) => s + x.count, 0) || a[0].localeCompare(b[0]),
  );
  const gaps = data.scan.daemonSets.flatMap((e, index) =>
    e.coverageGaps.map((g) => ({ ds: refText(e), index, gap: g })),
  );
  if (!groups.length && !gaps.length) {
    append(section, h('p', {}, 'No problem found on any node of any DaemonSet in scope.'));
    return section;
  }
  append(
    section,
    h(
      'p',
      { class: 'hint' },
      'Problems by reason code across DaemonSets, with the nodes or pods each was seen on (the scan’s problems).',
    ),
  );
  append(
    section,
    table(
      ['Code', 'Nodes or pods', 'DaemonSets'],
      groups.map(([code, where]) => [
        h('code', {}, code),
        String(where.reduce((s, x) => s + x.count, 0)),
        h(
          'span',
          {},
          ...where.flatMap((w, i) => [i ? ', ' : '', h('a', { href: `#ds-${w.index}` }, w.ds), ` (${w.count})`]),
        ),
      ]),
      { class: 'grid-table' },
    ),
  );
  if (gaps.length) {
    append(
      section,
      h('h3', {}, 'Coverage gaps'),
      h(
        'ul',
        {},
        ...gaps.map((g) =>
          h(
            'li',
            {},
            h('a', { href: `#ds-${g.index}` }, g.ds),
            `: ${g.gap.message} (${g.gap.nodes.slice(0, 10).join(', ')}${g.gap.nodes.length > 10 ? ', …' : ''})`,
          ),
        ),
      ),
    );
  }
  return section;
}
