// createMcp against the real embedded servers (scripts/servers): a modern one, a stateful legacy one and an
// HTTP+SSE one, over the real transports. Waits are on the atoms (events), never on the clock.
import { EventSource } from 'eventsource'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { forgetEras } from '../client/client'
import { scoped } from '../../scripts/servers/scoped.ts'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { when } from '../testing/wait'
import { createMcp } from './create-mcp'
import type { ListState, Mcp, Tool } from './types'

const servers = inject('servers')
const made: Mcp[] = []
afterEach(async () => {
  await Promise.all(made.splice(0).map((mcp) => mcp.close()))
  forgetEras()
})

const post = (url: string) => fetch(url, { method: 'POST' }).then((r) => r.json())
const names = (state: ListState<Tool>) => state.items.map((tool) => tool.name)
const loaded = (state: ListState<Tool>) => state.updatedAt > 0 && !state.loading

describe.each([
  ['modern', 'modern', '2026-07-28'],
  ['legacy', 'legacy', '2025-11-25'],
] as const)('createMcp on the %s server', (_name, key, protocolVersion) => {
  it('lists tools when watched, and shows a tool the server adds without a reload', async () => {
    const server = scoped(servers[key], `create-mcp-${key}`)
    const mcp = createMcp(server.url)
    made.push(mcp)
    const off = mcp.$tools.listen(() => undefined)
    const first = await when(mcp.$tools, loaded)
    expect(names(first)).toContain('echo')
    expect(mcp.$status.get()).toEqual({ status: 'ready' })
    expect(mcp.$server.get()).toMatchObject({ protocolVersion })
    await when(mcp.$subscription, (s) => s?.status === 'acknowledged')
    const before = first.items.length
    await post(`${server.control}/control/add-tool`)
    const after = await when(mcp.$tools, (state) => loaded(state) && state.items.length === before + 1)
    // Unchanged tools keep their identity, so a UI re-renders only the new one.
    expect(after.items.slice(0, before)).toEqual(first.items)
    expect(after.items.filter((tool, i) => tool === first.items[i])).toHaveLength(before)
    off()
  })

  it('calls a tool and reads its result', async () => {
    const mcp = createMcp(servers[key].url)
    made.push(mcp)
    const result = await mcp.callTool('echo', { text: 'hi' })
    expect(JSON.stringify(result.content)).toContain('hi')
  })
})

describe('createMcp on the HTTP+SSE server', () => {
  it('falls back, then lists tools', async () => {
    const mcp = createMcp(new StreamableHttpTransport(servers.sse.url, { EventSource }))
    made.push(mcp)
    const off = mcp.$tools.listen(() => undefined)
    expect(names(await when(mcp.$tools, loaded))).toContain('echo')
    expect(mcp.$server.get()).toMatchObject({ era: 'legacy' })
    expect(mcp.client.transport.sessionStream).toBe(true)
    off()
  })
})
