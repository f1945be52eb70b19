// Public types of nanomcp/proxy. Types only.

/** A WHATWG fetch handler: what Workers, Deno, Bun and Next.js route handlers run. */
export type FetchHandler = (request: Request) => Promise<Response>

export interface McpProxyOptions {
  /**
   * The origins requests may be forwarded to (`https://mcp.example.com`, `http://localhost:3000`): the MCP
   * servers and their authorization servers. Required: a proxy without an allowlist would be an open proxy. A
   * request for any other origin is refused with 403 `upstream-not-allowed`. A function decides per origin
   * (an allowlist that grows, say); it is asked with the target's origin only.
   */
  upstreams: readonly string[] | ((origin: string) => boolean)
  /**
   * The page origins allowed to use the proxy besides its own. Its own origin may without being listed only when
   * the proxy is reached at `localhost` or an IP address: under any other name the Host header is the only witness,
   * and a DNS-rebinding page sets it to its own name, so list the proxy's own origin here to serve a page beside it.
   * A request whose `Origin` is another is refused with 403 `origin-not-allowed`, and a preflight from it gets no
   * CORS headers. Default none.
   */
  origins?: readonly string[]
  /** The path the proxy is mounted at; the target URL follows it percent-encoded. Default `/mcp-proxy/`. */
  path?: string
  /** Largest request body forwarded; a larger one is refused with 413 `too-large`. Default 4 MiB. */
  maxBodyBytes?: number
  /** How long the upstream may take to start answering (headers); then 504 `timeout`. Streams may last. Default 30 000 ms. */
  timeoutMs?: number
  /** The fetch used towards upstreams (tests). Default `globalThis.fetch`. */
  fetch?: typeof fetch
  /** Diagnostics (refusals, with their reason). The proxy never writes to the console. */
  debug?: (message: string) => void
}

/** Why the proxy refused, as sent in its `Nanomcp-Proxy-Error` header. */
export type ProxyRefusalCode =
  | 'not-found'
  | 'bad-target'
  | 'upstream-not-allowed'
  | 'origin-not-allowed'
  | 'method-not-allowed'
  | 'too-large'
  | 'redirect'
  | 'timeout'
  | 'unreachable'
  | 'html'
