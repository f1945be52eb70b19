// Every row of the era table (`verdict` in era.ts), against a scripted HTTP server, asserting what went over the wire.
import { afterEach, describe, expect, it } from 'vitest'
import { Client, forgetEras } from './client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { HttpError } from '../errors/http-error'
import { NetworkError } from '../errors/network-error'
import { RpcError } from '../errors/rpc-error'
import { TimeoutError } from '../errors/timeout-error'
import { UnsupportedVersionError } from '../errors/unsupported-version-error'
import { LEGACY_VERSIONS, VERSION } from '../version'
import { initialized, ok, scriptedServer, type Reply, type ScriptedServer, type Seen } from '../testing/scripted-server'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  forgetEras()
})

const tools = { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }
const error = (seen: Seen, status: number, code: number, message: string, data?: unknown): Reply => ({
  status,
  body: { jsonrpc: '2.0', id: seen.body?.id ?? null, error: { code, message, data } },
})
/** A legacy server: initialize and the methods after it work, anything before is answered by `before`. */
const legacy = (before: (seen: Seen) => Reply) => (seen: Seen): Reply => {
  if (seen.method === 'DELETE') return { status: 200 }
  if (seen.body?.method === 'initialize') return initialized(seen)
  if (seen.body?.method === 'notifications/initialized') return { status: 202 }
  if (seen.headers['mcp-session-id'] === 'session-1') return ok(seen, tools)
  return before(seen)
}
const connect = async (answer: (seen: Seen, index: number) => Reply | Promise<Reply>, options = {}) => {
  server = await scriptedServer(answer)
  return new Client(new StreamableHttpTransport(server.url), options)
}

describe('a result carrying resultType', () => {
  it('makes the client modern after exactly one POST', async () => {
    const client = await connect((seen) => ok(seen, { ...tools, resultType: 'complete', ttlMs: 0 }))
    expect(client.era).toBeUndefined()
    const result = await client.request('tools/list')
    expect(result.tools).toHaveLength(1)
    expect(client.era).toBe('modern')
    expect(client.protocolVersion).toBe(VERSION)
    expect(server!.methods()).toEqual(['tools/list'])
    const [first] = server!.seen
    expect(first!.headers['mcp-protocol-version']).toBe(VERSION)
    expect(first!.headers['mcp-method']).toBe('tools/list')
    expect(first!.body.params._meta).toEqual(client.meta)
  })
})

describe('a result without resultType while the era is unknown', () => {
  it('keeps the result, then settles the era with one server/discover: modern when it lists 2026-07-28', async () => {
    const client = await connect((seen) => {
      if (seen.body.method === 'server/discover') {
        return ok(seen, { resultType: 'complete', supportedVersions: [VERSION], capabilities: { tools: {} } })
      }
      return ok(seen, seen.body.method === 'tools/list' && seen.body.id === 1 ? tools : { ...tools, resultType: 'complete' })
    })
    expect((await client.request('tools/list')).tools).toHaveLength(1)
    expect(client.era).toBeUndefined()
    await client.request('tools/list')
    expect(client.era).toBe('modern')
    expect(server!.methods()).toEqual(['tools/list', 'server/discover', 'tools/list'])
  })

  it('falls back to the handshake when server/discover does not list 2026-07-28', async () => {
    const client = await connect(legacy((seen) => (seen.body.method === 'server/discover' ? error(seen, 400, -32000, 'Bad Request: Server not initialized') : ok(seen, tools))))
    await client.request('tools/list')
    await client.request('tools/list')
    expect(client.era).toBe('legacy')
    expect(server!.methods()).toEqual(['tools/list', 'server/discover', 'initialize', 'notifications/initialized', 'tools/list'])
  })
})

describe('connect() probing with server/discover', () => {
  it('an empty result is the legacy signal: the handshake answers instead, in three POSTs', async () => {
    const client = await connect(legacy((seen) => ok(seen, {})))
    const description = await client.connect()
    expect(description).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'old' } })
    expect(server!.methods()).toEqual(['server/discover', 'initialize', 'notifications/initialized'])
  })

  it('a discover result listing 2026-07-28 without resultType is modern', async () => {
    const client = await connect((seen) => ok(seen, { supportedVersions: [VERSION], capabilities: {} }))
    expect(await client.connect()).toMatchObject({ era: 'modern', supportedVersions: [VERSION] })
    expect(server!.methods()).toEqual(['server/discover'])
  })
})

describe('UnsupportedProtocolVersion (-32022)', () => {
  it('that lists 2026-07-28 is retried once with a new id', async () => {
    const client = await connect((seen, i) =>
      i === 0 ? error(seen, 400, -32022, 'Unsupported protocol version', { supported: [VERSION], requested: VERSION }) : ok(seen, { ...tools, resultType: 'complete' }),
    )
    await client.request('tools/list')
    expect(server!.methods()).toEqual(['tools/list', 'tools/list'])
    expect(server!.seen[0]!.body.id).not.toBe(server!.seen[1]!.body.id)
    expect(client.era).toBe('modern')
  })

  it('a second time is an error, not a loop', async () => {
    const client = await connect((seen) => error(seen, 400, -32022, 'Unsupported protocol version', { supported: [VERSION, '2025-11-25'] }))
    const failure = await client.request('tools/list').catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(UnsupportedVersionError)
    expect(server!.methods()).toEqual(['tools/list', 'tools/list'])
  })

  it('that lists a legacy revision leads to the handshake offering the newest one listed, then the request', async () => {
    const client = await connect(legacy((seen) => error(seen, 400, -32022, 'Unsupported protocol version', { supported: ['2025-03-26', '2025-06-18'] })))
    await client.request('tools/list')
    expect(server!.methods()).toEqual(['tools/list', 'initialize', 'notifications/initialized', 'tools/list'])
    expect(server!.seen[1]!.body.params.protocolVersion).toBe('2025-06-18')
    expect(client.era).toBe('legacy')
    expect(client.protocolVersion).toBe('2025-06-18')
    expect(server!.seen[3]!.headers['mcp-protocol-version']).toBe('2025-06-18')
    expect(server!.seen[3]!.headers['mcp-session-id']).toBe('session-1')
    expect(server!.seen[3]!.body.params._meta).toBeUndefined()
  })

  it('that lists no revision leads to the handshake offering LEGACY_VERSIONS[0]', async () => {
    const client = await connect(legacy((seen) => error(seen, 400, -32022, 'Unsupported protocol version')))
    await client.request('tools/list')
    expect(server!.seen[1]!.body.params.protocolVersion).toBe(LEGACY_VERSIONS[0])
  })

  it('that lists only unknown revisions fails with both lists named', async () => {
    const client = await connect((seen) => error(seen, 400, -32022, 'Unsupported protocol version', { supported: ['2030-01-01'] }))
    const failure = (await client.request('tools/list').catch((e: unknown) => e)) as UnsupportedVersionError
    expect(failure).toBeInstanceOf(UnsupportedVersionError)
    expect(failure.offered).toEqual(['2030-01-01'])
    expect(failure.message).toContain('2030-01-01')
    expect(failure.message).toContain(VERSION)
    expect(server!.methods()).toEqual(['tools/list'])
  })
})

describe('another recognized modern error', () => {
  for (const [status, code] of [
    [400, -32020],
    [400, -32021],
    [404, -32601],
  ] as const) {
    it(`HTTP ${status} with ${code} makes the client modern and goes to the caller`, async () => {
      const client = await connect((seen) => error(seen, status, code, 'modern says no'))
      const failure = (await client.request('tools/call', { name: 'x' }).catch((e: unknown) => e)) as RpcError
      expect(failure).toBeInstanceOf(RpcError)
      expect(failure.code).toBe(code)
      expect(client.era).toBe('modern')
      expect(server!.methods()).toEqual(['tools/call'])
    })
  }
})

describe('non-modern rejections lead to the handshake', () => {
  const cases: [string, (seen: Seen) => Reply][] = [
    ['HTTP 400 with an empty body', () => ({ status: 400 })],
    ['HTTP 404 with an empty body', () => ({ status: 404 })],
    ['HTTP 405 with a non-modern body', () => ({ status: 405, body: 'Method Not Allowed', headers: { 'content-type': 'text/plain' } })],
    ['HTTP 400 with -32000 "Server not initialized"', (seen) => error(seen, 400, -32000, 'Bad Request: Server not initialized')],
    ['-32601 in a 200', (seen) => error(seen, 200, -32601, 'Method not found')],
  ]
  for (const [name, before] of cases) {
    it(name, async () => {
      const client = await connect(legacy(before))
      const result = await client.request('tools/list')
      expect(result.tools).toHaveLength(1)
      expect(client.era).toBe('legacy')
      expect(server!.methods()).toEqual(['tools/list', 'initialize', 'notifications/initialized', 'tools/list'])
    })
  }
})

describe('errors that say nothing about the era', () => {
  for (const status of [401, 403, 500, 503]) {
    it(`HTTP ${status} fails with an HttpError and leaves the era unknown`, async () => {
      const client = await connect(() => ({ status, body: { error: 'no' } }))
      const failure = (await client.request('tools/list').catch((e: unknown) => e)) as HttpError
      expect(failure).toBeInstanceOf(HttpError)
      expect(failure.status).toBe(status)
      expect(client.era).toBeUndefined()
      expect(server!.methods()).toEqual(['tools/list'])
    })
  }

  it('a network error is a NetworkError and the era stays unknown', async () => {
    const client = await connect(() => ({ status: 200 }))
    const url = server!.url
    await server!.close()
    server = undefined
    const failure = await client.request('tools/list').catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(NetworkError)
    expect((failure as NetworkError).url).toBe(url)
    expect(client.era).toBeUndefined()
  })

  it('a timeout is a TimeoutError and the era stays unknown', async () => {
    const client = await connect(() => new Promise<Reply>(() => undefined))
    const failure = await client.request('tools/list', {}, { timeout: 100 }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(TimeoutError)
    expect(client.era).toBeUndefined()
  })
})

describe('the handshake', () => {
  it('declares only extensions, then sends notifications/initialized and the session id', async () => {
    const client = await connect(legacy(() => ({ status: 400 })), {
      capabilities: { roots: {}, sampling: {}, elicitation: {}, extensions: { 'example/ext': {} } },
    })
    await client.request('tools/list')
    const init = server!.seen[1]!.body
    expect(init.method).toBe('initialize')
    expect(init.params.capabilities).toEqual({ extensions: { 'example/ext': {} } })
    expect(init.params.capabilities).not.toHaveProperty('roots')
    expect(init.params.capabilities).not.toHaveProperty('sampling')
    expect(init.params.capabilities).not.toHaveProperty('elicitation')
    expect(init.params.clientInfo).toEqual({ name: 'nanomcp', version: expect.any(String) })
    expect(server!.seen[2]!.body).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' })
    expect(server!.seen[2]!.headers['mcp-session-id']).toBe('session-1')
  })

  it('answered with a revision outside LEGACY_VERSIONS disconnects with an error naming it', async () => {
    const client = await connect((seen) => {
      if (seen.method === 'DELETE') return { status: 200 }
      if (seen.body.method === 'initialize') return initialized(seen, '2030-01-01')
      return { status: 400 }
    })
    const failure = (await client.request('tools/list').catch((e: unknown) => e)) as UnsupportedVersionError
    expect(failure).toBeInstanceOf(UnsupportedVersionError)
    expect(failure.message).toContain('2030-01-01')
    expect(server!.methods()).toEqual(['tools/list', 'initialize'])
    // the session the server opened is ended, and the client stays disconnected
    expect(server!.seen.some((s) => s.method === 'DELETE' && s.headers['mcp-session-id'] === 'session-1')).toBe(true)
    await expect(client.request('tools/list')).rejects.toBeInstanceOf(UnsupportedVersionError)
  })

  it('a 404 on a request that carried the session id starts a new session and re-sends once', async () => {
    let sessions = 0
    let live: string | undefined
    const client = await connect((seen) => {
      if (seen.body?.method === 'initialize') {
        live = `session-${++sessions}`
        return { ...initialized(seen), headers: { 'mcp-session-id': live } }
      }
      const id = seen.headers['mcp-session-id']
      if (id === undefined) return { status: 400 }
      if (id !== live) return { status: 404, body: { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } } }
      return seen.body.method === 'notifications/initialized' ? { status: 202 } : ok(seen, tools)
    })
    await client.request('tools/list')
    live = undefined // the server drops the session
    const result = await client.request('tools/list')
    expect(result.tools).toHaveLength(1)
    expect(sessions).toBe(2)
    expect(server!.methods().slice(4)).toEqual(['tools/list', 'initialize', 'notifications/initialized', 'tools/list'])
    expect(server!.seen.at(-3)!.headers['mcp-session-id']).toBeUndefined()
    expect(server!.seen.at(-1)!.headers['mcp-session-id']).toBe('session-2')
  })

  it('a second 404 after the new session is an error, not a loop', async () => {
    const client = await connect((seen) => {
      if (seen.body?.method === 'initialize') return initialized(seen)
      if (seen.headers['mcp-session-id'] === undefined) return { status: 400 }
      if (seen.body?.method === 'notifications/initialized') return { status: 202 }
      return { status: 404 }
    })
    const failure = (await client.request('tools/list').catch((e: unknown) => e)) as HttpError
    expect(failure).toBeInstanceOf(HttpError)
    expect(failure.status).toBe(404)
    expect(server!.methods().filter((m) => m === 'initialize')).toHaveLength(2)
  })
})

describe('era memory', () => {
  it('a second client for the same URL goes straight to the handshake', async () => {
    const first = await connect(legacy(() => ({ status: 400 })))
    await first.request('tools/list')
    const second = new Client(new StreamableHttpTransport(server!.url))
    await second.request('tools/list')
    expect(server!.methods()).toEqual(['tools/list', 'initialize', 'notifications/initialized', 'tools/list', 'initialize', 'notifications/initialized', 'tools/list'])
  })

  it('connect() on a remembered legacy server costs the handshake only, no server/discover', async () => {
    const first = await connect(legacy(() => ({ status: 400 })))
    await first.request('tools/list')
    const second = new Client(new StreamableHttpTransport(server!.url))
    expect(await second.connect()).toMatchObject({ era: 'legacy', serverInfo: { name: 'old' } })
    expect(server!.methods().slice(4)).toEqual(['initialize', 'notifications/initialized'])
  })

  it('a persistent store lets a reloaded page skip the failed modern attempt', async () => {
    const { localStorageEraStore } = await import('./era')
    const storage = new Map<string, string>()
    const store = localStorageEraStore({ getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) })
    const first = await connect(legacy(() => ({ status: 400 })), { eraStore: store })
    await first.request('tools/list')
    forgetEras() // the page reloads: memory is gone, the store is not
    const reloaded = new Client(new StreamableHttpTransport(server!.url), { eraStore: store })
    await reloaded.request('tools/list')
    expect(server!.methods().slice(4)).toEqual(['initialize', 'notifications/initialized', 'tools/list'])
    expect([...storage.values()].map((v) => JSON.parse(v))).toEqual([{ era: 'legacy', protocolVersion: '2025-11-25' }])
  })
})
