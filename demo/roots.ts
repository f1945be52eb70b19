// The roots the page offers servers: a list the user edits (kept across visits in this browser), handed out
// whole when a server asks `roots/list`. Keeping a root on the list is the user's consent to share it.
//
// On 2026-07-28 a server asks for roots inside the call that needs them (an input_required round), so a change
// needs no announcement: the next ask gets the new list. Older servers are offered roots (with listChanged) only
// when the user turned on "answer input requests from older servers" (the library's legacyRoots opt-in); they
// then hear `notifications/roots/list_changed` after each edit.
import { h, uid } from './dom'

export interface Root {
  uri: string
  name?: string
}

const KEY = 'nanomcp-demo:roots'

/** Thrown for a root the user typed that cannot be offered; its message says what to fix. */
export class RootError extends Error {}

/** A root from what the user typed: only `file://` URIs are roots (spec), a name is optional. */
export function parseRoot(rawUri: string, rawName = ''): Root {
  const text = rawUri.trim()
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new RootError(`“${text}” is not a URI. A root is a file:// URI such as file:///home/me/project.`)
  }
  if (url.protocol !== 'file:') throw new RootError(`Roots are file:// URIs, not “${url.protocol}”.`)
  const name = rawName.trim()
  return name ? { uri: url.href, name } : { uri: url.href }
}

function load(storage: Storage | undefined): Root[] {
  try {
    const data = JSON.parse(storage?.getItem(KEY) ?? '[]') as unknown
    if (!Array.isArray(data)) return []
    return data.flatMap((item: unknown) => {
      try {
        const record = item as { uri?: unknown; name?: unknown }
        return typeof record.uri === 'string' ? [parseRoot(record.uri, typeof record.name === 'string' ? record.name : '')] : []
      } catch {
        return []
      }
    })
  } catch {
    return []
  }
}

export interface RootsEditor {
  element: HTMLElement
  /** A copy of the list as it stands now. */
  list(): Root[]
  /** Called with the new list after each edit. */
  onChange(listener: (roots: Root[]) => void): () => void
}

/** The roots card: the list with a Remove button per root, and a small form that adds one. */
export function createRootsEditor(storage: Storage | undefined = globalThis.localStorage): RootsEditor {
  let roots = load(storage)
  const listeners = new Set<(roots: Root[]) => void>()
  const list = h('ul', { class: 'log', 'data-testid': 'roots' })
  const uriId = uid('root-uri')
  const nameId = uid('root-name')
  const uri = h('input', { id: uriId, placeholder: 'file:///home/me/project', autocomplete: 'off' })
  const name = h('input', { id: nameId, placeholder: 'Project', autocomplete: 'off' })
  const problem = h('p', { class: 'error-text', role: 'alert' })

  const changed = () => {
    try {
      storage?.setItem(KEY, JSON.stringify(roots))
    } catch {
      // Not remembered; the list still works for this visit.
    }
    render()
    for (const listener of listeners) listener([...roots])
  }
  const render = () => {
    list.replaceChildren(
      ...(roots.length
        ? roots.map((root, index) =>
            h(
              'li',
              { 'data-testid': 'root' },
              h('code', {}, root.uri),
              root.name && ` ${root.name} `,
              h('button', { type: 'button', class: 'small', 'aria-label': `Remove ${root.uri}`, onclick: () => ((roots = roots.filter((_, i) => i !== index)), changed()) }, 'Remove'),
            ),
          )
        : [h('li', { class: 'hint' }, 'No roots: a server that asks gets an empty list.')]),
    )
  }
  const form = h(
    'form',
    {
      class: 'roots-add',
      novalidate: true,
      onsubmit: (event: Event) => {
        event.preventDefault()
        problem.textContent = ''
        try {
          const root = parseRoot(uri.value, name.value)
          roots = [...roots.filter((r) => r.uri !== root.uri), root]
          uri.value = ''
          name.value = ''
          changed()
        } catch (error) {
          if (!(error instanceof RootError)) throw error
          problem.textContent = error.message
        }
      },
    },
    h('div', { class: 'field' }, h('label', { for: uriId }, 'Root URI'), uri),
    h('div', { class: 'field' }, h('label', { for: nameId }, 'Name (optional)'), name),
    h('button', { type: 'submit' }, 'Add root'),
    problem,
  )
  render()
  const element = h(
    'section',
    { class: 'card roots', 'aria-labelledby': 'roots-title' },
    h('h2', { id: 'roots-title' }, 'Roots'),
    h('p', { class: 'hint' }, 'Folders a server may ask about (roots/list). 2026-07-28 servers ask within each call; older servers only when input requests from them are answered, and they hear of each edit.'),
    list,
    form,
  )
  return {
    element,
    list: () => [...roots],
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/**
 * Tells an older server that was offered `roots.listChanged` (legacyRoots) that the list changed. 2026-07-28 has
 * no such notification: its servers ask within each call. A failed send is not worth a message: the server asks
 * again with its next `roots/list`.
 */
export function announceRoots(client: { era: string | undefined; transport: { send(message: { jsonrpc: '2.0'; method: string }): Promise<void> } }, offered: boolean): void {
  if (offered && client.era === 'legacy') void client.transport.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }).catch(() => undefined)
}
