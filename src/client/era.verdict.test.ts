// The era table (`verdict` in era.ts), row by row: which answers make a client modern, which lead to the handshake, which leave the era unknown; asserting what went over the wire.
import { describe, expect, it } from 'vitest'
import { HttpError } from '../errors/http-error'
import { NetworkError } from '../errors/network-error'
import { RpcError } from '../errors/rpc-error'
import { TimeoutError } from '../errors/timeout-error'
import { UnsupportedVersionError } from '../errors/unsupported-version-error'
import { LEGACY_VERSIONS, VERSION } from '../version'
import { ok, type Reply, type Seen } from '../testing/scripted-server'
import { legacy, scriptedClients, TOOLS as tools } from '../testing/scripted-client'

const kit = scriptedClients()
const connect = kit.start
const error = (seen: Seen, status: number, code: number, message: string, data?: unknown): Reply => ({
  status,
  body: { jsonrpc: '2.0', id: seen.body?.id ?? null, error: { code, message, data } },
})

describe('a result carrying resultType', () => {
  it('makes the client modern after exactly one POST', async () => {
    const client = await connect((seen) => ok(seen, { ...tools, resultType: 'complete', ttlMs: 0 }))
    expect(client.era).toBeUndefined()
    const result = await client.request('tools/list')
    expect(result.tools).toHaveLength(1)
    expect(client.era).toBe('modern')
    expect(client.protocolVersion).toBe(VERSION)
    expect(kit.server.methods()).toEqual(['tools/list'])
    const [first] = kit.server.seen
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
    expect(kit.server.methods()).toEqual(['tools/list', 'server/discover', 'tools/list'])
  })

  it('falls back to the handshake when server/discover does not list 2026-07-28', async () => {
    const client = await connect(legacy((seen) => (seen.body.method === 'server/discover' ? error(seen, 400, -32000, 'Bad Request: Server not initialized') : ok(seen, tools))))
    await client.request('tools/list')
    await client.request('tools/list')
    expect(client.era).toBe('legacy')
    expect(kit.server.methods()).toEqual(['tools/list', 'server/discover', 'initialize', 'notifications/initialized', 'tools/list'])
  })
})

describe('connect() probing with server/discover', () => {
  it('an empty result is the legacy signal: the handshake answers instead, in three POSTs', async () => {
    const client = await connect(legacy((seen) => ok(seen, {})))
    const description = await client.connect()
    expect(description).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'old' } })
    expect(kit.server.methods()).toEqual(['server/discover', 'initialize', 'notifications/initialized'])
  })

  it('a discover result listing 2026-07-28 without resultType is modern', async () => {
    const client = await connect((seen) => ok(seen, { supportedVersions: [VERSION], capabilities: {} }))
    expect(await client.connect()).toMatchObject({ era: 'modern', supportedVersions: [VERSION] })
    expect(kit.server.methods()).toEqual(['server/discover'])
  })
})

describe('UnsupportedProtocolVersion (-32022)', () => {
  it('that lists 2026-07-28 is retried once with a new id', async () => {
    const client = await connect((seen, i) =>
      i === 0 ? error(seen, 400, -32022, 'Unsupported protocol version', { supported: [VERSION], requested: VERSION }) : ok(seen, { ...tools, resultType: 'complete' }),
    )
    await client.request('tools/list')
    expect(kit.server.methods()).toEqual(['tools/list', 'tools/list'])
    expect(kit.server.seen[0]!.body.id).not.toBe(kit.server.seen[1]!.body.id)
    expect(client.era).toBe('modern')
  })

  it('a second time is an error, not a loop', async () => {
    const client = await connect((seen) => error(seen, 400, -32022, 'Unsupported protocol version', { supported: [VERSION, '2025-11-25'] }))
    const failure = await client.request('tools/list').catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(UnsupportedVersionError)
    expect(kit.server.methods()).toEqual(['tools/list', 'tools/list'])
  })

  it('that lists a legacy revision leads to the handshake offering the newest one listed, then the request', async () => {
    const client = await connect(legacy((seen) => error(seen, 400, -32022, 'Unsupported protocol version', { supported: ['2025-03-26', '2025-06-18'] })))
    await client.request('tools/list')
    expect(kit.server.methods()).toEqual(['tools/list', 'initialize', 'notifications/initialized', 'tools/list'])
    expect(kit.server.seen[1]!.body.params.protocolVersion).toBe('2025-06-18')
    expect(client.era).toBe('legacy')
    expect(client.protocolVersion).toBe('2025-06-18')
    expect(kit.server.seen[3]!.headers['mcp-protocol-version']).toBe('2025-06-18')
    expect(kit.server.seen[3]!.headers['mcp-session-id']).toBe('session-1')
    expect(kit.server.seen[3]!.body.params._meta).toBeUndefined()
  })

  it('that lists no revision leads to the handshake offering LEGACY_VERSIONS[0]', async () => {
    const client = await connect(legacy((seen) => error(seen, 400, -32022, 'Unsupported protocol version')))
    await client.request('tools/list')
    expect(kit.server.seen[1]!.body.params.protocolVersion).toBe(LEGACY_VERSIONS[0])
  })

  it('that lists only unknown revisions fails with both lists named', async () => {
    const client = await connect((seen) => error(seen, 400, -32022, 'Unsupported protocol version', { supported: ['2030-01-01'] }))
    const failure = (await client.request('tools/list').catch((e: unknown) => e)) as UnsupportedVersionError
    expect(failure).toBeInstanceOf(UnsupportedVersionError)
    expect(failure.offered).toEqual(['2030-01-01'])
    expect(failure.message).toContain('2030-01-01')
    expect(failure.message).toContain(VERSION)
    expect(kit.server.methods()).toEqual(['tools/list'])
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
      expect(kit.server.methods()).toEqual(['tools/call'])
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
      expect(kit.server.methods()).toEqual(['tools/list', 'initialize', 'notifications/initialized', 'tools/list'])
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
      expect(kit.server.methods()).toEqual(['tools/list'])
    })
  }

  it('a network error is a NetworkError and the era stays unknown', async () => {
    const client = await connect(() => ({ status: 200 }))
    const url = kit.server.url
    await kit.server.close()
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
