// Shared pieces of the transport tests: message builders and one scripted server per test, closed after it.
import { afterEach, vi } from 'vitest'
import type { JsonRpcNotification, JsonRpcRequest } from '../transport/types'
import { result, sendJson, startTestServer, type Handler, type TestServer } from './test-server'

export const VERSION = '2026-07-28'
export const meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} }

/** A 2026-07-28 request: its `_meta` names the revision, so the transport sends the modern headers. */
export const modern = (id: number, method: string, params: Record<string, unknown> = {}): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: meta },
})

/** A legacy-era request: no `_meta` revision, so the session headers go with it. */
export const legacy = (id: number, method: string, params?: Record<string, unknown>): JsonRpcRequest => ({ jsonrpc: '2.0', id, method, params })

export const progress = (n: number, token: string | number = 't'): JsonRpcNotification => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: n },
})

/** Answers every POSTed request with a result naming its method as JSON, notifications with 202. */
export const echo: Handler = (request, res) => {
  if (request.json?.id === undefined) return void res.writeHead(202).end()
  sendJson(res, result(request.json.id, { method: request.json.method }))
}

/**
 * `serve(handler)` starts a scripted server that is closed after the current test. Call once per test file
 * (it registers the afterEach).
 */
export function scriptedServers(): (handler: Handler) => Promise<TestServer> {
  const running: TestServer[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()))
    vi.restoreAllMocks()
  })
  return async (handler) => {
    const server = await startTestServer(handler)
    running.push(server)
    return server
  }
}
