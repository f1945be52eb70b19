// Which AS a sign-in goes to and for which scopes (discovery with its resource, issuer and PKCE checks); apart from the session, which adds only what depends on its state.
import type { AuthorizationServer } from 'oauth4webapi'
import { OAuthError } from '../errors/oauth-error'
import { defaultMetadata, findAuthorizationServer, serverMetadata, type Get, type ResourceMetadata } from './discovery'
import { split, union } from './scopes'
import type { OAuthOptions } from './types'

/** The AS of `server` and its PRM; a refusal (resource_mismatch first) before anything is registered or requested. */
export async function authorizationServerOf(server: URL, resourceMetadataUrl: string | undefined, get: Get): Promise<{ as: AuthorizationServer; prm?: ResourceMetadata }> {
  const found = await findAuthorizationServer(server, resourceMetadataUrl, get)
  const { prm } = found
  // A PRM that names no authorization server: the server's origin is tried, as for a server without PRM.
  const issuer = found.issuer ?? server.origin
  let as = found.issuer ? found.as : await serverMetadata(issuer, get)
  if (!as) {
    // 2025-03-26 servers have no PRM: the AS is the server's origin, with default endpoints when it has no metadata.
    if (prm) throw new OAuthError('discovery', `No authorization server metadata for ${issuer}`, issuer)
    as = defaultMetadata(server.origin)
  }
  if (!as.code_challenge_methods_supported?.includes('S256')) {
    throw new OAuthError('pkce_unsupported', `${issuer} does not list S256 in code_challenge_methods_supported: PKCE cannot be relied on`, issuer)
  }
  return { as, prm }
}

/** The challenge's scope, else the PRM's scopes_supported, plus the app's; offline_access where the AS lists it. */
export function scopesFor(challenged: string | undefined, prm: ResourceMetadata | undefined, as: AuthorizationServer, o: OAuthOptions): string[] {
  const scopes = union(split(challenged ?? prm?.scopes_supported?.join(' ')), split(o.scope))
  if (scopes.length && as.scopes_supported?.includes('offline_access')) scopes.push('offline_access')
  return union(scopes)
}
