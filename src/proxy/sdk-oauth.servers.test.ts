// The official SDK's OAuth example (no CORS on /mcp, its demo AS beside it) reached only through nanomcp/proxy in a
// small Node server: every MCP, metadata, registration and token request goes to the proxy, while the MCP URL, the
// resource indicator and the issuer stay the real ones. The authorization step is a navigation (no proxy).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { oauth } from '../auth/oauth'
import type { TokenStorage } from '../auth/types'
import { Client } from '../client/client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { nodeHandler } from './node'
import { mcpProxy } from './proxy'
// @ts-expect-error plain ESM test servers without types
import { startSdkOAuthExample } from '../../scripts/servers/sdk-oauth-example.mjs'
// @ts-expect-error plain ESM test servers without types
import { cookieJar, nodeAuthorize } from '../../scripts/servers/oauth/node-authorize.mjs'

const REDIRECT = 'http://localhost:53682/callback'
let example: { url: string; issuer: string; origins: string[]; close(): Promise<void> }
let proxyServer: http.Server
let proxyOrigin: string

beforeAll(async () => {
  example = await startSdkOAuthExample()
  const handle = nodeHandler(mcpProxy({ upstreams: example.origins }))
  proxyServer = http.createServer(handle)
  await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve))
  proxyOrigin = `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}`
}, 30_000)
afterAll(async () => {
  proxyServer?.closeAllConnections()
  await new Promise((resolve) => proxyServer?.close(resolve))
  await example?.close()
})

function build(storage?: TokenStorage) {
  const fetched: string[] = []
  const fetch = ((input: string | URL | Request, init?: RequestInit) => (fetched.push(String(input)), globalThis.fetch(input, init))) as typeof globalThis.fetch
  const proxy = `${proxyOrigin}/mcp-proxy/`
  const authorizations: URL[] = []
  const drive = nodeAuthorize(REDIRECT, cookieJar())
  const auth = oauth({ redirectUri: REDIRECT, proxy, fetch, storage, authorize: async (url) => (authorizations.push(url), drive(url)) })
  const transport = new StreamableHttpTransport(example.url, { proxy, fetch, auth })
  const client = new Client(transport, { clientInfo: { name: 'sdk-oauth-via-proxy', version: '1' } })
  return { auth, transport, client, fetched, authorizations }
}

describe("the SDK's OAuth example through nanomcp/proxy (Node server)", () => {
  it('signs in (PRM, AS metadata, DCR, PKCE, token all via the proxy), lists tools and calls one', async () => {
    const { auth, client, fetched, authorizations } = build()
    await client.connect()
    const { tools } = (await client.request('tools/list', {})) as { tools: { name: string }[] }
    expect(tools.map((t) => t.name)).toContain('greet')
    const called = (await client.request('tools/call', { name: 'greet', arguments: { name: 'proxy' } })) as { content: { text: string }[] }
    expect(called.content[0]!.text).toContain('proxy')
    expect(authorizations).toHaveLength(1)
    expect(authorizations[0]!.searchParams.get('resource')).toBe(example.url)
    expect(auth.$auth.get()).toMatchObject({ status: 'authorized', issuer: example.issuer })
    // Nothing went anywhere but the proxy; the proxy saw the MCP endpoint, both metadata documents, DCR and token.
    expect(fetched.every((url) => url.startsWith(`${proxyOrigin}/mcp-proxy/`))).toBe(true)
    const targets = fetched.map((url) => decodeURIComponent(url.slice(`${proxyOrigin}/mcp-proxy/`.length)))
    expect(targets).toEqual(expect.arrayContaining([example.url, `${example.origins[0]}/.well-known/oauth-protected-resource/mcp`, `${example.origins[1]}/register`, `${example.origins[1]}/token`]))
    await client.close()
  })

  it('with stored tokens a reloaded client is authorized at once and signs in no more; sign-out closes its GET stream', async () => {
    const map = new Map<string, string>()
    const storage: TokenStorage = { get: (k) => map.get(k), set: (k, v) => void map.set(k, v), delete: (k) => void map.delete(k) }
    const first = build(storage)
    await first.client.connect()
    await first.client.close()
    const again = build(storage)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(again.auth.$auth.get().status).toBe('authorized')
    await again.client.connect()
    expect(again.authorizations).toHaveLength(0)
    const stream = await again.transport.openStream(() => undefined)
    let ended = false
    void stream!.closed.finally(() => (ended = true))
    await again.auth.signOut()
    await expect.poll(() => ended).toBe(true)
    expect(map.size).toBe(0)
    await again.client.close()
  })
})
