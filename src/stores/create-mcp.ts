import { atom } from 'nanostores'
import { Client } from '../client/client'
import type { ServerNotification, SubscriptionState } from '../client/types'
import { extensionMethod } from '../schemas/method-map'
import { AbortError } from '../errors/abort-error'
import { OAuthError } from '../errors/oauth-error'
import { RpcError } from '../errors/rpc-error'
import { StreamableHttpTransport } from '../transport/streamable-http'
import type { Transport } from '../transport/types'
import { createAutoListen } from './auto-listen'
import { fetchPages, type Pages } from './fetch-pages'
import { KINDS } from './list-kinds'
import { isObject } from '../transport/json-rpc'
import { createListStore, type ListSource } from './list-store'
import { sharedCache } from './shared-cache'
import type { AuthState } from '../auth/types'
import type { ListKind, Mcp, McpOptions, Prompt, Resource, ResourceTemplate, ServerState, Status, Tool } from './types'

const LIST_KINDS = Object.keys(KINDS) as ListKind[]
/** The lists each change notification invalidates. */
const CHANGED = new Map<string, ListKind[]>([
  ['notifications/tools/list_changed', ['tools']],
  ['notifications/prompts/list_changed', ['prompts']],
  ['notifications/resources/list_changed', ['resources', 'resourceTemplates']],
])
// Without an OAuth client there is nothing to sign in to, for good: one shared, never-changing atom.
const NO_AUTH = atom<AuthState>({ status: 'none' })

/**
 * Builds a Client for `target` and exposes what it knows as nanostores atoms. Lists load when first watched,
 * follow change notifications through one auto-managed `listen()`, and keep unchanged items identical.
 */
export function createMcp(target: string | Transport, options: McpOptions = {}): Mcp {
  const { maxPages = 1000, ttlMs, cacheScope = 'private', autoListen = true, auth } = options
  // The transport it builds reports to the same `debug` as the client: one place for every diagnostic. It hands
  // its options (auth included) on to the HTTP+SSE transport it falls back to.
  const transport = typeof target === 'string' ? new StreamableHttpTransport(target, { debug: options.debug, auth }) : target
  const oauth = auth && '$auth' in auth ? auth : undefined
  const onNotification = (notification: ServerNotification) => {
    dispatch(notification)
    options.onNotification?.(notification)
  }
  const client = new Client(transport, { ...options, onNotification })

  const $status = atom<Status>({ status: 'idle' })
  const $server = atom<ServerState | undefined>(undefined)
  const $subscription = atom<SubscriptionState | undefined>(undefined)
  let connecting: Promise<ServerState> | undefined
  let closed = false

  const connect = (): Promise<ServerState> => {
    if (closed) return Promise.reject(new AbortError('closed'))
    return (connecting ??= (async () => {
      $status.set({ status: 'connecting' })
      try {
        // The client's description (supportedVersions included on 2026-07-28) is what $server shows.
        const server: ServerState = await client.connect()
        if (!closed) {
          $server.set(server)
          $status.set({ status: 'ready' })
        }
        return server
      } catch (error) {
        connecting = undefined
        if (!closed) $status.set({ status: 'error', error: error as Error })
        throw error
      }
    })())
  }

  const cacheKey = (kind: ListKind) => `${transport.url} ${kind}`
  const changes: Record<ListKind, number> = { tools: 0, prompts: 0, resources: 0, resourceTemplates: 0 }
  const source: ListSource = {
    ttlMs,
    async load(kind) {
      const spec = KINDS[kind]
      const { capabilities } = await connect()
      // A server that lacks the capability has nothing to list; asking would only earn a -32601.
      if (!isObject(capabilities[spec.capability])) return { items: [], invalid: [], expiresAt: Infinity, scope: 'private' }
      const started = changes[kind]
      // A list_changed on the stream of the very list request it concerns (a gateway that starts a server per
      // request announces one every time) is answered by that request already: acting on it would reload forever.
      const onNotification = (notification: ServerNotification) => {
        if (CHANGED.get(notification.method)?.includes(kind)) options.debug?.(`ignored: ${notification.method} on the stream of ${spec.method} itself`)
        dispatch(notification, kind)
        options.onNotification?.(notification)
      }
      const pages = await fetchPages((method, params, onInvalidItem) => client.request(extensionMethod(method), params, { onNotification, onInvalidItem }), spec, maxPages)
      // Pages fetched before a change was announced must not go back into the shared cache.
      if (cacheScope === 'public' && started === changes[kind]) sharedCache.set(cacheKey(kind), pages)
      return pages
    },
    cached: (kind): Pages | undefined => (cacheScope === 'public' ? sharedCache.get(cacheKey(kind)) : undefined),
    mounted: (kind, on) => listen.setKind(kind, on),
  }
  const lists = {
    tools: createListStore<Tool>('tools', source),
    prompts: createListStore<Prompt>('prompts', source),
    resources: createListStore<Resource>('resources', source),
    resourceTemplates: createListStore<ResourceTemplate>('resourceTemplates', source),
  }

  const changed = (kind: ListKind) => {
    changes[kind]++
    sharedCache.delete(cacheKey(kind))
    lists[kind].invalidate()
  }
  /** Acts on a change notification; `loading` is the list whose own request carried it, which it leaves alone. */
  function dispatch({ method, params }: ServerNotification, loading?: ListKind) {
    for (const kind of CHANGED.get(method) ?? []) if (kind !== loading) changed(kind)
    if (method === 'notifications/resources/updated' && typeof params?.uri === 'string') listen.updated(params.uri)
  }

  const listen = createAutoListen({
    client,
    debug: options.debug,
    connect,
    lists: autoListen,
    onNotification,
    $subscription,
    onResync(missed) {
      if (missed.toolsListChanged) changed('tools')
      if (missed.promptsListChanged) changed('prompts')
      if (missed.resourcesListChanged) {
        changed('resources')
        changed('resourceTemplates')
      }
      for (const uri of missed.resourceSubscriptions ?? []) listen.updated(uri)
    },
  })

  // A completed sign-in retries what failed for want of it: the connection, the lists in error (they show
  // `loading` again), the subscription. A refresh keeps 'authorized', so only the transition counts.
  let authorized = oauth?.$auth.get().status === 'authorized'
  const stopAuth = oauth?.$auth.listen(({ status }) => {
    const was = authorized
    authorized = status === 'authorized'
    if (!authorized || was || closed) return
    if ($status.value?.status === 'error') connect().catch(() => undefined)
    // `.value`, not `.get()`: get() on an unwatched atom mounts it, and mounting a list loads it.
    for (const kind of LIST_KINDS) if (lists[kind].$atom.value?.error) lists[kind].invalidate()
    listen.retry()
  })
  const notConfigured = () => Promise.reject(new OAuthError('not_configured', 'No OAuth client: pass createMcp(url, { auth: oauth({ redirectUri }) }) to sign in'))

  return {
    client,
    $status,
    $server,
    $tools: lists.tools.$atom,
    $prompts: lists.prompts.$atom,
    $resources: lists.resources.$atom,
    $resourceTemplates: lists.resourceTemplates.$atom,
    $subscription,
    $auth: oauth?.$auth ?? NO_AUTH,
    // Not async: popup mode must open its window inside the click that called this.
    signIn: () => (oauth ? oauth.signIn() : notConfigured()),
    signOut: () => (oauth ? oauth.signOut() : notConfigured()),
    connect,
    async callTool(name, args = {}, requestOptions) {
      try {
        return await client.callTool({ name, arguments: args }, requestOptions)
      } catch (error) {
        // An unknown tool or rejected arguments may mean our list is out of date (spec: re-fetch early).
        if (error instanceof RpcError && (error.code === -32601 || error.code === -32602)) changed('tools')
        throw error
      }
    },
    getPrompt: (name, args = {}, requestOptions) => client.getPrompt({ name, arguments: args }, requestOptions),
    readResource: (uri, requestOptions) => client.readResource({ uri }, requestOptions),
    watchResource: (uri, onUpdate) => listen.watch(uri, onUpdate),
    async complete(ref, argument, context, requestOptions) {
      const result = await client.complete({ ref, argument, ...(context ? { context } : {}) }, requestOptions)
      return result.completion
    },
    refresh: (kind) => lists[kind].refresh(),
    async close() {
      if (closed) return
      closed = true
      stopAuth?.()
      for (const kind of LIST_KINDS) lists[kind].close()
      await listen.close()
      await client.close()
      $status.set({ status: 'closed' })
    },
  }
}
