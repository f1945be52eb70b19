// The `proxy` option: only the URL fetched changes. The server's URL stays the one auth providers, origin checks
// and sessions see; a proxy URL that is not http(s), an unreachable proxy and a proxy's own refusal are ProxyErrors.
import { describe, expect, it } from 'vitest'
import { ProxyError } from '../errors/proxy-error'
import { fakeSse } from '../testing/fake-sse'
import { result, sendJson } from '../testing/test-server'
import { echo, legacy, scriptedServers } from '../testing/transport-fixtures'
import { SseTransport } from './sse'
import { StreamableHttpTransport } from './streamable-http'

const serve = scriptedServers()
const PROXY = 'http://proxy.test/mcp-proxy/'

/** A fetch standing in for a proxy at PROXY: records what was fetched and forwards to the decoded target. */
function forwarding() {
  const fetched: string[] = []
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input)
    fetched.push(url)
    if (!url.startsWith(PROXY)) throw new TypeError('not through the proxy')
    return globalThis.fetch(decodeURIComponent(url.slice(PROXY.length)), init)
  }) as typeof globalThis.fetch
  return { fetch, fetched }
}

describe('proxy option', () => {
  it('a prefix: every request goes to prefix + the encoded server URL; auth headers are asked for the real URL', async () => {
    const server = await serve((request, res) =>
      request.json?.method === 'initialize' ? sendJson(res, result(request.json.id, {}), 200, { 'Mcp-Session-Id': 's1' }) : echo(request, res, undefined as never),
    )
    const { fetch, fetched } = forwarding()
    const asked: string[] = []
    const auth = { headers: (r: { url: string }) => (asked.push(r.url), { Authorization: 'Bearer t' }), unauthorized: async () => false }
    const transport = new StreamableHttpTransport(server.url, { proxy: PROXY, fetch, auth })
    await transport.request(legacy(0, 'initialize'))
    await expect(transport.request(legacy(1, 'tools/list'))).resolves.toEqual(result(1, { method: 'tools/list' }))
    expect(fetched).toEqual([PROXY + encodeURIComponent(server.url), PROXY + encodeURIComponent(server.url)])
    expect(asked).toEqual([server.url, server.url])
    expect(transport.sessionId).toBe('s1')
    expect(server.requests[1]!.headers).toMatchObject({ 'mcp-session-id': 's1', authorization: 'Bearer t' })
    expect(transport.url).toBe(server.url)
  })

  it('a function: its URL is fetched', async () => {
    const server = await serve(echo)
    const { fetch, fetched } = forwarding()
    const transport = new StreamableHttpTransport(server.url, { proxy: (target) => new URL(PROXY + encodeURIComponent(target)), fetch })
    await expect(transport.request(legacy(1, 'ping'))).resolves.toEqual(result(1, { method: 'ping' }))
    expect(fetched).toHaveLength(1)
  })

  it.each(['javascript:alert(1)//', 'ftp://proxy.test/', 'data:text/plain,', '/relative/'])('a prefix %s fails the request with ProxyError invalid; nothing is fetched', async (proxy) => {
    const { fetch, fetched } = forwarding()
    const http = await new StreamableHttpTransport('http://127.0.0.1:1/mcp', { proxy, fetch }).request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(http).toBeInstanceOf(ProxyError)
    expect(http).toMatchObject({ refusal: 'invalid' })
    const sse = await new SseTransport('http://127.0.0.1:1/sse', { proxy, fetch }).request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(sse).toMatchObject({ name: 'ProxyError', refusal: 'invalid' })
    expect(fetched).toEqual([])
  })

  it('a function giving a non-http(s) URL fails the request with ProxyError invalid; nothing is fetched', async () => {
    const { fetch, fetched } = forwarding()
    const transport = new StreamableHttpTransport('http://127.0.0.1:1/mcp', { proxy: () => 'file:///etc/passwd', fetch })
    const error = await transport.request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ProxyError', refusal: 'invalid', target: 'http://127.0.0.1:1/mcp' })
    expect((error as Error).message).toContain('file:')
    expect(fetched).toEqual([])
  })

  it('an unreachable proxy is a ProxyError naming the proxy and the server', async () => {
    const transport = new StreamableHttpTransport('http://127.0.0.1:1/mcp', { proxy: 'http://127.0.0.1:9/p/' })
    const error = await transport.request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ProxyError', refusal: 'unreachable' })
    expect((error as Error).message).toContain('http://127.0.0.1:9/p/')
    expect((error as Error).message).toContain('http://127.0.0.1:1/mcp')
  })

  it("the proxy's own refusal (Nanomcp-Proxy-Error) is a ProxyError with its code and message", async () => {
    const proxy = await serve((_request, res) =>
      sendJson(res, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'nanomcp/proxy: upstream not on the allowlist' } }, 403, { 'Nanomcp-Proxy-Error': 'upstream-not-allowed' }),
    )
    const transport = new StreamableHttpTransport('http://127.0.0.1:1/mcp', { proxy: `${proxy.origin}/p/` })
    const error = await transport.request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ProxyError', refusal: 'refused', code: 'upstream-not-allowed' })
    expect((error as Error).message).toContain('upstream not on the allowlist')
  })

  it('HTTP+SSE: the stream and the POSTs both go through the proxy; the endpoint is resolved against the real URL', async () => {
    const sse = await fakeSse()
    const { fetch, fetched } = forwarding()
    const url = `${sse.server.origin}/sse`
    const transport = new SseTransport(url, { proxy: PROXY, fetch })
    await expect(transport.request(legacy(1, 'tools/list'))).resolves.toMatchObject({ id: 1 })
    expect(fetched[0]).toBe(PROXY + encodeURIComponent(url))
    expect(fetched[1]).toBe(PROXY + encodeURIComponent(`${sse.server.origin}/messages?sessionId=s1`))
    await transport.close()
    await sse.server.close()
  })
})
