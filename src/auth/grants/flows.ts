// The token requests of the machine grants, on oauth4webapi. This module (with oauth4webapi) is loaded only when
// a grant first needs a token. Every AS refusal becomes an OAuthError with the AS's `error` and
// `error_description`; nothing here retries.
import * as oauth from 'oauth4webapi'
import { OAuthError } from '../../errors/oauth-error'
import { authorizationServer, httpOptions, type Discovered } from './discovery'
import type { CachedToken, ClientCredentialsOptions, ClientPrivateKey, EnterpriseOptions, GrantContext, JwtBearerOptions } from './types'

export { discover } from './discovery'

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer'
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token'
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag'

/** Refuses before any request when the AS metadata lists its grants and this one is not among them. */
function requireGrant(as: oauth.AuthorizationServer, grant: string): void {
  const listed = as.grant_types_supported
  if (Array.isArray(listed) && !listed.includes(grant)) {
    throw new OAuthError('token', `the authorization server ${as.issuer} does not support the ${grant} grant (grant_types_supported: ${listed.join(', ')})`, 'unsupported_grant_type')
  }
}

/** An oauth4webapi failure as an OAuthError: the AS's own error when it sent one. */
async function asOAuthError(error: unknown, where: string): Promise<OAuthError> {
  if (error instanceof OAuthError) return error
  if (error instanceof oauth.ResponseBodyError) {
    const description = error.error_description
    return new OAuthError('token', `${where} refused the request (HTTP ${error.status}): ${error.error}${description ? ` (${description})` : ''}`, error.error, { error_description: description, cause: error })
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    // A 401 with a challenge: the body usually still carries the OAuth error object.
    const body = (await error.response.clone().json().catch(() => undefined)) as { error?: unknown; error_description?: unknown } | undefined
    const challenge = error.cause[0]?.parameters
    const code = typeof body?.error === 'string' ? body.error : (challenge?.error ?? 'invalid_client')
    const description = typeof body?.error_description === 'string' ? body.error_description : challenge?.error_description
    return new OAuthError('token', `${where} refused the request (HTTP ${error.response.status}): ${code}${description ? ` (${description})` : ''}`, code, { error_description: description, cause: error })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new OAuthError('token', `${where}: ${message}`, undefined, { cause: error })
}

const JWK_IMPORT: Record<string, EcKeyImportParams | RsaHashedImportParams | Algorithm> = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  ES384: { name: 'ECDSA', namedCurve: 'P-384' },
  ES512: { name: 'ECDSA', namedCurve: 'P-521' },
  RS256: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  PS256: { name: 'RSA-PSS', hash: 'SHA-256' },
  EdDSA: { name: 'Ed25519' },
  Ed25519: { name: 'Ed25519' },
}
const CURVE_ALG: Record<string, string> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512', Ed25519: 'EdDSA' }

async function signingKey(key: ClientPrivateKey): Promise<CryptoKey> {
  if (typeof CryptoKey !== 'undefined' && key instanceof CryptoKey) return key
  const jwk = key as JsonWebKey & { alg?: string }
  const alg = jwk.alg ?? (jwk.crv ? CURVE_ALG[jwk.crv] : undefined)
  const params = alg ? JWK_IMPORT[alg] : undefined
  if (!params || !jwk.d) throw new TypeError(`privateKey: a private JWK with a supported alg is needed (${Object.keys(JWK_IMPORT).join(', ')}), got ${alg ?? 'none'}`)
  return crypto.subtle.importKey('jwk', jwk, params, false, ['sign'])
}

function tokenOf(result: oauth.TokenEndpointResponse, now: number, scope: string | undefined): CachedToken {
  return {
    accessToken: result.access_token,
    obtainedAt: now,
    ...(typeof result.expires_in === 'number' && { expiresAt: now + result.expires_in * 1000 }),
    ...((result.scope ?? scope) && { scope: result.scope ?? scope }),
  }
}

const params = (entries: Record<string, string | undefined>): URLSearchParams =>
  new URLSearchParams(Object.entries(entries).filter((entry): entry is [string, string] => entry[1] !== undefined))

const contextOf = (found: Discovered): GrantContext => ({ issuer: found.as.issuer, tokenEndpoint: String(found.as.token_endpoint), resource: found.resource })

export async function clientCredentials(options: ClientCredentialsOptions, found: Discovered, scope: string | undefined): Promise<CachedToken> {
  const { as } = found
  requireGrant(as, 'client_credentials')
  const client: oauth.Client = { client_id: options.clientId }
  const auth = options.privateKey ? oauth.PrivateKeyJwt(await signingKey(options.privateKey)) : secretBasic(options.clientSecret!)
  const now = Date.now()
  try {
    const http = httpOptions(String(as.token_endpoint), options.fetch)
    const response = await oauth.clientCredentialsGrantRequest(as, client, auth, params({ scope, resource: found.resource }), http)
    return tokenOf(await oauth.processClientCredentialsResponse(as, client, response), now, scope)
  } catch (error) {
    throw await asOAuthError(error, `the token endpoint of ${as.issuer}`)
  }
}

async function jwtBearerGrant(found: Discovered, client: oauth.Client, auth: oauth.ClientAuth, assertion: string, scope: string | undefined, fetchFn?: typeof fetch): Promise<CachedToken> {
  const { as } = found
  const now = Date.now()
  try {
    const http = httpOptions(String(as.token_endpoint), fetchFn)
    const response = await oauth.genericTokenEndpointRequest(as, client, auth, JWT_BEARER, params({ assertion, scope, resource: found.resource }), http)
    return tokenOf(await oauth.processGenericTokenEndpointResponse(as, client, response), now, scope)
  } catch (error) {
    throw await asOAuthError(error, `the token endpoint of ${as.issuer}`)
  }
}

/**
 * client_secret_basic with RFC 6749 §2.3.1's form encoding of id and secret, as WHATWG URLSearchParams writes it.
 * oauth4webapi's own ClientSecretBasic also escapes '-', '.', '_' and '*', which servers that compare the
 * decoded Basic credentials without form-decoding them (seen in the conformance suite's mock AS) refuse.
 */
export const secretBasic =
  (secret: string): oauth.ClientAuth =>
  (_as, client, _body, headers) => {
    const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2)
    const credentials = new TextEncoder().encode(`${encode(client.client_id)}:${encode(secret)}`)
    headers.set('authorization', `Basic ${btoa(String.fromCharCode(...credentials))}`)
  }

export async function jwtBearer(options: JwtBearerOptions, found: Discovered, scope: string | undefined): Promise<CachedToken> {
  requireGrant(found.as, JWT_BEARER)
  const assertion = await options.assertion(contextOf(found))
  if (typeof assertion !== 'string' || !assertion) throw new TypeError('jwtBearer: the assertion callback returned no assertion')
  const client: oauth.Client = { client_id: options.clientId }
  const auth = options.clientSecret ? secretBasic(options.clientSecret) : oauth.None()
  return jwtBearerGrant(found, client, auth, assertion, scope, options.fetch)
}

export async function enterprise(options: EnterpriseOptions, found: Discovered, scope: string | undefined): Promise<CachedToken> {
  requireGrant(found.as, JWT_BEARER)
  const { idp } = options
  const idpAs: oauth.AuthorizationServer = idp.tokenEndpoint
    ? { issuer: idp.issuer, token_endpoint: idp.tokenEndpoint }
    : await authorizationServer(idp.issuer, options.fetch ?? fetch)
  const idpClient: oauth.Client = { client_id: idp.clientId }
  const idToken = await options.idToken(contextOf(found))
  if (typeof idToken !== 'string' || !idToken) throw new TypeError('enterprise: the idToken callback returned no ID token')
  // RFC 8693 at the enterprise IdP: the user's ID token for an ID-JAG whose audience is the MCP server's AS.
  let idJag: string
  try {
    const http = httpOptions(String(idpAs.token_endpoint), options.fetch)
    const exchange = params({ subject_token: idToken, subject_token_type: ID_TOKEN, requested_token_type: ID_JAG, audience: found.as.issuer, resource: found.resource, scope })
    const response = await oauth.genericTokenEndpointRequest(idpAs, idpClient, idp.clientSecret ? secretBasic(idp.clientSecret) : oauth.None(), TOKEN_EXCHANGE, exchange, http)
    // An ID-JAG is no access token: its token_type is N_A (RFC 8693 §2.2.1).
    const result = await oauth.processGenericTokenEndpointResponse(idpAs, idpClient, response, { recognizedTokenTypes: { n_a: () => {} } })
    if (result.issued_token_type !== ID_JAG) throw new OAuthError('token', `the IdP ${idp.issuer} issued ${String(result.issued_token_type)}, not an ID-JAG`)
    idJag = result.access_token
  } catch (error) {
    throw await asOAuthError(error, `the token endpoint of the IdP ${idp.issuer}`)
  }
  return jwtBearerGrant(found, { client_id: options.clientId }, secretBasic(options.clientSecret), idJag, scope, options.fetch)
}
