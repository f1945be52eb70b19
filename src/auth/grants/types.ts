// Options of the grants that need no person (client credentials, JWT bearer, enterprise-managed authorization).

/** What the app is told when it supplies an assertion or an ID token: where it will be presented. */
export interface GrantContext {
  /** The MCP server's authorization server `issuer` (the audience an RFC 7523 assertion must carry). */
  issuer: string
  tokenEndpoint: string
  /** The protected resource (the MCP server URL as its metadata names it), sent as RFC 8707 `resource`. */
  resource: string
}

/** A private key for `private_key_jwt`: a WebCrypto CryptoKey or a private JWK (with `alg`, or an EC/OKP key). */
export type ClientPrivateKey = CryptoKey | (JsonWebKey & { alg?: string; kid?: string })

export interface GrantOptionsBase {
  /** Scopes to ask for (space-separated). Default: the 401 challenge's `scope`, else the resource's `scopes_supported`. */
  scope?: string
  /**
   * These grants hold long-lived secrets, which do not belong in web pages: in a window context (a page with a
   * `document`) they refuse to start unless the app opts in here. Workers, Node, Deno and Bun need nothing.
   */
  allowInBrowser?: boolean
  /** Replaces the global fetch for discovery and token requests. */
  fetch?: typeof fetch
  /** Seconds before `expires_in` runs out at which a token counts as expired (clock skew, latency). Default 30. */
  expirySkewSeconds?: number
}

export interface ClientCredentialsOptions extends GrantOptionsBase {
  clientId: string
  /** `client_secret_basic`. Give this or `privateKey`. */
  clientSecret?: string
  /** `private_key_jwt`: the assertion is signed with this key (iss = sub = clientId, aud = the AS issuer). */
  privateKey?: ClientPrivateKey
}

export interface JwtBearerOptions extends GrantOptionsBase {
  /**
   * The RFC 7523 assertion, asked for on every token request (workload identity: a token from the platform).
   * Its audience must be `context.issuer`.
   */
  assertion: (context: GrantContext) => string | Promise<string>
  /** The client id at the AS (sent as `client_id`, or as Basic credentials with `clientSecret`). */
  clientId: string
  clientSecret?: string
}

export interface EnterpriseOptions extends GrantOptionsBase {
  /** The MCP client's id at the MCP server's AS, and its secret (`client_secret_basic`). */
  clientId: string
  clientSecret: string
  /** The enterprise IdP that issues the ID-JAG by token exchange (RFC 8693). */
  idp: {
    /** Its issuer; its metadata gives the token endpoint when `tokenEndpoint` is not given. */
    issuer: string
    tokenEndpoint?: string
    /** The client id (and secret, if it has one) registered at the IdP. */
    clientId: string
    clientSecret?: string
  }
  /** The user's ID token from the IdP (the subject of the exchange), asked for on every exchange. */
  idToken: (context: GrantContext) => string | Promise<string>
}

/** A token as cached by a grant provider. */
export interface CachedToken {
  accessToken: string
  /** ms since the epoch; undefined when the AS gave no `expires_in`. */
  expiresAt?: number
  /** ms since the epoch, when the token request was sent. */
  obtainedAt: number
  scope?: string
}
