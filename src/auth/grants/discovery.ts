// Minimal discovery for the machine grants: Protected Resource Metadata (RFC 9728) and Authorization Server
// Metadata (RFC 8414 / OpenID discovery, the path variants in the spec's order, `issuer` identical). Written
// here because the browser flow's discovery did not exist yet when the grants were built; it should give way to
// the shared one. Loaded on demand with oauth4webapi.
import * as oauth from 'oauth4webapi'
import { OAuthError } from '../../errors/oauth-error'
import type { BearerChallenge } from './challenge'

export interface Discovered {
  as: oauth.AuthorizationServer
  /** The resource identifier to send as RFC 8707 `resource` (the PRM's `resource`, else the server URL). */
  resource: string
  scopesSupported?: string[]
}

/** http:// is only acceptable on loopback (development and tests); everything else must be https. */
export const insecureOk = (url: string): boolean => {
  const { protocol, hostname } = new URL(url)
  return protocol === 'http:' && (hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]')
}

export function httpOptions(url: string, fetchFn: typeof fetch | undefined, signal?: AbortSignal): oauth.HttpRequestOptions<'POST', URLSearchParams> {
  return {
    ...(insecureOk(url) && { [oauth.allowInsecureRequests]: true }),
    ...(fetchFn && { [oauth.customFetch]: fetchFn as never }),
    ...(signal && { signal }),
  }
}

async function getJson(url: string, fetchFn: typeof fetch): Promise<{ response: Response; json?: Record<string, unknown> }> {
  const response = await fetchFn(url, { headers: { accept: 'application/json' }, redirect: 'error' })
  if (response.status !== 200) return { response }
  const json = await response.clone().json().catch(() => undefined)
  return { response, json: json && typeof json === 'object' && !Array.isArray(json) ? json : undefined }
}

/** PRM URLs to try: the challenge's, then path-inserted, then the root well-known (RFC 9728 §3.1, MCP order). */
function resourceMetadataUrls(serverUrl: string, challenge: BearerChallenge): string[] {
  const url = new URL(serverUrl)
  const urls = challenge.resource_metadata ? [new URL(challenge.resource_metadata, url).href] : []
  const path = url.pathname.replace(/\/$/, '')
  if (path) urls.push(`${url.origin}/.well-known/oauth-protected-resource${path}`)
  urls.push(`${url.origin}/.well-known/oauth-protected-resource`)
  return urls
}

/** The PRM `resource` must name this server: same origin, and the server's path within the resource's. */
function coversServer(resource: unknown, serverUrl: string): resource is string {
  if (typeof resource !== 'string') return false
  try {
    const r = new URL(resource)
    const s = new URL(serverUrl)
    const prefix = r.pathname.replace(/\/$/, '')
    return r.origin === s.origin && (s.pathname === prefix || s.pathname.startsWith(`${prefix}/`) || prefix === '')
  } catch {
    return false
  }
}

/** AS metadata URLs for an issuer, in the order the MCP spec gives. */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer)
  const path = url.pathname.replace(/\/$/, '')
  return path
    ? [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}/.well-known/openid-configuration${path}`, `${url.origin}${path}/.well-known/openid-configuration`]
    : [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`]
}

/** The AS metadata of `issuer`, whose `issuer` must be the very same string. */
export async function authorizationServer(issuer: string, fetchFn: typeof fetch): Promise<oauth.AuthorizationServer> {
  for (const url of metadataUrls(issuer)) {
    const { response, json } = await getJson(url, fetchFn).catch(() => ({ response: undefined, json: undefined }))
    if (!response || !json) continue
    if (json.issuer !== issuer) throw new OAuthError('issuer_mismatch', `the metadata at ${url} names issuer ${String(json.issuer)}, not ${issuer}`)
    return (await oauth.processDiscoveryResponse(new URL(issuer), response)) as oauth.AuthorizationServer
  }
  throw new OAuthError('discovery', `no authorization server metadata found for ${issuer}`, issuer)
}

/** Finds the authorization server of the MCP server at `serverUrl` from its 401 challenge. */
export async function discover(serverUrl: string, challenge: BearerChallenge, fetchFn: typeof fetch): Promise<Discovered> {
  for (const url of resourceMetadataUrls(serverUrl, challenge)) {
    const { json } = await getJson(url, fetchFn).catch(() => ({ json: undefined }))
    if (!json) continue
    if (!coversServer(json.resource, serverUrl)) {
      throw new OAuthError('resource_mismatch', `the protected resource metadata at ${url} is for ${String(json.resource)}, not ${serverUrl}`)
    }
    const servers = json.authorization_servers
    if (!Array.isArray(servers) || typeof servers[0] !== 'string') throw new OAuthError('discovery', `the protected resource metadata at ${url} names no authorization server`, url)
    const scopes = Array.isArray(json.scopes_supported) ? json.scopes_supported.filter((s): s is string => typeof s === 'string') : undefined
    return { as: await authorizationServer(servers[0], fetchFn), resource: json.resource, ...(scopes && { scopesSupported: scopes }) }
  }
  // 2025-03-26 servers publish no PRM: their AS metadata lives at the server's origin.
  return { as: await authorizationServer(new URL(serverUrl).origin, fetchFn), resource: serverUrl }
}
