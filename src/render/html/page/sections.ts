/** The report's sections around the matrix: summary, root causes, one part per DaemonSet, provenance. */
import type {
  EventSummary,
  LintFinding,
  Reason,
  RolloutReason,
  ImpactFinding,
  RootCause,
} from '../../../model/results.js';
import { cellVerdict } from '../cells.js';
import type { ReportData, ReportDaemonSet } from '../data.js';
import { append, facts, h, list, plural, table, type Child } from './dom.js';
import { badge } from './look.js';
import { HEALTH_LOOK, RISK_LOOK, ROLLOUT_LOOK, SEVERITY_LOOK, VERDICT_LOOK } from './verdicts.js';

/** Rows of a long table drawn before "N more" (blockers, budget, nodes of a cause). */
const LONG = 50;

function more(total: number, shown: number, what: string): Child {
  return total > shown
    ? h(
        'p',
        { class: 'more-note' },
        `… and ${plural(total - shown, what)} more (see the JSON: ds-doctor ${what === 'node' ? 'why' : 'rollout'} … -o json)`,
      )
    : null;
}

/** `namespace/name`. */
export function refText(r: { namespace?: string; name: string }): string {
  return r.namespace ? `${r.namespace}/${r.name}` : r.name;
}

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

function reasonBlock(r: Reason | RolloutReason | ImpactFinding, extra: Child = null): HTMLElement {
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

function rolloutPart(ds: ReportDaemonSet): HTMLElement {
  const r = ds.rollout;
  return h(
    'section',
    { class: 'part' },
    h('h4', {}, 'Rollout ', badge(ROLLOUT_LOOK, r.verdict)),
    facts([
      ['Strategy', r.strategy],
      ['Status', r.kubectlStatus],
      ['Pods', `${r.desired} desired, ${r.updated} updated, ${r.available} available, ${r.unavailable} unavailable`],
      ['Budget', `maxUnavailable ${r.maxUnavailable}, maxSurge ${r.maxSurge}; ${r.budgetUsed} in use`],
      ['Estimate', r.estimate ?? ''],
    ]),
    r.reasons.length ? h('div', { class: 'reasons' }, ...r.reasons.map((x) => reasonBlock(x))) : null,
    r.blockers.length
      ? h(
          'div',
          {},
          h('h5', {}, `Blockers (${r.blockers.length})`),
          table(
            ['Node', 'Pod', 'Code', 'Message'],
            r.blockers.slice(0, LONG).map((b) => [b.node, b.pod, h('code', {}, b.code), b.message]),
            { class: 'grid-table' },
          ),
          more(r.blockers.length, LONG, 'blocker'),
        )
      : null,
    r.budgetInUse.length
      ? h(
          'div',
          {},
          h('h5', {}, `Budget in use (${r.budgetInUse.length})`),
          table(
            ['Node', 'Pod', 'State', 'Code', 'Resolves on its own'],
            r.budgetInUse
              .slice(0, LONG)
              .map((b) => [b.node, b.pod, b.state, h('code', {}, b.code), b.resolvesOnItsOwn ? 'yes' : 'no']),
            { class: 'grid-table' },
          ),
          more(r.budgetInUse.length, LONG, 'node'),
        )
      : null,
    r.revisions.length
      ? h(
          'div',
          {},
          h('h5', {}, 'Revisions'),
          table(
            ['Revision', 'Name', 'Hash', 'Age', 'Current', 'Images', 'Change cause'],
            r.revisions.map((v) => [
              String(v.revision),
              v.name,
              v.hash,
              v.age ?? '',
              v.current ? 'current' : '',
              v.images.join(', '),
              v.changeCause ?? '',
            ]),
            { class: 'grid-table' },
          ),
        )
      : null,
    r.templateDiff.length
      ? h(
          'div',
          {},
          h('h5', {}, 'Template diff (previous → current revision)'),
          h('pre', { class: 'diff' }, r.templateDiff.join('\n')),
        )
      : null,
    r.nextSteps.length ? h('div', {}, h('h5', {}, 'Next steps'), list(r.nextSteps)) : null,
    r.notes?.length ? h('div', { class: 'notes' }, h('h5', {}, 'Notes'), list(r.notes)) : null,
  );
}

function impactPart(ds: ReportDaemonSet): HTMLElement {
  const i = ds.impact;
  return h(
    'section',
    { class: 'part' },
    h('h4', {}, `If deleted (--cascade=${i.cascade}) `, badge(RISK_LOOK, i.risk, `${i.risk} risk`)),
    facts([
      [
        'Pods, nodes',
        `${i.pods} pods on ${i.nodes} nodes${i.revisions !== undefined ? `; ${i.revisions} revisions` : ''}`,
      ],
      ['Roles', i.roles.join(', ')],
      ['Role evidence', list((i.roleEvidence ?? []).map((r) => `${r.role}: ${r.evidence.join('; ')}`))],
      ['Why this risk', list((i.riskReasons ?? []).map((r) => `${r.risk}: ${r.reason}`))],
    ]),
    i.findings.length ? h('div', { class: 'reasons' }, ...i.findings.map((f) => reasonBlock(f))) : null,
    i.plans?.length
      ? h(
          'div',
          {},
          h('h5', {}, 'Safer alternatives'),
          h(
            'ol',
            {},
            ...i.plans.map((p) =>
              h('li', {}, p.summary, p.commands.length ? h('pre', {}, p.commands.join('\n')) : null, list(p.caveats)),
            ),
          ),
        )
      : i.alternatives.length
        ? h('div', {}, h('h5', {}, 'Safer alternatives'), list(i.alternatives))
        : null,
    i.notChecked.length ? h('div', { class: 'notes' }, h('h5', {}, 'Not checked'), list(i.notChecked)) : null,
  );
}

function lintPart(findings: LintFinding[], suppressed: ReportData['lint']['suppressed']): HTMLElement {
  return h(
    'section',
    { class: 'part' },
    h('h4', {}, `Lint (${plural(findings.length, 'finding')})`),
    findings.length
      ? h(
          'div',
          { class: 'reasons' },
          ...findings.map((f) =>
            h(
              'div',
              { class: 'reason' },
              h(
                'p',
                { class: 'reason-head' },
                badge(SEVERITY_LOOK, f.severity),
                ' ',
                h('code', {}, f.rule),
                ' ',
                f.message,
              ),
              facts([
                ['Path', h('code', {}, f.path)],
                ['Location', f.location ? `${f.location.file}:${f.location.line}` : ''],
              ]),
              h('p', { class: 'fix' }, h('span', { class: 'label' }, 'Fix '), f.fix),
            ),
          ),
        )
      : h('p', {}, 'No finding.'),
    suppressed.length
      ? h(
          'p',
          { class: 'hint' },
          `Suppressed by annotation: ${suppressed.flatMap((s) => s.rules.map((r) => `${r}${s.reasons?.[r] ? ` (${s.reasons[r]})` : ''}`)).join(', ')}`,
        )
      : null,
  );
}

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

/** Where the answers come from and what wrote them. */
export function provenanceSection(data: ReportData): HTMLElement {
  const p = data.provenance;
  const from = {
    flag: 'given with --now',
    input: 'the newest timestamp in the input',
    clock: 'the clock when the report was written',
  }[p.judgedAtFrom];
  const notes = [...new Set([...p.warnings, ...data.scan.notes, ...(data.lint.notes ?? [])])];
  return h(
    'section',
    { id: 'provenance', 'aria-labelledby': 'provenance-title' },
    h('h2', { id: 'provenance-title' }, 'Provenance'),
    facts([
      ['Input', p.source === 'files' ? `files: ${p.inputs.join(', ')}` : `live cluster: ${p.inputs.join(', ')}`],
      ['Judged at', `${p.judgedAt} (${from})`],
      ['Scope', p.scope],
      ['Command', h('code', {}, p.command)],
      ['Missing kinds', list(p.missing)],
      ['Lint rules not checked', list(data.lint.notChecked.map((n) => `${n.rule}: ${n.why}`))],
      ['Notes and warnings', list(notes)],
      ['Written by', `ds-doctor ${data.generator.version} (commit ${data.generator.commit})`],
    ]),
  );
}
