// One forwarded exchange with the upstream: redirects fetched 'manual' (same-origin ones followed, any other
// refused), a deadline for the answer's headers only (a stream may then last), and the caller's abort passed on.
import { refuse } from './refusal'

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5

export interface Forward {
  target: URL
  method: string
  headers: Headers
  body: Uint8Array | undefined
  /** The page's request signal: a page that goes away ends the upstream exchange. */
  signal: AbortSignal
  /** CORS origin for refusals. */
  origin: string | null
  timeoutMs: number
  fetch: typeof fetch
}

/** The upstream's response, or the proxy's refusal (redirect elsewhere, timeout, unreachable). */
export async function forward(f: Forward): Promise<{ response: Response; url: URL } | Response> {
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), f.timeoutMs)
  const signal = AbortSignal.any([f.signal, deadline.signal])
  let url = f.target
  try {
    for (let hops = 0; ; hops++) {
      let response: Response
      try {
        response = await f.fetch(url, { method: f.method, headers: f.headers, body: f.body as BodyInit | undefined, redirect: 'manual', signal })
      } catch (error) {
        if (deadline.signal.aborted) return refuse('timeout', `${url.href} did not answer within ${f.timeoutMs} ms`, f.origin)
        if (f.signal.aborted) throw error
        return refuse('unreachable', `could not reach ${url.href}: ${(error as Error)?.cause ?? (error as Error)?.message ?? error}`, f.origin)
      }
      const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null
      if (location === null) return { response, url }
      await response.body?.cancel().catch(() => undefined)
      const next = new URL(location, url)
      // Following would send the request, its token and session id included, to an origin nobody allowed here.
      if (next.origin !== f.target.origin) return refuse('redirect', `${url.href} redirected (${response.status}) to another origin, ${next.origin}: not followed`, f.origin)
      if (response.status < 307 && f.method !== 'GET') return refuse('redirect', `${url.href} redirected a ${f.method} with ${response.status}, which would turn it into a GET: not followed`, f.origin)
      if (hops >= MAX_REDIRECTS) return refuse('redirect', `too many redirects from ${f.target.href}`, f.origin)
      url = next
    }
  } finally {
    clearTimeout(timer)
  }
}
