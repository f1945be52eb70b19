// Test helper: an HTTP server on 127.0.0.1 whose every answer a test scripts, recording what went over the wire.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'

export interface Seen {
  method: string
  headers: IncomingHttpHeaders
  body: any
}

export interface Reply {
  status?: number
  headers?: Record<string, string>
  body?: unknown
  /** Raw SSE text (sets the event-stream content type). */
  sse?: string
}

export interface ScriptedServer {
  url: string
  seen: Seen[]
  /** JSON-RPC methods of the POSTs seen, in order. */
  methods(): string[]
  close(): Promise<void>
}

export async function scriptedServer(answer: (seen: Seen, index: number) => Reply | Promise<Reply>): Promise<ScriptedServer> {
  const seen: Seen[] = []
  const server: Server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk) => (raw += chunk))
    req.on('end', async () => {
      const entry: Seen = { method: req.method ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : undefined }
      seen.push(entry)
      const reply = await answer(entry, seen.length - 1)
      const headers: Record<string, string> = { ...reply.headers }
      if (reply.sse !== undefined) headers['content-type'] = 'text/event-stream'
      else if (reply.body !== undefined) headers['content-type'] ??= 'application/json'
      res.writeHead(reply.status ?? 200, headers)
      res.end(reply.sse ?? (reply.body === undefined ? undefined : JSON.stringify(reply.body)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    seen,
    methods: () => seen.filter((s) => s.method === 'POST').map((s) => s.body?.method ?? (s.body?.result ? 'response' : '?')),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A JSON-RPC result answer for the request seen. */
export const ok = (seen: Seen, result: Record<string, unknown>): Reply => ({ body: { jsonrpc: '2.0', id: seen.body.id, result } })

/** The legacy initialize result a 2025-era server gives. */
export const initialized = (seen: Seen, protocolVersion = seen.body.params.protocolVersion): Reply => ({
  headers: { 'mcp-session-id': 'session-1' },
  body: {
    jsonrpc: '2.0',
    id: seen.body.id,
    result: { protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'old', version: '1' } },
  },
})
