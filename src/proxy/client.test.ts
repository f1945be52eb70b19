// What an app sees of nanomcp/proxy's refusals through the transports' `proxy` option: a ProxyError with the
// proxy's code and a message naming the proxy and the server, and a transport that works on afterwards.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ProxyError } from '../errors/proxy-error'
import { result, sendJson, startTestServer, type TestServer } from '../testing/test-server'
import { legacy } from '../testing/transport-fixtures'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { nodeHandler } from './node'
import { mcpProxy } from './proxy'
import type { McpProxyOptions } from './types'

const running: { close(): Promise<void> }[] = []
afterEach(async () => void (await Promise.all(running.splice(0).map((s) => s.close()))))

async function proxyFor(options: McpProxyOptions): Promise<string> {
  const server = http.createServer(nodeHandler(mcpProxy(options)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  running.push({ close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp-proxy/`
}

async function upstream(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(handler)
  running.push(server)
  return server
}

describe('the transport through nanomcp/proxy', () => {
  it('an upstream answering HTML: ProxyError html naming the proxy and the server; the next request goes through', async () => {
    let html = true
    const up = await upstream((request, res) =>
      html ? void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Sign in</p>') : sendJson(res, result(request.json.id)),
    )
    const proxy = await proxyFor({ upstreams: [up.origin] })
    const transport = new StreamableHttpTransport(up.url, { proxy })
    const error = await transport.request(legacy(1, 'tools/list')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProxyError)
    expect(error).toMatchObject({ refusal: 'refused', code: 'html', target: up.url })
    expect((error as Error).message).toContain(proxy)
    expect((error as Error).message).toContain('answered an HTML page')
    html = false
    await expect(transport.request(legacy(2, 'tools/list'))).resolves.toEqual(result(2))
  })

  it('a hung upstream: ProxyError timeout, nothing left hanging', async () => {
    const up = await upstream(() => undefined)
    const proxy = await proxyFor({ upstreams: [up.origin], timeoutMs: 300 })
    const error = await new StreamableHttpTransport(up.url, { proxy }).request(legacy(1, 'ping')).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ProxyError', code: 'timeout' })
    expect((error as Error).message).toMatch(/did not answer within 300 ms/)
  })

  it('a server not on the allowlist: ProxyError upstream-not-allowed', async () => {
    const up = await upstream((request, res) => sendJson(res, result(request.json.id)))
    const proxy = await proxyFor({ upstreams: ['https://mcp.example.com'] })
    const error = await new StreamableHttpTransport(up.url, { proxy }).request(legacy(1, 'ping')).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ProxyError', code: 'upstream-not-allowed' })
    expect(up.requests).toHaveLength(0)
  })
})
