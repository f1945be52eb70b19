// How the flow reaches AS and metadata endpoints (the app's fetch, http only on loopback, failures naming the endpoint); apart because every step uses it.
import { allowInsecureRequests, customFetch } from 'oauth4webapi'
import { OAuthError } from '../errors/oauth-error'
import type { Get } from './discovery'
import type { OAuthOptions } from './types'
import { proxyRefusal, viaProxy } from '../transport/proxy-url'
import { ProxyError } from '../errors/proxy-error'

const loopback = /^(localhost|127\.0\.0\.1|\[::1\])$/

export class OAuthHttp {
  readonly #o: OAuthOptions

  constructor(options: OAuthOptions) {
    this.#o = options
  }

  /** oauth4webapi options for a request to `url`: http allowed on loopback (or by option), the app's fetch. */
  options(url: string, what: string) {
    const { protocol, hostname } = new URL(url)
    return {
      ...((protocol === 'http:' && (this.#o.allowHttp || loopback.test(hostname))) && { [allowInsecureRequests]: true }),
      [customFetch]: ((input: string, init: RequestInit) => this.fetch(what, input, init)) as never,
    }
  }

  /** fetch for AS and metadata endpoints; a failure before a response names the endpoint (usually CORS). */
  async fetch(what: string, url: string, init?: RequestInit): Promise<Response> {
    let fetched = url
    try {
      fetched = viaProxy(url, this.#o.proxy)
      const response = await (this.#o.fetch ?? globalThis.fetch)(fetched, init)
      const refusal = await proxyRefusal(response, fetched, url)
      if (refusal) throw refusal
      return response
    } catch (error) {
      if (error instanceof ProxyError || fetched !== url) {
        const cause = error instanceof ProxyError ? error : new ProxyError(fetched, url, 'unreachable', (error as Error)?.message, undefined, { cause: error })
        throw new OAuthError('unreachable', `Could not reach the ${what}: ${cause.message}`, what, { cause })
      }
      const origin = (globalThis as { location?: { origin?: string } }).location?.origin
      throw new OAuthError(
        'unreachable',
        `Could not reach the ${what} at ${url}` +
          (origin ? `: offline, or it does not allow CORS from ${origin} (it must answer with Access-Control-Allow-Origin for this origin${init?.method === 'POST' ? ' and allow POST with Content-Type and Authorization' : ''}); an app can route it through its own backend with the \`fetch\` option` : ''),
        what,
        { cause: error },
      )
    }
  }

  // Metadata GETs are idempotent: one retry covers a keep-alive socket the server closed as it was reused.
  readonly get: Get = (what, url) => {
    const init = { headers: { accept: 'application/json' } }
    return this.fetch(what, url, init).catch((error: unknown) => {
      if ((error as OAuthError).code !== 'unreachable') throw error
      return this.fetch(what, url, init)
    })
  }
}
