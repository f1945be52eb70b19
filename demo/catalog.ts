// The live lists: one tab per list atom, a search box once a list gets long, and the items as buttons.
// Each atom is subscribed once; the stores layer refreshes it on change notifications, the page just redraws.
import type { Mcp, ListKind, ListState, ServerState } from '../src/index'
import { h, isRecord } from './dom'
import { renderError } from './render-content'

export type Item = { name: string; title?: string; description?: string; [key: string]: unknown }

const KINDS: { kind: ListKind; label: string; capability: string }[] = [
  { kind: 'tools', label: 'Tools', capability: 'tools' },
  { kind: 'prompts', label: 'Prompts', capability: 'prompts' },
  { kind: 'resources', label: 'Resources', capability: 'resources' },
  { kind: 'resourceTemplates', label: 'Templates', capability: 'resources' },
]
const SEARCH_FROM = 8

/** Display name precedence from the spec: title, then annotations.title, then name. */
export const displayName = (item: Item) =>
  item.title || (isRecord(item.annotations) && typeof item.annotations.title === 'string' ? item.annotations.title : '') || item.name

/** Identity of an item across refreshes (resources by URI, templates by their template). */
export const itemKey = (item: Item) => String(item.uri ?? item.uriTemplate ?? item.name)

export function bindCatalog(
  root: HTMLElement,
  mcp: Mcp,
  server: ServerState,
  onSelect: (kind: ListKind, item: Item) => void,
): () => void {
  const states = new Map<ListKind, ListState<Item>>()
  const offered = KINDS.filter((k) => server.capabilities[k.capability] !== undefined)
  let current: ListKind | undefined = offered[0]?.kind
  let selected = ''

  const tabs = new Map(
    offered.map((k) => [k.kind, h('button', { type: 'button', class: 'tab', 'data-kind': k.kind, onclick: () => show(k.kind) })]),
  )
  const search = h('input', { id: 'catalog-search', type: 'search', placeholder: 'Filter by name or description' })
  const searchField = h('div', { class: 'field search', hidden: true }, h('label', { for: 'catalog-search' }, 'Search'), search)
  const status = h('div', { class: 'list-status', 'aria-live': 'polite' })
  const list = h('ul', { class: 'items', 'data-testid': 'items' })
  search.addEventListener('input', () => render())

  root.replaceChildren(
    h('h2', {}, 'Catalogue'),
    offered.length
      ? h('div', { class: 'tabs', role: 'group', 'aria-label': 'Lists' }, [...tabs.values()])
      : h('p', { class: 'hint' }, 'This server offers no tools, prompts or resources.'),
    searchField,
    status,
    list,
  )

  function show(kind: ListKind) {
    current = kind
    search.value = ''
    render()
  }

  function renderTab(kind: ListKind) {
    const tab = tabs.get(kind)
    const state = states.get(kind)
    const label = KINDS.find((k) => k.kind === kind)?.label ?? kind
    tab?.replaceChildren(label, ' ', h('span', { class: 'count' }, state ? String(state.items.length) : '…'))
    tab?.setAttribute('aria-pressed', String(kind === current))
  }

  function render() {
    for (const kind of tabs.keys()) renderTab(kind)
    const state = current && states.get(current)
    if (!current || !state) return list.replaceChildren()
    searchField.hidden = state.items.length < SEARCH_FROM
    const query = search.value.trim().toLowerCase()
    const items = query
      ? state.items.filter((i) => [i.name, i.title, i.description, i.uri, i.uriTemplate].some((t) => typeof t === 'string' && t.toLowerCase().includes(query)))
      : state.items
    status.replaceChildren(
      state.loading ? h('span', { class: 'hint' }, 'Loading…') : '',
      state.stale && !state.loading ? h('span', { class: 'hint' }, 'Refresh due…') : '',
      state.error ? renderError(state.error) : '',
      state.invalid?.length ? h('p', { class: 'warn' }, `${state.invalid.length} invalid item(s) left out.`) : '',
      !state.loading && !state.error && !items.length ? h('p', { class: 'hint' }, query ? 'Nothing matches.' : 'The list is empty.') : '',
    )
    const kind = current
    const active = document.activeElement
    const focused = active instanceof HTMLElement && list.contains(active) ? active.dataset.name : undefined
    list.replaceChildren(
      ...items.map((item) => {
        const key = itemKey(item)
        const subtitle = kind === 'resources' ? String(item.uri) : kind === 'resourceTemplates' ? String(item.uriTemplate) : item.name
        const button: HTMLButtonElement = h(
            'button',
            {
              type: 'button',
              class: 'item',
              'data-name': key,
              'aria-current': key === selected ? 'true' : undefined,
              onclick: () => {
                selected = key
                for (const b of list.querySelectorAll('button.item')) {
                  if (b === button) b.setAttribute('aria-current', 'true')
                  else b.removeAttribute('aria-current')
                }
                onSelect(kind, item)
              },
            },
            h('span', { class: 'item-title' }, displayName(item)),
            subtitle !== displayName(item) && h('code', { class: 'item-name' }, subtitle),
            item.description && h('span', { class: 'item-desc' }, item.description),
          )
        return h('li', {}, button)
      }),
    )
    // A refresh replaces the buttons; keep keyboard focus on the same item.
    if (focused) list.querySelector<HTMLElement>(`button.item[data-name="${CSS.escape(focused)}"]`)?.focus()
  }

  const unbind = offered.map(({ kind }) => {
    const atom = {
      tools: mcp.$tools,
      prompts: mcp.$prompts,
      resources: mcp.$resources,
      resourceTemplates: mcp.$resourceTemplates,
    }[kind] as Mcp['$tools']
    // This subscription is what makes the stores load the list and keep it fresh.
    return atom.subscribe((state) => {
      states.set(kind, state as ListState<Item>)
      render()
    })
  })
  render()
  return () => unbind.forEach((stop) => stop())
}
