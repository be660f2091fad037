/** The report's first section: DaemonSets by health, nodes and pools, cells by verdict, one row per DaemonSet. */
import { cellVerdict } from '../cells.js';
import type { ReportData } from '../data.js';
import { h, list, plural, refText, table } from './dom.js';
import { badge } from './look.js';
import { HEALTH_LOOK, RISK_LOOK, ROLLOUT_LOOK, VERDICT_LOOK } from './verdicts.js';

/** The headline numbers: DaemonSets by health, nodes and pools, cells by verdict. */
export function summarySection(data: ReportData): HTMLElement {
  const byHealth = new Map<string, number>();
  for (const d of data.scan.daemonSets) byHealth.set(d.health, (byHealth.get(d.health) ?? 0) + 1);
  const byVerdict = new Map<string, number>();
  for (const ds of data.daemonSets)
    for (const c of ds.cells) byVerdict.set(cellVerdict(data, c), (byVerdict.get(cellVerdict(data, c)) ?? 0) + 1);
  const healthOrder = ['Failing', 'Stuck', 'Degraded', 'RollingOut', 'Healthy'];
  const rows = data.scan.daemonSets.map((e, i) => {
    const ds = data.daemonSets[i];
    return [
      h('a', { href: `#ds-${i}` }, refText(e)),
      badge(HEALTH_LOOK, e.health),
      `${e.ready}/${e.desired}`,
      String(e.updated),
      String(e.available),
      ds ? badge(ROLLOUT_LOOK, ds.rollout.verdict) : '',
      ds ? badge(RISK_LOOK, ds.impact.risk) : '',
      String(
        data.lint.findings.filter((f) => f.daemonSet.namespace === e.namespace && f.daemonSet.name === e.name).length,
      ),
      e.topProblem || '—',
    ];
  });
  return h(
    'section',
    { id: 'summary', 'aria-labelledby': 'summary-title' },
    h('h2', { id: 'summary-title' }, 'Summary'),
    h(
      'p',
      { class: 'totals' },
      `${plural(data.daemonSets.length, 'DaemonSet')}: `,
      ...healthOrder
        .filter((k) => byHealth.has(k))
        .flatMap((k) => [badge(HEALTH_LOOK, k, `${byHealth.get(k)} ${k}`), ' ']),
    ),
    h(
      'p',
      { class: 'totals' },
      `${plural(data.nodes.length, 'node')} in ${plural(data.pools.length, 'pool')}${data.groupBy ? ` (by ${data.groupBy})` : ''}; ${plural(data.nodes.length * data.daemonSets.length, 'DaemonSet × node pair')}: `,
      ...data.verdicts
        .filter((v) => byVerdict.has(v))
        .flatMap((v) => [badge(VERDICT_LOOK, v, `${byVerdict.get(v)!.toLocaleString('en')} ${v}`), ' ']),
    ),
    table(
      ['DaemonSet', 'Health', 'Ready', 'Updated', 'Available', 'Rollout', 'Delete risk', 'Lint', 'Top problem'],
      rows,
      { class: 'grid-table' },
    ),
    data.scan.notes.length ? h('div', { class: 'notes' }, h('h3', {}, 'Notes'), list(data.scan.notes)) : null,
  );
}
