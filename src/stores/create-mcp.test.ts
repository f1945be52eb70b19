// createMcp against the real Client over an in-memory server (FakeTransport), modern and legacy.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ReadableAtom } from 'nanostores'
import { forgetEras } from '../client/client'
import type { ServerNotification } from '../client/types'
import { NetworkError } from '../errors/network-error'
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { createMcp } from './create-mcp'
import { FakeTransport, pages } from '../testing/fake-transport'
import type { ListState, Mcp, McpOptions } from './types'

const tool = (name: string, description?: string) => ({ name, inputSchema: { type: 'object' }, ...(description ? { description } : {}) })
const manyTools = (n: number) => Array.from({ length: n }, (_, i) => tool(`tool-${i}`))
/** One turn of the event loop (promise jobs, I/O, timers due): no clock is involved, so none is waited on. */
const turn = () => new Promise((resolve) => setImmediate(resolve))
/** Waits until `check` holds, re-checking after each turn of the event loop; fails if it never does. */
async function until(check: () => boolean, what: string, turns = 5000): Promise<void> {
  for (let n = 0; !check(); n++) {
    if (n === turns) throw new Error(`never happened: ${what}`)
    await turn()
    // Under fake timers, what is due now (a 0 ms timeout) still runs; the clock itself does not move.
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(0)
  }
}
// nanostores unmounts a store this long after its last listener left.
const UNMOUNT_DELAY = 1000
/** Watches an atom (which mounts it) and records every value it is set to. */
function record<T>($atom: ReadableAtom<T>) {
  const values: T[] = []
  const off = $atom.listen((value) => values.push(value))
  return { values, off }
}
const loaded = (state: ListState<unknown>) => !state.loading && state.updatedAt > 0

const opened: Mcp[] = []
const open = (transport: FakeTransport, options?: McpOptions) => {
  const mcp = createMcp(transport, { listenBackoff: { baseMs: 5, maxMs: 20 }, ...options })
  opened.push(mcp)
  return mcp
}
afterEach(async () => {
  vi.useRealTimers()
  await Promise.all(opened.splice(0).map((mcp) => mcp.close()))
  forgetEras()
})

describe('lists (2026-07-28 server)', () => {
  it('load nothing until watched, then 10,000 tools over 100 pages in one update of the items', async () => {
    const all = manyTools(10_000)
    const server = new FakeTransport('modern', { tools: {} }, { 'tools/list': pages('tools', () => all, 100) })
    const mcp = open(server)
    await turn()
    await turn()
    expect(server.requests).toHaveLength(0)
    expect(mcp.$status.get()).toEqual({ status: 'idle' })

    const tools = record(mcp.$tools)
    // Mounting sets `loading` before the first listener is attached, so a subscriber sees it as the initial value.
    expect(mcp.$tools.get().loading).toBe(true)
    await until(() => loaded(mcp.$tools.get()), 'the list')
    expect(server.count('tools/list')).toBe(100)
    expect(server.requests[0]!.method).toBe('server/discover')
    const listed = server.requests.filter((r) => r.method === 'tools/list')
    expect(listed.map((r) => r.params?.cursor).slice(0, 3)).toEqual([undefined, '100', '200'])
    expect(tools.values).toHaveLength(1)
    expect(tools.values[0]!.items).toHaveLength(10_000)
    expect(tools.values[0]!.items[9_999]).toEqual(all[9_999])
    expect(tools.values[0]).toMatchObject({ loading: false, error: undefined, stale: false })
    expect(mcp.$status.get()).toEqual({ status: 'ready' })
    expect(mcp.$server.get()).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', serverInfo: { name: 'fake-modern' } })
    tools.off()
  })

  it('do not ask for lists the server has no capability for', async () => {
    const server = new FakeTransport('modern', { tools: {} })
    const mcp = open(server)
    const prompts = record(mcp.$prompts)
    await until(() => loaded(mcp.$prompts.get()), 'prompts')
    expect(mcp.$prompts.get()).toMatchObject({ items: [], error: undefined })
    expect(server.count('prompts/list')).toBe(0)
    prompts.off()
  })

  it('coalesce a burst of 1,000 change notifications into one refresh in flight plus one queued', async () => {
    let version = 0
    const server = new FakeTransport('modern', { tools: { listChanged: true } }, {
      'tools/list': async () => {
        const v = ++version
        // A server that takes a moment: the burst below arrives while a refresh is in flight.
        await turn()
        return { tools: [tool('stable'), tool('moving', `v${v}`)], ttlMs: 60_000, cacheScope: 'private' }
      },
    })
    const mcp = open(server)
    const tools = record(mcp.$tools)
    await until(() => loaded(mcp.$tools.get()) && mcp.$subscription.get()?.status === 'acknowledged', 'list and subscription')
    const first = mcp.$tools.get()
    expect(server.requests.find((r) => r.method === 'subscriptions/listen')!.params!.notifications).toEqual({ toolsListChanged: true })
    const before = tools.values.length

    for (let i = 0; i < 1000; i++) server.notify('notifications/tools/list_changed')
    await until(() => server.count('tools/list') === 3 && loaded(mcp.$tools.get()), 'the refreshes')
    for (let i = 0; i < 5; i++) await turn()
    expect(server.count('tools/list')).toBe(3)
    // Figure: 3 atom updates for the burst: loading on (stale: a change was announced), the in-flight run's list
    // (still loading and stale, since a change is queued behind it), the queued run's final list.
    const burst = tools.values.slice(before)
    expect(burst.map((s) => [s.loading, s.stale])).toEqual([
      [true, true],
      [true, true],
      [false, false],
    ])
    const last = mcp.$tools.get()
    expect(last.items[0]).toBe(first.items[0])
    expect(last.items[1]).not.toBe(first.items[1])
    expect(last.items[1]).toEqual(tool('moving', 'v3'))
    tools.off()
  })

  it('serve a stale list flagged as such after its TTL, without polling, and re-fetch on the next mount', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    let served = 0
    const server = new FakeTransport('modern', { tools: {} }, {
      'tools/list': () => ({ tools: [tool(`t${++served}`)], ttlMs: 80, cacheScope: 'private' }),
    })
    const mcp = open(server)
    let tools = record(mcp.$tools)
    await until(() => loaded(mcp.$tools.get()), 'the list')
    expect(mcp.$tools.get().stale).toBe(false)
    await vi.advanceTimersByTimeAsync(79)
    expect(mcp.$tools.get().stale).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(mcp.$tools.get().stale).toBe(true)
    await vi.advanceTimersByTimeAsync(150)
    expect(server.count('tools/list')).toBe(1)
    expect(tools.values.map((s) => s.stale)).toEqual([false, true])
    tools.off()
    await vi.advanceTimersByTimeAsync(UNMOUNT_DELAY)
    tools = record(mcp.$tools)
    // Shown stale (with the old items) while it re-fetches.
    expect(mcp.$tools.get()).toMatchObject({ loading: true, stale: true, items: [tool('t1')] })
    await until(() => loaded(mcp.$tools.get()), 'the re-fetch')
    expect(mcp.$tools.get()).toMatchObject({ stale: false, items: [tool('t2')] })
    tools.off()
  })

  it('keep a fresh list on a re-mount within its TTL', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const server = new FakeTransport('modern', { prompts: {} }, { 'prompts/list': () => ({ prompts: [{ name: 'p' }], ttlMs: 60_000, cacheScope: 'private' }) })
    const mcp = open(server, { ttlMs: 60_000 })
    expect(mcp.$prompts.get().items).toEqual([]) // get() mounts and unmounts: it starts the load
    await until(() => loaded(mcp.$prompts.value!), 'the list')
    await vi.advanceTimersByTimeAsync(UNMOUNT_DELAY)
    const prompts = record(mcp.$prompts)
    await turn()
    await turn()
    expect(server.count('prompts/list')).toBe(1)
    expect(prompts.values).toHaveLength(0)
    await mcp.refresh('prompts')
    expect(server.count('prompts/list')).toBe(2)
    prompts.off()
  })

  it('share public lists between instances that run under the public scope, never private ones', async () => {
    const handlers = (scope: string) => ({ 'tools/list': () => ({ tools: [tool('shared')], ttlMs: 60_000, cacheScope: scope }) })
    const url = 'http://127.0.0.1:1/shared'
    const a = new FakeTransport('modern', { tools: {} }, handlers('public'), url)
    const b = new FakeTransport('modern', { tools: {} }, handlers('public'), url)
    const c = new FakeTransport('modern', { tools: {} }, handlers('public'), url)
    const first = open(a, { cacheScope: 'public' })
    const offA = record(first.$tools).off
    await until(() => loaded(first.$tools.get()), 'list a')
    const second = open(b, { cacheScope: 'public' })
    const offB = record(second.$tools).off
    expect(second.$tools.get().items).toEqual([tool('shared')])
    expect(second.$tools.get().items[0]).toBe(first.$tools.get().items[0])
    const third = open(c)
    const offC = record(third.$tools).off
    await until(() => loaded(third.$tools.get()), 'list c')
    expect([a.count('tools/list'), b.count('tools/list'), c.count('tools/list')]).toEqual([1, 0, 1])

    const privateUrl = 'http://127.0.0.1:1/private'
    const d = new FakeTransport('modern', { tools: {} }, handlers('private'), privateUrl)
    const e = new FakeTransport('modern', { tools: {} }, handlers('private'), privateUrl)
    const fourth = open(d, { cacheScope: 'public' })
    const offD = record(fourth.$tools).off
    await until(() => loaded(fourth.$tools.get()), 'list d')
    const fifth = open(e, { cacheScope: 'public' })
    const offE = record(fifth.$tools).off
    await until(() => loaded(fifth.$tools.get()), 'list e')
    expect(e.count('tools/list')).toBe(1)
    for (const off of [offA, offB, offC, offD, offE]) off()
  })
})

describe('bad lists', () => {
  it('a repeated cursor is an error state on the atom, not an endless loop', async () => {
    const server = new FakeTransport('modern', { tools: {} }, { 'tools/list': () => ({ tools: [tool('a')], nextCursor: 'same', ttlMs: 0, cacheScope: 'private' }) })
    const mcp = open(server)
    const tools = record(mcp.$tools)
    await until(() => !mcp.$tools.get().loading, 'the failure')
    const state = mcp.$tools.get()
    expect(state.error).toBeInstanceOf(ProtocolError)
    expect(state.error!.message).toMatch(/repeated the cursor "same" on page 2/)
    expect(state.items).toEqual([])
    expect(server.count('tools/list')).toBe(2)
    tools.off()
  })

  it('a list that never ends stops at maxPages', async () => {
    let n = 0
    const server = new FakeTransport('modern', { prompts: {} }, { 'prompts/list': () => ({ prompts: [{ name: `p${n}` }], nextCursor: `c${++n}`, ttlMs: 0, cacheScope: 'private' }) })
    const mcp = open(server, { maxPages: 20 })
    const prompts = record(mcp.$prompts)
    await until(() => !mcp.$prompts.get().loading, 'the failure')
    expect(mcp.$prompts.get().error!.message).toMatch(/did not end within 20 pages/)
    expect(server.count('prompts/list')).toBe(20)
    prompts.off()
  })

  it('invalid items are reported beside the valid ones', async () => {
    const server = new FakeTransport('modern', { resources: {} }, {
      'resources/templates/list': () => ({
        resourceTemplates: [{ uriTemplate: 'file:///{path}', name: 'files' }, { name: 'no template' }],
        ttlMs: 0,
        cacheScope: 'private',
      }),
    })
    const mcp = open(server)
    const templates = record(mcp.$resourceTemplates)
    await until(() => loaded(mcp.$resourceTemplates.get()), 'templates')
    const state = mcp.$resourceTemplates.get()
    expect(state.items).toEqual([{ uriTemplate: 'file:///{path}', name: 'files' }])
    expect(state.invalid).toEqual([{ item: { name: 'no template' }, reason: '"uriTemplate" must be a string' }])
    expect(state.error).toBeInstanceOf(ProtocolError)
    templates.off()
  })

  it('an unreachable server puts $status and the list in an error state', async () => {
    const server = new FakeTransport('modern', { tools: {} }, { 'tools/list': () => ({ tools: [], ttlMs: 0, cacheScope: 'private' }) })
    server.down = true
    const mcp = open(server)
    const tools = record(mcp.$tools)
    await until(() => mcp.$status.get().status === 'error' && !mcp.$tools.get().loading, 'the failure')
    expect((mcp.$status.get() as { error: Error }).error).toBeInstanceOf(NetworkError)
    expect(mcp.$tools.get().error).toBeInstanceOf(NetworkError)
    await expect(mcp.connect()).rejects.toBeInstanceOf(NetworkError)
    // It comes back: the next access tries again.
    server.down = false
    await mcp.refresh('tools')
    expect(mcp.$status.get()).toEqual({ status: 'ready' })
    expect(mcp.$tools.get()).toMatchObject({ error: undefined, items: [] })
    tools.off()
  })
})

describe('the subscription', () => {
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
