// createMcp's subscription, its requests and an older server, against the real Client over an in-memory server
// (FakeTransport); the lists themselves are in create-mcp.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ServerNotification } from '../client/types'
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { FakeTransport } from '../testing/fake-transport'
import { closeOpened, loaded, open, record, tool, turn, UNMOUNT_DELAY, until } from '../testing/stores-kit'

afterEach(closeOpened)

describe('the subscription', () => {
  it('a watchResource callback that throws is reported through debug, and the other watchers still hear the update', async () => {
    const server = new FakeTransport('modern', { resources: { subscribe: true } })
    const debug: string[] = []
    const mcp = open(server, { debug: (m) => debug.push(m) })
    const heard: string[] = []
    mcp.watchResource('file:///a', () => {
      throw new Error('app bug')
    })
    mcp.watchResource('file:///a', () => heard.push('a'))
    await until(() => mcp.$subscription.get()?.status === 'acknowledged', 'the acknowledgement')
    server.notify('notifications/resources/updated', { uri: 'file:///a' })
    expect(heard).toEqual(['a'])
    expect(debug).toContain('a watchResource callback threw')
  })

  it('opens for watched lists the server says can change, in one listen, and closes when nothing watches', async () => {
    const server = new FakeTransport('modern', { tools: { listChanged: true }, prompts: { listChanged: true }, resources: {} }, {
      'tools/list': () => ({ tools: [], ttlMs: 0, cacheScope: 'private' }),
      'prompts/list': () => ({ prompts: [], ttlMs: 0, cacheScope: 'private' }),
      'resources/list': () => ({ resources: [], ttlMs: 0, cacheScope: 'private' }),
    })
    const mcp = open(server)
    const offs = [record(mcp.$tools).off, record(mcp.$prompts).off, record(mcp.$resources).off]
    await until(() => mcp.$subscription.get()?.status === 'acknowledged', 'the acknowledgement')
    await turn()
    await turn()
    expect(server.count('subscriptions/listen')).toBe(1)
    // resources has no listChanged: it is not asked for.
    expect(server.requests.find((r) => r.method === 'subscriptions/listen')!.params!.notifications).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
    })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    for (const off of offs) off()
    // The unmount, then the reconciliation it schedules (a 0 ms timeout, which runs 1 ms later).
    await vi.advanceTimersByTimeAsync(UNMOUNT_DELAY + 1)
    await until(() => server.listens.size === 0, 'the close')
    expect(mcp.$subscription.get()).toEqual({ status: 'closed', reason: 'client' })
  })

  it('is never opened when the server announces no changes', async () => {
    const server = new FakeTransport('modern', { tools: {} }, { 'tools/list': () => ({ tools: [], ttlMs: 0, cacheScope: 'private' }) })
    const mcp = open(server)
    const tools = record(mcp.$tools)
    await until(() => loaded(mcp.$tools.get()), 'the list')
    await turn()
    await turn()
    expect(server.count('subscriptions/listen')).toBe(0)
    expect(mcp.$subscription.get()).toBeUndefined()
    tools.off()
  })

  it('follows watched resources: updates of a URI and its sub-resources, reopening when the set changes', async () => {
    const server = new FakeTransport('modern', { resources: { subscribe: true } })
    const mcp = open(server)
    const updates: string[] = []
    const stopA = mcp.watchResource('file:///a', () => updates.push('a'))
    await until(() => server.listens.size === 1 && mcp.$subscription.get()?.status === 'acknowledged', 'the first listen')
    const stopB = mcp.watchResource('file:///b', () => updates.push('b'))
    await until(() => server.count('subscriptions/listen') === 2 && mcp.$subscription.get()?.status === 'acknowledged', 'the reopen')
    // The new one opened before the old one closed.
    await until(() => server.listens.size === 1, 'the old one to close')
    expect([...server.listens][0]!.notifications).toEqual({ resourceSubscriptions: ['file:///a', 'file:///b'] })
    server.notify('notifications/resources/updated', { uri: 'file:///a/child' })
    server.notify('notifications/resources/updated', { uri: 'file:///b' })
    server.notify('notifications/resources/updated', { uri: 'file:///ab' })
    expect(updates).toEqual(['a', 'b'])
    stopA()
    stopA()
    await until(() => server.count('subscriptions/listen') === 3, 'the reopen without a')
    await until(() => mcp.$subscription.get()?.status === 'acknowledged' && server.listens.size === 1, 'the acknowledgement')
    expect([...server.listens][0]!.notifications).toEqual({ resourceSubscriptions: ['file:///b'] })
    stopB()
    await until(() => server.listens.size === 0, 'the close')
  })

  it('re-fetches what it may have missed when a dropped stream is acknowledged again', async () => {
    const server = new FakeTransport('modern', { tools: { listChanged: true } }, { 'tools/list': () => ({ tools: [], ttlMs: 60_000, cacheScope: 'private' }) })
    const mcp = open(server)
    const tools = record(mcp.$tools)
    await until(() => loaded(mcp.$tools.get()) && mcp.$subscription.get()?.status === 'acknowledged', 'list and subscription')
    expect(server.count('tools/list')).toBe(1)
    ;[...server.listens][0]!.end(new ProtocolError('stream-ended', 'stream ended'))
    await until(() => server.count('subscriptions/listen') === 2 && mcp.$subscription.get()?.status === 'acknowledged', 'the reconnect')
    await until(() => server.count('tools/list') === 2, 'the re-fetch')
    tools.off()
  })
})

describe('requests', () => {
  it('callTool, getPrompt, readResource and complete send the right requests and return results', async () => {
    const server = new FakeTransport('modern', { tools: {}, prompts: {}, resources: {}, completions: {} }, {
      'tools/call': (p) => ({ content: [{ type: 'text', text: `${String(p.name)} ${JSON.stringify(p.arguments)}` }] }),
      'prompts/get': (p) => ({ messages: [{ role: 'user', content: { type: 'text', text: JSON.stringify(p) } }] }),
      'resources/read': (p) => ({ contents: [{ uri: p.uri, text: 'hi' }], ttlMs: 0, cacheScope: 'private' }),
      'completion/complete': () => ({ completion: { values: ['py', 'pytorch'], total: 2, hasMore: false } }),
    })
    const mcp = open(server)
    expect(await mcp.callTool('echo', { x: 1 })).toMatchObject({ content: [{ text: 'echo {"x":1}' }] })
    expect((await mcp.getPrompt('p', { a: 'b' })).messages).toHaveLength(1)
    expect(server.requests.at(-1)!.params).toMatchObject({ name: 'p', arguments: { a: 'b' } })
    expect(await mcp.readResource('file:///x')).toMatchObject({ contents: [{ uri: 'file:///x' }] })
    expect(await mcp.complete({ type: 'ref/prompt', name: 'p' }, { name: 'lang', value: 'py' }, { arguments: { a: 'b' } })).toEqual({
      values: ['py', 'pytorch'],
      total: 2,
      hasMore: false,
    })
    expect(server.requests.at(-1)!.params).toMatchObject({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'lang', value: 'py' }, context: { arguments: { a: 'b' } } })
  })

  it('an unknown tool makes a watched tools list re-fetch', async () => {
    const server = new FakeTransport('modern', { tools: {} }, {
      'tools/list': () => ({ tools: [tool('gone')], ttlMs: 60_000, cacheScope: 'private' }),
      'tools/call': () => Promise.reject(Object.assign(new Error('Unknown tool'), { code: -32602 })),
    })
    const mcp = open(server)
    const tools = record(mcp.$tools)
    await until(() => loaded(mcp.$tools.get()), 'the list')
    await expect(mcp.callTool('gone')).rejects.toBeInstanceOf(RpcError)
    await until(() => server.count('tools/list') === 2, 'the re-fetch')
    tools.off()
  })

  it('close() ends the subscription and the client and leaves $status closed', async () => {
    const server = new FakeTransport('modern', { tools: { listChanged: true } }, { 'tools/list': () => ({ tools: [], ttlMs: 0, cacheScope: 'private' }) })
    const mcp = open(server)
    const tools = record(mcp.$tools)
    await until(() => mcp.$subscription.get()?.status === 'acknowledged', 'the subscription')
    await mcp.close()
    expect(mcp.$status.get()).toEqual({ status: 'closed' })
    expect(server.listens.size).toBe(0)
    expect(server.closed).toBe(true)
    const count = server.requests.length
    await mcp.refresh('tools')
    expect(server.requests).toHaveLength(count)
    await expect(mcp.connect()).rejects.toThrow(/aborted/)
    tools.off()
  })
})

describe('an older (2025-11-25) server', () => {
  it('lists after the handshake and refreshes on list_changed from a request stream and from the session stream', async () => {
    let version = 0
    const server = new FakeTransport('legacy', { tools: { listChanged: true } }, {
      'tools/list': () => ({ tools: [tool('stable'), tool('moving', `v${++version}`)] }),
      'tools/call': () => ({ content: [] }),
    })
    const seen: ServerNotification[] = []
    const mcp = open(server, { onNotification: (n) => seen.push(n) })
    const tools = record(mcp.$tools)
    await until(() => loaded(mcp.$tools.get()) && mcp.$subscription.get()?.status === 'acknowledged', 'list and subscription')
    expect(mcp.$server.get()).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'fake-legacy' } })
    expect(server.requests.some((r) => r.method === 'initialize')).toBe(true)
    expect(server.sent.map((m) => 'method' in m && m.method)).toContain('notifications/initialized')
    const first = mcp.$tools.get()
    expect(first.items[1]).toEqual(tool('moving', 'v1'))

    // On the stream of an unrelated request: reaches onNotification once that request settled.
    server.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    await mcp.callTool('x')
    await until(() => mcp.$tools.get().items[1]?.description === 'v2' && !mcp.$tools.get().loading, 'the first refresh')
    expect(seen.map((n) => n.method)).toEqual(['notifications/tools/list_changed'])
    expect(mcp.$tools.get().items[0]).toBe(first.items[0])

    // On the session's own stream (opened by the subscription).
    server.notify('notifications/tools/list_changed')
    await until(() => mcp.$tools.get().items[1]?.description === 'v3' && !mcp.$tools.get().loading, 'the second refresh')
    expect(server.count('tools/list')).toBe(3)
    tools.off()
  })

  it('subscribes watched resources with resources/subscribe and reports their updates', async () => {
    const server = new FakeTransport('legacy', { resources: { subscribe: true } })
    const mcp = open(server)
    let updates = 0
    const stop = mcp.watchResource('file:///log', () => updates++)
    await until(() => mcp.$subscription.get()?.status === 'acknowledged', 'the subscription')
    expect(server.requests.find((r) => r.method === 'resources/subscribe')!.params).toEqual({ uri: 'file:///log' })
    server.notify('notifications/resources/updated', { uri: 'file:///log' })
    expect(updates).toBe(1)
    stop()
    await until(() => server.count('resources/unsubscribe') === 1, 'the unsubscribe')
  })
})
