// Test setup for Client tests over Streamable HTTP against a scripted server: one server per test, closed after it, eras forgotten.
import { afterEach, expect } from 'vitest'
import { Client, forgetEras } from '../client/client'
import type { ClientOptions } from '../client/types'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { initialized, ok, scriptedServer, type Reply, type ScriptedServer, type Seen } from './scripted-server'
import { collectUnhandled } from './quiet'
import { Arrivals } from './wait'

export interface ScriptedClients {
  /** Starts this test's scripted server and a Client to it. */
  start(answer: (seen: Seen, index: number) => Reply | Promise<Reply>, options?: ClientOptions): Promise<Client>
  /** This test's server (once started). */
  readonly server: ScriptedServer
  /** Everything the server saw in this test, as it arrives. */
  readonly arrived: Arrivals<Seen>
}

/** With `unhandled`, every test also ends with no unhandled rejection from what it left behind. */
export function scriptedClients(options: { unhandled?: boolean } = {}): ScriptedClients {
  const unhandled = options.unhandled ? collectUnhandled() : undefined
  let server: ScriptedServer | undefined
  let arrived = new Arrivals<Seen>()
  afterEach(async () => {
    await server?.close()
    server = undefined
    forgetEras()
    if (!unhandled) return
    // Reported after a turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve))
    expect(unhandled).toEqual([])
  })
  return {
    async start(answer, clientOptions = {}) {
      arrived = new Arrivals<Seen>()
      server = await scriptedServer((seen, index) => {
        arrived.push(seen)
        return answer(seen, index)
      })
      return new Client(new StreamableHttpTransport(server.url), clientOptions)
    },
    get server() {
      return server!
    },
    get arrived() {
      return arrived
    },
  }
}

export const TOOLS = { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }

/** A legacy server: initialize and the methods after it work, anything before is answered by `before`. */
export const legacy = (before: (seen: Seen) => Reply) => (seen: Seen): Reply => {
  if (seen.method === 'DELETE') return { status: 200 }
  if (seen.body?.method === 'initialize') return initialized(seen)
  if (seen.body?.method === 'notifications/initialized') return { status: 202 }
  if (seen.headers['mcp-session-id'] === 'session-1') return ok(seen, TOOLS)
  return before(seen)
}

/** A 2026-07-28 result: `resultType: 'complete'` and `result`. */
export const complete = (seen: Seen, result: Record<string, unknown>) => ok(seen, { resultType: 'complete', ...result })

/** Raw SSE text carrying `messages` as message events. */
export const sse = (...messages: unknown[]) => messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join('')
