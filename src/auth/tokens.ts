// The token step (code redemption, refresh, revocation) and token storage; apart so everything that touches a token or a code sits in one file, which never logs one.
import {
  authorizationCodeGrantRequest,
  isDPoPNonceError,
  processAuthorizationCodeResponse,
  processRefreshTokenResponse,
  processRevocationResponse,
  refreshTokenGrantRequest,
  ResponseBodyError,
  revocationRequest,
  type AuthorizationServer,
  type TokenEndpointResponse,
} from 'oauth4webapi'
import { OAuthError } from '../errors/oauth-error'
import type { DpopProofs } from './dpop'
import type { OAuthHttp } from './http'
import { tokenKey } from './keys'
import { authFor } from './registration'
import { split } from './scopes'
import type { Context, PendingFlow } from './session-types'
import type { OAuthOptions, StoredTokens } from './types'

// A token is treated as expired this long before the AS said, so it is not refused in flight.
const SKEW_MS = 30_000

export class TokenEndpoint {
  readonly #o: OAuthOptions
  readonly #http: OAuthHttp
  readonly #dpop: DpopProofs

  constructor(options: OAuthOptions, http: OAuthHttp, dpop: DpopProofs) {
    this.#o = options
    this.#http = http
    this.#dpop = dpop
  }

  /** The code of a verified callback for tokens, with the flow's PKCE verifier and `resource`. */
  async redeem(flow: PendingFlow, params: URLSearchParams): Promise<TokenEndpointResponse> {
    const { as, client } = flow
    const dpop = await this.#dpop.for(as)
    return call(as, () =>
      authorizationCodeGrantRequest(as, client, authFor(client, as), params, this.#o.redirectUri, flow.verifier, {
        additionalParameters: flow.resource ? { resource: flow.resource } : undefined,
        DPoP: dpop,
        ...this.#http.options(as.token_endpoint!, 'token endpoint'),
      }).then((r) => processAuthorizationCodeResponse(as, client, r)),
    )
  }

  /** New tokens for the refresh token, bound to the DPoP key when the old ones were. */
  async refresh({ as, client, resource }: Context, tokens: StoredTokens & { refresh_token: string }): Promise<TokenEndpointResponse> {
    const dpop = tokens.token_type === 'dpop' ? await this.#dpop.for(as) : undefined
    return call(as, () =>
      refreshTokenGrantRequest(as, client, authFor(client, as), tokens.refresh_token, {
        additionalParameters: resource ? { resource } : undefined,
        DPoP: dpop,
        ...this.#http.options(as.token_endpoint!, 'token endpoint'),
      }).then((r) => processRefreshTokenResponse(as, client, r)),
    )
  }

  /** Revokes the refresh and the access token where the AS has a revocation endpoint; best effort. */
  async revoke({ as, client }: Context, tokens: StoredTokens, failed: () => void): Promise<void> {
    if (!as.revocation_endpoint) return
    for (const token of [tokens.refresh_token, tokens.access_token]) {
      if (!token) continue
      // The tokens are gone from here either way: a refusal only gets a debug line.
      await revocationRequest(as, client, authFor(client, as), token, this.#http.options(as.revocation_endpoint, 'revocation endpoint'))
        .then(processRevocationResponse)
        .catch(failed)
    }
  }
}

/** A token endpoint call, once more with the nonce when the AS answers use_dpop_nonce; failures as OAuthError('token'). */
async function call(as: AuthorizationServer, request: () => Promise<TokenEndpointResponse>): Promise<TokenEndpointResponse> {
  try {
    try {
      return await request()
    } catch (error) {
      if (!isDPoPNonceError(error)) throw error
      return await request()
    }
  } catch (cause) {
    const code = cause instanceof ResponseBodyError ? cause.error : undefined
    throw new OAuthError(
      'token',
      `The token endpoint of ${as.issuer} ${code ? `refused the request: ${code}` : `gave no usable token (${(cause as Error).message})`}`,
      code,
      { error_description: cause instanceof ResponseBodyError ? cause.error_description : undefined },
    )
  }
}

/** A token response as stored: its scopes (else the requested ones), the refresh token kept when not rotated. */
export function stored(issuer: string, response: TokenEndpointResponse, requested: string[], previous: StoredTokens | undefined): StoredTokens {
  return {
    issuer,
    access_token: response.access_token,
    token_type: response.token_type,
    refresh_token: response.refresh_token ?? (previous?.issuer === issuer ? previous.refresh_token : undefined),
    // Short-lived tokens get a proportionate margin, or they would look expired on arrival and refresh forever.
    expires_at: response.expires_in ? Date.now() + response.expires_in * 1000 - Math.min(SKEW_MS, response.expires_in * 250) : undefined,
    scope: (response.scope ? split(response.scope) : requested).join(' '),
  }
}

/** The tokens `storage` keeps for `server`; undefined when none or unreadable. */
export async function loadTokens(o: OAuthOptions, server: string): Promise<StoredTokens | undefined> {
  const saved = await o.storage?.get(tokenKey(server))
  if (!saved) return undefined
  try {
    return JSON.parse(saved) as StoredTokens
  } catch {
    return undefined
  }
}

/** Writes (or, with undefined, deletes) the tokens of `server` in `storage`, when there is one. */
export async function saveTokens(o: OAuthOptions, server: string, tokens: StoredTokens | undefined): Promise<void> {
  if (!o.storage) return
  if (tokens) await o.storage.set(tokenKey(server), JSON.stringify(tokens))
  else await o.storage.delete(tokenKey(server))
}
