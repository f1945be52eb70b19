// The sign-in flow's orchestration for one MCP server (loaded on demand with oauth4webapi): runs the steps in the spec's order and keeps the tokens; each step is its own file.
import type { WritableAtom } from 'nanostores'
import { OAuthError } from '../errors/oauth-error'
import { AuthStateWriter } from './auth-state'
import { Authorization, verifyCallback } from './authorization'
import { challengeParams } from './challenge'
import { authorizationServerOf, scopesFor } from './context'
import { DpopProofs } from './dpop'
import { OAuthHttp } from './http'
import { serverOf } from './keys'
import { clientFor } from './registration'
import { split, union } from './scopes'
import type { Context, PendingFlow } from './session-types'
import { loadTokens, saveTokens, stored, TokenEndpoint } from './tokens'
import type { AuthState, OAuthOptions, StoredTokens } from './types'

export class Session {
  readonly #o: OAuthOptions
  readonly #auth: AuthStateWriter
  readonly #http: OAuthHttp
  readonly #dpop: DpopProofs
  readonly #authorization: Authorization
  readonly #endpoint: TokenEndpoint
  #server: URL | undefined
  #tokens: StoredTokens | undefined
  #context: Context | undefined
  #refreshing: Promise<void> | undefined
  /** The authorization flow in progress (a signIn(), or a 401 with an `authorize` hook): one at a time. */
  #authorizing: Promise<void> | undefined
  // Sign-ins since the server last accepted a request: bounds step-up and 401-after-sign-in loops.
  #attempts = 0
  /** The URL of a transport built with this client, for a sign-in before any request. */
  readonly #known: () => string | undefined

  constructor(options: OAuthOptions, $auth: WritableAtom<AuthState>, known: () => string | undefined = () => undefined) {
    this.#o = options
    this.#known = known
    this.#auth = new AuthStateWriter($auth)
    this.#http = new OAuthHttp(options)
    this.#dpop = new DpopProofs(options)
    this.#authorization = new Authorization(options, this.#dpop)
    this.#endpoint = new TokenEndpoint(options, this.#http, this.#dpop)
  }

  #debug(message: string): void {
    this.#o.debug?.(`oauth: ${message}`)
  }

  async #save(tokens: StoredTokens | undefined): Promise<void> {
    this.#tokens = tokens
    if (this.#server) await saveTokens(this.#o, this.#server.href, tokens)
  }

  #seeServer(url: string): URL {
    return (this.#server ??= new URL(serverOf(url)))
  }

  /** Tokens kept in storage for `url`'s server, loaded once; finding some means the user is signed in. */
  async restore(url: string): Promise<StoredTokens | undefined> {
    const server = this.#seeServer(url)
    if (this.#tokens) return this.#tokens
    const tokens = await loadTokens(this.#o, server.href)
    if (!tokens || this.#tokens) return this.#tokens
    this.#tokens = tokens
    if (this.#auth.get().status === 'none') this.#auth.set({ status: 'authorized', issuer: tokens.issuer, scopes: split(tokens.scope) })
    return tokens
  }

  /** Headers for a request to the MCP server: the token (refreshed first when it has run out) and a DPoP proof. */
  async headers(request: { url: string; method: string }): Promise<Record<string, string>> {
    let tokens = await this.restore(request.url)
    if (tokens?.expires_at && tokens.expires_at < Date.now() && tokens.refresh_token) {
      await this.#refreshOnce().catch(() => undefined)
      tokens = this.#tokens
    }
    if (!tokens) return {}
    if (tokens.token_type === 'dpop') return this.#dpop.headers(request, tokens.access_token)
    return { authorization: `Bearer ${tokens.access_token}` }
  }

  /** Every MCP response: a 2xx ends a run of sign-ins, a DPoP-Nonce is remembered for the next proof. */
  response(response: Response, request: { url: string }): void {
    if (response.ok) this.#attempts = 0
    this.#dpop.nonce(response, request.url)
  }

  /** A 401/403 from the MCP server: true when fresh credentials are ready for one resend. */
  unauthorized(response: Response, request: { url: string; method: string }): Promise<boolean> {
    return this.#auth.track(() => this.#unauthorized(response, request))
  }

  async #unauthorized(response: Response, request: { url: string; method: string }): Promise<boolean> {
    const server = this.#seeServer(request.url)
    const params = challengeParams(response, this.#tokens?.token_type === 'dpop')
    if (params.error === 'use_dpop_nonce' && this.#dpop.active && response.headers.has('dpop-nonce')) return true
    if (response.status === 403 && params.error !== 'insufficient_scope') return false
    // A request refused while the user is signing in waits for that sign-in and resends with its token. Starting
    // a flow of its own would ask for a second browser step nobody answers (the shared host hands its `authorize`
    // to every 401 while a tab signs in), and the request, with everything queued behind it, would never settle.
    const before = this.#tokens
    if (await this.#joinSignIn(before)) return true
    // Counts new credentials the server refused. A 401 before the user has signed in (no token, and no authorize
    // hook until signIn()) refused none: the lists, the probe and a subscription that all meet it at once must
    // leave $auth 'required', not turn it into "keeps refusing".
    const waitingForSignIn = !this.#tokens && !this.#o.authorize
    if (!waitingForSignIn && ++this.#attempts > (this.#o.maxAttempts ?? 2)) {
      throw this.#auth.fail(new OAuthError('retry_limit', `${server.href} keeps refusing fresh tokens (HTTP ${response.status}${params.error ? ` ${params.error}` : ''})`, params.error))
    }
    const previous = this.#context?.scopes ?? []
    const context = await this.#discover(server, params)
    // A sign-in may have started while discovery ran.
    if (await this.#joinSignIn(before)) return true
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
      this.#auth.set({ status: 'required', issuer: context.as.issuer, scopes: context.scopes })
      throw error
    }
    await this.#authorize(context, (url) => this.#o.authorize!(url))
    return true
  }

  /** Discovery and its checks → registration; resets everything tied to another issuer. */
  async #discover(server: URL, params: Record<string, string>): Promise<Context> {
    // Refuses (resource_mismatch, issuer_mismatch, pkce_unsupported) before anything here registers or authorizes.
    const { as, prm } = await authorizationServerOf(server, params.resource_metadata, this.#http.get)
    if (this.#tokens && this.#tokens.issuer !== as.issuer) {
      // Credentials are the issuer's: a server that moved to another AS starts from nothing.
      this.#debug(`the authorization server changed to ${as.issuer}: old tokens dropped`)
      await this.#save(undefined)
      this.#dpop.forget()
    }
    if (this.#context && this.#context.as.issuer !== as.issuer) this.#context = undefined
    const scopes = scopesFor(params.scope, prm, as, this.#o)
    const client = await clientFor(as, this.#o, (url, what) => this.#http.options(url, what))
    this.#context = { server, as, client, resource: prm?.resource, scopes }
    return this.#context
  }

  /** Builds the authorization URL and remembers the flow under its `state`. */
  async start(context = this.#context, returnTo?: string): Promise<{ url: URL; flow: PendingFlow }> {
    if (!context) throw nothingToSignIn()
    const started = await this.#authorization.request(context, returnTo)
    const { issuer, scopes } = started.flow
    this.#auth.set({ status: 'authorizing', issuer, scopes })
    this.#debug(`authorizing at ${issuer} for "${scopes.join(' ')}"`)
    return started
  }

  /** Waits for the flow in progress, if any: true when it left tokens other than `before` to resend with. */
  async #joinSignIn(before: StoredTokens | undefined): Promise<boolean> {
    const running = this.#authorizing
    if (!running) return false
    this.#debug('a 401 during a sign-in: waiting for it')
    await running.catch(() => undefined)
    return this.#tokens !== undefined && this.#tokens !== before
  }

  /** One flow at a time: a second caller (a signIn() racing a 401 that has an `authorize` hook) shares the first's. */
  async #authorize(context: Context, drive: (url: URL) => Promise<URL | string>): Promise<void> {
    if (this.#authorizing) return this.#authorizing
    const run = this.#runAuthorization(context, drive)
    this.#authorizing = run
    try {
      await run
    } finally {
      if (this.#authorizing === run) this.#authorizing = undefined
    }
  }

  async #runAuthorization(context: Context, drive: (url: URL) => Promise<URL | string>): Promise<void> {
    const { url } = await this.start(context)
    const callback = await this.#auth.at(context.as.issuer, async () => {
      try {
        return new URL(await drive(url))
      } catch (error) {
        throw error instanceof OAuthError ? error : new OAuthError('authorization_denied', `The authorization step failed: ${(error as Error)?.message ?? error}`, undefined, { cause: error })
      }
    })
    await this.complete(callback)
  }

  /** signIn(): with the `authorize` hook, by redirect, or in the popup the click opened (null: it was blocked). */
  signIn(popup: Window | null | undefined): Promise<void> {
    return this.#auth.track(() =>
      this.#signIn(popup ?? null).catch((error: unknown) => {
        // Only popup mode gets a window (oauth() opens none with `authorize` or in redirect mode).
        popup?.close()
        throw error
      }),
    )
  }

  async #signIn(popup: Window | null): Promise<void> {
    const { authorize, mode } = this.#o
    const known = this.#known()
    // Before any request: discovery without a challenge (the well-known metadata of the server's URL).
    if (!this.#server && known) this.#seeServer(known)
    const context = this.#context ?? (this.#server && (await this.#discover(this.#server, {})))
    if (!context) throw nothingToSignIn()
    if (authorize) return this.#authorize(context, authorize)
    if (mode === 'redirect') {
      const { url, flow } = await this.start(context, location.href)
      return this.#authorization.redirect(url, flow)
    }
    if (!popup) throw this.#auth.fail(new OAuthError('popup_blocked', 'The browser blocked the sign-in popup: call signIn() from a click handler'), { issuer: context.as.issuer })
    await this.#authorize(context, (url) => this.#authorization.popup(popup, url))
  }

  /** Redirect mode, back on the app page: redeems what handleOAuthCallback() kept in sessionStorage. */
  resume(): Promise<void> {
    const resumed = this.#authorization.resumed()
    return resumed ? this.#auth.track(() => this.complete(resumed.callback, resumed.flow)) : Promise.resolve()
  }

  /** The callback URL: `state` and `iss` checked before the code is redeemed (a mismatch never reaches the AS). */
  async complete(callback: URL, saved?: PendingFlow): Promise<void> {
    const flow = this.#authorization.take(callback, saved)
    if (!flow) {
      throw this.#auth.fail(new OAuthError('state_mismatch', 'The authorization response matches no sign-in in progress (forged, stale or replayed): its code was not redeemed'))
    }
    this.#server ??= new URL(flow.server)
    const { issuer } = flow.as
    const params = await this.#auth.at(issuer, () => verifyCallback(flow, callback))
    const tokens = await this.#auth.at(issuer, () => this.#endpoint.redeem(flow, params))
    await this.#keep(stored(issuer, tokens, flow.scopes, this.#tokens), flow.scopes)
  }

  async #keep(tokens: StoredTokens, requested: string[]): Promise<void> {
    const { issuer } = tokens
    await this.#save(tokens)
    if (this.#context?.as.issuer === issuer) this.#context.scopes = union(this.#context.scopes, requested)
    this.#auth.set({ status: 'authorized', issuer, scopes: split(tokens.scope) })
    this.#debug(`authorized by ${issuer} (${tokens.token_type}${tokens.refresh_token ? ', with a refresh token' : ''})`)
  }

  #refreshOnce(): Promise<void> {
    return (this.#refreshing ??= this.#refresh().finally(() => (this.#refreshing = undefined)))
  }

  async #refresh(): Promise<void> {
    const tokens = this.#tokens
    const context = this.#context ?? (this.#server && (await this.#discover(this.#server, {})))
    const refresh_token = tokens?.refresh_token
    if (!tokens || !refresh_token || !context || context.as.issuer !== tokens.issuer) throw new OAuthError('refresh_failed', 'No refresh token for this authorization server')
    const { issuer } = context.as
    const requested = split(tokens.scope)
    try {
      const response = await this.#endpoint.refresh(context, { ...tokens, refresh_token })
      await this.#keep(stored(issuer, response, requested, this.#tokens), requested)
      this.#debug('access token refreshed')
    } catch (cause) {
      // Expired or revoked: forget it so the next 401 signs in again instead of refreshing in a loop.
      await this.#save(undefined)
      const error = new OAuthError('refresh_failed', `Refreshing the token at ${issuer} failed: sign in again`, (cause as OAuthError).detail)
      this.#auth.set({ status: 'required', issuer, scopes: context.scopes, error })
      throw error
    }
  }

  /**
   * Forgets the tokens, then `forgotten()` (the transports close the streams opened with them, and what reopens
   * goes without), then revokes the refresh and access tokens where the AS has a revocation endpoint.
   */
  async signOut(forgotten: () => void = () => undefined): Promise<void> {
    const tokens = this.#tokens
    await this.#save(undefined)
    this.#authorization.clear()
    const context = this.#context
    this.#auth.set({ status: 'none' })
    forgotten()
    if (!tokens || !context || context.as.issuer !== tokens.issuer) return
    await this.#endpoint.revoke(context, tokens, () => this.#debug('revocation failed'))
  }
}

/** signIn() with no server to sign in to: what the user can do about it. */
const nothingToSignIn = () =>
  new OAuthError('discovery', 'Nothing to sign in to yet: connect to the server first (it says when it needs a sign-in), or give this oauth() to the transport of the server you want to sign in to')
