import { atom } from 'nanostores'
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../transport/types'
import type { ClientOptions, Era, ListenFilter, ServerDescription, ServerNotification, Subscription, SubscriptionState } from './types'
import { HttpError } from '../errors/http-error'
import { RedirectError } from '../errors/redirect-error'
import { RpcError } from '../errors/rpc-error'
import { TimeoutError } from '../errors/timeout-error'
import { UnsupportedVersionError } from '../errors/unsupported-version-error'
import { abortable, sleep } from '../transport/http'
import { reasonOf } from './limits'
import { toRpcError } from './to-rpc-error'
import { notification } from './validate'

type Result = Record<string, unknown>

/** What a subscription needs from its client; kept narrow so the client's internals stay private. */
export interface ListenHost {
  connect(signal: AbortSignal, timeout: number): Promise<ServerDescription>
  era(): Era | undefined
  closed(): boolean
  listenModern(
    filter: ListenFilter,
    signal: AbortSignal,
    onMessage: (message: JsonRpcRequest | JsonRpcNotification) => void,
  ): { id: JsonRpcId; response: Promise<JsonRpcResponse> }
  /**
   * Older servers: one set-up over the session stream, then open until that stream ends (legacy/subscription.ts,
   * loaded on demand within `signal`).
   */
  listenLegacy(subscriber: Subscriber, description: ServerDescription, signal: AbortSignal, acknowledged: (notifications: ListenFilter) => void): Promise<Outcome>
}

/** One subscription, as the set-up of either era sees it. */
export interface Subscriber {
  filter: ListenFilter
  /** Checks a notification and hands it to the subscription's handler. */
  deliver(message: JsonRpcNotification): void
  debug(message: string, detail?: unknown): void
  /** Aborts when the subscription is closed, not when one attempt ends. */
  stop: AbortSignal
}

/** How one attempt ended: the server closed the subscription, or its stream dropped (then it reconnects). */
export type Outcome = { reason: 'server'; message?: string } | { reason: 'dropped' }

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

/**
 * Only a definitive refusal ends a subscription: a JSON-RPC error, a 4xx other than 404 (session gone), 408 and
 * 429, a redirect the transport refuses, no common revision, or a closed client. Everything else (network
 * errors, 5xx, 429, a malformed message, a missing acknowledgement) is weathered by reconnecting.
 */
function definitive(error: unknown, closed: boolean): boolean {
  if (closed || error instanceof RpcError || error instanceof UnsupportedVersionError || error instanceof RedirectError) return true
  return error instanceof HttpError && error.status >= 400 && error.status < 500 && ![404, 408, 429].includes(error.status)
}

// A Retry-After longer than this would stall the subscription rather than pace it.
const MAX_RETRY_AFTER = 300_000

/** The server's Retry-After (seconds or an HTTP date) on a 429 or 503, in ms. */
function retryAfter(error: unknown): number {
  if (!(error instanceof HttpError) || (error.status !== 429 && error.status !== 503)) return 0
  const value = error.headers.get('retry-after')?.trim()
  if (!value) return 0
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now()
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER) : 0
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
    const checked = notification(message, debug)
    if (!checked) return
    try {
      handler(checked)
    } catch (error) {
      debug('a subscription handler threw', error)
    }
  }
  const subscriber: Subscriber = { filter, deliver, debug, stop: stop.signal }

  /** 2026-07-28: one `subscriptions/listen` request, acknowledged on its own stream, open until it ends. */
  const modern = (signal: AbortSignal, acknowledged: (notifications: ListenFilter) => void) =>
    new Promise<Outcome>((resolve, reject) => {
      let honoured: ListenFilter | undefined
      const { id, response } = host.listenModern(filter, signal, (message) => {
        const subscriptionId = (message.params?._meta as Result | undefined)?.[SUBSCRIPTION_ID]
        // Strict equality on purpose: the spec makes the JSON type part of the id (1 is not "1").
        if ('id' in message || subscriptionId !== id) return debug('for another subscription', message)
        if (message.method === 'notifications/subscriptions/acknowledged') {
          if (honoured || signal.aborted) return debug('late acknowledgement', message)
          honoured = (message.params?.notifications ?? {}) as ListenFilter
          return acknowledged(honoured)
        }
        if (!honoured) return debug('notification before acknowledgement', message)
        if (wanted(message, filter)) deliver(message)
      })
      response.then((answer) => (answer.error ? reject(toRpcError(answer.error)) : resolve({ reason: 'server' })), reject)
    })

  const backoff = async (attempt: number, failure: unknown) => {
    const base = options.listenBackoff?.baseMs ?? 500
    const max = options.listenBackoff?.maxMs ?? 30_000
    // Full jitter keeps a crowd of tabs from reconnecting to a restarted server in lockstep.
    const delay = Math.max(Math.min(max, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2), retryAfter(failure))
    const g = globalThis as { navigator?: { onLine?: boolean }; addEventListener?: (type: string, fn: () => void, o: object) => void }
    if (g.navigator?.onLine === false && g.addEventListener) {
      debug('offline: reconnecting once the online event fires')
      await abortable(new Promise<void>((resolve) => g.addEventListener!('online', resolve, { once: true })), stop.signal)
    }
    await sleep(delay, stop.signal)
  }

  /** One attempt: connect, subscribe, and stay until the stream ends; its opening is bounded by `ackTimeout`. */
  const attempt = async (): Promise<Outcome> => {
    const opening = new AbortController()
    const onStop = () => opening.abort(reasonOf(stop.signal))
    stop.signal.addEventListener('abort', onStop, { once: true })
    const what = () => (host.era() === 'legacy' ? 'subscription set-up (session stream, resources/subscribe, ping)' : 'subscriptions/listen acknowledgement')
    const timer = setTimeout(() => opening.abort(new TimeoutError(what(), ackTimeout)), ackTimeout)
    const acknowledged = (notifications: ListenFilter) => {
      clearTimeout(timer)
      $state.set({ status: 'acknowledged', notifications })
    }
    try {
      const description = await host.connect(opening.signal, Infinity)
      return host.era() === 'modern' ? await modern(opening.signal, acknowledged) : await host.listenLegacy(subscriber, description, opening.signal, acknowledged)
    } catch (error) {
      // The opening's own limit fired: say so (a TimeoutError), not how the step it cut short failed.
      throw opening.signal.aborted ? reasonOf(opening.signal) : error
    } finally {
      clearTimeout(timer)
      stop.signal.removeEventListener('abort', onStop)
    }
  }

  const run = async () => {
    for (let tries = 0; ; ) {
      let failure: unknown
      try {
        const outcome = await attempt()
        if (outcome.reason === 'server') {
          return $state.set({ status: 'closed', reason: 'server', message: outcome.message ?? 'The server ended the subscription' })
        }
      } catch (error) {
        if (stop.signal.aborted) break
        if (definitive(error, host.closed())) {
          return $state.set({ status: 'closed', reason: 'error', error: error as Error, message: (error as Error).message })
        }
        failure = error
        debug('subscription dropped; reconnecting', error)
      }
      if (stop.signal.aborted) break
      tries = $state.get().status === 'acknowledged' ? 1 : tries + 1
      $state.set(failure instanceof Error ? { status: 'opening', attempt: tries, error: failure } : { status: 'opening', attempt: tries })
      try {
        await backoff(tries, failure)
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
