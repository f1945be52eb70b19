// The client's part of the fault matrix, hostile messages: notification floods, server requests nobody invited,
// __proto__ keys, handlers that throw. An in-memory server (FakeTransport) plays each fault on demand; waits are
// events or vi.waitFor, never fixed sleeps.
import { describe, expect, it, vi } from 'vitest'
import { Client } from './client'
import { FakeTransport } from '../testing/fake-transport'
import { expectQuiet } from '../testing/quiet'
import { Arrivals, when } from '../testing/wait'
import type { JsonRpcNotification } from '../transport/types'
import type { ServerNotification } from './types'

expectQuiet()

const caps = { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } }
const tools = { 'tools/list': () => ({ tools: [] }) }

describe('notification floods', () => {
  it('100,000 notifications on one legacy request stream: at most 1000 held (under 1 MB), the oldest dropped with a debug line', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const debug: string[] = []
    const delivered = new Arrivals<ServerNotification>()
    const client = new Client(fake, { debug: (m) => debug.push(m), onNotification: (n) => delivered.push(n) })
    for (let i = 0; i < 100_000; i++) {
      fake.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: `file:///${i}` } })
      fake.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    }
    await client.request('tools/list')
    const last = await delivered.find((n) => n.params?.uri === 'file:///99999')
    expect(delivered.all).toHaveLength(1000)
    expect(JSON.stringify(delivered.all).length).toBeLessThan(1_000_000)
    // The newest updates are kept, in order, and the 100,000 identical list_changed are one (the latest).
    const updates = delivered.all.filter((n) => n.method === 'notifications/resources/updated')
    expect(updates.at(-1)).toBe(last)
    expect(updates.map((n) => Number(String(n.params?.uri).slice(8)))).toEqual(updates.map((_, i) => 99_999 - updates.length + 1 + i))
    expect(delivered.all.filter((n) => n.method === 'notifications/tools/list_changed')).toHaveLength(1)
    expect(debug.filter((m) => m.includes('dropping the oldest'))).toHaveLength(1)
    expect(debug.some((m) => /dropped \d+ notification/.test(m))).toBe(true)
    await client.close()
  })

  it('identical list_changed coalesce into one delivery', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const delivered = new Arrivals<ServerNotification>()
    const client = new Client(fake, { onNotification: (n) => delivered.push(n) })
    for (let i = 0; i < 100_000; i++) fake.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    fake.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' })
    await client.request('tools/list')
    await delivered.nth(1)
    expect(delivered.all.map((n) => n.method)).toEqual(['notifications/tools/list_changed', 'notifications/prompts/list_changed'])
    await client.close()
  })
})

describe('server requests the client never invited', () => {
  it('legacy: sampling, roots and elicitation (not opted in) are refused with -32601, and the request still resolves', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const client = new Client(fake)
    const uninvited = ['sampling/createMessage', 'roots/list', 'elicitation/create']
    for (const [i, method] of uninvited.entries()) fake.onNextRequest.push({ jsonrpc: '2.0', id: `s${i}`, method, params: {} } as JsonRpcNotification)
    await expect(client.request('tools/list')).resolves.toEqual({ tools: [] })
    await vi.waitFor(() => expect(fake.sent.filter((m) => 'id' in m)).toHaveLength(3))
    for (const answer of fake.sent.filter((m) => 'id' in m)) expect(answer).toMatchObject({ error: { code: -32601 } })
    await client.close()
  })

  it('2026-07-28: a server request on a request stream is ignored with a debug line; the request resolves', async () => {
    const fake = new FakeTransport('modern', caps, tools)
    const debug: string[] = []
    const client = new Client(fake, { debug: (m) => debug.push(m) })
    fake.onNextRequest.push({ jsonrpc: '2.0', id: 'x', method: 'sampling/createMessage', params: {} } as JsonRpcNotification)
    await expect(client.request('tools/list')).resolves.toMatchObject({ tools: [] })
    expect(debug).toContain('ignored on a request stream')
    expect(fake.sent).toEqual([])
    await client.close()
  })
})

describe('__proto__ and constructor keys from the server', () => {
  it('stay plain data in results and notifications: nothing is polluted, nothing lost', async () => {
    const hostile = JSON.parse('{"tools":[{"name":"__proto__","inputSchema":{"type":"object"}}],"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')
    const fake = new FakeTransport('legacy', caps, { 'tools/list': () => hostile })
    const delivered = new Arrivals<ServerNotification>()
    const client = new Client(fake, { onNotification: (n) => delivered.push(n) })
    fake.onNextRequest.push(JSON.parse('{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a","__proto__":{"polluted":true}}}'))
    const result = await client.request('tools/list')
    expect(Object.hasOwn(result, '__proto__')).toBe(true)
    expect((result.tools as { name: string }[])[0]!.name).toBe('__proto__')
    const note = await delivered.nth(0)
    expect(Object.hasOwn(note.params!, '__proto__')).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined()
    await client.close()
  })
})

describe('diagnostics', () => {
  it('handlers that throw (onNotification, a subscription handler) are reported through debug, never the console', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const debug = new Arrivals<string>()
    const client = new Client(fake, {
      debug: (m) => debug.push(m),
      onNotification: () => {
        throw new Error('app bug')
      },
    })
    fake.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' })
    await client.request('tools/list')
    await debug.find((m) => m === 'onNotification threw')
    const sub = client.listen({ toolsListChanged: true }, () => {
      throw new Error('handler bug')
    })
    await when(sub.$state, (s) => s.status === 'acknowledged')
    fake.notify('notifications/tools/list_changed')
    await debug.find((m) => m === 'a subscription handler threw')
    await sub.close()
    await client.close()
  })
})

describe('malformed notifications from older servers', () => {
  const dropped = (debug: Arrivals<string>, path: string) => debug.find((m) => m.startsWith('dropped a malformed') && m.includes(path))

  it('on the session stream: a malformed one is dropped with a debug line, the next reaches onNotification', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const debug = new Arrivals<string>()
    const delivered = new Arrivals<ServerNotification>()
    const client = new Client(fake, { debug: (m) => debug.push(m), onNotification: (n) => delivered.push(n) })
    // A subscription opens the session stream; what it does not claim goes to onNotification, checked.
    const sub = client.listen({ toolsListChanged: true }, () => undefined)
    await when(sub.$state, (s) => s.status === 'acknowledged')
    fake.notify('notifications/resources/updated', { uri: 42 })
    fake.notify('notifications/resources/updated', { uri: 'file:///a' })
    expect((await delivered.find(() => true)).params).toEqual({ uri: 'file:///a' })
    expect(await dropped(debug, 'notification.params.uri')).toBe('dropped a malformed notifications/resources/updated: notification.params.uri: expected string, got number')
    expect(delivered.all).toHaveLength(1)
    await sub.close()
    await client.close()
  })

  it("on a request's own stream: checked when handed over, a malformed one dropped, the rest in order", async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const debug = new Arrivals<string>()
    const delivered = new Arrivals<ServerNotification>()
    const client = new Client(fake, { debug: (m) => debug.push(m), onNotification: (n) => delivered.push(n) })
    fake.onNextRequest.push(
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///1' } },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: {} },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///3' } },
    )
    await client.request('tools/list')
    await delivered.find((n) => n.params?.uri === 'file:///3')
    expect(delivered.all.map((n) => n.params?.uri)).toEqual(['file:///1', 'file:///3'])
    expect(await dropped(debug, 'notification.params.uri')).toBe('dropped a malformed notifications/resources/updated: notification.params.uri: required string')
    await client.close()
  })

  it('progress: a malformed one never reaches onProgress (a debug line says why), the valid ones do', async () => {
    const fake = new FakeTransport('legacy', caps, { ...tools, 'tools/call': () => ({ content: [] }) })
    const debug = new Arrivals<string>()
    const client = new Client(fake, { debug: (m) => debug.push(m) })
    await client.request('tools/list')
    const progress: unknown[] = []
    fake.alongside = (message) => {
      const progressToken = (message.params?._meta as { progressToken?: string } | undefined)?.progressToken
      return progressToken
        ? [
            { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: 'half' } },
            { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: 1, total: 2 } },
          ]
        : []
    }
    await client.request('tools/call', { name: 'x' }, { onProgress: (p) => progress.push(p) })
    expect(progress).toEqual([{ progress: 1, total: 2, message: undefined }])
    expect(await dropped(debug, 'notification.params.progress')).toBe('dropped a malformed notifications/progress: notification.params.progress: expected number, got string')
    await client.close()
  })
})
