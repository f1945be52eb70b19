import { atom, type WritableAtom } from 'nanostores'
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../transport/types'
import type { ClientOptions, Era, ListenFilter, ServerDescription, ServerNotification, Subscription, SubscriptionState } from './types'
import { backoff } from './backoff'
import { limit, reasonOf } from './limits'
import { load } from '../transport/load'
import { loadSubscription } from './load-subscription'

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
  /**
   * Hands a notification to the subscription's handler (checked first) when it is of a type `honoured` covers; says
   * whether it was. Here rather than imported by each era's set-up, so the legacy chunk does not pull in a third.
   */
  deliver(message: JsonRpcNotification, honoured: ListenFilter): boolean
  debug(message: string, detail?: unknown): void
  /** Aborts when the subscription is closed, not when one attempt ends. */
  stop: AbortSignal
}

/** How one attempt ended: the server closed the subscription, or its stream dropped (then it reconnects). */
export type Outcome = { reason: 'server'; message?: string } | { reason: 'dropped' }

/** What listen() hands to its machine (subscription.ts) once that has loaded. */
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
 * Starts loading the subscription code ahead of a listen() that is sure to come (createMcp's, once it has connected),
 * so the load runs beside the connect instead of after it. A failure is left to that listen(), which loads again.
 */
export function preloadListen(): void {
  loadSubscription().catch(() => undefined)
}

/**
 * The subscription and its `$state` exist at once; its machine (subscription.ts) loads on demand, starting here (or
 * sooner, beside createMcp's connect: preloadListen), so an app that never listens never downloads it. Nothing is
 * sent before it has arrived, so a subscription closed sooner leaves no trace on the wire. A load that fails (offline, a
 * deploy that replaced the chunk) is weathered like a dropped stream: `$state` says opening with the NetworkError
 * (a TimeoutError if it never arrives within `listenAckTimeout`), and the next attempt, after the same backoff,
 * loads again. The load and the set-up are each bounded by `listenAckTimeout`, so a first attempt may take up to
 * twice that before it is acknowledged or given up.
 */
export function listen(host: ListenHost, filter: ListenFilter, handler: (notification: ServerNotification) => void, options: ClientOptions): Subscription {
  const $state = atom<SubscriptionState>({ status: 'opening', attempt: 0 })
  const stop = new AbortController()
  const debug = options.debug ?? (() => undefined)
  const run = async () => {
    for (let tries = 1; ; tries++) {
      const { controller, done } = limit("nanomcp's subscription code (loaded on demand)", options.listenAckTimeout ?? 10_000, stop.signal)
      const machine = await load('subscription code', loadSubscription, controller.signal).catch((error: unknown) =>
        // The wait's own limit fired: say so (a TimeoutError), not how the wait it cut short ended.
        controller.signal.aborted ? reasonOf(controller.signal) : (error as Error),
      )
      done()
      // Closed while the code loaded (or failed to): nothing is sent, ever.
      if (stop.signal.aborted) break
      if (!(machine instanceof Error)) return machine.subscribe({ host, filter, handler, options, $state, stop: stop.signal }, tries - 1)
      // A closed client ends its subscriptions, as on every other path.
      if (host.closed()) return $state.set({ status: 'closed', reason: 'error', error: machine, message: machine.message })
      debug('the subscription code did not load; trying again', machine)
      $state.set({ status: 'opening', attempt: tries, error: machine })
      try {
        await backoff(options, tries, 0, stop.signal, debug)
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
