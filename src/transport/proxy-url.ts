// Where a request for a server goes when the app routes it through a proxy. Only the URL fetched changes: the
// server's URL stays what origin checks, DPoP proofs, the resource indicator and the issuer are computed from.
import { ProxyError } from '../errors/proxy-error'

/**
 * A proxy in front of servers that allow no CORS: a URL prefix, to which the target URL is appended
 * percent-encoded (`'/mcp-proxy/'` fetches `/mcp-proxy/https%3A%2F%2Fmcp.example.com%2Fmcp`, the form
 * nanomcp/proxy reads), or a function from the target URL to the URL to fetch.
 */
export type ProxyOption = string | ((target: string) => string | URL)

/** The header a nanomcp/proxy puts on the refusals it sends itself; its value is the refusal's code. */
export const PROXY_ERROR_HEADER = 'nanomcp-proxy-error'

/** The URL to fetch for `target`: `target` itself without a proxy; a ProxyError unless the proxy URL is http(s). */
export function viaProxy(target: string, proxy: ProxyOption | undefined): string {
  if (proxy === undefined) return target
  const raw = String(typeof proxy === 'function' ? proxy(target) : proxy + encodeURIComponent(target))
  let url: URL
  try {
    url = new URL(raw, (globalThis as { location?: { href?: string } }).location?.href)
  } catch (cause) {
    throw new ProxyError(raw, target, 'invalid', 'a relative URL needs a page to resolve it against', undefined, { cause })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProxyError(raw, target, 'invalid', `${url.protocol} URLs are not fetched`)
  return url.href
}

/** A refusal the proxy sent itself, as a ProxyError (its body, bounded, is the message); undefined for any other answer. */
export async function proxyRefusal(response: Response, fetched: string, target: string): Promise<ProxyError | undefined> {
  const code = response.headers.get(PROXY_ERROR_HEADER)
  if (code === null) return undefined
  const text = await response.text().catch(() => '')
  let message = text.slice(0, 2000)
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } }
    if (typeof body.error?.message === 'string') message = body.error.message
  } catch {
    // Not JSON: the text is the message.
  }
  return new ProxyError(fetched, target, 'refused', message || `HTTP ${response.status}`, code)
}
