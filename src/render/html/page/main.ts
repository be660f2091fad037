/**
 * The report page's script: reads the embedded document (data.ts) and draws the report with
 * DOM calls only. Bundled by scripts/build-page.mjs into the string render/html/report.ts inlines.
 */
import { unpackCell } from '../cells.js';
import type { ReportData } from '../data.js';
import { append, facts, h } from './dom.js';
import { badge } from './look.js';
import { matrixView, type Filters } from './matrix.js';
import { causesList, causesSection } from './causes.js';
import { daemonSetsSection } from './daemonsets.js';
import { provenanceSection } from './provenance.js';
import { eventsTable, reasonsBlock } from './reasons.js';
import { summarySection } from './summary.js';
import { VERDICT_LOOK } from './verdicts.js';

function readData(): ReportData {
  const el = document.getElementById('report-data');
  const data = JSON.parse(el?.textContent ?? 'null') as ReportData | null;
  if (!data || data.kind !== 'HtmlReport') throw new Error('the report holds no ds-doctor data');
  return data;
}

/**
 * The panel that shows one DaemonSet × node as `why <ds> <node>` does: a non-modal dialog docked
 * at the side, so the matrix stays usable and another cell's click replaces its content. Focus
 * moves into it; Escape (or Close) closes it and gives focus back to the cell.
 */
function detailDialog(data: ReportData): (ds: number, node: number, from: HTMLElement) => void {
  const title = h('h2', { id: 'detail-title' });
  const body = h('div', { class: 'detail-body' });
  const close = h('button', { type: 'button', class: 'close' }, 'Close');
  const dialog = h(
    'dialog',
    { id: 'detail', 'aria-labelledby': 'detail-title' },
    h('div', { class: 'detail-head' }, title, close),
    body,
  );
  let opener: HTMLElement | undefined;
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    opener?.classList.remove('current');
    opener?.focus();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && dialog.open) {
      e.preventDefault();
      dialog.close();
    }
  });
  document.body.appendChild(dialog);
  return (d, n, from) => {
    opener?.classList.remove('current');
    opener = from;
    from.classList.add('current');
    const ds = data.daemonSets[d]!;
    const [node, pool] = data.nodes[n]!;
    const row = unpackCell(data, ds.cells[n]!, node);
    const ref = `${ds.namespace}/${ds.name}`;
    title.replaceChildren(badge(VERDICT_LOOK, row.verdict), ` ${ref} on ${node}`);
    const pod = row.pod;
    body.replaceChildren(
      facts([
        ['Verdict', row.verdict],
        ['Node pool', data.groupBy ? `${data.groupBy}=${data.pools[pool] || '(none)'}` : ''],
        [
          'Pod',
          pod
            ? `${pod.name}: ${pod.phase}, ${pod.ready ? 'Ready' : 'not Ready'}, revision ${pod.revision}${pod.updated ? '' : ' (outdated)'}, ${pod.restarts} restarts${pod.age ? `, age ${pod.age}` : ''}`
            : 'none',
        ],
        ['Same answer', h('code', {}, `ds-doctor why ${ref} ${node}`)],
      ]),
    );
    // As why <ds> <node>: the root cause first.
    if (row.causes?.length) append(body, h('h3', {}, 'Root cause'), causesList(row.causes));
    append(body, h('h3', {}, 'Reasons'), reasonsBlock(row.reasons));
    const events = eventsTable(row.events ?? []);
    if (events) append(body, h('h3', {}, 'Events'), events);
    if (!dialog.open) dialog.show();
    dialog.scrollTop = 0;
    close.focus();
  };
}

function select(label: string, id: string, options: [string, string][]): [HTMLElement, HTMLSelectElement] {
  const el = h('select', { id }, ...options.map(([value, text]) => h('option', { value }, text)));
  return [h('label', { for: id }, label, ' ', el), el];
}

function main(): void {
  const data = readData();
  const app = document.getElementById('app')!;
  document.title = `ds-doctor report: ${data.provenance.scope}, judged at ${data.provenance.judgedAt}`;
  const open = detailDialog(data);
  const matrix = matrixView(data, open);
  const namespaces = [...new Set(data.daemonSets.map((d) => d.namespace))];
  const [nsLabel, ns] = select('Namespace', 'f-namespace', [
    ['', 'all'],
    ...namespaces.map((n): [string, string] => [n, n]),
  ]);
  const [verdictLabel, verdict] = select('Verdict', 'f-verdict', [
    ['', 'any'],
    ['problem', 'a problem (not Healthy or Excluded)'],
    ...data.verdicts.map((v): [string, string] => [v, `${VERDICT_LOOK[v]?.symbol ?? ''} ${v}`]),
  ]);
  const [poolLabel, pool] = select('Pool', 'f-pool', [
    ['', 'all'],
    ...data.pools.map((p, i): [string, string] => [String(i), p || '(none)']),
  ]);
  const text = h('input', {
    id: 'f-text',
    type: 'search',
    placeholder: 'node, pod or reason code',
    autocomplete: 'off',
  });
  const expand = h('button', { type: 'button', id: 'expand-all' }, 'Expand all pools');
  const collapse = h('button', { type: 'button', id: 'collapse-all' }, 'Collapse all pools');
  const apply = () =>
    matrix.apply({ namespace: ns.value, verdict: verdict.value, pool: pool.value, text: text.value } satisfies Filters);
  let timer: number | undefined;
  for (const el of [ns, verdict, pool]) el.addEventListener('change', apply);
  text.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(apply, 150);
  });
  expand.addEventListener('click', () => matrix.expandAll(true));
  collapse.addEventListener('click', () => matrix.expandAll(false));
  const legend = h(
    'p',
    { class: 'legend' },
    'Legend: ',
    ...data.verdicts.flatMap((v) => [badge(VERDICT_LOOK, v), ' ']),
    '— each cell shows the verdict and its main reason code; click it, or press Enter on it, for the full diagnosis.',
  );
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter the matrix' },
    nsLabel,
    verdictLabel,
    poolLabel,
    h('label', { for: 'f-text' }, 'Search ', text),
    expand,
    collapse,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    apply();
  });
  const p = data.provenance;
  app.replaceChildren(
    h(
      'header',
      {},
      h('h1', {}, 'ds-doctor report'),
      h(
        'p',
        { class: 'sub' },
        `${p.scope} · ${p.source === 'files' ? p.inputs.join(', ') : `live: ${p.inputs.join(', ')}`} · judged at ${p.judgedAt} · ds-doctor ${data.generator.version}`,
      ),
      h(
        'nav',
        { 'aria-label': 'Sections' },
        h('a', { href: '#summary' }, 'Summary'),
        h('a', { href: '#causes' }, 'Root causes'),
        h('a', { href: '#coverage' }, 'Coverage'),
        h('a', { href: '#daemonsets' }, 'DaemonSets'),
        h('a', { href: '#provenance' }, 'Provenance'),
      ),
    ),
    h(
      'main',
      {},
      summarySection(data),
      causesSection(data),
      h(
        'section',
        { id: 'coverage', 'aria-labelledby': 'coverage-title' },
        h('h2', { id: 'coverage-title' }, 'Coverage'),
        form,
        legend,
        matrix.element,
      ),
      daemonSetsSection(data),
      provenanceSection(data),
    ),
  );
  apply();
  // A printed report shows every DaemonSet's part; they are closed again afterwards.
  let opened: HTMLDetailsElement[] = [];
  window.addEventListener('beforeprint', () => {
    opened = [...document.querySelectorAll<HTMLDetailsElement>('details.ds:not([open])')];
    for (const d of opened) {
      d.open = true;
      d.dispatchEvent(new Event('toggle'));
    }
  });
  window.addEventListener('afterprint', () => {
    for (const d of opened) d.open = false;
  });
  // A link to a DaemonSet opens its part.
  const openTarget = () => {
    const target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target instanceof HTMLDetailsElement) target.open = true;
  };
  window.addEventListener('hashchange', openTarget);
  openTarget();
  document.documentElement.dataset['ready'] = 'true';
}

try {
  main();
} catch (err) {
  const app = document.getElementById('app');
  if (app)
    app.replaceChildren(
      h(
        'p',
        { class: 'error', role: 'alert' },
        `The report could not be drawn: ${err instanceof Error ? err.message : String(err)}`,
      ),
    );
  throw err;
}
