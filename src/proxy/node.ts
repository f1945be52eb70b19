// A node:http adapter for any WHATWG fetch handler (mcpProxy() among them): Node ≥ 20 has Request and Response
// but its servers speak IncomingMessage and ServerResponse. No node: import, so the module stays loadable anywhere.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FetchHandler } from './types'

/**
 * `(req, res, next?)` for `http.createServer()`, Express or Connect (Vite's dev server). With `path`, requests
 * outside it go to `next` (or get 404). The request body streams in; the response streams out chunk by chunk,
 * so SSE is never buffered; a client that goes away aborts the handler's request.
 */
export function nodeHandler(handler: FetchHandler, options: { path?: string } = {}) {
  return (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    if (options.path && !req.url?.startsWith(options.path)) {
      if (next) return next()
      res.writeHead(404).end()
      return
    }
    const controller = new AbortController()
    res.on('close', () => controller.abort())
    serve(handler, req, res, controller.signal).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(`nanomcp/proxy: ${(error as Error)?.message ?? error}`)
      else res.destroy()
    })
  }
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith(':') || value === undefined) continue
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each)
  }
  const secure = (req.socket as { encrypted?: boolean }).encrypted
  const url = `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  const body = hasBody
    ? new ReadableStream<Uint8Array>({
        async start(stream) {
          try {
            for await (const chunk of req) stream.enqueue(chunk as Uint8Array)
            stream.close()
          } catch (error) {
            stream.error(error)
          }
        },
      })
    : undefined
  const request = new Request(url, { method, headers, body, signal, ...(body && { duplex: 'half' }) } as RequestInit)
  const response = await handler(request)
  // Headers joins repeated names with ", " (Set-Cookie aside, which the proxy never forwards).
  const out: Record<string, string> = {}
  for (const [name, value] of response.headers) out[name] = value
  res.writeHead(response.status, response.statusText, out)
  res.flushHeaders()
  if (!response.body) return void res.end()
  const reader = response.body.getReader()
  signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true })
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      // Waits for the socket when it is full, so a slow page slows the upstream instead of filling memory.
      if (!res.write(value)) await drained(res)
    }
  } catch {
    // The upstream or the page went away mid-stream: the response ends where it stopped.
  }
  res.end()
}

/** The socket has room again, or is gone; whichever listener did not fire is removed, so a long stream adds none. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done)
      resolve()
    }
    res.once('drain', done).once('close', done)
  })
}
