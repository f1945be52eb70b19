// listen() on an older server: the set-up over the session's stream. listen()'s machine (../subscription.ts: attempts,
// reconnects, the 2026-07-28 set-up) reaches it through client.ts's `listenLegacy`.
import type { ListenFilter, ServerDescription } from '../types'
import type { Outcome, Subscriber } from '../listen'
import type { LegacySession } from './session'

type Result = Record<string, unknown>

/** What the set-up needs from its client. */
export interface SubscriptionHost {
  session: LegacySession
  /** A request through the client (so a session that ended is renewed on the way). */
  /** A request through the client, within the client's `timeout` and `signal` when given. */
  request(method: string, params: Result, signal: AbortSignal | undefined): Promise<Result>
  closed(): boolean
}

// Sessions replaced one after another while a subscription sets up, before it backs off and tries later.
const MAX_SETUP_ROUNDS = 3

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

/**
 * Older servers: `resources/subscribe` for each URI and a `ping` on the session whose stream is open. A session
 * replaced meanwhile (a 404 renews it under us) has none of those subscribes, so set-up starts over on the new
 * one before it counts as acknowledged; a session replaced later ends the stream, and the subscription
 * reconnects the same way.
 */
export async function listenLegacy(
  host: SubscriptionHost,
  subscriber: Subscriber,
  description: ServerDescription,
  signal: AbortSignal,
  acknowledged: (notifications: ListenFilter) => void,
): Promise<Outcome> {
  const { session } = host
  const { filter, deliver, debug } = subscriber
  let honoured: ListenFilter = {}
  const off = session.onStream((message) => deliver(message, honoured))
  let ended = false
  let wake = () => undefined as void
  const offEnd = session.onStreamEnd(() => {
    ended = true
    wake()
  })
  const promised = legacyHonoured(filter, description.capabilities)
  const uris = promised.resourceSubscriptions ?? []
  try {
    for (let round = 1; ; round++) {
      ended = false
      const stream = await session.openStream(signal)
      if (!stream) return { reason: 'server', message: 'No stream for notifications (GET answered 405)' }
      const generation = session.generation
      for (const uri of uris) await host.request('resources/subscribe', { uri }, signal)
      await host.request('ping', {}, signal)
      if (!ended && session.generation === generation) break
      if (round === MAX_SETUP_ROUNDS) return { reason: 'dropped' }
      debug('the session was replaced while the subscription set up; subscribing again')
    }
    honoured = promised
    acknowledged(honoured)
    if (!ended) {
      await new Promise<void>((resolve) => {
        wake = resolve
        signal.addEventListener('abort', () => resolve(), { once: true })
      })
    }
    if (subscriber.stop.aborted && !host.closed()) {
      // Sent after the subscription closed, so no signal of its: the client's timeout bounds them, as any request.
      await Promise.all(uris.map((uri) => host.request('resources/unsubscribe', { uri }, undefined).catch(() => undefined)))
    }
    return { reason: 'dropped' }
  } finally {
    off()
    offEnd()
  }
}
