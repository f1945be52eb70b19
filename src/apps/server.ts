// One shape for the three kinds of `mcp` (Client, createMcp() store, shared-tab client): a request function, the
// tool list that decides what an app may call, and the server's list changes that the app hears of.
import type { ReadableAtom } from 'nanostores'
import type { Tool } from '../schemas/types'
import type { ListState } from '../stores/types'
import type { AppMcp } from './types'

export type Request = (method: string, params: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>

export interface Server {
  request: Request
  /** The tool by name: from the store's `$tools` when it has it, else one `tools/list` (all pages) per view. */
  tool(name: string, signal: AbortSignal): Promise<Tool | undefined>
  readonly $tools: ReadableAtom<ListState<Tool>> | undefined
  /**
   * Calls `changed(kind)` whenever the server announces a change to its tool or resource list, for the kinds it
   * says can change (resolved with them, and the function that stops watching).
   */
  watchLists(changed: (kind: ListKind) => void): Promise<{ kinds: ListKind[]; stop: () => void }>
}

type ListKind = 'tools' | 'resources'
const KINDS: ListKind[] = ['tools', 'resources']
const NOTIFICATION = { tools: 'notifications/tools/list_changed', resources: 'notifications/resources/list_changed' } as const

const MAX_PAGES = 100

export function server(mcp: AppMcp): Server {
  const target = 'request' in mcp ? mcp : mcp.client
  const request: Request = (method, params, signal) => target.request(method, params, { signal })
  let listed: Promise<Tool[]> | undefined
  const list = async (signal: AbortSignal) => {
    const tools: Tool[] = []
    let cursor: unknown
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await request('tools/list', cursor ? { cursor } : {}, signal)
      tools.push(...((result.tools as Tool[] | undefined) ?? []))
      cursor = result.nextCursor
      if (typeof cursor !== 'string') break
    }
    return tools
  }
  return {
    request,
    $tools: mcp.$tools,
    async watchLists(changed) {
      // connect() is settled already when the app's resource was read through the same mcp: no extra request.
      const caps = (await mcp.connect?.())?.capabilities ?? {}
      const kinds = KINDS.filter((kind) => (caps[kind] as { listChanged?: unknown } | undefined)?.listChanged === true)
      const stops: (() => void)[] = []
      const lists = { tools: mcp.$tools, resources: mcp.$resources }
      if (kinds.every((kind) => lists[kind])) {
        // A store's atoms follow list_changed through the store's own one subscription; watching them opens none.
        // The first load is not a change, nor is a reload that brought the same items.
        for (const kind of kinds) {
          const list = lists[kind]!
          let seen = list.get()
          stops.push(
            list.listen((state) => {
              const before = seen
              seen = state
              if (before.updatedAt > 0 && state.items !== before.items) changed(kind)
            }),
          )
        }
      } else if (kinds.length && mcp.listen) {
        // A bare Client has no lists to watch and its onNotification belongs to the app; listen() is the way to
        // hear list_changed in both eras (2026-07-28 servers send it on a subscription stream only).
        const sub = mcp.listen({ toolsListChanged: kinds.includes('tools'), resourcesListChanged: kinds.includes('resources') }, (n) => {
          for (const kind of kinds) if (n.method === NOTIFICATION[kind]) changed(kind)
        })
        stops.push(() => void sub.close().catch(() => undefined))
      } else kinds.length = 0
      return { kinds, stop: () => stops.splice(0).forEach((fn) => fn()) }
    },
    async tool(name, signal) {
      const known = mcp.$tools?.get().items.find((t) => t.name === name)
      if (known) return known
      // A failed listing is tried again on the next call rather than remembered as "no tools".
      listed ??= list(signal).catch((error) => {
        listed = undefined
        throw error
      })
      return (await listed).find((t) => t.name === name)
    },
  }
}
