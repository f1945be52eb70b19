// mcpProxy(): a CORS proxy for MCP servers (and their authorization servers) that allow no CORS, as one WHATWG
// fetch handler. Not an open proxy: upstream origins are an allowlist, page origins too; only the headers MCP and
// OAuth need cross it, never cookies; bodies are capped; SSE answers stream through as they come.
import { cors, preflight, requestHeaders, responseHeaders } from './headers'
import { refuse } from './refusal'
import type { FetchHandler, McpProxyOptions } from './types'
import { forward } from './upstream'

const DEFAULT_MAX_BODY = 4 * 1024 * 1024
const METHODS = new Set(['GET', 'POST', 'DELETE'])

/** The request handler. Mount it at `path` (default `/mcp-proxy/`); the target URL follows, percent-encoded. */
export function mcpProxy(options: McpProxyOptions): FetchHandler {
  const list = options?.upstreams
  if (typeof list !== 'function' && (!Array.isArray(list) || list.length === 0)) {
    throw new TypeError('mcpProxy: `upstreams` (the origins it may forward to) is required: a proxy without one would be an open proxy')
  }
  const listed = typeof list === 'function' ? undefined : new Set(list.map((u) => originOf(u, 'upstreams')))
  const upstream = (origin: string) => (listed ? listed.has(origin) : (list as (origin: string) => boolean)(origin) === true)
  const origins = new Set((options.origins ?? []).map((o) => originOf(o, 'origins')))
  const path = options.path ?? '/mcp-proxy/'
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY
  const timeoutMs = options.timeoutMs ?? 30_000
  const debug = options.debug ?? (() => undefined)

  return async (request) => {
    const url = new URL(request.url)
    const origin = request.headers.get('origin')
    // Its own origin may (the page it is served beside), when its host is one no DNS answer can claim (ownHost) or
    // is listed; a browser sends no Origin on some same-origin GETs, and Sec-Fetch-Site tells those from a
    // cross-site navigation, which is refused.
    const site = request.headers.get('sec-fetch-site')
    const own = ownHost(url.hostname) || origins.has(url.origin)
    const allowed = origin === null ? site === null || site === 'none' || (site === 'same-origin' && own) : (origin === url.origin && own) || origins.has(origin)
    const corsOrigin = allowed ? origin : null
    const refused = (code: Parameters<typeof refuse>[0], message: string) => {
      debug(`refused (${code}): ${message}`)
      return refuse(code, message, corsOrigin)
    }
    if (!url.pathname.startsWith(path)) return refused('not-found', `${url.pathname} is not under ${path}`)
    if (!allowed) return refused('origin-not-allowed', `pages from ${origin ?? `a ${site} request`} may not use this proxy`)
    if (request.method === 'OPTIONS') return preflight(origin ?? url.origin, request.headers.get('access-control-request-headers'))
    if (!METHODS.has(request.method)) return refused('method-not-allowed', `${request.method} is not forwarded (GET, POST and DELETE are)`)

    let target: URL
    try {
      target = new URL(decodeURIComponent(url.pathname.slice(path.length)) + url.search)
    } catch {
      return refused('bad-target', `no target URL after ${path} (expected ${path}<percent-encoded http(s) URL>)`)
    }
    if ((target.protocol !== 'http:' && target.protocol !== 'https:') || target.username || target.password) {
      return refused('bad-target', `${target.protocol} URLs${target.username ? ' with credentials' : ''} are not forwarded`)
    }
    if (!upstream(target.origin)) return refused('upstream-not-allowed', `${target.origin} is not on this proxy's list of upstreams`)

    let body: Uint8Array | undefined
    if (request.method === 'POST') {
      const read = await readCapped(request, max)
      if (read === undefined) return refused('too-large', `the request body is larger than ${max} bytes`)
      body = read
    }
    const result = await forward({ target, method: request.method, headers: requestHeaders(request.headers), body, signal: request.signal, origin: corsOrigin, timeoutMs, fetch: options.fetch ?? globalThis.fetch })
    if (result instanceof Response) {
      debug(`refused (${result.headers.get('nanomcp-proxy-error')}) for ${target.href}`)
      return result
    }
    const { response } = result
    // A login page or an error page of a web server: not what an MCP or OAuth client can read, and it should
    // not be shown as the server's answer either.
    if ((response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/html')) {
      await response.body?.cancel().catch(() => undefined)
      return refused('html', `${target.href} answered an HTML page (HTTP ${response.status}), not MCP or OAuth JSON: is the URL right?`)
    }
    // The body goes on as a stream: an SSE answer reaches the page event by event.
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: cors(responseHeaders(response.headers), corsOrigin) })
  }
}

/**
 * Whether the page's own origin may be trusted without being listed. The proxy learns it from the Host header,
 * which a DNS-rebinding page sets to its own name (resolving to this server), making its Origin look like the
 * proxy's own; only loopback and IP-literal hosts cannot be claimed that way. Any other name must be in `origins`.
 */
const ownHost = (hostname: string) => hostname === 'localhost' || hostname.startsWith('[') || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname)

function originOf(value: string, option: string): string {
  try {
    const { origin } = new URL(value)
    if (origin !== 'null') return origin
  } catch {
    // below
  }
  throw new TypeError(`mcpProxy: ${option} holds "${value}", which is no http(s) origin`)
}

/** The body, or undefined when it is larger than `max` (a declared length is refused before reading). */
async function readCapped(request: Request, max: number): Promise<Uint8Array | undefined> {
  if (Number(request.headers.get('content-length') ?? 0) > max) return undefined
  const reader = request.body?.getReader()
  if (!reader) return new Uint8Array()
  const parts: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => undefined)
      return undefined
    }
    parts.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const part of parts) bytes.set(part, (at += part.byteLength) - part.byteLength)
  return bytes
}
