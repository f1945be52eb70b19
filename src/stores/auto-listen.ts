import type { WritableAtom } from 'nanostores'
import type { Client } from '../client/client'
import type { ListenFilter, ServerNotification, Subscription, SubscriptionState } from '../client/types'
import { covers } from '../client/covers'
import { isObject } from '../transport/json-rpc'
import type { ListKind, ServerState } from './types'

export interface AutoListenOptions {
  client: Pick<Client, 'listen'>
  connect(): Promise<ServerState>
  /** Whether watched lists open the subscription (watched resources always do). */
  lists: boolean
  onNotification(notification: ServerNotification): void
  /** The subscription was acknowledged again after its stream dropped: these changes may have been missed. */
  onResync(missed: ListenFilter): void
  $subscription: WritableAtom<SubscriptionState | undefined>
  /** Where diagnostics go (a watcher callback that threw); the library never writes to the console. */
  debug?: ((message: string, detail?: unknown) => void) | undefined
}

export interface AutoListen {
  /** A list atom gained or lost its watchers. */
  setKind(kind: ListKind, on: boolean): void
  /** Adds a resource URI to the filter; returns the function that removes it again. */
  watch(uri: string, onUpdate: () => void): () => void
  /** Calls the watchers of `uri` and of every URI it is a sub-resource of. */
  updated(uri: string): void
  /** Tries again to open what is watched (after a sign-in: the last attempt may have failed with a 401). */
  retry(): void
  close(): Promise<void>
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
  // Replaced subscriptions not closed yet.
  const retiring: Subscription[] = []
  let scheduled = false
  let closed = false
  let chain = Promise.resolve()

  const retire = () => Promise.all(retiring.splice(0).map((old) => old.close().catch(() => undefined)))

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
    let era: ServerState['era'] | undefined
    if (kinds.size || watchers.size) {
      try {
        const server = await options.connect()
        filter = filterFor(server.capabilities)
        era = server.era
      } catch {
        // $status shows why; the next mount or watch tries again.
        return
      }
    }
    const key = JSON.stringify(filter)
    if (closed || key === current) return
    current = key
    if (sub) retiring.push(sub)
    sub = undefined
    // 2026-07-28: the new subscription opens before the old one closes, so no change falls between them.
    // Older servers share one session's resources/subscribe state between both, so the old one goes first.
    if (era !== 'modern' || key === '{}') await retire()
    if (closed || key === '{}') return
    unbind?.()
    const next = (sub = options.client.listen(filter, options.onNotification))
    let acked = false
    unbind = next.$state.subscribe((state) => {
      options.$subscription.set(state)
      if (state.status !== 'opening') void retire()
      if (state.status === 'acknowledged') {
        // Acknowledged again after a dropped stream: whatever changed meanwhile was not announced.
        if (acked) options.onResync(state.notifications)
        acked = true
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
    retry: () => schedule(),
    updated(uri) {
      for (const [watched, set] of watchers) {
        if (!covers(watched, uri)) continue
        for (const { onUpdate } of set) {
          try {
            onUpdate()
          } catch (error) {
            // One failing callback must not starve the others.
            options.debug?.('a watchResource callback threw', error)
          }
        }
      }
    },
    async close() {
      closed = true
      await chain
      if (sub) retiring.push(sub)
      await retire()
    },
  }
}
