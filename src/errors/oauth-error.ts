import { McpError } from './mcp-error'

/** What went wrong in an OAuth flow, for code that branches on it (the message is for people). */
export type OAuthErrorCode =
  /** The 401 challenge, the Protected Resource Metadata or the AS metadata could not be found or read. */
  | 'discovery'
  /** The Protected Resource Metadata names another resource than the MCP server's URL (RFC 9728 §3.3). */
  | 'resource_mismatch'
  /** The AS metadata `issuer` is not identical to the issuer it was fetched for (RFC 8414 §3.3). */
  | 'issuer_mismatch'
  /** The AS does not list `S256` in `code_challenge_methods_supported`: PKCE cannot be relied on. */
  | 'pkce_unsupported'
  /** No pre-registered client id, no usable Client ID Metadata Document and no dynamic registration. */
  | 'client_id_required'
  /** Dynamic Client Registration was refused. */
  | 'registration'
  /** The authorization response's `iss` differs from the AS issuer, or is missing though advertised (RFC 9207). */
  | 'iss_mismatch'
  /** The callback's `state` matches no pending sign-in: forged, stale or replayed. The code was not redeemed. */
  | 'state_mismatch'
  /** The AS answered the authorization request with an error (`access_denied`, ...); `detail` holds its code. */
  | 'authorization_denied'
  /** The token endpoint refused the request or answered without a usable `access_token`. */
  | 'token'
  /** The refresh token is expired or revoked: a new sign-in is needed. */
  | 'refresh_failed'
  /** The browser blocked the sign-in popup (call `signIn()` from a click handler). */
  | 'popup_blocked'
  /** The user closed the sign-in popup before it finished. */
  | 'popup_closed'
  /** A sign-in is needed and can only start from a user action (`signIn()`); no `authorize` hook is set. */
  | 'interaction_required'
  /** The server kept refusing fresh tokens (401 after sign-in, or repeated 403 `insufficient_scope`). */
  | 'retry_limit'
  /** An AS or metadata endpoint could not be reached: offline, or it does not allow this origin (CORS). */
  | 'unreachable'
  /** `signOut()` or a new sign-in replaced this one. */
  | 'aborted'
  /** createMcp's `signIn()`/`signOut()` was called but its `auth` option is no OAuth client (or there is none). */
  | 'not_configured'
  /** A machine-to-machine grant (client secret, private key) was built in a web page without `allowInBrowser`. */
  | 'refused_in_browser'

/**
 * Thrown (and shown in `$auth.error`) when signing in to a protected MCP server fails: bad metadata, an issuer or
 * resource that does not match, no PKCE, a refused or forged authorization response, a failed token or refresh
 * request, a blocked or closed popup, or a server that keeps refusing tokens. Carries `code` (see OAuthErrorCode)
 * and, where there is one, `detail`: the AS's OAuth error code or the endpoint involved. Never carries a token,
 * code or client secret.
 */
export class OAuthError extends McpError {
  readonly code: OAuthErrorCode
  readonly detail: string | undefined
  /** The AS's (or IdP's) `error_description`, as sent, when it refused a request with one. */
  readonly error_description: string | undefined

  constructor(code: OAuthErrorCode, message: string, detail?: string, options?: { cause?: unknown; error_description?: string }) {
    super(message, options)
    // Set as a string: minifiers rename classes, and apps branch on error.name.
    this.name = 'OAuthError'
    this.code = code
    this.detail = detail
    this.error_description = options?.error_description
  }
}
