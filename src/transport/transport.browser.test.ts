// In Chromium, from the test page's origin, against the embedded real servers: every request is cross-origin,
// so CORS is enforced (preflights for the Mcp-* headers, the exposed Mcp-Session-Id).
import { describe, expect, inject, it } from 'vitest'
import { scoped } from '../../scripts/servers/scoped'
import { AbortError } from '../errors/abort-error'
import { NetworkError } from '../errors/network-error'
import { SseTransport } from './sse'
import { StreamableHttpTransport } from './streamable-http'
import type { JsonRpcNotification, JsonRpcRequest } from './types'

const servers = inject('servers')
const SCOPE = 'transport-browser'
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
const modern = (id: number, method: string, params: Record<string, unknown> = {}): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: { ...meta, ...(params._meta as object) } },
})
const initialize = (id: number): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'transport-browser-test', version: '0' } },
})
const names = (result: Record<string, unknown> | undefined) => (result!.tools as { name: string }[]).map((tool) => tool.name)
const textOf = (result: Record<string, unknown> | undefined) => (result!.content as { text: string }[])[0]!.text

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('StreamableHttpTransport in Chromium', () => {
  it('modern: learns x-mcp-header from tools/list, then calls with Mcp-Name and a Base64 Mcp-Param-Region', async () => {
    const transport = new StreamableHttpTransport(scoped(servers.modern, SCOPE).url)
    expect(new URL(transport.url).origin).not.toBe(location.origin)
    const list = await transport.request(modern(1, 'tools/list'))
    expect(names(list.result)).toContain('regional_echo')
    // The server rejects a tools/call whose Mcp-Param-Region is missing or differs from the argument.
    const call = await transport.request(modern(2, 'tools/call', { name: 'regional_echo', arguments: { region: 'Zürich 🚀', text: 'hi' } }))
    expect(call.error).toBeUndefined()
    expect(textOf(call.result)).toBe('[Zürich 🚀] hi')
  })

  it('modern: progress arrives on the request stream before the result; aborting rejects with AbortError', async () => {
    const transport = new StreamableHttpTransport(scoped(servers.modern, SCOPE).url)
    const seen: JsonRpcNotification[] = []
    const counted = await transport.request(
      modern(1, 'tools/call', { name: 'slow_count', arguments: { steps: 3, delayMs: 5 }, _meta: { progressToken: 'p1' } }),
      { onMessage: (message) => seen.push(message as JsonRpcNotification) },
    )
    expect(textOf(counted.result)).toBe('counted to 3')
    expect(seen.map((m) => m.params?.progress)).toEqual([1, 2, 3])

    const controller = new AbortController()
    const slow = transport.request(
      modern(2, 'tools/call', { name: 'slow_count', arguments: { steps: 50, delayMs: 100 }, _meta: { progressToken: 'p2' } }),
      { signal: controller.signal, onMessage: () => controller.abort('enough') },
    )
    await expect(slow).rejects.toBeInstanceOf(AbortError)
  })

  it('legacy: initialize exposes Mcp-Session-Id, the session serves tools/list and a GET stream, close() ends it', async () => {
    const server = scoped(servers.legacy, SCOPE)
    const transport = new StreamableHttpTransport(server.url)
    const init = await transport.request(initialize(0))
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    transport.protocolVersion = init.result!.protocolVersion as string
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    const list = await transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(names(list.result)).toContain('echo')

    const seen: JsonRpcNotification[] = []
    const stream = await transport.openStream((message) => seen.push(message as JsonRpcNotification))
    expect(stream).toBeDefined()
    await fetch(`${server.control}/control/add-tool`, { method: 'POST' })
    await until(() => seen.some((m) => m.method === 'notifications/tools/list_changed'))

    const session = transport.sessionId
    await transport.close()
    await expect(stream!.closed).resolves.toBeUndefined()
    expect(transport.sessionId).toBeUndefined()
    // The DELETE ended the session on the server: its id is unknown there now.
    const stale = await fetch(server.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': session! },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    })
    expect(stale.status).toBe(404)
  })

  it('an unreachable cross-origin server is a NetworkError flagged as a possible CORS problem', async () => {
    const error = await new StreamableHttpTransport('http://127.0.0.1:9/mcp').request(modern(1, 'tools/list')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ possibleCors: true, message: expect.stringMatching(/Mcp-Session-Id/) })
  })

  it('works inside a Web Worker', async () => {
    const worker = new Worker(new URL('../testing/test-worker.ts', import.meta.url), { type: 'module' })
    try {
      const reply = new Promise<Record<string, unknown>>((resolve, reject) => {
        worker.addEventListener('message', (event) => resolve(event.data as Record<string, unknown>))
        worker.addEventListener('error', (event) => reject(new Error(event.message)))
      })
      worker.postMessage({ url: scoped(servers.modern, SCOPE).url, unreachable: 'http://127.0.0.1:9/mcp' })
      expect(await reply).toEqual({
        tools: expect.arrayContaining(['regional_echo']),
        text: '[Köln] from a worker',
        failure: { name: 'NetworkError', possibleCors: true },
        hasWindow: false,
      })
    } finally {
      worker.terminate()
    }
  })
})

describe('SseTransport in Chromium', () => {
  it('HTTP+SSE with the browser EventSource: endpoint, session id, initialize, tools/list, close', async () => {
    const transport = new SseTransport(scoped(servers.sse, SCOPE).url)
    const init = await transport.request(initialize(0))
    expect(init.result!.protocolVersion).toBe('2025-11-25')
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    const seen: JsonRpcNotification[] = []
    const stream = await transport.openStream((message) => seen.push(message as JsonRpcNotification))
    const list = await transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(names(list.result)).toContain('echo')
    await fetch(`${scoped(servers.sse, SCOPE).control}/control/add-tool`, { method: 'POST' })
    await until(() => seen.some((m) => m.method === 'notifications/tools/list_changed'))
    await transport.close()
    await expect(stream.closed).resolves.toBeUndefined()
  })

  it('with an auth provider the stream is read with fetch (EventSource cannot send Authorization), across CORS', async () => {
    const asked: string[] = []
    const auth = { headers: ({ method }: { method: string }) => (asked.push(method), { Authorization: 'Bearer browser' }), unauthorized: async () => false }
    const transport = new SseTransport(scoped(servers.sse, SCOPE).url, { auth })
    const init = await transport.request(initialize(0))
    expect(init.result!.protocolVersion).toBe('2025-11-25')
    const list = await transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(names(list.result)).toContain('echo')
    expect(asked).toEqual(['GET', 'POST', 'POST'])
    await transport.close()
  })
})
