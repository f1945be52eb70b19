// Streamable HTTP: the headers a request carries (2026-07-28 mirrors, app headers, Mcp-Param-* from tools/list).
import { describe, expect, it, vi } from 'vitest'
import { endSse, result, sendJson, type Handler } from '../testing/test-server'
import { echo, legacy, modern, VERSION, scriptedServers } from '../testing/transport-fixtures'
import { StreamableHttpTransport } from './streamable-http'

const serve = scriptedServers()

describe('modern requests: headers mirrored from the body', () => {
  it('sends Content-Type, Accept, MCP-Protocol-Version and Mcp-Method, and resolves a JSON answer', async () => {
    const { url, requests } = await serve(echo)
    const transport = new StreamableHttpTransport(url)
    const response = await transport.request(modern(1, 'server/discover'))
    expect(response).toEqual(result(1, { method: 'server/discover' }))
    const { headers, method, json } = requests[0]!
    expect(method).toBe('POST')
    expect(json).toEqual(modern(1, 'server/discover'))
    expect(headers['content-type']).toBe('application/json')
    expect(headers.accept).toBe('application/json, text/event-stream')
    expect(headers['mcp-protocol-version']).toBe(VERSION)
    expect(headers['mcp-method']).toBe('server/discover')
    expect(headers['mcp-name']).toBeUndefined()
  })

  it.each([
    ['tools/call', { name: 'get_weather', arguments: {} }, 'get_weather'],
    ['prompts/get', { name: 'greet' }, 'greet'],
    ['resources/read', { uri: 'file:///a b.txt' }, 'file:///a b.txt'],
    ['resources/read', { uri: 'file:///résumé.txt' }, '=?base64?ZmlsZTovLy9yw6lzdW3DqS50eHQ=?='],
    ['tasks/get', { taskId: 'task-1' }, 'task-1'],
    ['tasks/cancel', { taskId: 'task-2' }, 'task-2'],
    ['tasks/update', { taskId: ' x' }, '=?base64?IHg=?='],
  ])('%s sends Mcp-Name %j', async (method, params, expected) => {
    const { url, requests } = await serve(echo)
    await new StreamableHttpTransport(url).request(modern(1, method, params))
    expect(requests[0]!.headers['mcp-name']).toBe(expected)
  })

  it('never sends the session id or the handshake version on a modern request', async () => {
    const { url, requests } = await serve((request, res) =>
      sendJson(res, result(request.json.id, {}), 200, { 'Mcp-Session-Id': 'legacy-session' }),
    )
    const transport = new StreamableHttpTransport(url)
    await transport.request(legacy(1, 'initialize'))
    transport.protocolVersion = '2025-11-25'
    await transport.request(modern(2, 'tools/list'))
    expect(requests[1]!.headers['mcp-session-id']).toBeUndefined()
    expect(requests[1]!.headers['mcp-protocol-version']).toBe(VERSION)
  })

  it('sends the app headers (object or function) under its own', async () => {
    const { url, requests } = await serve(echo)
    let token = 0
    const transport = new StreamableHttpTransport(url, {
      headers: async () => ({ Authorization: `Bearer t${++token}`, 'Content-Type': 'text/plain', 'X-App': 'yes' }),
    })
    await transport.request(modern(1, 'tools/list'))
    await transport.request(modern(2, 'tools/list'))
    expect(requests.map((r) => r.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2'])
    expect(requests[0]!.headers['content-type']).toBe('application/json')
    expect(requests[0]!.headers['x-app']).toBe('yes')
    await new StreamableHttpTransport(url, { headers: [['X-List', 'l']] }).request(modern(3, 'tools/list'))
    expect(requests[2]!.headers['x-list']).toBe('l')
  })

  it('passes requestInit extras to fetch and uses an injected fetch', async () => {
    const seen: RequestInit[] = []
    const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      seen.push(init!)
      return Response.json(result(1))
    })
    await new StreamableHttpTransport('http://127.0.0.1:1/mcp', { fetch, requestInit: { credentials: 'include' } }).request(
      modern(1, 'tools/list'),
    )
    expect(fetch).toHaveBeenCalledOnce()
    expect(seen[0]!.credentials).toBe('include')
    expect(seen[0]!.method).toBe('POST')
  })
})

describe('Mcp-Param-* from the tools/list schemas', () => {
  const tools = [
    {
      name: 'regional',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', 'x-mcp-header': 'Priority' },
          verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
          city: { type: 'string', 'x-mcp-header': 'City' },
          nested: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
          query: { type: 'string' },
        },
      },
    },
    { name: 'bad_number', inputSchema: { type: 'object', properties: { score: { type: 'number', 'x-mcp-header': 'Score' } } } },
    { name: 'bad_name', inputSchema: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'My Region' } } } },
    { name: 'plain', inputSchema: { type: 'object', properties: { region: { type: 'string' } } } },
  ]
  const listing: Handler = (request, res) =>
    sendJson(res, result(request.json.id, request.json.method === 'tools/list' ? { tools, resultType: 'complete' } : {}))

  it('drops invalid tools with a warning that names them, and mirrors the arguments of valid ones', async () => {
    const { url, requests } = await serve(listing)
    const warn = vi.fn()
    const transport = new StreamableHttpTransport(url, { debug: warn })
    const list = await transport.request(modern(1, 'tools/list'))
    expect((list.result!.tools as { name: string }[]).map((t) => t.name)).toEqual(['regional', 'plain'])
    expect(list.result!.resultType).toBe('complete')
    expect(warn).toHaveBeenCalledTimes(2)
    expect(String(warn.mock.calls[0]![0])).toMatch(/"bad_number".*only string, integer and boolean/)
    expect(String(warn.mock.calls[1]![0])).toMatch(/"bad_name".*characters/)

    await transport.request(
      modern(2, 'tools/call', {
        name: 'regional',
        arguments: { region: 'us-west1', priority: 3, verbose: false, city: 'Zürich', nested: { zone: 'b' }, query: 'q' },
      }),
    )
    const headers = requests[1]!.headers
    expect(headers['mcp-param-region']).toBe('us-west1')
    expect(headers['mcp-param-priority']).toBe('3')
    expect(headers['mcp-param-verbose']).toBe('false')
    expect(headers['mcp-param-city']).toBe(`=?base64?${Buffer.from('Zürich').toString('base64')}?=`)
    expect(headers['mcp-param-zone']).toBe('b')
    expect(Object.keys(headers).filter((h) => h.startsWith('mcp-param-'))).toHaveLength(5)
  })

  it('omits null and absent arguments, and sends an empty string as an empty header', async () => {
    const { url, requests } = await serve(listing)
    const transport = new StreamableHttpTransport(url)
    await transport.request(modern(1, 'tools/list'))
    await transport.request(modern(2, 'tools/call', { name: 'regional', arguments: { region: '', verbose: null } }))
    const headers = requests[1]!.headers
    expect(headers['mcp-param-region']).toBe('')
    expect(headers).not.toHaveProperty('mcp-param-verbose')
    expect(headers).not.toHaveProperty('mcp-param-priority')
  })

  it('sends no Mcp-Param-* for a tool it has never seen, nor after a legacy-era tools/list', async () => {
    const { url, requests } = await serve(listing)
    const transport = new StreamableHttpTransport(url)
    await transport.request(modern(1, 'tools/call', { name: 'regional', arguments: { region: 'x' } }))
    const list = await transport.request(legacy(2, 'tools/list'))
    expect(list.result!.tools).toHaveLength(4)
    await transport.request(modern(3, 'tools/call', { name: 'regional', arguments: { region: 'x' } }))
    for (const r of requests) expect(Object.keys(r.headers).some((h) => h.startsWith('mcp-param-'))).toBe(false)
  })

  it('follows the most recent schema of a tool', async () => {
    let annotated = true
    const { url, requests } = await serve((request, res) => {
      const schema = { type: 'object', properties: { region: { type: 'string', ...(annotated ? { 'x-mcp-header': 'Region' } : {}) } } }
      sendJson(res, result(request.json.id, request.json.method === 'tools/list' ? { tools: [{ name: 't', inputSchema: schema }] } : {}))
    })
    const transport = new StreamableHttpTransport(url)
    await transport.request(modern(1, 'tools/list'))
    await transport.request(modern(2, 'tools/call', { name: 't', arguments: { region: 'a' } }))
    annotated = false
    await transport.request(modern(3, 'tools/list'))
    await transport.request(modern(4, 'tools/call', { name: 't', arguments: { region: 'a' } }))
    expect(requests[1]!.headers['mcp-param-region']).toBe('a')
    expect(requests[3]!.headers['mcp-param-region']).toBeUndefined()
  })

  // The walk of every schema is skipped for an answer whose text cannot hold the key; JSON may spell any character
  // of it as an escape, so such a text is walked as before, over JSON and over SSE alike.
  it('learns an annotation whose key the JSON text spells with escapes, in a JSON or an SSE answer', async () => {
    const spelled = (id: unknown) =>
      `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"region":{"type":"string","x\\u002dmcp\\u002dheader":"Region"}}}}]}}`
    const { url, requests } = await serve((request, res) => {
      const { id, method } = request.json
      if (method !== 'tools/list') return sendJson(res, result(id, {}))
      if (id === 1) res.writeHead(200, { 'Content-Type': 'application/json' }).end(spelled(id))
      else endSse(res, `data: ${spelled(id)}\n\n`)
    })
    const transport = new StreamableHttpTransport(url)
    for (const [list, call] of [[1, 2], [3, 4]] as const) {
      await transport.request(modern(list, 'tools/list'))
      await transport.request(modern(call, 'tools/call', { name: 't', arguments: { region: `r${call}` } }))
    }
    expect(requests[1]!.headers['mcp-param-region']).toBe('r2')
    expect(requests[3]!.headers['mcp-param-region']).toBe('r4')
  })
})


describe('Mcp-Param-* read from own properties only', () => {
  // JSON.parse makes "__proto__" an own key, as a server's schema or a model's arguments would.
  const tools = JSON.parse(`[{
    "name": "sneaky",
    "inputSchema": { "type": "object", "properties": {
      "constructor": { "type": "object", "properties": { "name": { "type": "string", "x-mcp-header": "Ctor" } } },
      "__proto__": { "type": "object", "properties": { "region": { "type": "string", "x-mcp-header": "Proto" } } },
      "prototype": { "type": "object", "properties": { "x": { "type": "string", "x-mcp-header": "Prototype" } } },
      "plain": { "type": "object", "properties": { "zone": { "type": "string", "x-mcp-header": "Zone" } } }
    } }
  }]`)
  const listing: Handler = (request, res) => sendJson(res, result(request.json.id, request.json.method === 'tools/list' ? { tools } : {}))

  it('a path through constructor, __proto__ or prototype, or to an inherited value, yields no header', async () => {
    const { url, requests } = await serve(listing)
    const transport = new StreamableHttpTransport(url)
    await transport.request(modern(1, 'tools/list'))
    const args = JSON.parse('{"__proto__": {"region": "own-but-forbidden"}, "prototype": {"x": "p"}}')
    // Inherited: a prototype-polluted value must not be mirrored either.
    args.plain = Object.create({ zone: 'inherited' })
    await transport.request(modern(2, 'tools/call', { name: 'sneaky', arguments: args }))
    // Before, `{}.constructor.name` put "Object" in Mcp-Param-Ctor.
    expect(Object.keys(requests[1]!.headers).filter((name) => name.startsWith('mcp-param-'))).toEqual([])
    await transport.request(modern(3, 'tools/call', { name: 'sneaky', arguments: { plain: { zone: 'own' } } }))
    expect(requests[2]!.headers['mcp-param-zone']).toBe('own')
  })
})
