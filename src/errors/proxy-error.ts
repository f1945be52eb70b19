import { McpError } from './mcp-error'

/** Why a request through a proxy failed. */
export type ProxyRefusal =
  /** The `proxy` option gave no http(s) URL (another scheme, or a relative one where there is no page to resolve it). */
  | 'invalid'
  /** The proxy itself could not be reached (offline, wrong address, or it refuses this page's origin in CORS). */
  | 'unreachable'
  /** The proxy answered with its own refusal; `code` says which (`upstream-not-allowed`, `timeout`, `html`, ...). */
  | 'refused'

/**
 * Thrown when a request routed through a proxy (the transports' and oauth()'s `proxy` option) fails because of the
 * proxy rather than the server: a proxy URL that is not http(s), a proxy that cannot be reached, or a refusal the
 * proxy sent itself (a nanomcp/proxy marks those with the `Nanomcp-Proxy-Error` header). Carries the proxy URL
 * that was fetched, the real `target`, `refusal`, and for a refusal the proxy's `code`.
 */
export class ProxyError extends McpError {
  override readonly name = 'ProxyError'
  readonly proxy: string
  readonly target: string
  readonly refusal: ProxyRefusal
  readonly code: string | undefined

  constructor(proxy: string, target: string, refusal: ProxyRefusal, detail?: string, code?: string, options?: { cause?: unknown }) {
    super(
      refusal === 'invalid'
        ? `The proxy URL "${proxy}" for ${target} is not an http(s) URL${detail ? ` (${detail})` : ''}`
        : refusal === 'unreachable'
          ? `Could not reach the proxy at ${proxy} for ${target}${detail ? `: ${detail}` : ''}`
          : `The proxy at ${proxy} refused the request for ${target}${detail ? `: ${detail}` : ''}`,
      options,
    )
    this.proxy = proxy
    this.target = target
    this.refusal = refusal
    this.code = code
  }
}
