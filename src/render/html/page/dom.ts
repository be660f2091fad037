/**
 * The page's one way of making elements: text goes in as text nodes and attributes through
 * setAttribute, so no string from the report is ever parsed as HTML.
 */

export type Child = Node | string | number | null | undefined | false;

/** Attributes the page sets: names are ours, values may come from the report (set as text). */
export type Attrs = Record<string, string | number | boolean | undefined>;

/** `<tag attrs>children</tag>`; a `false`/`undefined` attribute is left out, `true` is present and empty. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, ...children);
  return el;
}

/** Appends children, strings as text nodes. */
export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** A list of strings (`ul`), or nothing when empty. */
export function list(items: readonly string[], attrs: Attrs = {}): HTMLUListElement | null {
  if (!items.length) return null;
  return h('ul', attrs, ...items.map((i) => h('li', {}, i)));
}

/** A table with a header row and text cells. */
export function table(head: readonly string[], rows: readonly Child[][], attrs: Attrs = {}): HTMLTableElement {
  return h(
    'table',
    attrs,
    h('thead', {}, h('tr', {}, ...head.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c))))),
  );
}

/** A `dl` of label → value pairs, skipping empty values. */
export function facts(pairs: readonly [string, Child][]): HTMLDListElement {
  const dl = h('dl', { class: 'facts' });
  for (const [k, v] of pairs) {
    if (v === null || v === undefined || v === false || v === '') continue;
    append(dl, h('dt', {}, k), h('dd', {}, v));
  }
  return dl;
}

/** `n thing(s)` with the plural the count needs. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

/** `namespace/name`. */
export function refText(r: { namespace?: string; name: string }): string {
  return r.namespace ? `${r.namespace}/${r.name}` : r.name;
}
