import type { ClientOptions } from './types'
import { abortable, sleep } from '../transport/http'

/**
 * The wait before a subscription's reconnect number `attempt` (from 1): exponential from `listenBackoff.baseMs` up
 * to `maxMs`, at least `floor` ms (a server's Retry-After), and, while the browser says it is offline, until it is
 * online again. Rejects with AbortError once `stop` aborts. Apart from the subscription code (loaded on demand)
 * because a failed load of that code is waited out the same way.
 */
export async function backoff(options: ClientOptions, attempt: number, floor: number, stop: AbortSignal, debug: (message: string) => void): Promise<void> {
  const base = options.listenBackoff?.baseMs ?? 500
  const max = options.listenBackoff?.maxMs ?? 30_000
  // Full jitter keeps a crowd of tabs from reconnecting to a restarted server in lockstep.
  const delay = Math.max(Math.min(max, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2), floor)
  const g = globalThis as { navigator?: { onLine?: boolean }; addEventListener?: (type: string, fn: () => void, o: object) => void }
  if (g.navigator?.onLine === false && g.addEventListener) {
    debug('offline: reconnecting once the online event fires')
    await abortable(new Promise<void>((resolve) => g.addEventListener!('online', resolve, { once: true })), stop)
  }
  await sleep(delay, stop)
}
