// An MCP server of our own for the cases the official examples cannot show: views built with the official guest
// `App` SDK that probe their sandbox, tools of each visibility, and views that misbehave (never initialize, never
// answer teardown, flood size changes, send malformed JSON-RPC, come with the wrong MIME type). Stateless
// Streamable HTTP on the official SDK 1.x, on 127.0.0.1, counting every tools/call by name.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { build } from 'rolldown'
// @ts-expect-error: a JavaScript module without declarations
import { applyCors } from '../../scripts/servers/cors.mjs'

const MIME = 'text/html;profile=mcp-app'

/** The SDK view as one classic script, so it can sit inline in the resource as the example servers' do. */
async function viewScript(): Promise<string> {
  const bundle = await build({
    input: new URL('./fixture-view.ts', import.meta.url).pathname,
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    output: { format: 'iife', minify: false },
  })
  return bundle.output[0].code
}

const page = (mode: string, config: Record<string, unknown>, script: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${mode}</title></head><body><h1 id="title">fixture ${mode}</h1><ul id="out"></ul>` +
  `<script>window.FIXTURE=${JSON.stringify({ mode, ...config })}</script><script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`

// Views without the SDK: each speaks just enough raw JSON-RPC to misbehave in one way.
const RAW = {
  never: '<p>This view never says hello.</p>',
  slow: `<ul id="got"></ul><script>
    const got = []
    const show = () => (document.getElementById('got').textContent = JSON.stringify(got))
    addEventListener('message', (e) => { got.push(e.data && e.data.method ? e.data.method : 'response:' + e.data.id); show() })
    parent.postMessage({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 'slow', version: '1' }, appCapabilities: {} } }, '*')
    setTimeout(() => { got.push('INITIALIZED'); show(); parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*') }, 1500)
  </script>`,
  flood: `<script>
    addEventListener('message', (e) => {
      if (e.data && e.data.id === 1) {
        parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*')
        for (let i = 0; i < 200; i++) parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 100 + (i % 2) * 50 } }, '*')
      }
    })
    parent.postMessage({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 'flood', version: '1' }, appCapabilities: {} } }, '*')
  </script>`,
  malformed: `<p id="answers"></p><script>
    const answers = []
    addEventListener('message', (e) => {
      if (e.data && e.data.id === 7) { answers.push(e.data.error && e.data.error.code); document.getElementById('answers').textContent = JSON.stringify(answers) }
      if (e.data && e.data.id === 1) parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*')
    })
    parent.postMessage('garbage', '*')
    parent.postMessage({ jsonrpc: '1.0', id: 7, method: 'ping' }, '*')
    parent.postMessage({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 'malformed', version: '1' }, appCapabilities: {} } }, '*')
  </script>`,
}

export interface FixtureServer {
  url: string
  /** tools/call count by tool name. */
  calls: Record<string, number>
  close(): Promise<void>
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const script = await viewScript()
  const calls: Record<string, number> = {}
  let origin = ''
  const resources: Record<string, { text: string; mimeType?: string; meta?: Record<string, unknown> }> = {}

  function mcpServer() {
    const server = new McpServer({ name: 'nanomcp-apps-fixtures', version: '1.0.0' })
    const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] })
    const tool = (name: string, meta: Record<string, unknown> | undefined, result: () => ReturnType<typeof text>) =>
      server.registerTool(name, { description: `fixture ${name}`, ...(meta && { _meta: meta }) }, async () => {
        calls[name] = (calls[name] ?? 0) + 1
        return result()
      })
    const ui = (name: string) => ({ ui: { resourceUri: `ui://fixture/${name}.html` } })
    tool('fixture', ui('view'), () => ({ ...text('fixture result 42'), structuredContent: { answer: 42 } }))
    for (const name of ['silent', 'never', 'slow', 'flood', 'malformed', 'bad-mime']) tool(name, ui(name), () => text(`${name} result`))
    tool('app-only', { ui: { visibility: ['app'] } }, () => text('app-only ok'))
    tool('model-only', { ui: { visibility: ['model'] } }, () => text('model-only ok'))
    for (const [name, r] of Object.entries(resources)) {
      const uri = `ui://fixture/${name}.html`
      server.registerResource(name, uri, { mimeType: r.mimeType ?? MIME }, async () => ({
        contents: [{ uri, mimeType: r.mimeType ?? MIME, text: r.text, ...(r.meta && { _meta: r.meta }) }],
      }))
    }
    return server
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (applyCors(req, res)) return
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path === '/probe') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('reachable')
    if (path !== '/mcp' || req.method !== 'POST') return void res.writeHead(405).end()
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const server = mcpServer()
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => void transport.close().then(() => server.close()))
    await server.connect(transport)
    await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8')))
  }

  const http = createServer((req, res) => void handle(req, res).catch(() => res.headersSent || res.writeHead(500).end()))
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done))
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  const config = { probeUrl: `${origin}/probe` }
  // The main view asks for allow-same-origin: the sandbox must strip it, so the view's origin stays opaque.
  resources.view = { text: page('view', config, script), meta: { ui: { sandbox: 'allow-scripts allow-same-origin allow-forms' } } }
  resources.silent = { text: page('silent', config, script) }
  resources['bad-mime'] = { text: '<p>plain html</p>', mimeType: 'text/html' }
  for (const [name, body] of Object.entries(RAW)) resources[name] = { text: `<!DOCTYPE html><html><body>${body}</body></html>` }
  return {
    url: `${origin}/mcp`,
    calls,
    close: () =>
      new Promise((done) => {
        http.close(() => done())
        http.closeAllConnections()
      }),
  }
}
