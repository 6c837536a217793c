/** Building the page from data without innerHTML: every text goes in as a text node. */

type Child = Node | string | number | bigint | null | undefined | false | Child[]
type Attrs = Record<string, string | number | boolean | undefined | ((ev: Event) => void)>

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v)
    else if (v === true) el.setAttribute(k, '')
    else el.setAttribute(k, String(v))
  }
  append(el, children)
  return el
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue
    if (Array.isArray(c)) append(el, c)
    else el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)))
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg'

export function svg(tag: string, attrs: Record<string, string | number> = {}, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v))
  for (const c of children) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c)
  return el
}

/** A link inside the explorer (hash route). */
export function link(route: string, text: Child, title?: string): HTMLAnchorElement {
  return h('a', { href: '#' + route, title }, text)
}

/** A value in monospace that may be long (hashes, addresses, hex). */
export const mono = (text: Child, cls = ''): HTMLElement => h('span', { class: `mono ${cls}`.trim() }, text)

/** A description list of label/value rows (the detail pages' fields). */
export function fields(rows: readonly (readonly [string, Child] | null | false)[]): HTMLDListElement {
  return h(
    'dl',
    { class: 'fields' },
    rows.filter((r): r is readonly [string, Child] => r !== null && r !== false).map(([label, value]) => h('div', {}, h('dt', {}, label), h('dd', {}, value))),
  )
}

/** A table with a caption and column headers; an empty body shows `empty` in one row. */
export function table(caption: string, headers: readonly string[], rows: readonly Child[][], empty = 'None.'): HTMLElement {
  const body =
    rows.length === 0
      ? [h('tr', {}, h('td', { colspan: headers.length, class: 'empty' }, empty))]
      : rows.map((cells) =>
          h(
            'tr',
            {},
            cells.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, c) : h('td', {}, c))),
          ),
        )
  return h(
    'div',
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': caption },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h('tbody', {}, body),
    ),
  )
}

/** A section with its heading (h2) and content. */
export function section(title: string, ...children: Child[]): HTMLElement {
  const id = 's-' + title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), ...children)
}

/** A message in place of content: loading, an error, nothing found. */
export const note = (text: Child, cls = 'note'): HTMLElement => h('p', { class: cls }, text)
