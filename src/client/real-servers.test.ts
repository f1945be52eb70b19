// The client against real MCP servers from the npm registry (scripts/servers), over the real transports.
import { EventSource } from 'eventsource'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { Client, forgetEras } from './client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { SseTransport } from '../transport/sse'
import { scoped } from '../../scripts/servers/scoped.ts'
import type { ServerStats } from '../../scripts/servers/types.ts'
import type { ServerNotification, SubscriptionState } from './types'
import { Arrivals, when } from '../testing/wait'

const servers = inject('servers')
const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  forgetEras()
})

const post = (url: string) => fetch(url, { method: 'POST' }).then((r) => r.json())
const stats = (control: string): Promise<ServerStats> => fetch(`${control}/control/stats`).then((r) => r.json())
const make = (transport: StreamableHttpTransport | SseTransport, options = {}) => {
  const client = new Client(transport, options)
  clients.push(client)
  return client
}
const state = (s: { $state: { get(): SubscriptionState } }) => s.$state.get()

describe('the modern server', () => {
  it('costs exactly one HTTP request to the first tools/list', async () => {
    const server = scoped(servers.modern, 'client-one-request')
    await post(`${server.control}/control/stats/reset`)
    const client = make(new StreamableHttpTransport(server.url))
    const { tools } = await client.request('tools/list')
    expect((tools as { name: string }[]).map((t) => t.name)).toContain('echo')
    expect(client.era).toBe('modern')
    expect(await stats(server.control!)).toMatchObject({ requests: 1, byMethod: { 'tools/list': 1 } })
  })

  it('calls tools with Mcp-Param headers, gets prompts, reads resources, reports progress', async () => {
    const client = make(new StreamableHttpTransport(servers.modern.url))
    await client.request('tools/list')
    const regional = await client.request('tools/call', { name: 'regional_echo', arguments: { region: 'eu west ü', text: 'hi' } })
    expect(regional.isError).toBeFalsy()
    const prompt = await client.request('prompts/get', { name: 'greet', arguments: { name: 'Ada' } })
    expect(JSON.stringify(prompt.messages)).toContain('Ada')
    const read = await client.request('resources/read', { uri: 'nanomcp://files/pixel.png' })
    expect((read.contents as { blob?: string }[])[0]!.blob).toMatch(/^iVBOR/)
    const progress: number[] = []
    await client.request('tools/call', { name: 'slow_count', arguments: { steps: 3, delayMs: 1 } }, { onProgress: (p) => progress.push(p.progress) })
    expect(progress).toEqual([1, 2, 3])
  })

  it('answers an elicitation round through onInputRequest', async () => {
    const client = make(new StreamableHttpTransport(servers.modern.url), {
      onInputRequest: (requests: Record<string, unknown>) =>
        Object.fromEntries(Object.keys(requests).map((k) => [k, { action: 'accept', content: { name: 'Grace' } }])),
    })
    const result = await client.request('tools/call', { name: 'ask_name', arguments: {} })
    expect(JSON.stringify(result.content)).toContain('Hello, Grace')
  })

  it('listen(): a tool-list change and a resource update arrive; close(); the server ending it', async () => {
    const server = scoped(servers.modern, 'client-listen')
    const client = make(new StreamableHttpTransport(server.url))
    const seen = new Arrivals<string>()
    const sub = client.listen({ toolsListChanged: true, resourceSubscriptions: ['nanomcp://notes/readme'] }, (n: ServerNotification) => seen.push(n.method))
    expect(state(sub).status).toBe('opening')
    await when(sub.$state, (s) => s.status === 'acknowledged')
    expect(state(sub)).toMatchObject({ notifications: { toolsListChanged: true } })
    await post(`${server.control}/control/add-tool`)
    await post(`${server.control}/control/touch`)
    await seen.nth(1)
    expect([...seen.all].sort()).toEqual(['notifications/resources/updated', 'notifications/tools/list_changed'])
    await sub.close()
    expect(state(sub)).toMatchObject({ status: 'closed', reason: 'client' })

    const second = client.listen({ toolsListChanged: true })
    await when(second.$state, (s) => s.status === 'acknowledged')
    await post(`${server.control}/control/close-listens?mode=graceful`)
    await when(second.$state, (s) => s.status === 'closed')
    expect(state(second)).toMatchObject({ status: 'closed', reason: 'server' })
  })

  it('listen(): a dropped stream is reopened and still delivers', async () => {
    const server = scoped(servers.modern, 'client-listen-drop')
    const client = make(new StreamableHttpTransport(server.url), { listenBackoff: { baseMs: 20, maxMs: 100 } })
    const seen = new Arrivals<string>()
    const sub = client.listen({ toolsListChanged: true }, (n: ServerNotification) => seen.push(n.method))
    await when(sub.$state, (s) => s.status === 'acknowledged')
    const states = new Arrivals<string>()
    sub.$state.listen((s) => states.push(s.status))
    await post(`${server.control}/control/close-listens?mode=drop`)
    await states.find((s) => s === 'opening')
    await when(sub.$state, (s) => s.status === 'acknowledged')
    await post(`${server.control}/control/add-tool`)
    await seen.nth(0)
    await sub.close()
  })
})

const legacyKinds = [
  ['legacy', () => new StreamableHttpTransport(servers.legacy.url), '2025-11-25'],
  ['server-everything (streamable)', () => new StreamableHttpTransport(servers.everything.url), '2025-11-25'],
  ['HTTP+SSE via fallback', () => new StreamableHttpTransport(servers.sse.url, { EventSource }), '2024-11-05'],
  ['server-everything (sse)', () => new SseTransport(servers.everythingSse.url, { EventSource }), '2025-11-25'],
] as const

describe.each(legacyKinds)('%s', (_name, transport, revision) => {
  it('falls back and lists, calls, gets prompts and reads resources', async () => {
    const client = make(transport())
    const { tools } = await client.request('tools/list')
    expect(client.era).toBe('legacy')
    expect(client.protocolVersion).toBe(revision === '2024-11-05' ? client.protocolVersion : revision)
    const names = (tools as { name: string }[]).map((t) => t.name)
    expect(names.length).toBeGreaterThan(2)
    const echo = await client.request('tools/call', { name: 'echo', arguments: names.includes('echo') ? { text: 'hey', message: 'hey' } : {} })
    expect(JSON.stringify(echo.content)).toContain('hey')
    const { prompts } = await client.request('prompts/list')
    const prompt = (prompts as { name: string; arguments?: { name: string; required?: boolean }[] }[])[0]!
    const args = Object.fromEntries((prompt.arguments ?? []).filter((a) => a.required).map((a) => [a.name, 'x']))
    const got = await client.request('prompts/get', { name: prompt.name, arguments: args })
    expect(Array.isArray(got.messages)).toBe(true)
    const { resources } = await client.request('resources/list')
    const read = await client.request('resources/read', { uri: (resources as { uri: string }[])[0]!.uri })
    expect((read.contents as unknown[]).length).toBeGreaterThan(0)
  })
})

describe('HTTP+SSE detection', () => {
  it('a Streamable HTTP transport on an HTTP+SSE URL ends up on the EventSource transport at 2024-11-05 or later', async () => {
    const client = make(new StreamableHttpTransport(servers.sse.url, { EventSource }))
    await client.request('tools/list')
    expect(client.transport.sessionStream).toBe(true)
    expect(client.era).toBe('legacy')
  })
})

describe('the stateful legacy server', () => {
  it('a dropped session is replaced and the request re-sent once', async () => {
    const server = scoped(servers.legacy, 'client-404')
    const client = make(new StreamableHttpTransport(server.url))
    await client.request('tools/list')
    const first = client.transport.sessionId
    expect(first).toBeTruthy()
    expect(await post(`${server.control}/control/drop-sessions`)).toMatchObject({ dropped: 1 })
    await post(`${server.control}/control/stats/reset`)
    const { tools } = await client.request('tools/list')
    expect((tools as unknown[]).length).toBeGreaterThan(0)
    expect(client.transport.sessionId).not.toBe(first)
    expect((await stats(server.control!)).byMethod).toMatchObject({ 'tools/list': 2, initialize: 1 })
  })

  it('listen(): list_changed and resources/updated arrive on the GET stream and survive a dropped session', async () => {
    const server = scoped(servers.legacy, 'client-legacy-listen')
    const client = make(new StreamableHttpTransport(server.url), { listenBackoff: { baseMs: 20, maxMs: 100 } })
    const seen = new Arrivals<string>()
    const sub = client.listen({ toolsListChanged: true, resourceSubscriptions: ['nanomcp://notes/readme'], taskIds: ['t'] }, (n: ServerNotification) =>
      seen.push(n.method),
    )
    await when(sub.$state, (s) => s.status === 'acknowledged')
    expect(state(sub)).toEqual({ status: 'acknowledged', notifications: { toolsListChanged: true, resourceSubscriptions: ['nanomcp://notes/readme'] } })
    await post(`${server.control}/control/add-tool`)
    await post(`${server.control}/control/touch`)
    await seen.nth(1)
    expect([...seen.all].sort()).toEqual(['notifications/resources/updated', 'notifications/tools/list_changed'])

    const states = new Arrivals<string>()
    sub.$state.listen((s) => states.push(s.status))
    const before = client.transport.sessionId
    await post(`${server.control}/control/drop-sessions`)
    await states.find((s) => s === 'opening')
    await when(sub.$state, (s) => s.status === 'acknowledged')
    expect(client.transport.sessionId).not.toBe(before)
    await post(`${server.control}/control/add-tool`)
    await seen.nth(2)
    expect(seen.all[2]).toBe('notifications/tools/list_changed')
    await post(`${server.control}/control/stats/reset`)
    await sub.close()
    expect(state(sub)).toMatchObject({ status: 'closed', reason: 'client' })
    expect((await stats(server.control!)).byMethod).toMatchObject({ 'resources/unsubscribe': 1 })
  })

  it('listen() on HTTP+SSE delivers on the EventSource stream', async () => {
    const server = scoped(servers.sse, 'client-sse-listen')
    const client = make(new SseTransport(server.url, { EventSource }))
    const seen = new Arrivals<string>()
    const sub = client.listen({ toolsListChanged: true }, (n: ServerNotification) => seen.push(n.method))
    await when(sub.$state, (s) => s.status === 'acknowledged')
    await post(`${server.control}/control/add-tool`)
    await seen.nth(0)
    expect(seen.all).toEqual(['notifications/tools/list_changed'])
    await sub.close()
  })

  it('a server without a GET stream closes the subscription and says why', async () => {
    // The modern server's legacy leg is stateless: GET answers 405.
    const { LEGACY_VERSIONS } = await import('../version')
    const client = make(new StreamableHttpTransport(scoped(servers.modern, 'client-405').url))
    // Force the legacy era the way a remembered legacy server would.
    const { localStorageEraStore } = await import('./era')
    const storage = new Map<string, string>()
    const eraStore = localStorageEraStore({ getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: () => undefined })
    await eraStore.set(client.transport.url, { era: 'legacy', protocolVersion: LEGACY_VERSIONS[0]! })
    const legacyClient = make(new StreamableHttpTransport(client.transport.url), { eraStore })
    const sub = legacyClient.listen({ toolsListChanged: true })
    await when(sub.$state, (s) => s.status === 'closed')
    expect(state(sub)).toMatchObject({ status: 'closed', reason: 'server' })
    expect((state(sub) as { message: string }).message).toMatch(/405/)
  })
})
