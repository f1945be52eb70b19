// createMcp never reloads a list forever: change notifications carried by a list's own request, and bursts of
// them during a load, cost at most one more load. Waits are on atoms and debug lines (events), not on the clock.
import { afterEach, describe, expect, it } from 'vitest'
import { forgetEras } from '../client/client'
import type { ServerNotification } from '../client/types'
import { FakeTransport, pages } from '../testing/fake-transport'
import { Arrivals, when } from '../testing/wait'
import { createMcp } from './create-mcp'
import type { ListState, Mcp, Tool } from './types'

const made: Mcp[] = []
afterEach(async () => {
  await Promise.all(made.splice(0).map((mcp) => mcp.close()))
  forgetEras()
})

const caps = { tools: { listChanged: true } }
const tools = [{ name: 'echo', inputSchema: { type: 'object' } }]
const settled = (state: ListState<Tool>) => state.updatedAt > 0 && !state.loading && !state.stale
const turn = () => new Promise((resolve) => setImmediate(resolve))
const changed = { jsonrpc: '2.0' as const, method: 'notifications/tools/list_changed' }

describe('createMcp reloads', () => {
  it('a list_changed on the stream of the very list request it concerns starts no reload', async () => {
    const fake = new FakeTransport('legacy', caps, { 'tools/list': pages('tools', () => tools, 10) })
    // A stdio server behind a per-request gateway announces a change on every request it serves.
    fake.alongside = (message) => (message.method === 'tools/list' ? [changed] : [])
    const debug = new Arrivals<string>()
    const app: ServerNotification[] = []
    const mcp = createMcp(fake, { debug: (m) => debug.push(m), onNotification: (n) => app.push(n) })
    made.push(mcp)
    const off = mcp.$tools.listen(() => undefined)
    await when(mcp.$tools, settled)
    await debug.find((m) => m === 'ignored: notifications/tools/list_changed on the stream of tools/list itself')
    await turn()
    await turn()
    expect(fake.count('tools/list')).toBe(1)
    expect(mcp.$tools.get().stale).toBe(false)
    // The app still hears it.
    expect(app.map((n) => n.method)).toEqual(['notifications/tools/list_changed'])
    off()
  })

  it('a burst of changes seen during a load causes exactly one more load', async () => {
    const fake = new FakeTransport('legacy', caps, { 'tools/list': pages('tools', () => tools, 10) })
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    fake.hold = (message) => (message.method === 'tools/list' && fake.count('tools/list') === 1 ? held : undefined)
    const mcp = createMcp(fake)
    made.push(mcp)
    const off = mcp.$tools.listen(() => undefined)
    await fake.requested.find((m) => m.method === 'tools/list')
    await when(mcp.$subscription, (s) => s?.status === 'acknowledged')
    for (let i = 0; i < 5; i++) fake.notify('notifications/tools/list_changed')
    release()
    await when(mcp.$tools, (state) => settled(state) && fake.count('tools/list') === 2)
    await turn()
    await turn()
    expect(fake.count('tools/list')).toBe(2)
    off()
  })
})
