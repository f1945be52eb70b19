// The OAuth 2.1 authorization-code flow for one MCP server, loaded on demand by oauth() (it pulls in oauth4webapi).
// Discovery and registration live in their own files; this one runs the steps in the spec's order and keeps the
// tokens. Nothing here logs or throws a token, a code or a secret.
import {
  allowInsecureRequests,
  authorizationCodeGrantRequest,
  AuthorizationResponseError,
  calculatePKCECodeChallenge,
  customFetch,
  DPoP,
  generateRandomCodeVerifier,
  generateRandomState,
  isDPoPNonceError,
  processAuthorizationCodeResponse,
  processRefreshTokenResponse,
  processRevocationResponse,
  refreshTokenGrantRequest,
  ResponseBodyError,
  revocationRequest,
  validateAuthResponse,
  type AuthorizationServer,
  type DPoPHandle,
  type TokenEndpointResponse,
} from 'oauth4webapi'
import type { WritableAtom } from 'nanostores'
import { OAuthError } from '../errors/oauth-error'
import { challengeParams } from './challenge'
import { defaultMetadata, resourceMetadata, serverMetadata, type Get } from './discovery'
import { dpopKeyPair } from './dpop-key'
import { authFor, clientFor, type RegisteredClient } from './registration'
import type { AuthState, OAuthOptions, StoredTokens } from './types'
import { waitForPopup } from './popup'
import { CALLBACK_KEY, FLOW_KEY, serverOf, tokenKey } from './keys'

/** What a sign-in needs after the redirect: kept in memory, and in sessionStorage in redirect mode. */
export interface PendingFlow {
  state: string
  verifier: string
  issuer: string
  as: AuthorizationServer
  client: RegisteredClient
  resource?: string
  scopes: string[]
  server: string
  returnTo?: string
}

interface Context {
  server: URL
  as: AuthorizationServer
  client: RegisteredClient
  resource?: string
  /** Scopes the next authorization asks for. */
  scopes: string[]
}

const loopback = /^(localhost|127\.0\.0\.1|\[::1\])$/
// A token is treated as expired this long before the AS said, so it is not refused in flight.
const SKEW_MS = 30_000

export class Session {
  readonly #o: OAuthOptions
  readonly #$auth: WritableAtom<AuthState>
  #server: URL | undefined
  #tokens: StoredTokens | undefined
  #context: Context | undefined
  #dpop: DPoPHandle | undefined
  #pending = new Map<string, PendingFlow>()
  #refreshing: Promise<void> | undefined
  // Sign-ins since the server last accepted a request: bounds step-up and 401-after-sign-in loops.
  #attempts = 0

  constructor(options: OAuthOptions, $auth: WritableAtom<AuthState>) {
    this.#o = options
    this.#$auth = $auth
  }

  /** Any OAuthError is shown in $auth as well as thrown. */
  async #track<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      if (error instanceof OAuthError && this.#$auth.get().error !== error) {
        this.#set({ ...this.#$auth.get(), status: error.code === 'interaction_required' ? 'required' : 'error', error })
      }
      throw error
    }
  }

  #debug(message: string): void {
    this.#o.debug?.(`oauth: ${message}`)
  }

  #set(state: AuthState): void {
    this.#$auth.set(state)
  }

  /** oauth4webapi options for a request to `url`: http allowed on loopback (or by option), the app's fetch. */
  #http(url: string, what: string) {
    const { protocol, hostname } = new URL(url)
    return {
      ...((protocol === 'http:' && (this.#o.allowHttp || loopback.test(hostname))) && { [allowInsecureRequests]: true }),
      [customFetch]: ((input: string, init: RequestInit) => this.#fetch(what, input, init)) as never,
    }
  }

  /** fetch for AS and metadata endpoints; a failure before a response names the endpoint (usually CORS). */
  async #fetch(what: string, url: string, init?: RequestInit): Promise<Response> {
    try {
      return await (this.#o.fetch ?? globalThis.fetch)(url, init)
    } catch (error) {
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
  readonly #get: Get = (what, url) => {
    const init = { headers: { accept: 'application/json' } }
    return this.#fetch(what, url, init).catch((error: unknown) => {
      if ((error as OAuthError).code !== 'unreachable') throw error
      return this.#fetch(what, url, init)
    })
  }

  async #storage(server: string): Promise<StoredTokens | undefined> {
    const saved = await this.#o.storage?.get(tokenKey(server))
    if (!saved) return undefined
    try {
      return JSON.parse(saved) as StoredTokens
    } catch {
      return undefined
    }
  }

  async #save(tokens: StoredTokens | undefined): Promise<void> {
    this.#tokens = tokens
    const server = this.#server?.href
    if (!server || !this.#o.storage) return
    if (tokens) await this.#o.storage.set(tokenKey(server), JSON.stringify(tokens))
    else await this.#o.storage.delete(tokenKey(server))
  }

  #seeServer(url: string): URL {
    return (this.#server ??= new URL(serverOf(url)))
  }

  /** Headers for a request to the MCP server: the token (refreshed first when it has run out) and a DPoP proof. */
  async headers(request: { url: string; method: string }): Promise<Record<string, string>> {
    const server = this.#seeServer(request.url)
    this.#tokens ??= await this.#storage(server.href)
    let tokens = this.#tokens
    if (tokens?.expires_at && tokens.expires_at < Date.now() && tokens.refresh_token) {
      await this.#refreshOnce().catch(() => undefined)
      tokens = this.#tokens
    }
    if (!tokens) return {}
    if (tokens.token_type === 'dpop') {
      const dpop = await this.#dpopHandle()
      const headers = new Headers()
      // oauth4webapi's handle signs proofs for any request; it exposes addProof on the handle it returns.
      await (dpop as unknown as { addProof(url: URL, h: Headers, htm: string, token: string): Promise<void> }).addProof(
        new URL(request.url),
        headers,
        request.method,
        tokens.access_token,
      )
      return { authorization: `DPoP ${tokens.access_token}`, dpop: headers.get('dpop')! }
    }
    return { authorization: `Bearer ${tokens.access_token}` }
  }

  /** Every MCP response: a 2xx ends a run of sign-ins, a DPoP-Nonce is remembered for the next proof. */
  response(response: Response, request: { url: string }): void {
    if (response.ok) this.#attempts = 0
    ;(this.#dpop as unknown as { cacheNonce?(r: Response, u: URL): void })?.cacheNonce?.(response, new URL(request.url))
  }

  /** A 401/403 from the MCP server: true when fresh credentials are ready for one resend. */
  unauthorized(response: Response, request: { url: string; method: string }): Promise<boolean> {
    return this.#track(() => this.#unauthorized(response, request))
  }

  async #unauthorized(response: Response, request: { url: string; method: string }): Promise<boolean> {
    const server = this.#seeServer(request.url)
    const params = challengeParams(response, this.#tokens?.token_type === 'dpop')
    if (params.error === 'use_dpop_nonce' && this.#dpop && response.headers.has('dpop-nonce')) return true
    if (response.status === 403 && params.error !== 'insufficient_scope') return false
    if (++this.#attempts > (this.#o.maxAttempts ?? 2)) {
      const error = new OAuthError('retry_limit', `${server.href} keeps refusing fresh tokens (HTTP ${response.status}${params.error ? ` ${params.error}` : ''})`, params.error)
      this.#set({ ...this.#$auth.get(), status: 'error', error })
      throw error
    }
    const previous = this.#context?.scopes ?? []
    const context = await this.#discover(server, params)
    if (response.status === 403) {
      // Step-up (SEP-2350): what was asked before plus what the server now names, never fewer.
      context.scopes = union(previous, split(params.scope), context.scopes)
      this.#debug(`insufficient_scope: step-up to "${context.scopes.join(' ')}"`)
    } else if (this.#tokens?.refresh_token && this.#tokens.issuer === context.as.issuer) {
      try {
        await this.#refreshOnce()
        return true
      } catch {
        // Expired or revoked: a new sign-in below, once (the attempt counter stops a loop).
      }
    }
    if (!this.#o.authorize) {
      const error = new OAuthError('interaction_required', `Sign-in needed for ${server.href}: call signIn() from a user action`)
      this.#set({ status: 'required', issuer: context.as.issuer, scopes: context.scopes })
      throw error
    }
    await this.#authorize(context, (url) => this.#o.authorize!(url))
    return true
  }

  /** PRM → AS metadata → registration; resets everything tied to another issuer. */
  async #discover(server: URL, params: Record<string, string>): Promise<Context> {
    const prm = await resourceMetadata(server, params.resource_metadata, this.#get)
    const issuer = prm?.authorization_servers?.[0] ?? server.origin
    let as = await serverMetadata(issuer, this.#get)
    if (!as) {
      // 2025-03-26 servers have no PRM: the AS is the server's origin, with default endpoints when it has no metadata.
      if (prm) throw new OAuthError('discovery', `No authorization server metadata for ${issuer}`, issuer)
      as = defaultMetadata(server.origin)
    }
    if (!as.code_challenge_methods_supported?.includes('S256')) {
      throw new OAuthError('pkce_unsupported', `${issuer} does not list S256 in code_challenge_methods_supported: PKCE cannot be relied on`, issuer)
    }
    if (this.#tokens && this.#tokens.issuer !== as.issuer) {
      // Credentials are the issuer's: a server that moved to another AS starts from nothing.
      this.#debug(`the authorization server changed to ${as.issuer}: old tokens dropped`)
      await this.#save(undefined)
      this.#dpop = undefined
    }
    if (this.#context && this.#context.as.issuer !== as.issuer) this.#context = undefined
    const scopes = union(split(params.scope ?? prm?.scopes_supported?.join(' ')), split(this.#o.scope))
    if (scopes.length && as.scopes_supported?.includes('offline_access')) scopes.push('offline_access')
    const client = await clientFor(as, this.#o, (url, what) => this.#http(url, what))
    this.#context = { server, as, client, resource: prm?.resource, scopes: union(scopes) }
    return this.#context
  }

  async #dpopHandle(): Promise<DPoPHandle> {
    return (this.#dpop ??= DPoP({}, await dpopKeyPair()))
  }

  #usesDpop(as: AuthorizationServer): boolean {
    return this.#o.dpop !== false && !!as.dpop_signing_alg_values_supported?.includes('ES256')
  }

  /** Builds the authorization URL and remembers the flow under its `state`. */
  async start(context = this.#context, returnTo?: string): Promise<{ url: URL; flow: PendingFlow }> {
    if (!context) throw new OAuthError('discovery', 'No protected server seen yet: connect first, then sign in')
    const { as, client, resource, scopes } = context
    const flow: PendingFlow = {
      state: generateRandomState(),
      verifier: generateRandomCodeVerifier(),
      issuer: as.issuer,
      as,
      client,
      resource,
      scopes,
      server: context.server.href,
      returnTo,
    }
    const url = new URL(as.authorization_endpoint!)
    const query = url.searchParams
    for (const [name, value] of Object.entries(this.#o.authorizationParams ?? {})) query.set(name, value)
    query.set('response_type', 'code')
    query.set('client_id', client.client_id)
    query.set('redirect_uri', this.#o.redirectUri)
    query.set('state', flow.state)
    query.set('code_challenge', await calculatePKCECodeChallenge(flow.verifier))
    query.set('code_challenge_method', 'S256')
    if (scopes.length) query.set('scope', scopes.join(' '))
    if (resource) query.set('resource', resource)
    if (this.#usesDpop(as)) query.set('dpop_jkt', await (await this.#dpopHandle()).calculateThumbprint())
    this.#pending.set(flow.state, flow)
    this.#set({ status: 'authorizing', issuer: as.issuer, scopes })
    this.#debug(`authorizing at ${as.issuer} for "${scopes.join(' ')}"`)
    return { url, flow }
  }

  async #authorize(context: Context, drive: (url: URL) => Promise<URL | string>): Promise<void> {
    const { url } = await this.start(context)
    let callback: URL
    try {
      callback = new URL(await drive(url))
    } catch (error) {
      const failure = error instanceof OAuthError ? error : new OAuthError('authorization_denied', `The authorization step failed: ${(error as Error)?.message ?? error}`, undefined, { cause: error })
      this.#set({ status: 'error', issuer: context.as.issuer, error: failure })
      throw failure
    }
    await this.complete(callback)
  }

  /** signIn(): with the `authorize` hook, by redirect, or in the popup the click opened (null: it was blocked). */
  signIn(popup: Window | null | undefined): Promise<void> {
    const { authorize, mode } = this.#o
    return this.#track(() =>
      authorize
        ? this.#signInWith(authorize)
        : mode === 'redirect'
          ? this.#signInWithRedirect()
          : this.#signInWithPopup(popup ?? null).catch((error) => {
              popup?.close()
              throw error
            }),
    )
  }

  /** Redirect mode, back on the app page: redeems what handleOAuthCallback() kept in sessionStorage. */
  resume(): Promise<void> {
    const saved = sessionStorage.getItem(CALLBACK_KEY)
    sessionStorage.removeItem(CALLBACK_KEY)
    if (!saved) return Promise.resolve()
    const callback = new URL(saved)
    const key = FLOW_KEY + callback.searchParams.get('state')
    const flow = sessionStorage.getItem(key)
    sessionStorage.removeItem(key)
    return this.#track(() => this.complete(callback, flow ? (JSON.parse(flow) as PendingFlow) : undefined))
  }

  /** Popup mode: `popup` was opened synchronously by the click; this fills it and waits. */
  async #signInWithPopup(popup: Window | null): Promise<void> {
    const context = await this.#contextForSignIn()
    if (!popup) {
      const error = new OAuthError('popup_blocked', 'The browser blocked the sign-in popup: call signIn() from a click handler')
      this.#set({ status: 'error', issuer: context.as.issuer, error })
      throw error
    }
    await this.#authorize(context, (url) => waitForPopup(popup, url, this.#pending))
  }

  /** signIn() with an `authorize` hook (Node, tests). */
  async #signInWith(drive: (url: URL) => Promise<URL | string>): Promise<void> {
    await this.#authorize(await this.#contextForSignIn(), drive)
  }

  /** signIn() in redirect mode: saves the flow for the page that comes back, then leaves. */
  async #signInWithRedirect(): Promise<void> {
    const { url, flow } = await this.start(await this.#contextForSignIn(), location.href)
    sessionStorage.setItem(`${FLOW_KEY}${flow.state}`, JSON.stringify(flow))
    location.assign(url.href)
  }

  async #contextForSignIn(): Promise<Context> {
    if (this.#context) return this.#context
    if (!this.#server) throw new OAuthError('discovery', 'No protected server seen yet: connect first, then sign in')
    return this.#discover(this.#server, {})
  }

  /** The callback URL: `state` and `iss` checked before the code is redeemed (a mismatch never reaches the AS). */
  async complete(callback: URL, saved?: PendingFlow): Promise<void> {
    const state = callback.searchParams.get('state') ?? ''
    const flow = saved ?? this.#pending.get(state)
    // One use per state: a replayed callback finds nothing.
    this.#pending.delete(state)
    if (!flow) {
      const error = new OAuthError('state_mismatch', 'The authorization response matches no sign-in in progress (forged, stale or replayed): its code was not redeemed')
      this.#set({ ...this.#$auth.get(), status: 'error', error })
      throw error
    }
    const { as, client } = flow
    this.#server ??= new URL(flow.server)
    let params: URLSearchParams
    try {
      params = validateAuthResponse(as, client, callback, flow.state)
    } catch (cause) {
      const error =
        cause instanceof AuthorizationResponseError
          ? new OAuthError('authorization_denied', `${as.issuer} refused the authorization: ${cause.error}`, cause.error, { error_description: cause.error_description })
          : /iss/.test((cause as Error).message)
            ? new OAuthError('iss_mismatch', `The authorization response's iss does not match ${as.issuer} (RFC 9207): its code was not redeemed`, as.issuer)
            : new OAuthError('state_mismatch', `Invalid authorization response: ${(cause as Error).message}`)
      this.#set({ status: 'error', issuer: as.issuer, error })
      throw error
    }
    const dpop = this.#usesDpop(as) ? await this.#dpopHandle() : undefined
    const extra = flow.resource ? { resource: flow.resource } : undefined
    const tokens = await this.#token(as, () =>
      authorizationCodeGrantRequest(as, client, authFor(client, as), params, this.#o.redirectUri, flow.verifier, {
        additionalParameters: extra,
        DPoP: dpop,
        ...this.#http(as.token_endpoint!, 'token endpoint'),
      }).then((r) => processAuthorizationCodeResponse(as, client, r)),
    )
    await this.#keep(as.issuer, tokens, flow.scopes)
  }

  /** A token endpoint call, once more with the nonce when the AS answers use_dpop_nonce. */
  async #token(as: AuthorizationServer, call: () => Promise<TokenEndpointResponse>): Promise<TokenEndpointResponse> {
    try {
      try {
        return await call()
      } catch (error) {
        if (!isDPoPNonceError(error)) throw error
        return await call()
      }
    } catch (cause) {
      const code = cause instanceof ResponseBodyError ? cause.error : undefined
      const error = new OAuthError(
        'token',
        `The token endpoint of ${as.issuer} ${code ? `refused the request: ${code}` : `gave no usable token (${(cause as Error).message})`}`,
        code,
        { error_description: cause instanceof ResponseBodyError ? cause.error_description : undefined },
      )
      this.#set({ status: 'error', issuer: as.issuer, error })
      throw error
    }
  }

  async #keep(issuer: string, response: TokenEndpointResponse, requested: string[]): Promise<void> {
    const scopes = response.scope ? split(response.scope) : requested
    await this.#save({
      issuer,
      access_token: response.access_token,
      token_type: response.token_type,
      refresh_token: response.refresh_token ?? (this.#tokens?.issuer === issuer ? this.#tokens.refresh_token : undefined),
      // Short-lived tokens get a proportionate margin, or they would look expired on arrival and refresh forever.
      expires_at: response.expires_in ? Date.now() + response.expires_in * 1000 - Math.min(SKEW_MS, response.expires_in * 250) : undefined,
      scope: scopes.join(' '),
    })
    if (this.#context?.as.issuer === issuer) this.#context.scopes = union(this.#context.scopes, requested)
    this.#set({ status: 'authorized', issuer, scopes })
    this.#debug(`authorized by ${issuer} (${response.token_type}${response.refresh_token ? ', with a refresh token' : ''})`)
  }

  #refreshOnce(): Promise<void> {
    return (this.#refreshing ??= this.#refresh().finally(() => (this.#refreshing = undefined)))
  }

  async #refresh(): Promise<void> {
    const tokens = this.#tokens
    const context = this.#context ?? (this.#server && (await this.#discover(this.#server, {})))
    if (!tokens?.refresh_token || !context || context.as.issuer !== tokens.issuer) throw new OAuthError('refresh_failed', 'No refresh token for this authorization server')
    const { as, client, resource } = context
    const dpop = this.#usesDpop(as) && tokens.token_type === 'dpop' ? await this.#dpopHandle() : undefined
    try {
      const response = await this.#token(as, () =>
        refreshTokenGrantRequest(as, client, authFor(client, as), tokens.refresh_token!, {
          additionalParameters: resource ? { resource } : undefined,
          DPoP: dpop,
          ...this.#http(as.token_endpoint!, 'token endpoint'),
        }).then((r) => processRefreshTokenResponse(as, client, r)),
      )
      await this.#keep(as.issuer, response, split(tokens.scope))
      this.#debug('access token refreshed')
    } catch (cause) {
      // Expired or revoked: forget it so the next 401 signs in again instead of refreshing in a loop.
      await this.#save(undefined)
      const error = new OAuthError('refresh_failed', `Refreshing the token at ${as.issuer} failed: sign in again`, (cause as OAuthError).detail)
      this.#set({ status: 'required', issuer: as.issuer, scopes: context.scopes, error })
      throw error
    }
  }

  /** Forgets the tokens; revokes the refresh and access tokens where the AS has a revocation endpoint. */
  async signOut(): Promise<void> {
    const tokens = this.#tokens
    await this.#save(undefined)
    this.#pending.clear()
    const context = this.#context
    this.#set({ status: 'none' })
    if (!tokens || !context?.as.revocation_endpoint || context.as.issuer !== tokens.issuer) return
    const { as, client } = context
    for (const token of [tokens.refresh_token, tokens.access_token]) {
      if (!token) continue
      // Best effort: the tokens are gone from here either way.
      await revocationRequest(as, client, authFor(client, as), token, this.#http(as.revocation_endpoint!, 'revocation endpoint'))
        .then(processRevocationResponse)
        .catch(() => this.#debug('revocation failed'))
    }
  }
}

const split = (scope: string | undefined): string[] => (scope ? scope.split(' ').filter(Boolean) : [])

const union = (...lists: string[][]): string[] => [...new Set(lists.flat())]
