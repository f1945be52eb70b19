// Fault family: HTTP statuses — 404 on a session, 5xx, 429, HTML error pages — on both transports, and on the
// GET streams. Each is an HttpError carrying the status, the headers (Retry-After) and the bounded body; the
// transport works on (a new session after a 404).
import { describe, expect, it } from 'vitest'
import { HttpError } from '../../errors/http-error'
import { failure, faultKit, settle } from '../../testing/fault-kit'
import { fakeSse } from '../../testing/fake-sse'
import { openSse, result, sendJson, type Handler } from '../../testing/test-server'
import { echo, legacy, modern } from '../../testing/transport-fixtures'
import { SseTransport } from '../sse'
import { StreamableHttpTransport } from '../streamable-http'

const serve = faultKit()

const once = (fault: Handler): Handler => {
  let done = false
  return (request, res, req) => (done ? echo(request, res, req) : ((done = true), fault(request, res, req)))
}
const html = (status: number, headers: Record<string, string> = {}): Handler => (_r, res) =>
  void res.writeHead(status, { 'Content-Type': 'text/html', ...headers }).end(`<!doctype html><title>${status}</title>${'<p>x'.repeat(5000)}`)

describe.each([
  ['2026-07-28', modern],
  ['legacy era', legacy],
] as const)('Streamable HTTP (%s): error statuses', (_era, build) => {
  it.each([
    [500, html(500)],
    [502, html(502)],
    [503, html(503, { 'Retry-After': '7' })],
    [429, html(429, { 'Retry-After': '2' })],
  ])('%i → HttpError with status, headers and a bounded body; the next request works', async (status, fault) => {
    const { url } = await serve(once(fault))
    const transport = new StreamableHttpTransport(url, { maxBodyBytes: 1000 })
    const error = (await failure(transport.request(build(1, 'tools/call')))) as HttpError
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status, rpcError: undefined, sessionExpired: false })
    expect(error.message).toMatch(new RegExp(`^HTTP ${status}: <!doctype html>`))
    expect(error.body).toHaveLength(1000)
    if (status === 429 || status === 503) expect(error.headers.get('retry-after')).toMatch(/^\d$/)
    expect((await settle(transport.request(build(2, 'tools/list')))).value).toEqual(result(2, { method: 'tools/list' }))
  })

  it('a JSON-RPC error in a 4xx body is read into rpcError', async () => {
    const { url } = await serve(once((_r, res) => sendJson(res, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad' } }, 400)))
    expect(await failure(new StreamableHttpTransport(url).request(build(1, 'x')))).toMatchObject({ status: 400, rpcError: { code: -32600 } })
  })
})

describe('Streamable HTTP: 404 on a session', () => {
  it('ends the session (sessionExpired, id forgotten); the next initialize starts a new one', async () => {
    let sessions = 0
    let live: string | undefined
    const { url } = await serve((request, res) => {
      if (request.json?.method === 'initialize') return sendJson(res, result(request.json.id), 200, { 'Mcp-Session-Id': (live = `s${++sessions}`) })
      if (request.headers['mcp-session-id'] !== live) return sendJson(res, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }, 404)
      if (request.method === 'GET') return openSse(res)
      echo(request, res, undefined as never)
    })
    const transport = new StreamableHttpTransport(url)
    await transport.request(legacy(0, 'initialize'))
    expect(transport.sessionId).toBe('s1')
    // The server forgets the session.
    live = 'gone'
    const error = await failure(transport.request(legacy(1, 'tools/list')))
    expect(error).toMatchObject({ name: 'HttpError', status: 404, sessionExpired: true })
    expect(transport.sessionId).toBeUndefined()
    expect(await failure(transport.openStream(() => undefined))).toMatchObject({ status: 404, sessionExpired: false })
    await transport.request(legacy(2, 'initialize'))
    expect(transport.sessionId).toBe('s2')
    expect((await settle(transport.request(legacy(3, 'tools/list')))).value).toEqual(result(3, { method: 'tools/list' }))
  })

  it('a 404 without a session is a plain HttpError (the era decision is the client\'s)', async () => {
    const { url } = await serve(once(html(404)))
    expect(await failure(new StreamableHttpTransport(url).request(modern(1, 'x')))).toMatchObject({ status: 404, sessionExpired: false })
  })
})

describe('Streamable HTTP: error statuses on the GET stream', () => {
  it.each([429, 500, 503])('openStream with %i rejects with HttpError; a later open works', async (status) => {
    let failed = false
    const { url } = await serve((_r, res) => (failed ? openSse(res) : ((failed = true), html(status, { 'Retry-After': '1' })(_r, res, undefined as never))))
    const transport = new StreamableHttpTransport(url)
    expect(await failure(transport.openStream(() => undefined))).toMatchObject({ name: 'HttpError', status })
    const stream = (await settle(transport.openStream(() => undefined))).value
    stream!.close()
  })
})

describe('HTTP+SSE: error statuses', () => {
  it.each([429, 500, 503])('a POST answered %i → HttpError; the session serves the next request', async (status) => {
    let failed = false
    const { server } = await fakeSse({
      answer: (post, res, stream) => {
        if (!failed) return void ((failed = true), html(status)(post, res, undefined as never))
        res.writeHead(202).end()
        stream.write(`data: ${JSON.stringify(result(post.json.id))}\n\n`)
      },
    })
    const transport = new SseTransport(`${server.origin}/sse`)
    expect(await failure(transport.request(legacy(1, 'x')))).toMatchObject({ name: 'HttpError', status })
    expect((await settle(transport.request(legacy(2, 'y')))).value).toEqual(result(2))
    await transport.close()
    await server.close()
  })

  it.each([401, 404, 500])('a stream answered %i (read with fetch) fails with that HttpError, not a vague network error', async (status) => {
    const { server } = await fakeSse({ get: (request, res) => (html(status)(request, res, undefined as never), true) })
    const transport = new SseTransport(`${server.origin}/sse`)
    expect(await failure(transport.request(legacy(1, 'x')))).toMatchObject({ name: 'HttpError', status })
    await server.close()
  })
})
