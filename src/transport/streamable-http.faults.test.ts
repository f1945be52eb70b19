// Streamable HTTP: faults become typed errors; network errors; cancellation and close().
import { describe, expect, it, vi } from 'vitest'
import { AbortError } from '../errors/abort-error'
import { HttpError } from '../errors/http-error'
import { NetworkError } from '../errors/network-error'
import { ProtocolError } from '../errors/protocol-error'
import { endSse, event, openSse, result, sendJson, startTestServer, until, type Handler } from '../testing/test-server'
import { echo, legacy, modern, progress, scriptedServers } from '../testing/transport-fixtures'
import { StreamableHttpTransport } from './streamable-http'

const serve = scriptedServers()

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
    const server = await serve((_r, res) => openSse(res, {}, event(progress(1))))
    const controller = new AbortController()
    const transport = new StreamableHttpTransport(server.url)
    const pending = transport.request(modern(1, 'tools/call', { name: 'slow' }), {
      signal: controller.signal,
      onMessage: () => controller.abort('user gave up'),
    })
    const error = await pending.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AbortError)
    expect(error).toMatchObject({ reason: 'user gave up' })
    await until(() => server.closedConnections === 1)
  })

  it('an already aborted signal sends nothing', async () => {
    const { url, requests } = await serve(echo)
    const transport = new StreamableHttpTransport(url)
    await expect(transport.request(legacy(1, 'x'), { signal: AbortSignal.abort('early') })).rejects.toBeInstanceOf(AbortError)
    await expect(transport.send({ jsonrpc: '2.0', method: 'n' }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError)
    expect(requests).toHaveLength(0)
  })

  it('aborting during the resumption wait stops it at once', async () => {
    const server = await serve((_r, res) => endSse(res, 'id: 1\nretry: 60000\ndata: \n\n'))
    const controller = new AbortController()
    const pending = new StreamableHttpTransport(server.url).request(legacy(1, 'x'), { signal: controller.signal })
    await until(() => server.closedConnections === 1)
    controller.abort()
    await expect(pending).rejects.toBeInstanceOf(AbortError)
    expect(server.requests).toHaveLength(1)
  })

  it('close() rejects pending requests with AbortError, ends GET streams, and the transport still works afterwards', async () => {
    const server = await serve((request, res) => {
      if (request.method === 'GET' || request.json.id === 1) return openSse(res)
      echo(request, res, undefined as never)
    })
    const transport = new StreamableHttpTransport(server.url)
    const stream = await transport.openStream(() => undefined)
    const pending = transport.request(legacy(1, 'x'))
    await until(() => server.requests.length === 2)
    await transport.close()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', reason: 'transport closed' })
    await expect(stream!.closed).resolves.toBeUndefined()
    await expect(transport.request(legacy(2, 'y'))).resolves.toEqual(result(2, { method: 'y' }))
  })
})

