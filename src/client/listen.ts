import { atom, type WritableAtom } from 'nanostores'
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../transport/types'
import type { ClientOptions, Era, ListenFilter, ServerDescription, ServerNotification, Subscription, SubscriptionState } from './types'
import { subscribe } from './subscription'

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
  /** Older servers: one set-up over the session stream, then open until that stream ends (legacy/subscription.ts). */
  listenLegacy(subscriber: Subscriber, description: ServerDescription, signal: AbortSignal, acknowledged: (notifications: ListenFilter) => void): Promise<Outcome>
}

/** One subscription, as the set-up of either era sees it. */
export interface Subscriber {
  filter: ListenFilter
  /**
   * Hands a notification to the subscription's handler (checked first) when it is of a type `honoured` covers; says
   * whether it was.
   */
  deliver(message: JsonRpcNotification, honoured: ListenFilter): boolean
  debug(message: string, detail?: unknown): void
  /** Aborts when the subscription is closed, not when one attempt ends. */
  stop: AbortSignal
}

/** How one attempt ended: the server closed the subscription, or its stream dropped (then it reconnects). */
export type Outcome = { reason: 'server'; message?: string } | { reason: 'dropped' }

/** What listen() hands to its machine (subscription.ts). */
export interface Listening {
  host: ListenHost
  filter: ListenFilter
  handler: (notification: ServerNotification) => void
  options: ClientOptions
  $state: WritableAtom<SubscriptionState>
  /** Aborts when the subscription is closed. */
  stop: AbortSignal
}

/**
 * The subscription and its `$state` exist at once; its machine (subscription.ts) runs until close(). Each attempt's
 * opening is bounded by `listenAckTimeout`.
 */
export function listen(host: ListenHost, filter: ListenFilter, handler: (notification: ServerNotification) => void, options: ClientOptions): Subscription {
  const $state = atom<SubscriptionState>({ status: 'opening', attempt: 0 })
  const stop = new AbortController()
  const done = subscribe({ host, filter, handler, options, $state, stop: stop.signal })
  return {
    $state,
    close() {
      if (!stop.signal.aborted) stop.abort('subscription closed')
      return done
    },
  }
}
