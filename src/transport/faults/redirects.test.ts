// Fault family: redirects. No byte of a request (body, Mcp-Session-Id, app headers, Authorization, Mcp-Param-*)
// may reach another origin; a same-origin 307/308 is followed with the same request. 127.0.0.1 and localhost
// are two origins of the same machine.
import { afterEach, describe, expect, it } from 'vitest'
import { RedirectError } from '../../errors/redirect-error'
import { fakeSse } from '../../testing/fake-sse'
import { result, sendJson, startTestServer, type RecordedRequest, type TestServer } from '../../testing/test-server'
import { echo, legacy, modern } from '../../testing/transport-fixtures'
import { SseTransport } from '../sse'
import { StreamableHttpTransport } from '../streamable-http'

const servers: TestServer[] = []
afterEach(async () => void (await Promise.all(servers.splice(0).map((server) => server.close()))))

/** A server whose /mcp redirects with `status` to `to()`, and a second origin recording what reaches it. */
async function redirecting(status: number, to: (other: TestServer, self: TestServer) => string) {
  const other = await startTestServer((request, res) => echo(request, res, undefined as never))
  let self!: TestServer
  self = await startTestServer((request, res) => {
    if (request.url === '/mcp') return void res.writeHead(status, { Location: to(other, self), 'Mcp-Session-Id': 'from-redirect' }).end()
    if (request.json?.method === 'initialize') return sendJson(res, result(request.json.id, {}), 200, { 'Mcp-Session-Id': 'kept' })
    echo(request, res, undefined as never)
  })
  servers.push(other, self)
  return { self, other }
}

/** Node's own fetch meets a URL's first redirect twice (http.ts, quickRedirects). */
const redirectSeenTwice = typeof process.versions.undici === 'string'

const secrets = {
  headers: { 'X-App-Secret': 's3cret' },
  auth: { headers: () => ({ Authorization: 'Bearer t0ken' }), unauthorized: async () => false },
}

describe('redirects (Streamable HTTP)', () => {
  it.each([301, 302, 303, 307, 308])('a %i to another origin fails with RedirectError naming the target; nothing reaches it', async (status) => {
    const { self, other } = await redirecting(status, (o) => `${o.origin}/stolen`)
    const transport = new StreamableHttpTransport(self.url, secrets)
    const error = await transport.request(modern(1, 'tools/call', { name: 'x', arguments: {} })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RedirectError)
    expect(error).toMatchObject({
      status,
      location: `${other.origin}/stolen`,
      refusal: 'cross-origin',
      message: expect.stringContaining(`${other.origin}/stolen`),
    })
    expect(other.requests).toEqual([])
    // The redirect's own session id is not adopted.
    expect(transport.sessionId).toBeUndefined()
  })

  it('localhost is another origin than 127.0.0.1', async () => {
    const { self, other } = await redirecting(307, (o) => `http://localhost:${new URL(o.origin).port}/mcp`)
    const error = await new StreamableHttpTransport(self.url).request(legacy(1, 'ping')).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'RedirectError', refusal: 'cross-origin' })
    expect(other.requests).toEqual([])
  })

  it.each([307, 308])('a same-origin %i is followed with the same method, body and headers', async (status) => {
    const { self } = await redirecting(status, (_o, s) => `${s.origin}/moved`)
    const transport = new StreamableHttpTransport(self.url, secrets)
    await expect(transport.request(legacy(0, 'initialize'))).resolves.toEqual(result(0, {}))
    expect(transport.sessionId).toBe('kept')
    const first = self.requests[0] as RecordedRequest
    const moved = self.requests.at(-1) as RecordedRequest
    expect(self.requests).toHaveLength(redirectSeenTwice ? 3 : 2)
    expect(moved.url).toBe('/moved')
    expect(moved.method).toBe('POST')
    expect(moved.body).toBe(first.body)
    expect(moved.headers).toMatchObject({ 'x-app-secret': 's3cret', authorization: 'Bearer t0ken' })
  })

  it('a same-origin 302 of a POST is refused: following it would turn the request into a GET', async () => {
    const { self } = await redirecting(302, (_o, s) => `${s.origin}/moved`)
    const error = await new StreamableHttpTransport(self.url).request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'RedirectError', refusal: 'method', status: 302 })
    // Once, or twice in Node: its fetch refuses the first redirect outright, and the URL is asked again to see it.
    expect(self.requests).toHaveLength(redirectSeenTwice ? 2 : 1)
  })

  it.runIf(redirectSeenTwice)('Node: a URL that redirected once is asked with manual redirects from then on, so each later request reaches it once', async () => {
    const { self } = await redirecting(307, (_o, s) => `${s.origin}/moved`)
    const transport = new StreamableHttpTransport(self.url)
    await expect(transport.request(legacy(1, 'x'))).resolves.toEqual(result(1, { method: 'x' }))
    // The first: refused by fetch, asked again to see the redirect, then the moved request.
    expect(self.requests.map((r) => r.url)).toEqual(['/mcp', '/mcp', '/moved'])
    await expect(new StreamableHttpTransport(self.url).request(legacy(2, 'y'))).resolves.toEqual(result(2, { method: 'y' }))
    expect(self.requests.map((r) => r.url)).toEqual(['/mcp', '/mcp', '/moved', '/mcp', '/moved'])
  })

  it('a redirect loop ends after a few hops with refusal too-many', async () => {
    const { self } = await redirecting(307, (_o, s) => `${s.origin}/mcp`)
    const error = await new StreamableHttpTransport(self.url).request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'RedirectError', refusal: 'too-many' })
    expect(self.requests.length).toBe(redirectSeenTwice ? 7 : 6)
  })

  it('an injected fetch that follows redirects itself: the answer from another origin is refused, its session ignored', async () => {
    const fetch = async () => {
      const response = Response.json(result(1), { headers: { 'Mcp-Session-Id': 'elsewhere' } })
      Object.defineProperty(response, 'url', { value: 'http://evil.example/mcp' })
      Object.defineProperty(response, 'redirected', { value: true })
      return response
    }
    const transport = new StreamableHttpTransport('http://127.0.0.1:1/mcp', { fetch })
    await expect(transport.request(legacy(1, 'x'))).rejects.toMatchObject({ name: 'RedirectError', location: 'http://evil.example/mcp' })
    expect(transport.sessionId).toBeUndefined()
  })

  it('an injected fetch that forwards to a proxy is no redirect: its answer (from the proxy URL) is used', async () => {
    const fetch = async () => {
      const response = Response.json(result(1), { headers: { 'Mcp-Session-Id': 'via-proxy' } })
      Object.defineProperty(response, 'url', { value: 'http://127.0.0.1:2/proxy/http%3A%2F%2F127.0.0.1%3A1%2Fmcp' })
      return response
    }
    const transport = new StreamableHttpTransport('http://127.0.0.1:1/mcp', { fetch })
    await expect(transport.request(legacy(1, 'x'))).resolves.toEqual(result(1))
    expect(transport.sessionId).toBe('via-proxy')
  })

  it('the transport works on after a refused redirect', async () => {
    let redirect = true
    const other = await startTestServer((request, res) => echo(request, res, undefined as never))
    const self = await startTestServer((request, res) =>
      redirect ? void res.writeHead(307, { Location: other.url }).end() : echo(request, res, undefined as never),
    )
    servers.push(other, self)
    const transport = new StreamableHttpTransport(self.url)
    await expect(transport.request(legacy(1, 'x'))).rejects.toBeInstanceOf(RedirectError)
    redirect = false
    await expect(transport.request(legacy(2, 'y'))).resolves.toEqual(result(2, { method: 'y' }))
  })
})

describe('redirects (HTTP+SSE, stream read with fetch)', () => {
  it('a GET stream redirected to another origin fails with RedirectError before any endpoint', async () => {
    const other = await startTestServer((_r, res) => void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end('event: endpoint\ndata: /x\n\n'))
    const { server } = await fakeSse({ get: (_r, res) => (res.writeHead(307, { Location: `${other.origin}/sse` }).end(), true) })
    servers.push(other, server)
    const error = await new SseTransport(`${server.origin}/sse`, { headers: {} }).request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'RedirectError', location: `${other.origin}/sse` })
    expect(other.requests).toEqual([])
  })

  it('a POST to the endpoint redirected to another origin fails; the body does not go there', async () => {
    const other = await startTestServer((request, res) => echo(request, res, undefined as never))
    const { server } = await fakeSse({ answer: (_post, res) => void res.writeHead(307, { Location: `${other.origin}/messages` }).end() })
    servers.push(other, server)
    const transport = new SseTransport(`${server.origin}/sse`, { headers: {} })
    await expect(transport.request(legacy(1, 'x'))).rejects.toBeInstanceOf(RedirectError)
    expect(other.requests).toEqual([])
    await transport.close()
  })
})
