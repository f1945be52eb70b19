// createMcp against the real Client over an in-memory server (FakeTransport), modern and legacy.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { NetworkError } from '../errors/network-error'
import { ProtocolError } from '../errors/protocol-error'
import { FakeTransport, pages } from '../testing/fake-transport'
import { closeOpened, loaded, manyTools, open, record, tool, turn, UNMOUNT_DELAY, until } from '../testing/stores-kit'

afterEach(closeOpened)

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
    expect(state.invalid).toEqual([{ item: { name: 'no template' }, reason: 'resourceTemplates[1].uriTemplate: required string' }])
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
