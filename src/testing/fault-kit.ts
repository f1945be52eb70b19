// What every fault-matrix case checks besides its own outcome: the promise settles within a (generous) bound,
// nothing is left as an unhandled rejection, and the scripted servers are closed after the test.
import { afterEach, beforeEach, expect } from 'vitest'
import { startTestServer, type Handler, type TestServer } from './test-server'

/** How long any fault may take to settle. Generous: a bound against hangs, not a timing assertion. */
export const SETTLE_MS = 5000

/** The value or error `promise` settles with; fails the test if it has not settled within `ms`. */
export async function settle<T>(promise: Promise<T>, ms = SETTLE_MS): Promise<{ value?: T; error?: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const hang = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms)))
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error: unknown) => ({ error })), hang])
  } finally {
    clearTimeout(timer)
  }
}

/** The error `promise` rejects with (fails if it resolves, or hangs). */
export async function failure(promise: Promise<unknown>, ms = SETTLE_MS): Promise<unknown> {
  const outcome = await settle(promise, ms)
  expect(outcome, 'expected a rejection').toHaveProperty('error')
  return outcome.error
}

/**
 * Registers the per-test checks of a fault file and returns `serve(handler)`, which starts a scripted server
 * closed after the test. Unhandled rejections during a test fail it.
 */
export function faultKit(): (handler: Handler) => Promise<TestServer> {
  const unhandled: unknown[] = []
  const servers: TestServer[] = []
  const onUnhandled = (reason: unknown) => void unhandled.push(reason)
  beforeEach(() => {
    unhandled.length = 0
    process.on('unhandledRejection', onUnhandled)
  })
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
    // Let rejections of the last turn surface before judging.
    await new Promise((resolve) => setImmediate(resolve))
    process.off('unhandledRejection', onUnhandled)
    expect(unhandled, 'unhandled rejections').toEqual([])
  })
  return async (handler) => {
    const server = await startTestServer(handler)
    servers.push(server)
    return server
  }
}
