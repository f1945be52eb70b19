// nanomcp/proxy over real sockets: the handler behind its node:http adapter, real upstream servers. Each refusal
// has its row; what passes is checked on the upstream's side (what reached it) and the page's (what came back).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { openSse, result, sendJson, startTestServer, type TestServer } from '../testing/test-server'
import { nodeHandler } from './node'
import { mcpProxy } from './proxy'
import type { McpProxyOptions } from './types'

const running: { close(): Promise<void> }[] = []
afterEach(async () => void (await Promise.all(running.splice(0).map((s) => s.close()))))

async function upstream(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(handler)
  running.push(server)
  return server
}

/** The proxy on its own port; `at(target)` is the URL a page would fetch. */
async function proxy(options: McpProxyOptions) {
  const server = http.createServer(nodeHandler(mcpProxy(options)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  running.push({ close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) })
  return { origin, at: (target: string) => `${origin}/mcp-proxy/${encodeURIComponent(target)}` }
}

const PAGE = 'http://127.0.0.1:5999'
const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: PAGE, ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})

describe('mcpProxy: what passes', () => {
  it('forwards the MCP headers, exposes Mcp-Session-Id and WWW-Authenticate to an allowed page, and nothing else', async () => {
    const up = await upstream((request, res) =>
      sendJson(res, result(request.json.id, { ok: true }), 200, { 'Mcp-Session-Id': 's1', 'WWW-Authenticate': 'Bearer x', 'X-Internal': 'secret' }),
    )
    const p = await proxy({ upstreams: [up.origin], origins: [PAGE] })
    const response = await fetch(p.at(up.url), post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {
      authorization: 'Bearer t', dpop: 'proof', 'mcp-session-id': 's0', 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list', 'mcp-name': 'n', 'mcp-param-region': 'eu', 'last-event-id': '7', 'x-other': 'no', host: 'evil.example',
    }))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(result(1, { ok: true }))
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect(response.headers.get('access-control-expose-headers')).toMatch(/Mcp-Session-Id.*WWW-Authenticate/)
    expect(response.headers.get('mcp-session-id')).toBe('s1')
    expect(response.headers.get('x-internal')).toBeNull()
    const seen = up.requests[0]!.headers
    expect(seen).toMatchObject({ authorization: 'Bearer t', dpop: 'proof', 'mcp-session-id': 's0', 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list', 'mcp-name': 'n', 'mcp-param-region': 'eu', 'last-event-id': '7' })
    expect(seen['x-other']).toBeUndefined()
    expect(seen.origin).toBeUndefined()
    expect(seen.host).toBe(new URL(up.origin).host)
  })

  it('answers a preflight from an allowed page with the MCP headers it asked for (Mcp-Param-* included)', async () => {
    const p = await proxy({ upstreams: ['http://127.0.0.1:1'], origins: [PAGE] })
    const response = await fetch(p.at('http://127.0.0.1:1/mcp'), {
      method: 'OPTIONS',
      headers: { origin: PAGE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-param-region, cookie, x-evil' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, mcp-param-region')
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE')
    expect(response.headers.get('access-control-allow-credentials')).toBeNull()
  })

  it('streams an SSE answer event by event, before the upstream has finished', async () => {
    let finish!: () => void
    const up = await upstream((_request, res) => {
      openSse(res, {}, `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } })}\n\n`)
      finish = () => res.end(`data: ${JSON.stringify(result(1))}\n\n`)
    })
    const p = await proxy({ upstreams: [up.origin], origins: [PAGE] })
    const response = await fetch(p.at(up.url), post({ jsonrpc: '2.0', id: 1, method: 'tools/call' }))
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    const first = await reader.read()
    expect(first.value).toContain('notifications/progress')
    finish()
    let rest = ''
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value
    expect(rest).toContain('"id":1')
  })

  it('follows a same-origin 307 itself, with the same body', async () => {
    const up = await upstream((request, res) =>
      request.url === '/old' ? void res.writeHead(307, { location: '/mcp' }).end() : sendJson(res, result(request.json.id, { body: request.body })),
    )
    const p = await proxy({ upstreams: [up.origin], origins: [PAGE] })
    const response = await fetch(p.at(`${up.origin}/old`), post({ jsonrpc: '2.0', id: 3, method: 'x' }))
    expect(await response.json()).toMatchObject({ id: 3 })
    expect(up.requests.map((r) => r.url)).toEqual(['/old', '/mcp'])
    expect(up.requests[1]!.body).toBe(up.requests[0]!.body)
  })
})

describe('mcpProxy: the refusal table', () => {
  it('a proxy without an upstream allowlist is refused at creation', () => {
    expect(() => mcpProxy({} as McpProxyOptions)).toThrow(/open proxy/)
    expect(() => mcpProxy({ upstreams: [] })).toThrow(/open proxy/)
    expect(() => mcpProxy({ upstreams: ['not a url'] })).toThrow(/no http\(s\) origin/)
  })

  it('an upstream not on the allowlist: 403 upstream-not-allowed, nothing forwarded', async () => {
    const up = await upstream((_r, res) => sendJson(res, {}))
    const p = await proxy({ upstreams: ['http://127.0.0.1:1'], origins: [PAGE] })
    const response = await fetch(p.at(up.url), post({ jsonrpc: '2.0', id: 1, method: 'x' }))
    expect(response.status).toBe(403)
    expect(response.headers.get('nanomcp-proxy-error')).toBe('upstream-not-allowed')
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect((await response.json()).error.message).toMatch(/^nanomcp\/proxy: .*not on this proxy's list/)
    expect(up.requests).toHaveLength(0)
  })

  it('an allowlist function is asked with the target origin only, and only a true passes', async () => {
    const up = await upstream((request, res) => sendJson(res, result(request.json.id)))
    const asked: string[] = []
    let allow = false
    const p = await proxy({ upstreams: (origin) => (asked.push(origin), allow), origins: [PAGE] })
    expect((await fetch(p.at(up.url), post({ jsonrpc: '2.0', id: 1, method: 'x' }))).status).toBe(403)
    allow = true
    expect((await fetch(p.at(up.url), post({ jsonrpc: '2.0', id: 2, method: 'x' }))).status).toBe(200)
    expect(asked).toEqual([up.origin, up.origin])
  })

  it('a page origin not allowed: 403 origin-not-allowed without CORS headers; its preflight gets none either', async () => {
    const up = await upstream((_r, res) => sendJson(res, {}))
    const p = await proxy({ upstreams: [up.origin], origins: [PAGE] })
    const response = await fetch(p.at(up.url), post({ jsonrpc: '2.0', id: 1, method: 'x' }, { origin: 'https://evil.example' }))
    expect(response.status).toBe(403)
    expect(response.headers.get('nanomcp-proxy-error')).toBe('origin-not-allowed')
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const pre = await fetch(p.at(up.url), { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } })
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
    // A cross-site navigation (no Origin, Sec-Fetch-Site: cross-site) is no better.
    const nav = await fetch(p.at(up.url), { headers: { 'sec-fetch-site': 'cross-site' } })
    expect(nav.headers.get('nanomcp-proxy-error')).toBe('origin-not-allowed')
    expect(up.requests).toHaveLength(0)
  })

  it('its own origin and clients without Origin (servers, curl) are allowed', async () => {
    const up = await upstream((request, res) => sendJson(res, result(request.json.id)))
    const p = await proxy({ upstreams: [up.origin] })
    for (const origin of [p.origin, undefined]) {
      const init = post({ jsonrpc: '2.0', id: 1, method: 'x' }, origin ? { origin } : {})
      if (!origin) delete (init.headers as Record<string, string>).origin
      const response = await fetch(p.at(up.url), init)
      expect(response.status).toBe(200)
    }
  })

  it('a DNS-rebinding page (its own name pointed at the proxy, so Origin and Host agree): 403 origin-not-allowed', async () => {
    const up = await upstream((request, res) => sendJson(res, result(request.json?.id ?? null)))
    const p = await proxy({ upstreams: [up.origin] })
    const port = new URL(p.origin).port
    const rebound = `http://rebind.example:${port}`
    const status = await new Promise<{ status: number; error: string | undefined }>((resolve, reject) => {
      const req = http.request(p.at(up.url), { method: 'POST', headers: { host: `rebind.example:${port}`, origin: rebound, 'content-type': 'application/json' } }, (res) => {
        res.resume()
        resolve({ status: res.statusCode!, error: res.headers['nanomcp-proxy-error'] as string | undefined })
      })
      req.on('error', reject)
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x' }))
    })
    expect(status).toEqual({ status: 403, error: 'origin-not-allowed' })
    // Its same-origin GET carries no Origin at all, only Sec-Fetch-Site: same-origin.
    const get = await new Promise<string | undefined>((resolve, reject) => {
      http.get(p.at(up.url), { headers: { host: `rebind.example:${port}`, 'sec-fetch-site': 'same-origin' } }, (res) => {
        res.resume()
        resolve(res.headers['nanomcp-proxy-error'] as string | undefined)
      }).on('error', reject)
    })
    expect(get).toBe('origin-not-allowed')
    expect(up.requests).toHaveLength(0)
    // Listed in `origins`, the name is trusted as the proxy's own.
    const named = 'http://proxy.example:8787'
    const handler = mcpProxy({ upstreams: [up.origin], origins: [named] })
    const at = `${named}/mcp-proxy/${encodeURIComponent(up.url)}`
    expect((await handler(new Request(at, post({ jsonrpc: '2.0', id: 2, method: 'x' }, { origin: named })))).status).toBe(200)
    expect((await handler(new Request(at, { headers: { 'sec-fetch-site': 'same-origin' } }))).headers.get('nanomcp-proxy-error')).toBeNull()
  })

  it('cookies never cross: not to the upstream, not back to the page', async () => {
    const up = await upstream((request, res) => sendJson(res, result(request.json.id), 200, { 'Set-Cookie': 'session=upstream; Path=/' }))
    const p = await proxy({ upstreams: [up.origin], origins: [PAGE] })
    const response = await fetch(p.at(up.url), post({ jsonrpc: '2.0', id: 1, method: 'x' }, { cookie: 'session=page' }))
    expect(response.status).toBe(200)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(up.requests[0]!.headers.cookie).toBeUndefined()
  })

  it('a redirect to another origin: 502 redirect, the other origin never contacted', async () => {
    const other = await upstream((_r, res) => sendJson(res, {}))
    const up = await upstream((_r, res) => void res.writeHead(307, { location: `${other.origin}/stolen` }).end())
    const p = await proxy({ upstreams: [up.origin, other.origin], origins: [PAGE] })
    const response = await fetch(p.at(up.url), post({ jsonrpc: '2.0', id: 1, method: 'x' }, { authorization: 'Bearer t' }))
    expect(response.status).toBe(502)
    expect(response.headers.get('nanomcp-proxy-error')).toBe('redirect')
    expect((await response.json()).error.message).toContain(other.origin)
    expect(other.requests).toHaveLength(0)
  })

  it('an oversized body: 413 too-large, declared or streamed, nothing forwarded', async () => {
    const up = await upstream((_r, res) => sendJson(res, {}))
    const p = await proxy({ upstreams: [up.origin], origins: [PAGE], maxBodyBytes: 1000 })
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { pad: 'x'.repeat(2000) } })
    const declared = await fetch(p.at(up.url), post(big))
    expect(declared.status).toBe(413)
    expect(declared.headers.get('nanomcp-proxy-error')).toBe('too-large')
    const chunked = await fetch(p.at(up.url), { ...post(''), body: new Blob([big]).stream(), duplex: 'half' } as RequestInit)
    expect(chunked.status).toBe(413)
    expect(up.requests).toHaveLength(0)
  })

  it('an upstream answering HTML: 502 html, naming the proxy and the URL', async () => {
    const up = await upstream((_r, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html>login</html>'))
    const p = await proxy({ upstreams: [up.origin], origins: [PAGE] })
    const response = await fetch(p.at(up.url), post({ jsonrpc: '2.0', id: 1, method: 'x' }))
    expect(response.status).toBe(502)
    expect(response.headers.get('nanomcp-proxy-error')).toBe('html')
    expect((await response.json()).error.message).toMatch(/nanomcp\/proxy: .*\/mcp answered an HTML page/)
  })

  it('a hung upstream: 504 timeout once the deadline for its headers passes', async () => {
    const up = await upstream(() => undefined)
    const p = await proxy({ upstreams: [up.origin], origins: [PAGE], timeoutMs: 200 })
    const response = await fetch(p.at(up.url), post({ jsonrpc: '2.0', id: 1, method: 'x' }))
    expect(response.status).toBe(504)
    expect(response.headers.get('nanomcp-proxy-error')).toBe('timeout')
  })

  it('an unreachable upstream: 502 unreachable', async () => {
    const p = await proxy({ upstreams: ['http://127.0.0.1:9'], origins: [PAGE] })
    const response = await fetch(p.at('http://127.0.0.1:9/mcp'), post({ jsonrpc: '2.0', id: 1, method: 'x' }))
    expect(response.headers.get('nanomcp-proxy-error')).toBe('unreachable')
  })

  it.each([
    ['another scheme', 'file:///etc/passwd', 'bad-target'],
    ['credentials in the URL', 'http://user:pw@127.0.0.1:1/mcp', 'bad-target'],
    ['no URL at all', '', 'bad-target'],
  ])('a target with %s: 400 %s', async (_what, target, code) => {
    const p = await proxy({ upstreams: ['http://127.0.0.1:1'], origins: [PAGE] })
    const response = await fetch(p.at(target), post({}))
    expect(response.headers.get('nanomcp-proxy-error')).toBe(code)
  })

  it('methods other than GET, POST, DELETE: 405; paths outside the mount: 404', async () => {
    const p = await proxy({ upstreams: ['http://127.0.0.1:1'], origins: [PAGE] })
    expect((await fetch(p.at('http://127.0.0.1:1/mcp'), { method: 'PUT', headers: { origin: PAGE } })).status).toBe(405)
    expect((await fetch(`${p.origin}/elsewhere`)).status).toBe(404)
  })
})
