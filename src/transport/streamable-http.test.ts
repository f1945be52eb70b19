import { afterEach, describe, expect, it, vi } from 'vitest'
import { AbortError } from '../errors/abort-error'
import { HttpError } from '../errors/http-error'
import { NetworkError } from '../errors/network-error'
import { ProtocolError } from '../errors/protocol-error'
import { SseTransport } from './sse'
import { StreamableHttpTransport } from './streamable-http'
import { endSse, event, openSse, result, sendJson, startTestServer, until, type Handler, type TestServer } from './test-server'
import type { JsonRpcNotification, JsonRpcRequest } from './types'

const VERSION = '2026-07-28'
const meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} }
const modern = (id: number, method: string, params: Record<string, unknown> = {}): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: meta },
})
const legacy = (id: number, method: string, params?: Record<string, unknown>): JsonRpcRequest => ({ jsonrpc: '2.0', id, method, params })
const progress = (n: number): JsonRpcNotification => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
})

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  vi.restoreAllMocks()
})

async function serve(handler: Handler): Promise<TestServer> {
  server = await startTestServer(handler)
  return server
}

/** Answers every POSTed request with an empty result as JSON, notifications with 202. */
const echo: Handler = (request, res) => {
  if (request.json?.id === undefined) return void res.writeHead(202).end()
  sendJson(res, result(request.json.id, { method: request.json.method }))
}

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
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const transport = new StreamableHttpTransport(url)
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

  it('sends no Mcp-Param-* for a tool it has never seen, nor after a handshake-era tools/list', async () => {
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
})

describe('handshake-era sessions', () => {
  it('captures Mcp-Session-Id, sends it and MCP-Protocol-Version on later requests, GET and DELETE', async () => {
    const { url, requests } = await serve((request, res) => {
      if (request.method === 'DELETE') return void res.writeHead(200).end()
      if (request.method === 'GET') return openSse(res)
      if (request.json.method === 'initialize') return sendJson(res, result(request.json.id, {}), 200, { 'Mcp-Session-Id': 'abc-123' })
      echo(request, res, undefined as never)
    })
    const transport = new StreamableHttpTransport(url)
    await transport.request(legacy(0, 'initialize', { protocolVersion: '2025-11-25' }))
    expect(transport.sessionId).toBe('abc-123')
    transport.protocolVersion = '2025-11-25'
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    await transport.request(legacy(1, 'tools/list'))
    const stream = await transport.openStream(() => undefined)
    await transport.close()
    await stream!.closed
    expect(transport.sessionId).toBeUndefined()
    expect(requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'GET', 'DELETE'])
    expect(requests[0]!.headers['mcp-session-id']).toBeUndefined()
    expect(requests[0]!.headers['mcp-protocol-version']).toBeUndefined()
    for (const r of requests.slice(1)) {
      expect(r.headers['mcp-session-id']).toBe('abc-123')
      expect(r.headers['mcp-protocol-version']).toBe('2025-11-25')
    }
    expect(requests[3]!.headers.accept).toBe('text/event-stream')
  })

  it('turns a 404 on a request that carried the session into sessionExpired and forgets the session', async () => {
    const { url, requests } = await serve((request, res) => {
      if (request.json.method === 'initialize') return sendJson(res, result(request.json.id, {}), 200, { 'Mcp-Session-Id': 's1' })
      sendJson(res, { jsonrpc: '2.0', id: request.json.id, error: { code: -32001, message: 'Session not found' } }, 404)
    })
    const transport = new StreamableHttpTransport(url)
    await transport.request(legacy(0, 'initialize'))
    const error = await transport.request(legacy(1, 'tools/list')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status: 404, sessionExpired: true, rpcError: { code: -32001 } })
    expect(transport.sessionId).toBeUndefined()
    // Without a session a 404 is only a 404.
    const again = await transport.request(legacy(2, 'tools/list')).catch((e: unknown) => e)
    expect(again).toMatchObject({ status: 404, sessionExpired: false })
    expect(requests[2]!.headers['mcp-session-id']).toBeUndefined()
  })

  it('resetSession() forgets the id; close() without a session sends no DELETE', async () => {
    const { url, requests } = await serve((request, res) => sendJson(res, result(request.json.id), 200, { 'Mcp-Session-Id': 's' }))
    const transport = new StreamableHttpTransport(url)
    await transport.request(legacy(0, 'initialize'))
    transport.resetSession()
    expect(transport.sessionId).toBeUndefined()
    await transport.close()
    expect(requests.map((r) => r.method)).toEqual(['POST'])
  })

  it('close() tolerates a 405 to DELETE and a server that is gone', async () => {
    const { url, requests } = await serve((request, res) => {
      if (request.method === 'DELETE') return void res.writeHead(405).end()
      sendJson(res, result(request.json.id), 200, { 'Mcp-Session-Id': 's' })
    })
    const transport = new StreamableHttpTransport(url)
    await transport.request(legacy(0, 'initialize'))
    await expect(transport.close()).resolves.toBeUndefined()
    expect(requests[1]).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 's' } })
    await transport.request(legacy(1, 'initialize'))
    await server!.close()
    await expect(transport.close()).resolves.toBeUndefined()
  })
})

describe('202, JSON and SSE answers', () => {
  it('send() resolves on 202 and rejects a non-2xx with HttpError', async () => {
    let status = 202
    const { url } = await serve((_request, res) => void res.writeHead(status).end(status === 202 ? '' : 'nope'))
    const transport = new StreamableHttpTransport(url)
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).resolves.toBeUndefined()
    await expect(transport.send({ jsonrpc: '2.0', id: 5, result: {} })).resolves.toBeUndefined()
    status = 400
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ status: 400, body: 'nope' })
  })

  it('a 202 to a request is a ProtocolError on 2026-07-28 and, without a GET stream, on older revisions', async () => {
    const { url } = await serve((_request, res) => void res.writeHead(202).end())
    const transport = new StreamableHttpTransport(url)
    await expect(transport.request(modern(1, 'tools/list'))).rejects.toThrow(/202 Accepted, which carries no response/)
    await expect(transport.request(legacy(2, 'tools/list'))).rejects.toThrow(/none is open/)
  })

  it('a 202 to a handshake-era request is answered on the GET stream', async () => {
    let get: import('node:http').ServerResponse | undefined
    const { url } = await serve((request, res) => {
      if (request.method === 'GET') return void ((get = res), openSse(res))
      res.writeHead(202).end()
      setTimeout(() => get!.write(event(result(request.json.id, { via: 'get' }))), 20)
    })
    const transport = new StreamableHttpTransport(url)
    const seen: unknown[] = []
    await transport.openStream((m) => seen.push(m))
    await expect(transport.request(legacy(7, 'tools/list'))).resolves.toEqual(result(7, { via: 'get' }))
    expect(seen).toEqual([])
    await transport.close()
  })

  it('accepts a JSON-RPC batch array as a JSON answer', async () => {
    const { url } = await serve((request, res) => sendJson(res, [progress(1), result(request.json.id, { ok: true })]))
    const seen: unknown[] = []
    const response = await new StreamableHttpTransport(url).request(legacy(3, 'x'), { onMessage: (m) => seen.push(m) })
    expect(response.result).toEqual({ ok: true })
    expect(seen).toEqual([progress(1)])
  })

  it('delivers SSE notifications and server requests in order, ignores comments, then resolves', async () => {
    const serverRequest = { jsonrpc: '2.0', id: 'srv-1', method: 'ping' }
    const { url } = await serve((request, res) => {
      openSse(res, {}, ': keep-alive\n\n', event(progress(1)), ':another comment\n', event(serverRequest), event(progress(2)))
      setTimeout(() => res.end(event(result(request.json.id, { done: true }))), 20)
    })
    const seen: unknown[] = []
    const response = await new StreamableHttpTransport(url).request(legacy(1, 'tools/call'), { onMessage: (m) => seen.push(m) })
    expect(response).toEqual(result(1, { done: true }))
    expect(seen).toEqual([progress(1), serverRequest, progress(2)])
  })

  it('reads batch arrays in SSE data', async () => {
    const { url } = await serve((request, res) => {
      openSse(res, {}, `data: ${JSON.stringify([progress(1), progress(2)])}\n\n`)
      res.end(`data: ${JSON.stringify([progress(3), result(request.json.id, { n: 3 })])}\n\n`)
    })
    const seen: unknown[] = []
    const response = await new StreamableHttpTransport(url).request(legacy(9, 'x'), { onMessage: (m) => seen.push(m) })
    expect(response.result).toEqual({ n: 3 })
    expect(seen).toEqual([progress(1), progress(2), progress(3)])
  })

  it('reads multi-line data, CRLF line ends, event: message, and skips other event types and priming events', async () => {
    const { url } = await serve((request, res) => {
      openSse(res, {}, 'id: p\nretry: 10\ndata: \n\n', 'event: other\ndata: {"not":"json-rpc"}\n\n')
      const json = JSON.stringify(progress(1), null, 1).split('\n')
      res.write(json.map((line) => `data: ${line}\r\n`).join('') + '\r\n')
      res.end(`event: message\ndata: ${JSON.stringify(result(request.json.id))}\n\n`)
    })
    const seen: unknown[] = []
    await new StreamableHttpTransport(url).request(legacy(1, 'x'), { onMessage: (m) => seen.push(m) })
    expect(seen).toEqual([progress(1)])
  })

  it('stops reading once the final response arrived, even if the server keeps the stream open', async () => {
    const { url } = await serve((request, res) => openSse(res, {}, event(result(request.json.id))))
    const transport = new StreamableHttpTransport(url)
    await expect(transport.request(modern(1, 'tools/list'))).resolves.toEqual(result(1))
    await until(() => server!.closedConnections === 1)
  })

  it('resolves another pending request from a response on this stream, and ignores unknown ids', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined)
    let first: import('node:http').ServerResponse | undefined
    const { url } = await serve((request, res) => {
      if (request.json.id === 1) return void ((first = res), openSse(res))
      openSse(res, {}, event(result(999)), event(result(1, { for: 'one' })))
      res.end(event(result(2, { for: 'two' })))
    })
    const transport = new StreamableHttpTransport(url)
    const one = transport.request(legacy(1, 'a'))
    await until(() => first !== undefined)
    await expect(transport.request(legacy(2, 'b'))).resolves.toEqual(result(2, { for: 'two' }))
    await expect(one).resolves.toEqual(result(1, { for: 'one' }))
    expect(debug).toHaveBeenCalledWith(expect.stringMatching(/no pending request/), 999)
  })

  it('keeps JSON-RPC ids 1 and "1" apart', async () => {
    const { url } = await serve((request, res) =>
      sendJson(res, request.json.id === 1 ? [result('1', { s: true }), result(1, { n: true })] : result('1', { s: true })),
    )
    const transport = new StreamableHttpTransport(url)
    await expect(transport.request(legacy(1, 'x'))).resolves.toEqual(result(1, { n: true }))
  })

  it('isolates a throwing message handler', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { url } = await serve((request, res) => {
      openSse(res, {}, event(progress(1)))
      res.end(event(result(request.json.id)))
    })
    const response = await new StreamableHttpTransport(url).request(legacy(1, 'x'), {
      onMessage: () => {
        throw new Error('app bug')
      },
    })
    expect(response).toEqual(result(1))
    expect(error).toHaveBeenCalledOnce()
  })
})

describe('an SSE body split at every byte boundary', () => {
  // A recorded response with multi-byte UTF-8, CRLF, a comment, an id, retry, a multi-line event and a batch.
  const recorded =
    ': keep-alive\r\n\r\n' +
    'id: 1\nretry: 500\ndata: \n\n' +
    `data: ${JSON.stringify({ ...progress(1), params: { progressToken: 't', progress: 1, message: 'Grüße 世界 🚀' } })}\n\n` +
    `data: [${JSON.stringify(progress(2))},\ndata: ${JSON.stringify(progress(3))}]\r\n\r\n` +
    `id: 2\ndata: ${JSON.stringify(result(1, { text: 'fin ✓' }))}\n\n`
  const bytes = new TextEncoder().encode(recorded)

  const respond = (chunks: Uint8Array[]) =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk)
          controller.close()
        },
      }),
      { headers: { 'Content-Type': 'text/event-stream' } },
    )

  async function run(chunks: Uint8Array[]) {
    const seen: JsonRpcNotification[] = []
    const transport = new StreamableHttpTransport('http://127.0.0.1:1/mcp', { fetch: async () => respond(chunks) })
    const response = await transport.request(legacy(1, 'x'), { onMessage: (m) => seen.push(m as JsonRpcNotification) })
    return { response, seen }
  }

  it('gives the same messages for every split into two chunks', async () => {
    const whole = await run([bytes])
    expect(whole.response.result).toEqual({ text: 'fin ✓' })
    expect(whole.seen.map((m) => m.params!.progress)).toEqual([1, 2, 3])
    expect(whole.seen[0]!.params!.message).toBe('Grüße 世界 🚀')
    for (let offset = 1; offset < bytes.length; offset++) {
      const split = await run([bytes.subarray(0, offset), bytes.subarray(offset)])
      expect(split, `split at byte ${offset}`).toEqual(whole)
    }
  })

  it('gives the same messages one byte at a time', async () => {
    const whole = await run([bytes])
    expect(await run(Array.from(bytes, (byte) => Uint8Array.of(byte)))).toEqual(whole)
  })

  it('gives the same messages from a real server writing one byte per packet', async () => {
    const { url } = await serve(async (_request, res) => {
      openSse(res)
      for (const byte of bytes) {
        res.write(Uint8Array.of(byte))
        await new Promise((resolve) => setImmediate(resolve))
      }
      res.end()
    })
    const seen: JsonRpcNotification[] = []
    const response = await new StreamableHttpTransport(url).request(legacy(1, 'x'), { onMessage: (m) => seen.push(m as JsonRpcNotification) })
    expect({ response, seen }).toEqual(await run([bytes]))
  })
})

describe('resumption (2025-11-25 SSE polling)', () => {
  it('waits exactly the retry the server asked for, then resumes with GET and Last-Event-ID', async () => {
    let postClosedAt = 0
    const { url, requests } = await serve((request, res) => {
      if (request.method === 'POST') {
        openSse(res, { 'Mcp-Session-Id': 's' }, 'id: ev-1\nretry: 400\ndata: \n\n', event(progress(1), 'ev-2'))
        setTimeout(() => {
          postClosedAt = performance.now()
          res.end()
        }, 30)
        return
      }
      openSse(res, {}, event(progress(2), 'ev-3'), event(result(request.headers['last-event-id'] === 'ev-2' ? 1 : -1, { resumed: true }), 'ev-4'))
    })
    const transport = new StreamableHttpTransport(url)
    transport.protocolVersion = '2025-11-25'
    const seen: unknown[] = []
    const response = await transport.request(legacy(1, 'tools/call'), { onMessage: (m) => seen.push(m) })
    expect(response).toEqual(result(1, { resumed: true }))
    expect(seen).toEqual([progress(1), progress(2)])
    const get = requests[1]!
    expect(get.method).toBe('GET')
    expect(get.headers['last-event-id']).toBe('ev-2')
    expect(get.headers['mcp-session-id']).toBe('s')
    expect(get.headers['mcp-protocol-version']).toBe('2025-11-25')
    expect(get.headers.accept).toBe('text/event-stream')
    expect(get.at - postClosedAt).toBeGreaterThanOrEqual(395)
    expect(get.at - postClosedAt).toBeLessThan(1000)
  })

  it('waits 1000 ms when the server gave no retry', async () => {
    let closedAt = 0
    const { url, requests } = await serve((request, res) => {
      if (request.method === 'POST') {
        openSse(res, {}, 'id: a\ndata: \n\n')
        setTimeout(() => ((closedAt = performance.now()), res.end()), 10)
        return
      }
      openSse(res, {}, event(result(1)))
    })
    await new StreamableHttpTransport(url).request(legacy(1, 'x'))
    expect(requests[1]!.at - closedAt).toBeGreaterThanOrEqual(995)
  })

  it('keeps polling while reconnections bring events, and gives up after 5 that bring none', async () => {
    let gets = 0
    const { url } = await serve((request, res) => {
      if (request.method === 'POST') return endSse(res, 'id: 0\nretry: 5\ndata: \n\n')
      gets++
      // Three polls with a fresh priming id each, then the same id over and over.
      openSse(res, {}, `id: ${Math.min(gets, 3)}\nretry: 5\ndata: \n\n`)
      res.end()
    })
    const error = await new StreamableHttpTransport(url).request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect(error).toMatchObject({ streamClosed: true })
    expect(gets).toBe(3 + 5)
  })

  it('resumes the GET stream too and delivers what it replays', async () => {
    let gets = 0
    const { url, requests } = await serve((request, res) => {
      gets++
      if (gets === 1) return endSse(res, 'retry: 20\n\n', event(progress(1), 'g1'))
      openSse(res, {}, event(progress(2), 'g2'))
    })
    const seen: unknown[] = []
    const stream = await new StreamableHttpTransport(url).openStream((m) => seen.push(m))
    await until(() => seen.length === 2)
    expect(requests[1]!.headers['last-event-id']).toBe('g1')
    stream!.close()
    await expect(stream!.closed).resolves.toBeUndefined()
  })

  it('a resumption GET that fails rejects the request with its HttpError', async () => {
    const { url } = await serve((request, res) => {
      if (request.method === 'POST') return endSse(res, 'id: 1\nretry: 5\ndata: \n\n')
      res.writeHead(405).end()
    })
    await expect(new StreamableHttpTransport(url).request(legacy(1, 'x'))).rejects.toMatchObject({ status: 405 })
  })

  it('never resumes a 2026-07-28 stream: it ends with streamClosed', async () => {
    const { url, requests } = await serve((_request, res) => endSse(res, 'id: 1\ndata: \n\n', event(progress(1), '2')))
    const error = await new StreamableHttpTransport(url).request(modern(1, 'tools/call', { name: 'x' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect(error).toMatchObject({ streamClosed: true, message: expect.stringMatching(/ended before its response/) })
    expect(requests).toHaveLength(1)
  })

  it('a handshake-era stream that ends without any event id rejects with streamClosed', async () => {
    const { url, requests } = await serve((_request, res) => endSse(res, event(progress(1))))
    await expect(new StreamableHttpTransport(url).request(legacy(1, 'x'))).rejects.toMatchObject({ streamClosed: true })
    expect(requests).toHaveLength(1)
  })
})

describe('faults become typed errors, and the next request still works', () => {
  const faults: [string, Handler, RegExp][] = [
    ['malformed JSON', (_r, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"jsonrpc":'), /malformed JSON/],
    ['an empty JSON body', (_r, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(), /malformed JSON/],
    ['JSON that is not JSON-RPC', (_r, res) => sendJson(res, { hello: 'world' }), /not a JSON-RPC 2.0 message/],
    ['an empty batch', (_r, res) => sendJson(res, []), /not a JSON-RPC 2.0 message/],
    ['a result that is not an object', (r, res) => sendJson(res, { jsonrpc: '2.0', id: r.json.id, result: 5 }), /not a JSON-RPC/],
    ['JSON without the answer', (_r, res) => sendJson(res, progress(1)), /holds no response with its id/],
    ['a wrong content type', (_r, res) => void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>'), /got "text\/html"/],
    ['no content type', (_r, res) => void res.writeHead(200).end('x'), /got ""/],
    ['SSE data that is not JSON', (_r, res) => endSse(res, 'data: hello\n\n'), /malformed JSON/],
    ['SSE data that is not JSON-RPC', (_r, res) => endSse(res, 'data: {"a":1}\n\n'), /not a JSON-RPC/],
    ['a JSON body over the limit', (r, res) => sendJson(res, result(r.json.id, { pad: 'x'.repeat(2000) })), /exceeds the limit of 1000 bytes/],
    [
      'an SSE event over the limit',
      (r, res) => endSse(res, event(result(r.json.id, { pad: 'x'.repeat(2000) }))),
      /SSE event exceeds the limit of 1000 bytes/,
    ],
  ]

  it.each(faults)('%s → ProtocolError', async (_name, fault, message) => {
    let broken = true
    const { url } = await serve((request, res, req) => (broken ? fault(request, res, req) : echo(request, res, req)))
    const transport = new StreamableHttpTransport(url, { maxBodyBytes: 1000 })
    const error = await transport.request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect((error as Error).message).toMatch(message)
    broken = false
    await expect(transport.request(legacy(2, 'y'))).resolves.toEqual(result(2, { method: 'y' }))
  })

  it('many small events on one stream are fine under the per-event limit', async () => {
    const { url } = await serve((request, res) => {
      openSse(res)
      for (let i = 0; i < 50; i++) res.write(event(progress(i)))
      res.end(event(result(request.json.id)))
    })
    let count = 0
    await new StreamableHttpTransport(url, { maxBodyBytes: 1000 }).request(legacy(1, 'x'), { onMessage: () => count++ })
    expect(count).toBe(50)
  })

  it('a non-2xx answer is an HttpError with status, headers, body and the JSON-RPC error', async () => {
    const body = { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'] } } }
    const { url } = await serve((_r, res) => sendJson(res, body, 400, { 'X-Extra': 'y' }))
    const error = (await new StreamableHttpTransport(url).request(modern(1, 'tools/list')).catch((e: unknown) => e)) as HttpError
    expect(error).toBeInstanceOf(HttpError)
    expect(error.status).toBe(400)
    expect(error.headers.get('x-extra')).toBe('y')
    expect(JSON.parse(error.body)).toEqual(body)
    expect(error.rpcError).toEqual(body.error)
    expect(error.sessionExpired).toBe(false)
  })

  it('an HttpError body is cut at the size limit, and an HTML error page has no rpcError', async () => {
    const { url } = await serve((_r, res) => void res.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>' + 'x'.repeat(5000)))
    const error = (await new StreamableHttpTransport(url, { maxBodyBytes: 100 }).request(legacy(1, 'x')).catch((e: unknown) => e)) as HttpError
    expect(error.status).toBe(502)
    expect(error.body).toHaveLength(100)
    expect(error.rpcError).toBeUndefined()
  })

  it('a connection cut in the middle of a stream is a NetworkError', async () => {
    const { url } = await serve((_r, res) => {
      openSse(res, {}, event(progress(1)))
      setTimeout(() => res.destroy(), 20)
    })
    const error = await new StreamableHttpTransport(url).request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ possibleCors: false })
  })

  it('a duplicate id in flight is refused', async () => {
    const { url } = await serve((request, res) => void setTimeout(() => echo(request, res, undefined as never), 50))
    const transport = new StreamableHttpTransport(url)
    const first = transport.request(legacy(1, 'x'))
    await expect(transport.request(legacy(1, 'x'))).rejects.toThrow(/already in flight/)
    await expect(first).resolves.toEqual(result(1, { method: 'x' }))
  })
})

describe('network errors', () => {
  it('a refused port is a NetworkError, not a CORS suspicion, in Node', async () => {
    const probe = await startTestServer(() => undefined)
    const url = probe.url
    await probe.close()
    const error = await new StreamableHttpTransport(url).request(modern(1, 'tools/list')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ url, possibleCors: false })
    expect((error as Error).cause).toBeInstanceOf(TypeError)
  })

  it('flags a TypeError towards another origin as possibly CORS when there is a location', async () => {
    vi.stubGlobal('location', { origin: 'http://app.test', href: 'http://app.test/' })
    try {
      const fetch = async () => {
        throw new TypeError('Failed to fetch')
      }
      const cross = await new StreamableHttpTransport('http://127.0.0.1:9/mcp', { fetch }).request(legacy(1, 'x')).catch((e: unknown) => e)
      expect(cross).toMatchObject({ possibleCors: true, message: expect.stringMatching(/Mcp-Param-\*/) })
      const same = await new StreamableHttpTransport('http://app.test/mcp', { fetch }).request(legacy(1, 'x')).catch((e: unknown) => e)
      expect(same).toMatchObject({ possibleCors: false })
      const other = await new StreamableHttpTransport('http://127.0.0.1:9/mcp', {
        fetch: async () => {
          throw new Error('not a TypeError')
        },
      })
        .request(legacy(1, 'x'))
        .catch((e: unknown) => e)
      expect(other).toMatchObject({ possibleCors: false })
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('cancellation and closing', () => {
  it('aborting closes the request stream and rejects with AbortError carrying the reason', async () => {
    const { url } = await serve((_r, res) => openSse(res, {}, event(progress(1))))
    const controller = new AbortController()
    const transport = new StreamableHttpTransport(url)
    const pending = transport.request(modern(1, 'tools/call', { name: 'slow' }), {
      signal: controller.signal,
      onMessage: () => controller.abort('user gave up'),
    })
    const error = await pending.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AbortError)
    expect(error).toMatchObject({ reason: 'user gave up' })
    await until(() => server!.closedConnections === 1)
  })

  it('an already aborted signal sends nothing', async () => {
    const { url, requests } = await serve(echo)
    const transport = new StreamableHttpTransport(url)
    await expect(transport.request(legacy(1, 'x'), { signal: AbortSignal.abort('early') })).rejects.toBeInstanceOf(AbortError)
    await expect(transport.send({ jsonrpc: '2.0', method: 'n' }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError)
    expect(requests).toHaveLength(0)
  })

  it('aborting during the resumption wait stops it at once', async () => {
    const { url, requests } = await serve((_r, res) => endSse(res, 'id: 1\nretry: 60000\ndata: \n\n'))
    const controller = new AbortController()
    const pending = new StreamableHttpTransport(url).request(legacy(1, 'x'), { signal: controller.signal })
    await until(() => server!.closedConnections === 1)
    controller.abort()
    await expect(pending).rejects.toBeInstanceOf(AbortError)
    expect(requests).toHaveLength(1)
  })

  it('close() rejects pending requests with AbortError, ends GET streams, and the transport still works afterwards', async () => {
    const { url } = await serve((request, res) => {
      if (request.method === 'GET' || request.json.id === 1) return openSse(res)
      echo(request, res, undefined as never)
    })
    const transport = new StreamableHttpTransport(url)
    const stream = await transport.openStream(() => undefined)
    const pending = transport.request(legacy(1, 'x'))
    await until(() => server!.requests.length === 2)
    await transport.close()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', reason: 'transport closed' })
    await expect(stream!.closed).resolves.toBeUndefined()
    await expect(transport.request(legacy(2, 'y'))).resolves.toEqual(result(2, { method: 'y' }))
  })
})

describe('openStream', () => {
  it('resolves undefined on 405', async () => {
    const { url } = await serve((_r, res) => void res.writeHead(405).end())
    expect(await new StreamableHttpTransport(url).openStream(() => undefined)).toBeUndefined()
  })

  it('rejects other statuses with HttpError and a 404 on a session with sessionExpired', async () => {
    let status = 500
    const { url } = await serve((request, res) => {
      if (request.method === 'POST') return sendJson(res, result(request.json.id), 200, { 'Mcp-Session-Id': 'gone' })
      res.writeHead(status).end()
    })
    const transport = new StreamableHttpTransport(url)
    await expect(transport.openStream(() => undefined)).rejects.toMatchObject({ status: 500, sessionExpired: false })
    await transport.request(legacy(1, 'initialize'))
    status = 404
    await expect(transport.openStream(() => undefined)).rejects.toMatchObject({ status: 404, sessionExpired: true })
    expect(transport.sessionId).toBeUndefined()
  })

  it('rejects a GET answered with something other than SSE', async () => {
    const { url } = await serve((_r, res) => sendJson(res, {}))
    await expect(new StreamableHttpTransport(url).openStream(() => undefined)).rejects.toThrow(/Expected text\/event-stream/)
  })

  it('delivers messages; closed resolves when the server ends a stream without ids', async () => {
    const { url } = await serve((_r, res) => {
      openSse(res, {}, event(progress(1)))
      setTimeout(() => res.end(event(progress(2))), 20)
    })
    const seen: unknown[] = []
    const stream = await new StreamableHttpTransport(url).openStream((m) => seen.push(m))
    await expect(stream!.closed).resolves.toBeUndefined()
    expect(seen).toEqual([progress(1), progress(2)])
  })

  it('drops a malformed message on the session stream and keeps delivering', async () => {
    const note = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }
    const { url } = await serve((_r, res) => endSse(res, 'data: nope\n\n', `data: ${JSON.stringify(note)}\n\n`))
    const heard: unknown[] = []
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const stream = await new StreamableHttpTransport(url).openStream((m) => heard.push(m))
    await expect(stream!.closed).resolves.toBeUndefined()
    expect(heard).toEqual([note])
    expect(warn).toHaveBeenCalledWith('nanomcp: dropped a malformed message on the session stream', expect.any(ProtocolError))
    warn.mockRestore()
  })

  it('a request parked by a 202 fails when the last GET stream ends, instead of waiting for its timeout', async () => {
    let release!: () => void
    const { url } = await serve((req, res) => {
      if (req.method === 'GET') {
        openSse(res)
        release = () => res.end()
        return
      }
      res.writeHead(202).end()
    })
    const transport = new StreamableHttpTransport(url)
    transport.protocolVersion = '2025-11-25'
    await transport.openStream(() => undefined)
    const parked = transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    await new Promise((r) => setTimeout(r, 50))
    release()
    const failure = (await parked.catch((e: unknown) => e)) as ProtocolError
    expect(failure).toBeInstanceOf(ProtocolError)
    expect(failure.streamClosed).toBe(true)
  })

  it('does not resume with an event id that cannot travel in a header', async () => {
    let gets = 0
    const { url } = await serve((req, res) => {
      if (req.method === 'GET') gets++
      endSse(res, 'id: \u00fc\u20ac\ndata: {"jsonrpc":"2.0","method":"notifications/x"}\n\n')
    })
    const transport = new StreamableHttpTransport(url)
    transport.protocolVersion = '2025-11-25'
    const stream = await transport.openStream(() => undefined)
    await expect(stream!.closed).resolves.toBeUndefined()
    expect(gets).toBe(1)
  })
})

describe('legacySse()', () => {
  it('gives an HTTP+SSE transport for the same URL', async () => {
    const transport = new StreamableHttpTransport(new URL('http://127.0.0.1:1/mcp'))
    expect(transport.kind).toBe('streamable-http')
    expect(transport.url).toBe('http://127.0.0.1:1/mcp')
    const sse = await transport.legacySse()
    expect(sse).toBeInstanceOf(SseTransport)
    expect(sse.url).toBe(transport.url)
    expect(sse.kind).toBe('sse')
  })
})
