// nanomcpProxy() in a real Vite dev server: the one line of vite.config.ts mounts the proxy, and the module itself
// loads no Vite code (the plugin is a plain object; Vite is only a type there).
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { createServer, type ViteDevServer } from 'vite'
import { afterEach, describe, expect, it } from 'vitest'
import { result, sendJson, startTestServer, type TestServer } from '../testing/test-server'
import { nanomcpProxy } from './index'

let vite: ViteDevServer | undefined
let up: TestServer | undefined
afterEach(async () => {
  await vite?.close()
  await up?.close()
})

describe('nanomcpProxy (Vite plugin)', () => {
  it('mounts the proxy in the dev server; other paths stay Vite’s', async () => {
    up = await startTestServer((request, res) => sendJson(res, result(request.json.id, { via: 'vite' }), 200, { 'Mcp-Session-Id': 'v1' }))
    vite = await createServer({
      configFile: false,
      root: new URL('.', import.meta.url).pathname,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, strictPort: false, ws: false },
      plugins: [nanomcpProxy({ upstreams: [up.origin] })],
    })
    await vite.listen()
    const origin = `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`
    const response = await fetch(`${origin}/mcp-proxy/${encodeURIComponent(up.url)}`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('mcp-session-id')).toBe('v1')
    expect(await response.json()).toEqual(result(4, { via: 'vite' }))
    const refused = await fetch(`${origin}/mcp-proxy/${encodeURIComponent('http://127.0.0.1:1/mcp')}`, { headers: { origin } })
    expect(refused.headers.get('nanomcp-proxy-error')).toBe('upstream-not-allowed')
    expect((await fetch(`${origin}/index.ts`)).headers.get('nanomcp-proxy-error')).toBeNull()
  })

  it('imports Vite only as a type', () => {
    const source = readFileSync(new URL('./index.ts', import.meta.url), 'utf8')
    const fromVite = source.split('\n').filter((line) => /from 'vite'/.test(line))
    expect(fromVite).toEqual(["import type { Plugin } from 'vite'"])
  })
})
