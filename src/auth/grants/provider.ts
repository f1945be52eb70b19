// The AuthProvider every machine grant shares: token cache, expiry, re-acquisition on 401, bounded step-up on
// 403. It stays small and synchronous-free of OAuth code: discovery and the token requests (with oauth4webapi)
// are imported the first time a token is needed.
import { OAuthError } from '../../errors/oauth-error'
import type { AuthProvider } from '../../transport/types'
import { challengeParams } from '../challenge'
import type { Discovered } from './discovery'
import type { CachedToken, GrantOptionsBase } from './types'

type Flows = typeof import('./flows')
type Acquire = (flows: Flows, found: Discovered, scope: string | undefined) => Promise<CachedToken>

type HttpRequest = { url: string; method: string }

// Step-ups (403 insufficient_scope) per provider: a server that keeps asking for more is not followed forever.
const MAX_STEP_UPS = 2

/** Machine grants hold secrets; a page (a window with a document) gets them only when the app says so. */
export function refuseInPage(grant: string, options: GrantOptionsBase): void {
  if ('document' in globalThis && !options.allowInBrowser) {
    throw new OAuthError(
      'refused_in_browser',
      `${grant} runs in a web page here, where its credentials would be readable by any script of the page: use it from a server or a worker, or pass allowInBrowser: true if this page really must hold them`,
    )
  }
}

const union = (...scopes: (string | undefined)[]): string | undefined => {
  const all = new Set(scopes.flatMap((s) => s?.split(' ').filter(Boolean) ?? []))
  return all.size ? [...all].join(' ') : undefined
}

export function grantProvider(options: GrantOptionsBase, acquire: Acquire): AuthProvider {
  const skew = (options.expirySkewSeconds ?? 30) * 1000
  let found: Discovered | undefined
  let token: CachedToken | undefined
  let pending: Promise<CachedToken> | undefined
  let scope = options.scope
  let stepUps = 0
  // The origin of the server the tokens are for: a provider shared by mistake never sends them anywhere else.
  let origin: string | undefined
  const elsewhere = (url: string) => origin !== undefined && new URL(url).origin !== origin
  // Which token each request carried, and which tokens the server has accepted at least once.
  const sentWith = new WeakMap<HttpRequest, string | undefined>()
  const accepted = new WeakSet<CachedToken>()

  // A token living less than four margins gets a quarter of its life as margin: with the full one it would look
  // expired on arrival and be fetched again before every request.
  const expired = (t: CachedToken) => t.expiresAt !== undefined && Date.now() >= t.expiresAt - Math.min(skew, (t.expiresAt - t.obtainedAt) / 4)

  /** One token request at a time; a failure caches nothing and is not retried. */
  const fetchToken = (challenge?: { url: string; params: Record<string, string> }): Promise<CachedToken> => {
    pending ??= (async () => {
      try {
        const flows = await import('./flows')
        if (!found && challenge) {
          found = await flows.discover(challenge.url, challenge.params.resource_metadata, options.fetch ?? fetch)
          scope ??= challenge.params.scope ?? found.scopesSupported?.join(' ')
        }
        if (!found) throw new OAuthError('discovery', 'no authorization server is known yet for this server')
        token = undefined
        token = await acquire(flows, found, scope)
        return token
      } finally {
        pending = undefined
      }
    })()
    return pending
  }

  return {
    async headers(request): Promise<Record<string, string>> {
      if (elsewhere(request.url)) return {}
      let current = pending ? await pending : token
      // Once the AS is known, an expired token is replaced before use rather than after a 401.
      if (current && expired(current) && found) current = await fetchToken()
      sentWith.set(request, current?.accessToken)
      return current ? { Authorization: `Bearer ${current.accessToken}` } : {}
    },

    response(response, request) {
      if (response.status < 400 && token && sentWith.get(request) === token.accessToken) accepted.add(token)
    },

    async unauthorized(response, request) {
      if (elsewhere(request.url)) {
        throw new OAuthError('resource_mismatch', `This grant holds tokens for ${origin}, not for ${request.url}: give each server its own grant`, request.url)
      }
      origin ??= new URL(request.url).origin
      const used = sentWith.get(request)
      if (pending) await pending.catch(() => undefined)
      // Another request has already replaced the token this one carried: resend with the new one.
      if (token && token.accessToken !== used) return true
      const challenge = challengeParams(response, false)
      if (response.status === 403) {
        const wanted = union(scope, challenge.scope)
        if (challenge.error !== 'insufficient_scope' || !challenge.scope) return false
        if (wanted === scope || stepUps >= MAX_STEP_UPS) {
          throw new OAuthError('retry_limit', `${request.url} still answers 403 insufficient_scope with scope "${scope ?? ''}"`)
        }
        stepUps++
        scope = wanted
        await fetchToken()
        return true
      }
      if (response.status !== 401) return false
      // A token the server refused without ever accepting it is not replaced by another from the same AS.
      if (token && !accepted.has(token) && used === token.accessToken) {
        token = undefined
        throw new OAuthError('retry_limit', `${request.url} refused a token just issued for it (HTTP 401)`)
      }
      token = undefined
      await fetchToken({ url: request.url, params: challenge })
      return true
    },
  }
}
