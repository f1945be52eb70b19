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

/**
 * For startServers(): an embedded modern or legacy MCP server of its own behind OAuth, with the AS's real dev
 * login and consent forms (any login and password). `{ url, control, issuer, close }`; `control` has
 * /control/stats and /control/expire (every token seen so far is refused as expired from then on).
 */
export async function startProtectedServer({ upstream: kind, interactions = 'dev' }) {
  const { startModern } = await import('../modern.mjs')
  const { startLegacy } = await import('../legacy.mjs')
  const upstream = await (kind === 'legacy' ? startLegacy() : startModern())
  try {
    const stack = await startOAuthStack({ upstream: upstream.url, interactions, label: `protected ${kind} server` })
    return {
      url: stack.url,
      control: stack.rs.origin,
      issuer: stack.issuer,
      close: () => Promise.all([stack.close(), upstream.close()]).then(() => undefined),
    }
  } catch (error) {
    await upstream.close()
    throw error
  }
}
