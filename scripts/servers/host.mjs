// The HTTP front every embedded server shares: loopback binding, CORS, scopes, request stats, controls.
//
// A scope is an independent copy of a server (its own catalogue state, sessions, listen streams and stats)
// under `/s/<name>/`, so test files running in parallel can change tools or count requests without seeing
// each other. The default scope lives at the root: `/mcp`, `/control/...`.
import http from 'node:http'
import { createCatalogueState } from './catalogue-state.mjs'
import { handleControl } from './control.mjs'
import { applyCors } from './cors.mjs'
import { closeServer, listenOnLoopback } from './listen.mjs'
import { readBody } from './read-body.mjs'
import { sendJson, sendRpcError } from './respond.mjs'
import { createStats } from './stats.mjs'

const SCOPED = /^\/s\/([A-Za-z0-9_-]{1,64})(\/.*)?$/

/**
 * Starts one server. `endpoints` are its MCP paths within a scope (e.g. ['/mcp'] or ['/sse', '/messages']);
 * `createInstance({ state, base })` builds a scope's server, where `base` is the scope's path prefix.
 * The instance offers handle(req, res, { path, body, url }), announce(event), dropSessions(), close() and,
 * optionally, closeListens(mode) and closeStreams(mode).
 */
export async function startHost({ label, port = 0, endpoints, createInstance }) {
  const scopes = new Map()

  function scopeFor(name, base) {
    let scope = scopes.get(name)
    if (!scope) {
      const state = createCatalogueState()
      scope = { state, stats: createStats(), instance: createInstance({ state, base }) }
      scopes.set(name, scope)
    }
    return scope
  }

  async function route(req, res) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const match = SCOPED.exec(url.pathname)
    const [name, base, path] = match ? [match[1], `/s/${match[1]}`, match[2] ?? '/'] : ['', '', url.pathname]
    const isEndpoint = endpoints.includes(path)
    const isControl = path.startsWith('/control/')
    if (!isEndpoint && !isControl) {
      if (applyCors(req, res)) return
      return sendJson(res, 404, { error: `nothing at ${url.pathname}; ${label} serves ${endpoints.join(', ')}` })
    }
    const scope = scopeFor(name, base)
    if (req.method === 'OPTIONS' && isEndpoint) scope.stats.preflight()
    if (applyCors(req, res)) return

    let body
    if (req.method === 'POST') {
      body = await readBody(req)
      if (body.tooLarge) return sendRpcError(res, 413, -32000, 'request body too large')
    }
    if (isControl) return handleControl(scope, path.slice('/control/'.length), req, res, body?.json, url.searchParams)
    scope.stats.record(req.method ?? 'GET', body?.json)
    return scope.instance.handle(req, res, { path, body, url })
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch((error) => {
      if (!res.headersSent) sendRpcError(res, 500, -32603, `${label} failed: ${error?.message ?? error}`)
      else res.destroy()
    })
  })
  const boundPort = await listenOnLoopback(server, port, label)

  return {
    origin: `http://127.0.0.1:${boundPort}`,
    async close() {
      await Promise.all([...scopes.values()].map(({ instance }) => instance.close().catch(() => {})))
      scopes.clear()
      await closeServer(server)
    },
  }
}
