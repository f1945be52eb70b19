import { atom } from 'nanostores'
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, ServerStream } from '../transport/types'
import type { ClientOptions, Era, ListenFilter, ServerDescription, ServerNotification, Subscription, SubscriptionState } from './types'
import { HttpError } from '../errors/http-error'
import { NetworkError } from '../errors/network-error'
import { ProtocolError } from '../errors/protocol-error'
import { TimeoutError } from '../errors/timeout-error'
import { abortable, sleep } from '../transport/http'
import { reasonOf } from './limits'
import { toRpcError } from './to-rpc-error'

type Result = Record<string, unknown>

/** What a subscription needs from its client; kept narrow so the client's internals stay private. */
export interface ListenHost {
  connect(signal: AbortSignal): Promise<ServerDescription>
  era(): Era | undefined
  closed(): boolean
  listenModern(
    filter: ListenFilter,
    signal: AbortSignal,
    onMessage: (message: JsonRpcRequest | JsonRpcNotification) => void,
  ): { id: JsonRpcId; response: Promise<JsonRpcResponse> }
  request(method: string, params: Result, signal: AbortSignal): Promise<Result>
  openStream(): Promise<ServerStream | undefined>
  /** Adds a listener to the session stream; it returns true when it took the message. */
  onStream(listener: (message: JsonRpcNotification) => boolean): () => void
  onStreamEnd(callback: () => void): () => void
}

type Outcome = { reason: 'server'; message?: string } | { reason: 'dropped' }

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId'

/** Whether `uri` is `watched` or a sub-resource of it (the spec lets a server report either). */
export const covers = (watched: string, uri: string): boolean => uri === watched || uri.startsWith(watched.endsWith('/') ? watched : `${watched}/`)

/** Whether a notification is of a type the filter asked for (and, when known, the server honoured). */
export function wanted(message: JsonRpcNotification, filter: ListenFilter): boolean {
  const params = message.params ?? {}
  switch (message.method) {
    case 'notifications/tools/list_changed':
      return !!filter.toolsListChanged
    case 'notifications/prompts/list_changed':
      return !!filter.promptsListChanged
    case 'notifications/resources/list_changed':
      return !!filter.resourcesListChanged
    case 'notifications/resources/updated': {
      // The spec lets the server report a sub-resource of a subscribed URI.
      const uri = String(params.uri)
      return !!filter.resourceSubscriptions?.some((s) => covers(s, uri))
    }
    case 'notifications/tasks':
      return !!filter.taskIds?.includes(String(params.taskId))
    default:
      return false
  }
}

function retryable(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    // A malformed message ends the stream it came on (the transport cannot trust what follows); a
    // subscription reopens rather than dies, so one bad notification costs a reconnect, never the feed.
    error instanceof ProtocolError ||
    (error instanceof HttpError && (error.sessionExpired || error.status >= 500))
  )
}

/** What an older server can promise, read from its capabilities; task pushes do not exist there. */
function legacyHonoured(filter: ListenFilter, capabilities: Result): ListenFilter {
  const can = (family: string, flag: string) => !!(capabilities[family] as Result | undefined)?.[flag]
  const out: ListenFilter = {}
  if (filter.toolsListChanged && can('tools', 'listChanged')) out.toolsListChanged = true
  if (filter.promptsListChanged && can('prompts', 'listChanged')) out.promptsListChanged = true
  if (filter.resourcesListChanged && can('resources', 'listChanged')) out.resourcesListChanged = true
  if (filter.resourceSubscriptions?.length && can('resources', 'subscribe')) out.resourceSubscriptions = [...filter.resourceSubscriptions]
  return out
}

export function listen(
  host: ListenHost,
  filter: ListenFilter,
  handler: (notification: ServerNotification) => void,
  options: ClientOptions,
): Subscription {
  const $state = atom<SubscriptionState>({ status: 'opening', attempt: 0 })
  const stop = new AbortController()
  const debug = options.debug ?? (() => undefined)
  const ackTimeout = options.listenAckTimeout ?? 10_000
  const deliver = (message: JsonRpcNotification) => {
    try {
      handler(message)
    } catch (error) {
      debug('a subscription handler threw', error)
    }
  }

  const modern = () =>
    new Promise<Outcome>((resolve, reject) => {
      const controller = new AbortController()
      const onStop = () => controller.abort(reasonOf(stop.signal))
      stop.signal.addEventListener('abort', onStop, { once: true })
      const timer = setTimeout(() => controller.abort(new TimeoutError('subscriptions/listen acknowledgement', ackTimeout)), ackTimeout)
      let honoured: ListenFilter | undefined
      const { id, response } = host.listenModern(filter, controller.signal, (message) => {
        const subscriptionId = (message.params?._meta as Result | undefined)?.[SUBSCRIPTION_ID]
        // Strict equality on purpose: the spec makes the JSON type part of the id (1 is not "1").
        if ('id' in message || subscriptionId !== id) return debug('for another subscription', message)
        if (message.method === 'notifications/subscriptions/acknowledged') {
          if (honoured || controller.signal.aborted) return debug('late acknowledgement', message)
          clearTimeout(timer)
          const notifications = (message.params?.notifications ?? {}) as ListenFilter
          honoured = notifications
          $state.set({ status: 'acknowledged', notifications })
          return
        }
        if (!honoured) return debug('notification before acknowledgement', message)
        if (wanted(message, filter)) deliver(message)
      })
      response
        .then(
          (answer) => {
            if (answer.error) reject(toRpcError(answer.error))
            else resolve({ reason: 'server' })
          },
          (error: unknown) => reject(controller.signal.aborted ? reasonOf(controller.signal) : error),
        )
        .finally(() => {
          clearTimeout(timer)
          stop.signal.removeEventListener('abort', onStop)
        })
    })

  const legacy = async (description: ServerDescription): Promise<Outcome> => {
    let honoured: ListenFilter = {}
    const off = host.onStream((message) => {
      if (!wanted(message, honoured)) return false
      deliver(message)
      return true
    })
    let ended = false
    let wake = () => undefined as void
    const offEnd = host.onStreamEnd(() => {
      ended = true
      wake()
    })
    try {
      const stream = await abortable(host.openStream(), stop.signal)
      if (!stream) return { reason: 'server', message: 'No stream for notifications (GET answered 405)' }
      const setup = AbortSignal.any([stop.signal, AbortSignal.timeout(ackTimeout)])
      const promised = legacyHonoured(filter, description.capabilities)
      const uris = promised.resourceSubscriptions ?? []
      for (const uri of uris) await host.request('resources/subscribe', { uri }, setup)
      await host.request('ping', {}, setup)
      honoured = promised
      $state.set({ status: 'acknowledged', notifications: honoured })
      if (!ended) {
        await new Promise<void>((resolve) => {
          wake = resolve
          stop.signal.addEventListener('abort', () => resolve(), { once: true })
        })
      }
      if (stop.signal.aborted && !host.closed()) {
        const bye = AbortSignal.timeout(5000)
        await Promise.all(uris.map((uri) => host.request('resources/unsubscribe', { uri }, bye).catch(() => undefined)))
      }
      return { reason: 'dropped' }
    } finally {
      off()
      offEnd()
    }
  }

  const backoff = async (attempt: number) => {
    const base = options.listenBackoff?.baseMs ?? 500
    const max = options.listenBackoff?.maxMs ?? 30_000
    // Full jitter keeps a crowd of tabs from reconnecting to a restarted server in lockstep.
    const delay = Math.min(max, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2)
    const g = globalThis as { navigator?: { onLine?: boolean }; addEventListener?: (type: string, fn: () => void, o: object) => void }
    if (g.navigator?.onLine === false && g.addEventListener) {
      await abortable(new Promise<void>((resolve) => g.addEventListener!('online', resolve, { once: true })), stop.signal)
    }
    await sleep(delay, stop.signal)
  }

  const run = async () => {
    for (let attempt = 0; ; ) {
      try {
        const description = await host.connect(stop.signal)
        const outcome = host.era() === 'modern' ? await modern() : await legacy(description)
        if (outcome.reason === 'server') {
          return $state.set({ status: 'closed', reason: 'server', message: outcome.message ?? 'The server ended the subscription' })
        }
      } catch (error) {
        if (stop.signal.aborted) break
        if (!retryable(error)) {
          return $state.set({ status: 'closed', reason: 'error', error: error as Error, message: (error as Error).message })
        }
        debug('subscription dropped; reconnecting', error)
      }
      if (stop.signal.aborted) break
      attempt = $state.get().status === 'acknowledged' ? 1 : attempt + 1
      $state.set({ status: 'opening', attempt })
      try {
        await backoff(attempt)
      } catch {
        break
      }
    }
    $state.set({ status: 'closed', reason: 'client' })
  }

  const done = run()
  return {
    $state,
    close() {
      if (!stop.signal.aborted) stop.abort('subscription closed')
      return done
    },
  }
}
