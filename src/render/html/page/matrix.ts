/**
 * The coverage matrix: nodes (rows, grouped by pool) × DaemonSets (columns), one cell per pair
 * with its verdict's symbol, word and main reason code. A pool is one summary row of counts until
 * it is expanded; an expanded pool draws its nodes a page at a time. The filters (namespace,
 * verdict, pool, text) pick the columns and rows. The grid is one tab stop: arrow keys, Home and
 * End move between cells, Enter or Space (or a click) opens the cell's diagnosis.
 */
import { cellCodes, mainCode } from '../cells.js';
import type { ReportData } from '../data.js';
import { append, h, plural } from './dom.js';
import { EXPAND_UP_TO, PAGE_ROWS } from './limits.js';
import { VERDICT_LOOK, lookOf } from './verdicts.js';

/** The filters' values: '' is "any". */
export interface Filters {
  namespace: string;
  /** A verdict, `problem` (neither Healthy nor Excluded), or ''. */
  verdict: string;
  /** A pool's index, as a string, or ''. */
  pool: string;
  text: string;
}

export interface MatrixView {
  element: HTMLElement;
  apply(filters: Filters): void;
  expandAll(open: boolean): void;
}

/** What the matrix precomputes once: every cell's verdict and main code, the nodes of each pool. */
interface Index {
  verdicts: Uint8Array[];
  codes: string[][];
  podNames: string[][];
  byPool: number[][];
}

function indexOf(data: ReportData): Index {
  const byPool: number[][] = data.pools.map(() => []);
  data.nodes.forEach(([, pool], n) => byPool[pool]!.push(n));
  return {
    verdicts: data.daemonSets.map((ds) => Uint8Array.from(ds.cells, (c) => c[0])),
    codes: data.daemonSets.map((ds) => ds.cells.map((c) => cellCodes(data, c).join(' '))),
    podNames: data.daemonSets.map((ds) => ds.cells.map((c) => (c[2] ? c[2][0] : ''))),
    byPool,
  };
}

function verdictMatches(data: ReportData, filter: string, v: number): boolean {
  if (!filter) return true;
  const word = data.verdicts[v];
  if (filter === 'problem') return word !== 'Healthy' && word !== 'Excluded';
  return word === filter;
}

/** The matrix, drawn under `onOpen(ds, node)` for the cell a person picks. */
export function matrixView(
  data: ReportData,
  onOpen: (ds: number, node: number, from: HTMLElement) => void,
): MatrixView {
  const index = indexOf(data);
  const status = h('p', { class: 'matrix-status', role: 'status', 'aria-live': 'polite' });
  const grid = h('table', {
    class: 'matrix',
    role: 'grid',
    'aria-label': 'Coverage: nodes by pool (rows) × DaemonSets (columns)',
  });
  const scroller = h('div', { class: 'matrix-scroll' }, grid);
  const element = h('div', {}, status, scroller);
  /** A person's choice per pool (expanded or not); pools without one follow the size rule. */
  const choice = new Map<number, boolean>();
  const shownRows = new Map<number, number>();
  let filters: Filters = { namespace: '', verdict: '', pool: '', text: '' };
  let columns: number[] = [];

  const columnsOf = (f: Filters) =>
    data.daemonSets
      .map((ds, i) => ({ ds, i }))
      .filter(({ ds }) => !f.namespace || ds.namespace === f.namespace)
      .map(({ i }) => i);

  const rowMatches = (n: number, f: Filters, text: string): boolean => {
    if (f.verdict && !columns.some((d) => verdictMatches(data, f.verdict, index.verdicts[d]![n]!))) return false;
    if (!text) return true;
    const [name, pool] = data.nodes[n]!;
    if (name.toLowerCase().includes(text) || data.pools[pool]!.toLowerCase().includes(text)) return true;
    return columns.some(
      (d) => index.codes[d]![n]!.toLowerCase().includes(text) || index.podNames[d]![n]!.toLowerCase().includes(text),
    );
  };

  const cell = (d: number, n: number): HTMLTableCellElement => {
    const v = index.verdicts[d]![n]!;
    const verdict = data.verdicts[v] ?? '?';
    const look = lookOf(VERDICT_LOOK, verdict);
    const code = mainCode(cellCodes(data, data.daemonSets[d]!.cells[n]!));
    const dim = filters.verdict && !verdictMatches(data, filters.verdict, v);
    return h(
      'td',
      {
        class: `cell t-${look.tone}${dim ? ' dim' : ''}`,
        role: 'gridcell',
        tabindex: -1,
        'data-d': d,
        'data-n': n,
        'data-verdict': verdict,
        'data-code': code ?? '',
        // The verdict's word for screen readers and on hover: a hidden element per cell would
        // cost the layout of thousands of out-of-flow boxes.
        'aria-label': `${verdict}${code ? `: ${code}` : ''}`,
        title: `${verdict}${code ? `: ${code}` : ''} (Enter: the diagnosis)`,
      },
      h('span', { class: 'sym', 'aria-hidden': 'true' }, look.symbol),
      code ? h('span', { class: 'code' }, code) : null,
    );
  };

  const poolSummary = (d: number, rows: number[]): HTMLTableCellElement => {
    const counts = new Map<number, number>();
    for (const n of rows) {
      const v = index.verdicts[d]![n]!;
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const parts = [...counts.entries()].sort((a, b) => a[0] - b[0]);
    const words = parts.map(([v, c]) => `${c} ${data.verdicts[v]}`).join(', ');
    return h(
      'td',
      { class: 'pool-sum', title: words },
      ...parts.map(([v, c]) => {
        const look = lookOf(VERDICT_LOOK, data.verdicts[v] ?? '?');
        return h(
          'span',
          { class: `count t-${look.tone}` },
          h('span', { class: 'sym', 'aria-hidden': 'true' }, look.symbol),
          h('span', { class: 'sr' }, ` ${data.verdicts[v]}`),
          ` ${c.toLocaleString('en')}`,
        );
      }),
    );
  };

  const draw = () => {
    columns = columnsOf(filters);
    const text = filters.text.trim().toLowerCase();
    const pools = data.pools.map((_, p) => p).filter((p) => !filters.pool || String(p) === filters.pool);
    const rowsOf = new Map(pools.map((p) => [p, index.byPool[p]!.filter((n) => rowMatches(n, filters, text))]));
    const total = [...rowsOf.values()].reduce((s, r) => s + r.length, 0);
    const head = h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col', class: 'corner' }, data.groupBy ? `Node (by ${data.groupBy})` : 'Node'),
        ...columns.map((d) => {
          const ds = data.daemonSets[d]!;
          return h(
            'th',
            { scope: 'col', class: 'ds-col' },
            h('a', { href: `#ds-${d}` }, h('span', { class: 'ns' }, `${ds.namespace}/`), h('wbr'), ds.name),
          );
        }),
      ),
    );
    const bodies = [...rowsOf.entries()]
      .filter(([, rows]) => rows.length > 0)
      .map(([p, rows]) => {
        const open = choice.get(p) ?? total <= EXPAND_UP_TO;
        const label = data.pools[p] || (data.groupBy ? `(no ${data.groupBy})` : 'all nodes');
        const body = h('tbody', { 'data-pool': p });
        append(
          body,
          h(
            'tr',
            { class: 'pool-row' },
            h(
              'th',
              { scope: 'rowgroup', class: 'pool-head' },
              h(
                'button',
                { type: 'button', class: 'pool-toggle', 'aria-expanded': open ? 'true' : 'false', 'data-pool': p },
                h('span', { class: 'sym', 'aria-hidden': 'true' }, open ? '▾' : '▸'),
                ` ${label}`,
              ),
              h('span', { class: 'pool-count' }, ` ${plural(rows.length, 'node')}`),
            ),
            ...columns.map((d) => poolSummary(d, rows)),
          ),
        );
        if (!open) return body;
        const limit = shownRows.get(p) ?? PAGE_ROWS;
        for (const n of rows.slice(0, limit)) {
          append(
            body,
            h(
              'tr',
              { class: 'node-row' },
              h('th', { scope: 'row', class: 'node' }, data.nodes[n]![0]),
              ...columns.map((d) => cell(d, n)),
            ),
          );
        }
        if (rows.length > limit) {
          append(
            body,
            h(
              'tr',
              { class: 'more-row' },
              h(
                'td',
                { colspan: columns.length + 1 },
                h(
                  'button',
                  { type: 'button', class: 'more', 'data-pool': p },
                  `Show ${Math.min(PAGE_ROWS, rows.length - limit).toLocaleString('en')} more (${limit.toLocaleString('en')} of ${rows.length.toLocaleString('en')} shown)`,
                ),
              ),
            ),
          );
        }
        return body;
      });
    grid.replaceChildren(head, ...bodies);
    // The widths of th.corner and th.ds-col (style.ts): a fixed table layout needs the table's own.
    grid.style.width = `${16 + 13 * columns.length}em`;
    const first = grid.querySelector<HTMLElement>('td.cell');
    if (first) first.tabIndex = 0;
    status.textContent = `${plural(total, 'node')} of ${data.nodes.length.toLocaleString('en')} and ${plural(columns.length, 'DaemonSet')} of ${data.daemonSets.length} match the filters.`;
  };

  const focusCell = (from: HTMLElement, to: HTMLElement | null | undefined) => {
    if (!to || !to.classList.contains('cell')) return;
    from.tabIndex = -1;
    to.tabIndex = 0;
    to.focus();
  };

  grid.addEventListener('click', (e) => {
    const target = e.target as HTMLElement;
    const button = target.closest<HTMLButtonElement>('button');
    if (button?.dataset['pool'] !== undefined) {
      const p = Number(button.dataset['pool']);
      if (button.classList.contains('more')) shownRows.set(p, (shownRows.get(p) ?? PAGE_ROWS) + PAGE_ROWS);
      else choice.set(p, button.getAttribute('aria-expanded') !== 'true');
      draw();
      grid.querySelector<HTMLElement>(`tbody[data-pool="${p}"] .pool-toggle`)?.focus();
      return;
    }
    const td = target.closest<HTMLElement>('td.cell');
    if (!td) return;
    grid.querySelectorAll<HTMLElement>('td.cell[tabindex="0"]').forEach((c) => (c.tabIndex = -1));
    td.tabIndex = 0;
    onOpen(Number(td.dataset['d']), Number(td.dataset['n']), td);
  });

  grid.addEventListener('keydown', (e) => {
    const td = (e.target as HTMLElement).closest<HTMLElement>('td.cell');
    if (!td) return;
    const row = td.parentElement as HTMLTableRowElement;
    const cells = [...row.querySelectorAll<HTMLElement>('td.cell')];
    const at = cells.indexOf(td);
    const rowCells = (r: Element | null | undefined) => (r ? [...r.querySelectorAll<HTMLElement>('td.cell')] : []);
    const rows = [...grid.querySelectorAll('tr.node-row')];
    const r = rows.indexOf(row);
    switch (e.key) {
      case 'Enter':
      case ' ':
        e.preventDefault();
        onOpen(Number(td.dataset['d']), Number(td.dataset['n']), td);
        return;
      case 'ArrowRight':
        focusCell(td, cells[at + 1]);
        break;
      case 'ArrowLeft':
        focusCell(td, cells[at - 1]);
        break;
      case 'ArrowDown':
        focusCell(td, rowCells(rows[r + 1])[at]);
        break;
      case 'ArrowUp':
        focusCell(td, rowCells(rows[r - 1])[at]);
        break;
      case 'Home':
        focusCell(td, cells[0]);
        break;
      case 'End':
        focusCell(td, cells[cells.length - 1]);
        break;
      default:
        return;
    }
    e.preventDefault();
  });

  return {
    element,
    apply(f) {
      filters = f;
      draw();
    },
    expandAll(open) {
      data.pools.forEach((_, p) => choice.set(p, open));
      draw();
    },
  };
}
