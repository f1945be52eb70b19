// Protected Resource Metadata (RFC 9728) and AS metadata (RFC 8414 / OpenID discovery) in the MCP spec's order.
import { processDiscoveryResponse, type AuthorizationServer } from 'oauth4webapi'
import { OAuthError } from '../errors/oauth-error'

export interface ResourceMetadata {
  resource: string
  authorization_servers?: string[]
  scopes_supported?: string[]
}

/** GET returning the Response, or an OAuthError('unreachable') naming what was being fetched. */
export type Get = (what: string, url: string) => Promise<Response>

/** What discovery found: the PRM (none for 2025-03-26 servers), the AS it names and that AS's metadata. */
export interface Found {
  prm?: ResourceMetadata
  /** The first authorization server the PRM names; without a PRM, the server's origin. Undefined: the PRM names none. */
  issuer?: string
  /** The issuer's metadata; undefined when no well-known variant answered. */
  as?: AuthorizationServer
}

/**
 * PRM → AS metadata → the PRM's `resource` checked against the server URL, in that order, before the caller
 * registers, authorizes or asks for a token. The AS metadata is read before the check, as the official SDK
 * client does (its selectResourceURL runs after both fetches): that GET is anonymous (no client id, no
 * registration, no credentials), and it lets a mismatch name the AS the misconfigured PRM points at, which is
 * what a developer needs to find the fault. The check itself is never skipped: a metadata failure of that AS
 * is reported only once the resource is known to be this server's.
 */
export async function findAuthorizationServer(server: URL, fromChallenge: string | undefined, get: Get): Promise<Found> {
  const prm = await resourceMetadata(server, fromChallenge, get)
  const named: unknown = prm ? prm.authorization_servers?.[0] : server.origin
  const issuer = typeof named === 'string' ? named : undefined
  let as: AuthorizationServer | undefined
  let failure: unknown
  if (issuer) {
    try {
      as = await serverMetadata(issuer, get)
    } catch (error) {
      if (!prm) throw error
      failure = error
    }
  }
  if (prm && !covers(prm.resource, server)) {
    throw new OAuthError(
      'resource_mismatch',
      `Protected resource metadata names ${prm.resource}, not ${server.href}, and points to ${issuer ? `the authorization server ${issuer}` : 'no authorization server'}: no registration, authorization or token request was made`,
      prm.resource,
      { cause: failure },
    )
  }
  if (failure) throw failure
  return { prm, issuer, as }
}

/** The PRM of `server`: the challenge's URL first, then the path-inserted and the root well-known; undefined if none. Unchecked: see findAuthorizationServer. */
async function resourceMetadata(server: URL, fromChallenge: string | undefined, get: Get): Promise<ResourceMetadata | undefined> {
  const path = server.pathname.replace(/\/$/, '')
  const urls = [`${server.origin}/.well-known/oauth-protected-resource`]
  if (path) urls.unshift(urls[0] + path)
  if (fromChallenge) urls.unshift(new URL(fromChallenge, server).href)
  for (const url of urls) {
    const response = await get('protected resource metadata', url)
    if (!response.ok) continue
    const prm = (await response.json().catch(() => undefined)) as ResourceMetadata | undefined
    if (typeof prm?.resource !== 'string') throw new OAuthError('discovery', `No resource in the protected resource metadata at ${url}`, url)
    return prm
  }
  return undefined
}

/** RFC 9728 §3.3 with MCP's reading: same origin, and the resource's path is the server's path or a parent of it. */
function covers(resource: string, server: URL): boolean {
  let url: URL
  try {
    url = new URL(resource)
  } catch {
    return false
  }
  const base = url.pathname.replace(/\/$/, '')
  const path = server.pathname.replace(/\/$/, '')
  return !url.hash && url.origin === server.origin && (path === base || path.startsWith(`${base}/`))
}

/** AS metadata for `issuer` from the well-known variants in order; undefined when none answers 2xx. */
export async function serverMetadata(issuer: string, get: Get): Promise<AuthorizationServer | undefined> {
  const url = new URL(issuer)
  const path = url.pathname.replace(/\/$/, '')
  const at = (suffix: string) => `${url.origin}${suffix}`
  const urls = path
    ? [
        at(`/.well-known/oauth-authorization-server${path}`),
        at(`/.well-known/openid-configuration${path}`),
        at(`${path}/.well-known/openid-configuration`),
      ]
    : [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')]
  for (const candidate of urls) {
    const response = await get('authorization server metadata', candidate)
    if (!response.ok) continue
    // The MCP spec asks for the identical string (oauth4webapi compares normalized URLs): checked first.
    const claimed = ((await response.clone().json().catch(() => undefined)) as { issuer?: unknown } | undefined)?.issuer
    if (claimed !== issuer) {
      throw new OAuthError('issuer_mismatch', `Authorization server metadata at ${candidate} names issuer ${String(claimed)}, not ${issuer}`, candidate)
    }
    let metadata: AuthorizationServer
    try {
      metadata = await processDiscoveryResponse(url, response)
    } catch (error) {
      throw new OAuthError('discovery', `Unusable authorization server metadata at ${candidate}: ${(error as Error).message}`, candidate, { cause: error })
    }
    return metadata
  }
  return undefined
}

/** 2025-03-26 servers without any metadata: the default endpoints at the server's origin. */
export function defaultMetadata(origin: string): AuthorizationServer {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    // That revision made PKCE S256 mandatory for every AS; there is no metadata that could say otherwise.
    code_challenge_methods_supported: ['S256'],
  }
}
