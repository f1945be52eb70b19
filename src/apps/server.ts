// One shape for the three kinds of `mcp` (Client, createMcp() store, shared-tab client): a request function and
// the tool list that decides what an app may call.
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
  /** The store's list of `kind` when the server announces changes to it (so watching it costs no extra request). */
  announced(kind: 'tools' | 'resources'): ReadableAtom<ListState<unknown>> | undefined
}

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
    announced: (kind) =>
      (mcp.$server?.get()?.capabilities[kind] as { listChanged?: boolean } | undefined)?.listChanged ? mcp[kind === 'tools' ? '$tools' : '$resources'] : undefined,
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
