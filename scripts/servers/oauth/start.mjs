// A protected MCP server and its authorization server, wired to each other (each needs the other's URL).
import { startAuthServer } from './as.mjs'
import { startProtected } from './protected.mjs'

/**
 * Resolves `{ url, issuer, as, rs, close }`: `url` is the protected MCP endpoint in front of `upstream` (an
 * embedded server's MCP URL). Options: interactions 'auto' | 'dev', accessTokenTTL (s), dpopNonce (AS and RS
 * nonces), fetchClientMetadata (enables CIMD), label.
 */
export async function startOAuthStack({ upstream, interactions = 'auto', accessTokenTTL = 300, dpopNonce = false, fetchClientMetadata, label } = {}) {
  const rs = await startProtected({ upstream, label, dpopNonce })
  let as
  try {
    as = await startAuthServer({ interactions, accessTokenTTL, dpopNonce, fetchClientMetadata })
  } catch (error) {
    await rs.close()
    throw error
  }
  as.configure({ resource: rs.resource, scopes: rs.scopes })
  rs.configure({ issuer: as.issuer })
  return {
    url: rs.url,
    issuer: as.issuer,
    as,
    rs,
    close: () => Promise.all([rs.close(), as.close()]).then(() => undefined),
  }
}
