// Streamable HTTP: legacy-era sessions, the GET session stream (openStream) and the HTTP+SSE fallback.
import { describe, expect, it, vi } from 'vitest'
import { HttpError } from '../errors/http-error'
import { ProtocolError } from '../errors/protocol-error'
import { endSse, event, openSse, result, sendJson } from '../testing/test-server'
import { echo, legacy, progress, scriptedServers } from '../testing/transport-fixtures'
import { SseTransport } from './sse'
import { StreamableHttpTransport } from './streamable-http'

const serve = scriptedServers()

describe('legacy-era sessions', () => {
  it('captures Mcp-Session-Id, sends it and MCP-Protocol-Version on later requests, GET and DELETE', async () => {
    const { url, requests } = await serve((request, res) => {
      if (request.method === 'DELETE') return void res.writeHead(200).end()
      if (request.method === 'GET') return openSse(res)
      if (request.json.method === 'initialize') return sendJson(res, result(request.json.id, { protocolVersion: '2025-11-25' }), 200, { 'Mcp-Session-Id': 'abc-123' })
      echo(request, res, undefined as never)
    })
    const transport = new StreamableHttpTransport(url)
    await transport.request(legacy(0, 'initialize', { protocolVersion: '2025-11-25' }))
    expect(transport.sessionId).toBe('abc-123')
    // Learnt from the initialize answer as it passed through: nobody sets it.
    expect(transport.protocolVersion).toBe('2025-11-25')
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

  it.each(['2025-03-26', '2024-11-05'])('sends no MCP-Protocol-Version to a %s session (the header starts with 2025-06-18)', async (revision) => {
    const { url, requests } = await serve((request, res) => {
      if (request.method === 'GET') return openSse(res)
      sendJson(res, result(request.json.id, {}), 200, { 'Mcp-Session-Id': 's1' })
    })
    const transport = new StreamableHttpTransport(url)
    transport.protocolVersion = revision
    await transport.request(legacy(1, 'tools/list'))
    const stream = await transport.openStream(() => undefined)
    stream!.close()
    transport.protocolVersion = '2025-06-18'
    await transport.request(legacy(2, 'tools/list'))
    expect(requests.map((r) => [r.method, r.headers['mcp-protocol-version']])).toEqual([
      ['POST', undefined],
      ['GET', undefined],
      ['POST', '2025-06-18'],
    ])
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
    const server = await serve((request, res) => {
      if (request.method === 'DELETE') return void res.writeHead(405).end()
      sendJson(res, result(request.json.id), 200, { 'Mcp-Session-Id': 's' })
    })
    const transport = new StreamableHttpTransport(server.url)
    await transport.request(legacy(0, 'initialize'))
    await expect(transport.close()).resolves.toBeUndefined()
    expect(server.requests[1]).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 's' } })
    await transport.request(legacy(1, 'initialize'))
    await server.close()
    await expect(transport.close()).resolves.toBeUndefined()
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
    const debug = vi.fn()
    const stream = await new StreamableHttpTransport(url, { debug }).openStream((m) => heard.push(m))
    await expect(stream!.closed).resolves.toBeUndefined()
    expect(heard).toEqual([note])
    expect(debug).toHaveBeenCalledWith('dropped a malformed message on the session stream', expect.any(ProtocolError))
  })

  it('a request parked by a 202 fails when the last GET stream ends, instead of waiting for its timeout', async () => {
    let get!: import('node:http').ServerResponse
    const { url } = await serve((req, res) => {
      if (req.method === 'GET') return void ((get = res), openSse(res))
      res.writeHead(202).end()
      // Progress for the request, repeated until the request hears it: then it is parked (its progress is
      // routed to it only once parked), whatever order the two connections are read in.
      ticker = setInterval(() => get.write(event(progress(1, 'p'))), 5)
    })
    let ticker: ReturnType<typeof setInterval> | undefined
    const transport = new StreamableHttpTransport(url)
    transport.protocolVersion = '2025-11-25'
    await transport.openStream(() => undefined)
    let heard!: () => void
    const parkedNow = new Promise<void>((resolve) => (heard = resolve))
    const parked = transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { progressToken: 'p' } } }, { onMessage: () => heard() })
    await parkedNow
    clearInterval(ticker)
    get.end()
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
    expect(transport.sessionStream).toBe(false)
    expect(transport.url).toBe('http://127.0.0.1:1/mcp')
    const sse = await transport.legacySse()
    expect(sse).toBeInstanceOf(SseTransport)
    expect(sse.url).toBe(transport.url)
    expect(sse.sessionStream).toBe(true)
  })
})
