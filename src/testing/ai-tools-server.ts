// A real MCP server (the official SDK's low-level Server, stateless Streamable HTTP) whose tool list holds what
// the model bridge must cope with: names with spaces, dots, over 64 characters and colliding once sanitised,
// app-only tools, a non-object input schema, a name with no usable character, every content type, unknown
// content, isError and a destructive tool. It records the calls it executes.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
export const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA='
export const LONG_A = 'x'.repeat(60) + '_first_long_tool'
export const LONG_B = 'x'.repeat(60) + '_second_long_tool'

const object = { type: 'object', properties: { text: { type: 'string' } } }
export const AI_TEST_TOOLS = [
  { name: 'read file', description: 'A name with a space', inputSchema: object },
  { name: 'files.read', description: 'A name with a dot', inputSchema: object },
  { name: 'a_b', description: 'Valid: keeps its name', inputSchema: object },
  { name: 'a.b', description: 'Collides with a_b once sanitised', inputSchema: object },
  { name: 'a b', description: 'Collides with a_b once sanitised, too', inputSchema: object },
  { name: LONG_A, description: 'Over 64 characters', inputSchema: object },
  { name: LONG_B, description: 'Over 64 characters, same first 60', inputSchema: object },
  { name: 'app_only', description: 'For the app view only', inputSchema: object, _meta: { ui: { resourceUri: 'ui://x', visibility: ['app'] } } },
  { name: 'shared_view', description: 'For the model and the app', inputSchema: object, _meta: { ui: { resourceUri: 'ui://y', visibility: ['model', 'app'] } } },
  { name: 'bad_schema', description: 'Input schema is not an object schema', inputSchema: { type: 'string' } },
  { name: '🙂', description: 'No character a provider accepts', inputSchema: object },
  { name: 'odd_content', description: 'Returns a block of an unknown type', inputSchema: object },
  { name: 'fails', description: 'Returns isError', inputSchema: object },
  { name: 'media', description: 'Returns every content type', inputSchema: object },
  { name: 'structured', description: 'Returns structuredContent without a JSON text block', inputSchema: object },
  { name: 'delete_all', description: 'Destroys everything', inputSchema: object, annotations: { destructiveHint: true } },
]

function result(name: string, args: Record<string, unknown>) {
  if (name === 'odd_content') return { content: [{ type: 'hologram', data: '3d' }] }
  if (name === 'fails') return { content: [{ type: 'text', text: 'the disk is full' }], isError: true }
  if (name === 'structured') return { content: [{ type: 'text', text: 'Sum computed.' }], structuredContent: { sum: 5 } }
  if (name === 'media') {
    return {
      content: [
        { type: 'text', text: 'Here is everything' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'audio', data: WAV, mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///notes/a.txt', mimeType: 'text/plain', text: 'embedded text' } },
        { type: 'resource', resource: { uri: 'file:///docs/report.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
        { type: 'resource', resource: { uri: 'file:///data/b.json', mimeType: 'application/json', blob: btoa('{"k":1}') } },
        { type: 'resource_link', uri: 'file:///big.csv', name: 'big.csv', mimeType: 'text/csv', description: 'A large table' },
      ],
    }
  }
  return { content: [{ type: 'text', text: `called ${name} with ${JSON.stringify(args)}` }] }
}

export interface AiTestServer {
  url: string
  /** The tools/call requests the server executed, in order. */
  calls: { name: string; arguments: Record<string, unknown> }[]
  close(): Promise<void>
}

export async function startAiTestServer(): Promise<AiTestServer> {
  const calls: AiTestServer['calls'] = []
  const server = http.createServer(async (req, res) => {
    let raw = ''
    for await (const chunk of req) raw += chunk
    const body = raw ? JSON.parse(raw) : undefined
    // The SDK refuses to send a content type it does not know, so that answer is written by hand.
    if (body?.method === 'tools/call' && body.params?.name === 'odd_content') {
      calls.push({ name: 'odd_content', arguments: body.params.arguments ?? {} })
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: result('odd_content', {}) }))
    }
    const mcp = new Server({ name: 'ai-test', version: '1.0.0' }, { capabilities: { tools: {} } })
    mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: AI_TEST_TOOLS }) as never)
    mcp.setRequestHandler(CallToolRequestSchema, (request) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>
      calls.push({ name: request.params.name, arguments: args })
      return result(request.params.name, args) as never
    })
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => void transport.close().then(() => mcp.close()))
    await mcp.connect(transport)
    await transport.handleRequest(req, res, body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}
