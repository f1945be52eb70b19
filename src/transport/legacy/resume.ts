import { sleep } from '../http'
import type { StreamCursor } from '../read-sse'
import { expectStream, SSE_ACCEPT } from './expect-stream'
import type { StreamHost } from './types'

// Consecutive reconnections that bring no new event before a stream is given up.
const MAX_RECONNECTS = 5
const DEFAULT_RETRY_MS = 1000

/**
 * Resumes a legacy-era SSE stream that ended early (2025-11-25 "polling": a server may close the connection
 * without ending the stream): waits the server's `retry`, then GETs with Last-Event-ID and reads on with `read`,
 * as often as reconnections bring new events (then up to MAX_RECONNECTS more). Resolves true once `finished()`,
 * false when the stream ended for good.
 */
export async function resume(
  host: StreamHost,
  cursor: StreamCursor,
  signal: AbortSignal,
  read: (response: Response) => Promise<unknown>,
  finished: () => boolean,
): Promise<boolean> {
  let fruitless = 0
  for (;;) {
    const before = cursor.lastEventId
    // Header values must be visible ASCII: an id that cannot be sent back cannot resume anything.
    if (!before || !/^[\x20-\x7e]+$/.test(before)) return false
    await sleep(cursor.retry ?? DEFAULT_RETRY_MS, signal)
    const response = await host.fetch('GET', { ...SSE_ACCEPT, 'Last-Event-ID': before, ...host.headers() }, signal)
    await expectStream(response, host.max)
    await read(response)
    if (finished()) return true
    fruitless = cursor.lastEventId === before ? fruitless + 1 : 0
    if (fruitless >= MAX_RECONNECTS) return false
  }
}
