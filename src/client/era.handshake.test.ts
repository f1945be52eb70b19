// The legacy era against a scripted server: what the handshake declares, its session (a 404 starts a new one once), and era memory across clients and reloads.
import { describe, expect, it } from 'vitest'
import { Client, forgetEras } from './client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { HttpError } from '../errors/http-error'
import { UnsupportedVersionError } from '../errors/unsupported-version-error'
import { initialized, ok } from '../testing/scripted-server'
import { legacy, scriptedClients, TOOLS as tools } from '../testing/scripted-client'

const kit = scriptedClients()
const connect = kit.start

describe('the handshake', () => {
  it('declares only extensions, then sends notifications/initialized and the session id', async () => {
    const client = await connect(legacy(() => ({ status: 400 })), {
      capabilities: { roots: {}, sampling: {}, elicitation: {}, extensions: { 'example/ext': {} } },
    })
    await client.request('tools/list')
    const init = kit.server.seen[1]!.body
    expect(init.method).toBe('initialize')
    expect(init.params.capabilities).toEqual({ extensions: { 'example/ext': {} } })
    expect(init.params.capabilities).not.toHaveProperty('roots')
    expect(init.params.capabilities).not.toHaveProperty('sampling')
    expect(init.params.capabilities).not.toHaveProperty('elicitation')
    expect(init.params.clientInfo).toEqual({ name: 'nanomcp', version: expect.any(String) })
    expect(kit.server.seen[2]!.body).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' })
    expect(kit.server.seen[2]!.headers['mcp-session-id']).toBe('session-1')
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
    expect(kit.server.methods()).toEqual(['tools/list', 'initialize'])
    // the session the server opened is ended, and the client stays disconnected
    expect(kit.server.seen.some((s) => s.method === 'DELETE' && s.headers['mcp-session-id'] === 'session-1')).toBe(true)
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
    expect(kit.server.methods().slice(4)).toEqual(['tools/list', 'initialize', 'notifications/initialized', 'tools/list'])
    expect(kit.server.seen.at(-3)!.headers['mcp-session-id']).toBeUndefined()
    expect(kit.server.seen.at(-1)!.headers['mcp-session-id']).toBe('session-2')
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
    expect(kit.server.methods().filter((m) => m === 'initialize')).toHaveLength(2)
  })
})

describe('era memory', () => {
  it('a second client for the same URL goes straight to the handshake', async () => {
    const first = await connect(legacy(() => ({ status: 400 })))
    await first.request('tools/list')
    const second = new Client(new StreamableHttpTransport(kit.server.url))
    await second.request('tools/list')
    expect(kit.server.methods()).toEqual(['tools/list', 'initialize', 'notifications/initialized', 'tools/list', 'initialize', 'notifications/initialized', 'tools/list'])
  })

  it('connect() on a remembered legacy server costs the handshake only, no server/discover', async () => {
    const first = await connect(legacy(() => ({ status: 400 })))
    await first.request('tools/list')
    const second = new Client(new StreamableHttpTransport(kit.server.url))
    expect(await second.connect()).toMatchObject({ era: 'legacy', serverInfo: { name: 'old' } })
    expect(kit.server.methods().slice(4)).toEqual(['initialize', 'notifications/initialized'])
  })

  it('a persistent store lets a reloaded page skip the failed modern attempt', async () => {
    const { localStorageEraStore } = await import('./era')
    const storage = new Map<string, string>()
    const store = localStorageEraStore({ getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) })
    const first = await connect(legacy(() => ({ status: 400 })), { eraStore: store })
    await first.request('tools/list')
    forgetEras() // the page reloads: memory is gone, the store is not
    const reloaded = new Client(new StreamableHttpTransport(kit.server.url), { eraStore: store })
    await reloaded.request('tools/list')
    expect(kit.server.methods().slice(4)).toEqual(['initialize', 'notifications/initialized', 'tools/list'])
    expect([...storage.values()].map((v) => JSON.parse(v))).toEqual([{ era: 'legacy', protocolVersion: '2025-11-25' }])
  })
})
