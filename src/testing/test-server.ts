// A small scripted HTTP server for the transport tests: it records every request and lets each test answer
// as it likes, including the faults real servers will not produce (malformed JSON, cut streams, odd types).
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  /** Path and query. */
  url: string
  headers: http.IncomingHttpHeaders
  body: string
  /** The parsed JSON body, when there is one. */
  json: any
  /** When the request arrived (performance.now()). */
  at: number
}

export type Handler = (request: RecordedRequest, res: http.ServerResponse, req: http.IncomingMessage) => void | Promise<void>

export interface TestServer {
  /** The MCP endpoint: `${origin}/mcp`. */
  url: string
  origin: string
  requests: RecordedRequest[]
  /** How many responses have closed so far (ended, or cut by the client). */
  closedConnections: number
  close(): Promise<void>
}

/** Starts a server on 127.0.0.1 with an ephemeral port; `handler` answers every request. */
export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = []
  const sockets = new Set<import('node:net').Socket>()
  const state = { closedConnections: 0 }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: unknown
      try {
        json = body ? JSON.parse(body) : undefined
      } catch {
        json = undefined
      }
      const recorded = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body, json, at: performance.now() }
      requests.push(recorded)
      res.on('close', () => state.closedConnections++)
      Promise.resolve(handler(recorded, res, req)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error))
        else res.destroy()
      })
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: `${origin}/mcp`,
    origin,
    requests,
    get closedConnections() {
      return state.closedConnections
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

export function sendJson(res: http.ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body))
}

/** Opens an SSE response and writes `events` (raw SSE text, each written as given); the stream stays open. */
export function openSse(res: http.ServerResponse, headers: Record<string, string> = {}, ...events: string[]): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', ...headers })
  res.flushHeaders()
  for (const event of events) res.write(event)
}

/** Answers with an SSE response holding `events` and ends it. */
export function endSse(res: http.ServerResponse, ...events: string[]): void {
  openSse(res, {}, ...events)
  res.end()
}

/** One SSE `data:` event holding `message` as JSON, with an optional id. */
export const event = (message: unknown, id?: string): string => `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`

export const result = (id: unknown, value: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, result: value })

/** Resolves once `check()` is true, polling; rejects after `ms`. */
export async function until(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
