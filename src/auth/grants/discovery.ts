// Where a machine grant gets its tokens: the same discovery as the browser flow (../discovery: PRM, AS metadata
// variants, identical issuer), plus the request options the token requests share.
import * as oauth from 'oauth4webapi'
import { OAuthError } from '../../errors/oauth-error'
import { defaultMetadata, findAuthorizationServer, serverMetadata, type Get } from '../discovery'

export interface Discovered {
  as: oauth.AuthorizationServer
  /** The resource identifier to send as RFC 8707 `resource` (the PRM's `resource`, else the server URL). */
  resource: string
  scopesSupported?: string[]
}

/** http:// is only acceptable on loopback (development and tests); everything else must be https. */
const insecureOk = (url: string): boolean => {
  const { protocol, hostname } = new URL(url)
  return protocol === 'http:' && (hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]')
}

export function httpOptions(url: string, fetchFn: typeof fetch | undefined): oauth.HttpRequestOptions<'POST', URLSearchParams> {
  return {
    ...(insecureOk(url) && { [oauth.allowInsecureRequests]: true }),
    // Called through a wrapper: oauth4webapi calls it as a method, and a browser's fetch refuses a foreign `this`.
    ...(fetchFn && { [oauth.customFetch]: ((url: string, init: RequestInit) => fetchFn(url, init)) as never }),
  }
}

const getter =
  (fetchFn: typeof fetch): Get =>
  async (what, url) => {
    const get = () => fetchFn(url, { headers: { accept: 'application/json' }, redirect: 'error' })
    try {
      // A GET is safe to send twice: the second try covers a kept-alive connection the server closed just as
      // the request went out (ECONNRESET), which busy servers produce and fetch does not retry.
      return await get().catch(get)
    } catch (error) {
      throw new OAuthError('unreachable', `The ${what} at ${url} could not be fetched`, url, { cause: error })
    }
  }

const missing = (issuer: string) => new OAuthError('discovery', `No authorization server metadata found for ${issuer}`, issuer)

/** The AS metadata of `issuer` (an enterprise IdP, say), or a typed error. */
export async function authorizationServer(issuer: string, fetchFn: typeof fetch): Promise<oauth.AuthorizationServer> {
  const as = await serverMetadata(issuer, getter(fetchFn))
  if (!as) throw missing(issuer)
  return as
}

/** Finds the authorization server of the MCP server at `serverUrl` from its 401 challenge's `resource_metadata`. */
export async function discover(serverUrl: string, fromChallenge: string | undefined, fetchFn: typeof fetch): Promise<Discovered> {
  const server = new URL(serverUrl)
  // The PRM's resource is checked in there, after its AS metadata and before any token request.
  const { prm, issuer, as } = await findAuthorizationServer(server, fromChallenge, getter(fetchFn))
  if (!issuer) throw new OAuthError('discovery', `The protected resource metadata of ${serverUrl} names no authorization server`, serverUrl)
  if (!as && prm) throw missing(issuer)
  const scopes = prm?.scopes_supported?.filter((s): s is string => typeof s === 'string')
  // 2025-03-26 servers publish no PRM: their AS lives at the server's origin, with default endpoints at worst.
  return { as: as ?? defaultMetadata(server.origin), resource: prm?.resource ?? serverUrl, ...(scopes?.length && { scopesSupported: scopes }) }
}
