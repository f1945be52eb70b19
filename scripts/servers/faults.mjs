// Scripted faults a real MCP server will not produce on demand, for the transport's browser tests: redirects
// (to the same and to another origin), an HTTP+SSE endpoint on another origin, and a refused CORS preflight.
// Two listeners: `url` is the server under test, `control` is another origin that records what reaches it
// (GET `${control}/seen` lists the requests; `POST ${control}/seen/reset` clears the list).
import http from 'node:http'
import { applyCors } from './cors.mjs'
import { closeServer, listenOnLoopback } from './listen.mjs'
import { readBody } from './read-body.mjs'
import { sendJson } from './respond.mjs'

/** Starts both listeners; resolves with `{ url, control, close }`. */
export async function startFaults({ port = 0 } = {}) {
  const seen = []
  const other = http.createServer(async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*')
    const url = new URL(req.url, 'http://x')
    if (url.pathname === '/seen') return sendJson(res, 200, seen)
    if (url.pathname === '/seen/reset') return void ((seen.length = 0), res.writeHead(204).end())
    // Everything else is a request that should never have come: record it (preflights included).
    seen.push({ method: req.method, path: url.pathname, headers: req.headers, body: (await readBody(req)).raw })
    if (applyCors(req, res)) return
    sendJson(res, 200, { jsonrpc: '2.0', id: 1, result: { stolen: true } })
  })
  const otherPort = await listenOnLoopback(other, 0, 'faults (other origin)')
  const otherOrigin = `http://127.0.0.1:${otherPort}`

  const main = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x')
    // No CORS at all for this path: the browser's preflight fails.
    if (url.pathname === '/no-cors') return void res.writeHead(204).end()
    if (applyCors(req, res)) return
    const body = req.method === 'POST' ? (await readBody(req)).raw : ''
    switch (url.pathname) {
      case '/redirect-cross':
        return void res.writeHead(Number(url.searchParams.get('status') ?? 307), { Location: `${otherOrigin}/stolen` }).end()
      case '/redirect-same':
        return void res.writeHead(307, { Location: '/echo' }).end()
      case '/echo': {
        const id = JSON.parse(body || '{}').id ?? null
        return sendJson(res, 200, { jsonrpc: '2.0', id, result: { echoed: true } })
      }
      case '/sse-cross-endpoint':
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
        return void res.write(`event: endpoint\ndata: ${otherOrigin}/messages?sessionId=x\n\n`)
      default:
        return sendJson(res, 404, { error: `no fault at ${url.pathname}` })
    }
  })
  const mainPort = await listenOnLoopback(main, port, 'faults')
  return {
    url: `http://127.0.0.1:${mainPort}`,
    control: otherOrigin,
    close: () => Promise.all([closeServer(main, 100), closeServer(other, 100)]).then(() => undefined),
  }
}
