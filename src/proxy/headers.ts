// Which headers cross the proxy, in each direction. Everything else (cookies above all) stays on its side.

/** Request headers MCP and OAuth need; `mcp-param-*` by prefix. */
const REQUEST = new Set([
  'accept',
  'authorization',
  'content-type',
  'dpop',
  'last-event-id',
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'mcp-session-id',
])

/** Response headers a client reads. Set-Cookie never; Content-Length/Encoding are the runtime's to set again. */
const RESPONSE = ['cache-control', 'content-type', 'dpop-nonce', 'mcp-protocol-version', 'mcp-session-id', 'retry-after', 'www-authenticate']

export const forwardsRequestHeader = (name: string): boolean => REQUEST.has(name) || name.startsWith('mcp-param-')

/** The headers forwarded to the upstream. */
export function requestHeaders(incoming: Headers): Headers {
  const out = new Headers()
  for (const [name, value] of incoming) if (forwardsRequestHeader(name)) out.set(name, value)
  return out
}

/** The upstream's headers a page may see, on a fresh Headers. */
export function responseHeaders(upstream: Headers): Headers {
  const out = new Headers()
  for (const name of RESPONSE) {
    const value = upstream.get(name)
    if (value !== null) out.set(name, value)
  }
  return out
}

export const EXPOSED = 'Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version, DPoP-Nonce, Retry-After, Nanomcp-Proxy-Error'

/** CORS headers for an allowed page origin: credentials never (no cookies cross), the headers a client reads exposed. */
export function cors(headers: Headers, origin: string | null): Headers {
  headers.append('vary', 'Origin')
  if (origin === null) return headers
  headers.set('access-control-allow-origin', origin)
  headers.set('access-control-expose-headers', EXPOSED)
  return headers
}

/** A preflight's answer: the requested headers the proxy forwards (Mcp-Param-* names included), GET/POST/DELETE. */
export function preflight(origin: string, requested: string | null): Response {
  const allowed = (requested ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name && forwardsRequestHeader(name))
  const headers = cors(new Headers(), origin)
  headers.set('access-control-allow-methods', 'GET, POST, DELETE')
  if (allowed.length) headers.set('access-control-allow-headers', allowed.join(', '))
  headers.set('access-control-max-age', '600')
  return new Response(null, { status: 204, headers })
}
