// listen()'s machine: attempts bounded by the acknowledgement timeout, definitive refusals apart from failures
// weathered by reconnecting, Retry-After, the filters, and the 2026-07-28 set-up. Older servers' set-up is
// legacy/subscription.ts, which gets the filters through `Subscriber.deliver`.
import type { JsonRpcNotification } from '../transport/types'
import type { ListenFilter } from './types'
import type { Listening, Outcome, Subscriber } from './listen'
import { HttpError } from '../errors/http-error'
import { RedirectError } from '../errors/redirect-error'
import { RpcError } from '../errors/rpc-error'
import { TimeoutError } from '../errors/timeout-error'
import { UnsupportedVersionError } from '../errors/unsupported-version-error'
import { backoff } from './backoff'
import { duration } from '../transport/duration'
import { reasonOf } from './limits'
import { toRpcError } from './to-rpc-error'
import { covers } from './covers'
import { notification } from './validate'
import { ServerNotificationSchema } from '../schemas/notifications'

type Result = Record<string, unknown>

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId'

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

/** Runs the subscription until it closes, and settles once `$state` says closed. */
export async function subscribe({ host, filter, handler, options, $state, stop }: Listening): Promise<void> {
  let tries = 0
  const debug = options.debug ?? (() => undefined)
  const ackTimeout = duration('listenAckTimeout', options.listenAckTimeout, 10_000)
  const deliver = (message: JsonRpcNotification, honoured: ListenFilter) => {
    if (!wanted(message, honoured)) return false
    const checked = notification(message, debug, ServerNotificationSchema)
    try {
      if (checked) handler(checked)
    } catch (error) {
      debug('a subscription handler threw', error)
    }
    return true
  }
  const subscriber: Subscriber = { filter, deliver, debug, stop }

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
        deliver(message, filter)
      })
      response.then((answer) => (answer.error ? reject(toRpcError(answer.error)) : resolve({ reason: 'server' })), reject)
    })

  /** One attempt: connect, subscribe, and stay until the stream ends; its opening is bounded by `ackTimeout`. */
  const attempt = async (): Promise<Outcome> => {
    const opening = new AbortController()
    const onStop = () => opening.abort(reasonOf(stop))
    stop.addEventListener('abort', onStop, { once: true })
    // A close() before this attempt has already fired: the listener above never will.
    if (stop.aborted) onStop()
    const what = () => (host.era() === 'legacy' ? 'subscription set-up (session stream, resources/subscribe, ping)' : 'subscriptions/listen acknowledgement')
    const timer = Number.isFinite(ackTimeout) ? setTimeout(() => opening.abort(new TimeoutError(what(), ackTimeout)), ackTimeout) : undefined
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
      stop.removeEventListener('abort', onStop)
    }
  }

  for (;;) {
    let failure: unknown
    try {
      const outcome = await attempt()
      if (outcome.reason === 'server') {
        return $state.set({ status: 'closed', reason: 'server', message: outcome.message ?? 'The server ended the subscription' })
      }
    } catch (error) {
      if (stop.aborted) break
      if (definitive(error, host.closed())) {
        return $state.set({ status: 'closed', reason: 'error', error: error as Error, message: (error as Error).message })
      }
      failure = error
      debug('subscription dropped; reconnecting', error)
    }
    if (stop.aborted) break
    tries = $state.get().status === 'acknowledged' ? 1 : tries + 1
    $state.set(failure instanceof Error ? { status: 'opening', attempt: tries, error: failure } : { status: 'opening', attempt: tries })
    try {
      await backoff(options, tries, retryAfter(failure), stop, debug)
    } catch {
      break
    }
  }
  $state.set({ status: 'closed', reason: 'client' })
}
