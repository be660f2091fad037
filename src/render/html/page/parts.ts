/** The parts of one DaemonSet's body: its rollout, its lint findings, and what deleting it does. */
import type { LintFinding } from '../../../model/results.js';
import type { ReportData, ReportDaemonSet } from '../data.js';
import { facts, h, list, plural, table, type Child } from './dom.js';
import { LONG } from './limits.js';
import { badge } from './look.js';
import { reasonBlock } from './reasons.js';
import { RISK_LOOK, ROLLOUT_LOOK, SEVERITY_LOOK } from './verdicts.js';

function more(total: number, shown: number, what: string): Child {
  return total > shown
    ? h(
        'p',
        { class: 'more-note' },
        `… and ${plural(total - shown, what)} more (see the JSON: ds-doctor ${what === 'node' ? 'why' : 'rollout'} … -o json)`,
      )
    : null;
}

export function rolloutPart(ds: ReportDaemonSet): HTMLElement {
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

export function impactPart(ds: ReportDaemonSet): HTMLElement {
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

export function lintPart(findings: LintFinding[], suppressed: ReportData['lint']['suppressed']): HTMLElement {
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
