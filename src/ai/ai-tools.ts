// The model's view of a server: aiTools() once, or $aiTools() as an atom that follows the server's tool list,
// so an agent's tool set changes when the server announces new or removed tools (list_changed).
import { atom, onMount, type ReadableAtom } from 'nanostores'
import type { ToolSet } from 'ai'
import type { Mcp } from '../stores/types'
import type { Tool } from '../schemas/types'
import type { AiToolsOptions, AiToolsState, McpSource } from './types'
import { AbortError } from '../errors/abort-error'
import { AiToolError } from './ai-tool-error'
import { buildToolSet } from './tool-set'

/** A tool the client's checks left out of the list: the only way one fails them is an input schema that is not an object's. */
function invalidTool(item: unknown, reason: string): AiToolError {
  return new AiToolError('input-schema', String((item as Tool | undefined)?.name), reason, item)
}

/**
 * The server's model-visible tools as an AI SDK ToolSet, once the list has loaded. Pass `mcpApproval` as the
 * call's `toolApproval` so the calls `approve` picks wait for the user.
 */
export async function aiTools(mcp: McpSource, options: AiToolsOptions = {}): Promise<ToolSet> {
  if ('$tools' in mcp) {
    // The atom's first settled state: subscribing is what starts the store's load.
    return new Promise((resolve, reject) => {
      const $state = $aiTools(mcp, options)
      const stop = $state.listen((state) => {
        if (state.loading) return
        stop()
        if (state.error) reject(state.error)
        else resolve(state.tools)
      })
    })
  }
  const skipped: AiToolError[] = []
  const listed = await mcp.listTools({ onInvalidItem: (item, reason) => skipped.push(invalidTool(item, reason)) })
  return (await buildToolSet(mcp, listed, options, skipped)).tools
}

/**
 * An atom with the tool set, rebuilt whenever the store's `$tools` list changes (and when `pinTools` accepts a
 * change). Watching it keeps the store's list watched, and with it the server's change notifications.
 */
export function $aiTools(mcp: Mcp, options: AiToolsOptions = {}): ReadableAtom<AiToolsState> {
  const $state = atom<AiToolsState>({ tools: {}, loading: true, error: undefined, skipped: [], withheld: [] })
  onMount($state, () => {
    let version = 0
    let started = false
    const rebuild = () => {
      const list = mcp.$tools.get()
      const mine = ++version
      started ||= list.loading
      // The list's error, unless it only says that invalid items were left out (reported as skipped tools). A
      // list that stopped loading with neither a load nor an error was cut short by the store's close(): no load
      // will follow, so waiting for one would hold aiTools() forever.
      const error = (list.invalid?.length ? undefined : list.error) ?? (started && !list.loading && !list.updatedAt ? new AbortError('the store closed before its tool list loaded') : undefined)
      // Not loaded yet (a store's list starts empty and idle until something watches it) counts as loading.
      const loading = list.loading || (!list.updatedAt && !error)
      $state.set({ ...$state.get(), loading: true })
      buildToolSet(mcp, list.items, options, (list.invalid ?? []).map(({ item, reason }) => invalidTool(item, reason))).then(
        (built) => mine === version && $state.set({ ...built, loading, error }),
        (failed: Error) => mine === version && $state.set({ ...$state.get(), loading: false, error: failed }),
      )
    }
    const stopTools = mcp.$tools.subscribe(rebuild)
    const stopPins = options.pinTools?.$changed.listen(rebuild)
    return () => {
      version++
      stopTools()
      stopPins?.()
    }
  })
  return $state
}
