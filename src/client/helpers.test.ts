// The typed helpers and the checks wired into request(), on both eras, against the in-memory fake server.
import { afterEach, describe, expect, it } from 'vitest'
import { Client, forgetEras } from './client'
import type { ServerNotification } from './types'
import { OutputSchemaError } from '../errors/output-schema-error'
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { FakeTransport, type Handler } from '../testing/fake-transport'

type Result = Record<string, unknown>
const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  forgetEras()
})

function open(era: 'modern' | 'legacy', handlers: Record<string, Handler>, capabilities: Result = { tools: {}, prompts: {}, resources: {}, logging: {}, completions: {} }, options = {}) {
  const server = new FakeTransport(era, capabilities, handlers)
  const client = new Client(server, { timeout: 5000, ...options })
  clients.push(client)
  return { server, client }
}

const echo = { name: 'echo', inputSchema: { type: 'object' } }
const weather = { name: 'weather', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] } }

for (const era of ['modern', 'legacy'] as const) {
  describe(`helpers on a ${era} server`, () => {
    it('listTools follows every page', async () => {
      let n = 0
      // An empty string is a cursor, not the end: only a missing nextCursor ends the list.
      const { client } = open(era, { 'tools/list': (p) => (p.cursor === undefined ? { tools: [echo], nextCursor: 'a' } : p.cursor === 'a' ? { tools: [weather], nextCursor: '' } : (n++, { tools: [{ ...echo, name: 'last' }] })) })
      const tools = await client.listTools()
      expect(tools.map((t) => t.name)).toEqual(['echo', 'weather', 'last'])
      expect(n).toBe(1)
    })

    it('listPrompts, listResources and listResourceTemplates return every item', async () => {
      const { client } = open(era, {
        'prompts/list': () => ({ prompts: [{ name: 'greet' }] }),
        'resources/list': () => ({ resources: [{ uri: 'file:///a', name: 'a' }] }),
        'resources/templates/list': () => ({ resourceTemplates: [{ uriTemplate: 'file:///{p}', name: 'files' }] }),
      })
      expect(await client.listPrompts()).toEqual([{ name: 'greet' }])
      expect(await client.listResources()).toEqual([{ uri: 'file:///a', name: 'a' }])
      expect(await client.listResourceTemplates()).toEqual([{ uriTemplate: 'file:///{p}', name: 'files' }])
    })

    it('a list that never ends fails with ProtocolError pagination at maxPages', async () => {
      let n = 0
      const { client } = open(era, { 'prompts/list': () => ({ prompts: [], nextCursor: `c${++n}` }) })
      const error = await client.listPrompts({ maxPages: 5 }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ProtocolError)
      expect((error as ProtocolError).reason).toBe('pagination')
      expect(n).toBe(5)
    })

    it('a bad tool fails the request naming its path, or is dropped and reported with onInvalidItem', async () => {
      const { client } = open(era, { 'tools/list': () => ({ tools: [echo, { name: 'broken' }] }) })
      const error = (await client.request('tools/list').catch((e: unknown) => e)) as ProtocolError
      expect(error).toBeInstanceOf(ProtocolError)
      expect(error.message).toBe('Malformed tools/list result: result.tools[1].inputSchema: required object')
      const invalid: [unknown, string][] = []
      const tools = await client.listTools({ onInvalidItem: (item, reason) => invalid.push([item, reason]) })
      expect(tools).toEqual([echo])
      expect(invalid).toEqual([[{ name: 'broken' }, 'tools[1].inputSchema: required object']])
    })

    it('a malformed result rejects only its own request; the client stays usable', async () => {
      let bad = true
      const { client } = open(era, { 'tools/call': () => (bad ? { content: [{ type: 'text' }] } : { content: [{ type: 'text', text: 'ok' }] }) })
      await expect(client.callTool({ name: 'echo' })).rejects.toThrow('result.content[0].text: required string')
      bad = false
      const ok = await client.request('tools/call', { name: 'echo' })
      expect(ok.content).toEqual([{ type: 'text', text: 'ok' }])
    })

    it('an error object with a fractional code is a ProtocolError for that request only', async () => {
      let code = -32000.5
      const { client } = open(era, { 'tools/call': () => Promise.reject({ code, message: 'nope' }) })
      const error = (await client.request('tools/call', { name: 'x' }).catch((e: unknown) => e)) as ProtocolError
      expect(error).toBeInstanceOf(ProtocolError)
      expect(error.message).toBe('Malformed error object for tools/call: error.code: expected integer')
      code = -32000
      await expect(client.request('tools/call', { name: 'x' })).rejects.toBeInstanceOf(RpcError)
    })

    it('callTool checks structuredContent against the outputSchema of the listed tool', async () => {
      let temp: unknown = 21
      const { client, server } = open(era, { 'tools/list': () => ({ tools: [echo, weather] }), 'tools/call': () => ({ content: [], structuredContent: { temp } }) })
      expect((await client.callTool({ name: 'weather' })).structuredContent).toEqual({ temp: 21 })
      expect(server.count('tools/list')).toBe(1)
      temp = 'warm'
      const error = (await client.callTool({ name: 'weather' }).catch((e: unknown) => e)) as OutputSchemaError
      expect(error).toBeInstanceOf(OutputSchemaError)
      expect(error.name).toBe('OutputSchemaError')
      expect(error.tool).toBe('weather')
      expect(error.result.structuredContent).toEqual({ temp: 'warm' })
      expect(error.errors.some((e) => e.instanceLocation === '#/temp')).toBe(true)
      // The list was fetched once; later calls use what the client has seen.
      expect(server.count('tools/list')).toBe(1)
    })

    it('callTool leaves tools without an outputSchema, and isError results, unchecked', async () => {
      const { client } = open(era, {
        'tools/list': () => ({ tools: [echo, weather] }),
        'tools/call': (p) => (p.name === 'echo' ? { content: [], structuredContent: 'anything' } : { content: [{ type: 'text', text: 'boom' }], isError: true }),
      })
      expect((await client.callTool({ name: 'echo' })).structuredContent).toBe('anything')
      expect((await client.callTool({ name: 'weather' })).isError).toBe(true)
    })

    it('a tool listed again without its outputSchema is no longer checked against the old one', async () => {
      let tools: Result[] = [echo, weather]
      const { client } = open(era, { 'tools/list': () => ({ tools }), 'tools/call': () => ({ content: [], structuredContent: { temp: 'warm' } }) })
      await expect(client.callTool({ name: 'weather' })).rejects.toBeInstanceOf(OutputSchemaError)
      tools = [echo, { ...weather, outputSchema: undefined }]
      await client.listTools()
      expect((await client.callTool({ name: 'weather' })).structuredContent).toEqual({ temp: 'warm' })
    })

    it('callTool lists the tools once even when the listing fails, and then leaves results unchecked', async () => {
      const { client, server } = open(era, { 'tools/call': () => ({ content: [], structuredContent: 'x' }) })
      expect((await client.callTool({ name: 'weather' })).structuredContent).toBe('x')
      expect((await client.callTool({ name: 'weather' })).structuredContent).toBe('x')
      expect(server.count('tools/list')).toBe(1)
    })

    it('callTool lists the tools again after the server says they changed', async () => {
      let schema: Result = { type: 'object', required: ['temp'] }
      let heard: () => void = () => undefined
      const changed = new Promise<void>((resolve) => (heard = resolve))
      const { client, server } = open(era, {
        'tools/list': () => ({ tools: [{ ...weather, outputSchema: schema }] }),
        'tools/call': () => ({ content: [], structuredContent: { celsius: 3 } }),
      }, { tools: { listChanged: true } }, { onNotification: (n: ServerNotification) => n.method === 'notifications/tools/list_changed' && heard() })
      await expect(client.callTool({ name: 'weather' })).rejects.toBeInstanceOf(OutputSchemaError)
      schema = { type: 'object', required: ['celsius'] }
      const sub = client.listen({ toolsListChanged: true })
      await new Promise<void>((resolve) => sub.$state.subscribe((s) => s.status === 'acknowledged' && resolve()))
      server.notify('notifications/tools/list_changed')
      await changed
      expect((await client.callTool({ name: 'weather' })).structuredContent).toEqual({ celsius: 3 })
      expect(server.count('tools/list')).toBe(2)
      await sub.close()
    })

    it('callTool of a tool with an outputSchema but no structuredContent is an OutputSchemaError', async () => {
      const { client } = open(era, { 'tools/list': () => ({ tools: [weather] }), 'tools/call': () => ({ content: [] }) })
      await expect(client.callTool({ name: 'weather' })).rejects.toBeInstanceOf(OutputSchemaError)
    })

    it('getPrompt, readResource and complete send params objects and return checked results', async () => {
      const { client, server } = open(era, {
        'prompts/get': (p) => ({ messages: [{ role: 'user', content: { type: 'text', text: `hi ${(p.arguments as Result).who}` } }] }),
        'resources/read': (p) => ({ contents: [{ uri: p.uri, text: 'a' }] }),
        'completion/complete': () => ({ completion: { values: ['Ada'], hasMore: false } }),
      })
      expect((await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).messages[0]!.content).toEqual({ type: 'text', text: 'hi Ada' })
      expect((await client.readResource({ uri: 'file:///a' })).contents).toEqual([{ uri: 'file:///a', text: 'a' }])
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'A' } })).completion.values).toEqual(['Ada'])
      expect(server.requests.find((r) => r.method === 'completion/complete')!.params).toMatchObject({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'A' } })
    })

    it('a malformed notification of a known method never reaches the handler; an unknown one does', async () => {
      const seen: ServerNotification[] = []
      const { client, server } = open(era, { 'tools/list': () => ({ tools: [] }) }, undefined, { onNotification: (n: ServerNotification) => seen.push(n) })
      server.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: {} }, { jsonrpc: '2.0', method: 'notifications/com.example/x', params: { a: 1 } })
      await client.request('tools/list')
      await new Promise((r) => setTimeout(r))
      // Only older servers deliver what a request's stream carries to onNotification.
      expect(seen).toEqual(era === 'legacy' ? [{ jsonrpc: '2.0', method: 'notifications/com.example/x', params: { a: 1 } }] : [])
    })
  })
}

describe('ping and setLoggingLevel', () => {
  it('ping round-trips on an older server', async () => {
    const { client, server } = open('legacy', {})
    await client.ping()
    expect(server.count('ping')).toBe(1)
  })

  it('ping on 2026-07-28 is a clear error and sends nothing', async () => {
    const { client, server } = open('modern', {})
    const error = (await client.ping().catch((e: unknown) => e)) as RpcError
    expect(error).toBeInstanceOf(RpcError)
    expect(error.message).toMatch(/2026-07-28 has no ping/)
    expect(server.count('ping')).toBe(0)
  })

  it('setLoggingLevel sends logging/setLevel to an older server', async () => {
    const { client, server } = open('legacy', { 'logging/setLevel': () => ({}) })
    await client.setLoggingLevel('warning')
    expect(server.requests.find((r) => r.method === 'logging/setLevel')!.params).toMatchObject({ level: 'warning' })
  })

  it('setLoggingLevel on 2026-07-28 puts the level on every later request and routes its logs to onNotification', async () => {
    const seen: ServerNotification[] = []
    const { client, server } = open('modern', { 'tools/list': () => ({ tools: [] }) }, undefined, { onNotification: (n: ServerNotification) => seen.push(n) })
    await client.setLoggingLevel('info')
    expect(server.count('logging/setLevel')).toBe(0)
    server.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } })
    await client.request('tools/list')
    const sent = server.requests.find((r) => r.method === 'tools/list')!
    expect((sent.params!._meta as Result)['io.modelcontextprotocol/logLevel']).toBe('info')
    expect(seen).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } }])
  })
})
