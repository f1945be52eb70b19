import type { WritableAtom } from 'nanostores'
import type { Client } from '../client/client'
import type { ListenFilter, ServerNotification, Subscription, SubscriptionState } from '../client/types'
import { isObject } from './list-kinds'
import type { ListKind, ServerState } from './types'

export interface AutoListenOptions {
  client: Pick<Client, 'listen'>
  connect(): Promise<ServerState>
  /** Whether watched lists open the subscription (watched resources always do). */
  lists: boolean
  onNotification(notification: ServerNotification): void
  /** The subscription was acknowledged again after a gap: these changes may have been missed. */
  onResync(missed: ListenFilter): void
  $subscription: WritableAtom<SubscriptionState | undefined>
}

export interface AutoListen {
  /** A list atom gained or lost its watchers. */
  setKind(kind: ListKind, on: boolean): void
  /** Adds a resource URI to the filter; returns the function that removes it again. */
  watch(uri: string, onUpdate: () => void): () => void
  /** Calls the watchers of `uri` and of every URI it is a sub-resource of. */
  updated(uri: string): void
  close(): Promise<void>
}

const underneath = (uri: string, watched: string) =>
  uri === watched || uri.startsWith(watched.endsWith('/') ? watched : `${watched}/`)

function intersect(a: ListenFilter, b: ListenFilter): ListenFilter {
  const uris = b.resourceSubscriptions?.filter((uri) => a.resourceSubscriptions?.includes(uri))
  return {
    toolsListChanged: !!(a.toolsListChanged && b.toolsListChanged),
    promptsListChanged: !!(a.promptsListChanged && b.promptsListChanged),
    resourcesListChanged: !!(a.resourcesListChanged && b.resourcesListChanged),
    ...(uris?.length ? { resourceSubscriptions: uris } : {}),
  }
}

/**
 * Keeps one `client.listen()` open for exactly what is watched and what the server says can change, and
 * reopens it when that changes. Changes are applied one at a time, after the current task, so mounting
 * several atoms together opens one subscription.
 */
export function createAutoListen(options: AutoListenOptions): AutoListen {
  const kinds = new Set<ListKind>()
  const watchers = new Map<string, Set<{ onUpdate: () => void }>>()
  let sub: Subscription | undefined
  let unbind: (() => void) | undefined
  let current = '{}'
  // What the last acknowledged subscription honoured, to know what a gap may have hidden.
  let honoured: ListenFilter | undefined
  let scheduled = false
  let closed = false
  let chain = Promise.resolve()

  const filterFor = (caps: Record<string, unknown>): ListenFilter => {
    const has = (cap: string, flag: string) => {
      const c = caps[cap]
      return isObject(c) && c[flag] === true
    }
    const filter: ListenFilter = {}
    if (options.lists) {
      if (kinds.has('tools') && has('tools', 'listChanged')) filter.toolsListChanged = true
      if (kinds.has('prompts') && has('prompts', 'listChanged')) filter.promptsListChanged = true
      if ((kinds.has('resources') || kinds.has('resourceTemplates')) && has('resources', 'listChanged'))
        filter.resourcesListChanged = true
    }
    if (watchers.size && has('resources', 'subscribe')) filter.resourceSubscriptions = [...watchers.keys()].sort()
    return filter
  }

  const reconcile = async () => {
    let filter: ListenFilter = {}
    if (kinds.size || watchers.size) {
      try {
        filter = filterFor((await options.connect()).capabilities)
      } catch {
        // $status shows why; the next mount or watch tries again.
        return
      }
    }
    const key = JSON.stringify(filter)
    if (closed || key === current) return
    current = key
    // Closed before the next opens: on older servers both share one session's resources/subscribe state.
    await sub?.close().catch(() => {})
    sub = undefined
    if (closed || key === '{}') return
    unbind?.()
    const next = (sub = options.client.listen(filter, options.onNotification))
    let acked = false
    unbind = next.$state.subscribe((state) => {
      options.$subscription.set(state)
      if (state.status === 'acknowledged') {
        const missed = acked ? state.notifications : honoured && intersect(honoured, state.notifications)
        acked = true
        honoured = state.notifications
        if (missed) options.onResync(missed)
      } else if (state.status === 'closed' && state.reason !== 'client' && sub === next) {
        // The client gave up reconnecting; the next mount or watch opens a fresh one.
        current = '{}'
        sub = undefined
      }
    })
  }

  const schedule = () => {
    if (scheduled || closed) return
    scheduled = true
    setTimeout(() => {
      scheduled = false
      chain = chain.then(reconcile)
    }, 0)
  }

  return {
    setKind(kind, on) {
      if (on) kinds.add(kind)
      else kinds.delete(kind)
      schedule()
    },
    watch(uri, onUpdate) {
      let set = watchers.get(uri)
      if (!set) watchers.set(uri, (set = new Set()))
      const entry = { onUpdate }
      set.add(entry)
      schedule()
      return () => {
        if (set.delete(entry) && set.size === 0 && watchers.get(uri) === set) {
          watchers.delete(uri)
          schedule()
        }
      }
    },
    updated(uri) {
      for (const [watched, set] of watchers) {
        if (!underneath(uri, watched)) continue
        for (const { onUpdate } of set) {
          try {
            onUpdate()
          } catch (error) {
            // One failing callback must not starve the others; the error still surfaces.
            queueMicrotask(() => {
              throw error
            })
          }
        }
      }
    },
    async close() {
      closed = true
      await chain
      await sub?.close().catch(() => {})
    },
  }
}
