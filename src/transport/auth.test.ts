// The authorization hook both transports offer (options.auth): headers for every request, every response
// shown, a 401/403 handed to unauthorized() which may ask for one resend.
import { afterEach, describe, expect, it } from 'vitest'
import { HttpError } from '../errors/http-error'
import { fakeSse } from '../testing/fake-sse'
import { openSse, result, sendJson, startTestServer, type RecordedRequest, type TestServer } from '../testing/test-server'
import { legacy, modern } from '../testing/transport-fixtures'
import { SseTransport } from './sse'
import { StreamableHttpTransport } from './streamable-http'
import type { AuthProvider } from './types'

const servers: TestServer[] = []
const transports: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()))
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/** A tiny provider: token "t<n>", where a 401 moves to the next n (up to `refreshes` times). */
function tokens(refreshes = 1) {
  const log: string[] = []
  let n = 0
  const provider: AuthProvider = {
    headers: ({ method }) => (log.push(`headers ${method}`), { Authorization: `Bearer t${n}` }),
    response: (response, { method }) => void log.push(`response ${method} ${response.status}`),
    unauthorized: async (response, { method }) => {
      log.push(`unauthorized ${method} ${response.status} ${response.headers.get('www-authenticate')}`)
      return n < refreshes ? (n++, true) : false
    },
  }
  return { provider, log }
}

const challenge = (res: import('node:http').ServerResponse) =>
  void res.writeHead(401, { 'WWW-Authenticate': 'Bearer error="invalid_token"', 'Content-Type': 'application/json' }).end('{"error":"no"}')

/** Streamable HTTP server that wants "Bearer t1" on every request, POST, GET and DELETE alike. */
async function guarded(): Promise<TestServer> {
  const server = await startTestServer((request, res) => {
    if (request.headers.authorization !== 'Bearer t1') return challenge(res)
    if (request.method === 'GET') return openSse(res)
    if (request.method === 'DELETE') return void res.writeHead(200).end()
    sendJson(res, result(request.json.id, { ok: true }), 200, request.json.method === 'initialize' ? { 'Mcp-Session-Id': 'sess' } : {})
  })
  servers.push(server)
  return server
}

const auths = (requests: RecordedRequest[]) => requests.map((r) => `${r.method} ${r.headers.authorization}`)

describe('auth hook: Streamable HTTP', () => {
  it('a 401 asks unauthorized(); true resends once with the new headers, POST, GET stream and DELETE alike', async () => {
    const server = await guarded()
    const { provider, log } = tokens()
    const transport = new StreamableHttpTransport(server.url, { auth: provider })
    await expect(transport.request(legacy(0, 'initialize'))).resolves.toEqual(result(0, { ok: true }))
    const stream = await transport.openStream(() => undefined)
    expect(stream).toBeDefined()
    await transport.close()
    expect(auths(server.requests)).toEqual(['POST Bearer t0', 'POST Bearer t1', 'GET Bearer t1', 'DELETE Bearer t1'])
    expect(log.slice(0, 5)).toEqual([
      'headers POST',
      'response POST 401',
      'unauthorized POST 401 Bearer error="invalid_token"',
      'headers POST',
      'response POST 200',
    ])
    expect(log).toContain('headers GET')
    expect(log).toContain('headers DELETE')
  })

  it('unauthorized() false fails with the HttpError of the 401, body and challenge intact', async () => {
    const server = await guarded()
    const { provider } = tokens(0)
    const error = (await new StreamableHttpTransport(server.url, { auth: provider }).request(modern(1, 'tools/list')).catch((e: unknown) => e)) as HttpError
    expect(error).toBeInstanceOf(HttpError)
    expect(error.status).toBe(401)
    expect(error.headers.get('www-authenticate')).toMatch(/invalid_token/)
    expect(error.body).toBe('{"error":"no"}')
    expect(server.requests).toHaveLength(1)
  })

  it('a provider that keeps saying true cannot loop: two resends at most, then the HttpError', async () => {
    const server = await startTestServer((_r, res) => challenge(res))
    servers.push(server)
    let asked = 0
    const provider: AuthProvider = { headers: () => ({}), unauthorized: async () => (asked++, true) }
    await expect(new StreamableHttpTransport(server.url, { auth: provider }).request(modern(1, 'tools/list'))).rejects.toMatchObject({ status: 401 })
    expect(asked).toBe(2)
    expect(server.requests).toHaveLength(3)
  })

  it('a rejection from unauthorized() rejects the request as it is', async () => {
    const server = await guarded()
    const failure = new Error('sign-in needed')
    const provider: AuthProvider = { headers: () => ({}), unauthorized: () => Promise.reject(failure) }
    await expect(new StreamableHttpTransport(server.url, { auth: provider }).request(modern(1, 'tools/list'))).rejects.toBe(failure)
  })

  it('a 403 goes to unauthorized() too (insufficient scope)', async () => {
    let scoped = false
    const server = await startTestServer((request, res) =>
      scoped ? sendJson(res, result(request.json.id)) : void res.writeHead(403, { 'WWW-Authenticate': 'Bearer error="insufficient_scope"' }).end(),
    )
    servers.push(server)
    const provider: AuthProvider = { headers: () => ({}), unauthorized: async (response) => (scoped = response.status === 403) }
    await expect(new StreamableHttpTransport(server.url, { auth: provider }).request(modern(1, 'tools/list'))).resolves.toEqual(result(1))
  })
})

describe('auth hook: HTTP+SSE (the stream is read with fetch, since EventSource cannot send Authorization)', () => {
  it('the GET stream and the POSTs carry the token; a 401 on the stream is retried after unauthorized()', async () => {
    const { server, posts } = await fakeSse({
      get: (request, res) => (request.headers.authorization === 'Bearer t1' ? false : (challenge(res), true)),
      answer: (post, res, stream) => {
        if (post.headers.authorization !== 'Bearer t1') return challenge(res)
        res.writeHead(202).end()
        if (post.json.id !== undefined) stream.write(`data: ${JSON.stringify(result(post.json.id))}\n\n`)
      },
    })
    servers.push(server)
    const { provider, log } = tokens()
    // An EventSource is offered, yet with auth the transport must not use it.
    const EventSource = class {
      constructor() {
        throw new Error('EventSource must not be used with auth')
      }
    } as never
    const transport = new SseTransport(`${server.origin}/sse`, { auth: provider, EventSource })
    transports.push(transport)
    await expect(transport.request(legacy(1, 'tools/list'))).resolves.toEqual(result(1))
    expect(auths(server.requests.filter((r) => r.method === 'GET'))).toEqual(['GET Bearer t0', 'GET Bearer t1'])
    expect(posts.map((p) => p.headers.authorization)).toEqual(['Bearer t1'])
    expect(log).toContain('unauthorized GET 401 Bearer error="invalid_token"')
  })

  it('a refused stream (unauthorized() false) fails the request with the HttpError 401, not a vague network error', async () => {
    const { server } = await fakeSse({ get: (_r, res) => (challenge(res), true) })
    servers.push(server)
    const transport = new SseTransport(`${server.origin}/sse`, { auth: tokens(0).provider })
    transports.push(transport)
    await expect(transport.request(legacy(1, 'tools/list'))).rejects.toMatchObject({ name: 'HttpError', status: 401 })
  })
})
