// Public types of the OAuth layer. Types only.
import type { ReadableAtom } from 'nanostores'
import type { OAuthError } from '../errors/oauth-error'
import type { ProxyOption } from '../transport/proxy-url'
import type { AuthAttachment } from '../transport/types'

export type AuthStatus = 'none' | 'required' | 'authorizing' | 'authorized' | 'error'

/** `$auth`: where signing in to the server stands. */
export interface AuthState {
  status: AuthStatus
  /** The authorization server's issuer, once discovered. */
  issuer?: string
  /** The scopes granted (or, while authorizing, requested). */
  scopes?: string[]
  error?: OAuthError
}

/**
 * Where tokens and registrations are kept, as strings. Memory by default; `sessionTokenStorage()` /
 * `localTokenStorage()` survive reloads at the price of being readable by any script on the page (XSS).
 */
export interface TokenStorage {
  get(key: string): string | null | undefined | Promise<string | null | undefined>
  set(key: string, value: string): void | Promise<void>
  delete(key: string): void | Promise<void>
}

export interface OAuthOptions {
  /** The page that calls `handleOAuthCallback()` (https, or http on localhost). Registered with the AS. */
  redirectUri: string
  /** A client id registered with the AS beforehand (used for whichever AS the server names). */
  clientId?: string
  /** The secret of a pre-registered confidential client (never for code shipped to browsers). */
  clientSecret?: string
  /** The https URL of this app's Client ID Metadata Document (see `clientMetadataDocument()`), used as client id. */
  clientMetadataUrl?: string
  /** `client_name` for Dynamic Client Registration. */
  clientName?: string
  /** DCR `application_type`: "web" (default) for a served browser app, "native" for desktop/CLI apps. */
  applicationType?: 'web' | 'native'
  /** Scopes to ask for in addition to the ones the server challenges with. */
  scope?: string
  /** Extra authorization request parameters, e.g. `{ login_hint, prompt }` (the flow's own ones cannot be replaced). */
  authorizationParams?: Record<string, string>
  /** How the browser shows the AS: a popup (default) or a full-page redirect. Ignored when `authorize` is set. */
  mode?: 'popup' | 'redirect'
  /**
   * Drives the authorization step itself: gets the authorization URL, resolves with the callback URL the AS
   * redirected to. For Node, tests and headless clients; with it, a 401 signs in without waiting for `signIn()`.
   */
  authorize?: (url: URL) => Promise<URL | string>
  /** Where tokens live; default memory (lost on reload). */
  storage?: TokenStorage
  /** fetch for the AS and metadata requests, e.g. to route them through the app's backend when the AS has no CORS. */
  fetch?: typeof fetch
  /**
   * Routes the metadata, registration, token and revocation requests through a proxy (as the transports'
   * `proxy` option does MCP requests): a URL prefix (the target appended percent-encoded) or a function. The
   * issuer, the resource indicator and DPoP proofs keep the real URLs; the authorization page opens directly.
   */
  proxy?: ProxyOption
  /** Use DPoP (RFC 9449) when the AS supports it. Default true. */
  dpop?: boolean
  /** Allow plain http for the AS and metadata (besides localhost and 127.0.0.1, which are always allowed). */
  allowHttp?: boolean
  /** How many times one request may trigger a new sign-in (step-up, 401 after a fresh token). Default 2. */
  maxAttempts?: number
  /** Diagnostics, never with tokens, codes or secrets. */
  debug?: (message: string) => void
}

/** What a transport asks of its `auth` option (see HttpTransportOptions.auth). */
export interface OAuthProvider {
  headers(request: { url: string; method: string }): Promise<Record<string, string>> | Record<string, string>
  response?(response: Response, request: { url: string; method: string }): void
  unauthorized(response: Response, request: { url: string; method: string }): Promise<boolean>
  attach?(transport: AuthAttachment): void
}

/** `oauth()`: an auth provider for a transport plus the sign-in state and actions an app shows. */
export interface OAuthClient extends OAuthProvider {
  readonly $auth: ReadableAtom<AuthState>
  /** Starts the sign-in. In popup mode call it from a click handler: it opens the window synchronously. */
  signIn(): Promise<void>
  /** Forgets the tokens, revokes them where the AS offers revocation. */
  signOut(): Promise<void>
}

/** Tokens as kept in storage, under the issuer that minted them. */
export interface StoredTokens {
  issuer: string
  access_token: string
  token_type: string
  refresh_token?: string
  /** `Date.now()` after which the access token is expired. */
  expires_at?: number
  scope?: string
}
