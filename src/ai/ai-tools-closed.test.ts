// aiTools() on a store must settle even when the store is closed before its tool list ever loaded.
import { afterEach, expect, it } from 'vitest'
import { createMcp } from '../stores/create-mcp'
import { result, sendJson, startTestServer, type TestServer } from '../testing/test-server'
import { aiTools } from './ai-tools'

let server: TestServer | undefined
afterEach(async () => void (await server?.close()))

it('rejects when the store is closed before the tool list loaded, instead of waiting forever', async () => {
  // A server that connects but never answers tools/list: the list stays loading until the store is closed.
  server = await startTestServer((request, res) => {
    if (request.method !== 'POST') return void res.writeHead(405).end()
    if (request.json?.method === 'initialize') {
      return sendJson(res, result(request.json.id, { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hung-list', version: '1' } }))
    }
    if (request.json?.id === undefined) return void res.writeHead(202).end()
  })
  const mcp = createMcp(server.url, { autoListen: false })
  const tools = aiTools(mcp)
  await new Promise((resolve) => setTimeout(resolve, 300))
  void mcp.close()
  const settled = await Promise.race([tools.then(() => 'resolved', (error: Error) => error.name), new Promise((resolve) => setTimeout(() => resolve('pending'), 3000))])
  expect(settled).toBe('AbortError')
})
