// The embedded OAuth 2.1 authorization server: oidc-provider (a certified OpenID Provider) on 127.0.0.1 with PKCE
// S256 required, RFC 8707 resource indicators minting JWT access tokens whose `aud` is the MCP URL, open dynamic
// registration, refresh tokens, revocation, the RFC 9207 `iss` response parameter and DPoP (optionally with
// nonces). Login and consent are oidc-provider's own forms ('dev') or approved at once for TEST_USER ('auto').
import crypto from 'node:crypto'
import http from 'node:http'
import Provider, { errors } from 'oidc-provider'
import { exportJWK, generateKeyPair } from 'jose'
import { closeServer, listenOnLoopback } from '../listen.mjs'

export const TEST_USER = 'test-user'
export const AUTO_LOGIN_HINT = 'nanomcp-auto-approve'

/**
 * Listens first (the issuer must carry the real port, exactly), then `configure({ resource, scopes })` once the
 * MCP server's URL is known. Options: interactions 'auto' | 'dev', accessTokenTTL (s), dpopNonce (AS nonces),
 * fetchClientMetadata (enables CIMD: how https client ids are fetched).
 */
export async function startAuthServer({ interactions = 'auto', accessTokenTTL = 300, dpopNonce = false, fetchClientMetadata, port = 0 } = {}) {
  const server = http.createServer()
  const boundPort = await listenOnLoopback(server, port, 'authorization server (oidc-provider)')
  // 127.0.0.1 everywhere: discovery endpoint URLs follow the Host header, the issuer does not.
  const issuer = `http://127.0.0.1:${boundPort}`
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), kid: 'nanomcp-es256', alg: 'ES256', use: 'sig' }
  const stats = { token: 0, authorization: 0, registration: 0, revocation: 0 }
  let resource
  let resourceScopes = ''

  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
    clientDefaults: {
      id_token_signed_response_alg: 'ES256',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    scopes: ['openid', 'offline_access'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    // Public clients get refresh tokens without offline_access too (oidc-provider's default wants it).
    async issueRefreshToken(ctx, client, code) {
      if (!client.grantTypeAllowed('refresh_token')) return false
      return code.scopes.has('offline_access') || client.clientAuthMethod === 'none'
    },
    clientBasedCORS(ctx, origin, client) {
      return client.redirectUris.some((uri) => new URL(uri).origin === origin)
    },
    features: {
      devInteractions: { enabled: interactions === 'dev' },
      // Machine-to-machine clients (registered with grant_types ['client_credentials']) for the grants' tests.
      clientCredentials: { enabled: true },
      registration: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: async (ctx, client, token) => token.clientId === client.clientId,
      },
      dPoP: { enabled: true, ...(dpopNonce && { nonceSecret: crypto.randomBytes(32) }) },
      userinfo: { enabled: false },
      clientIdMetadataDocument: { enabled: !!fetchClientMetadata, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: async () => true,
        async getResourceServerInfo(ctx, indicator) {
          if (indicator !== resource) throw new errors.InvalidTarget()
          return { scope: resourceScopes, audience: resource, accessTokenTTL, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } }
        },
      },
    },
    ttl: { AccessToken: accessTokenTTL, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 600, RefreshToken: 86400, Session: 86400 },
    ...(fetchClientMetadata && { fetch: (url) => fetchClientMetadata(String(url)) }),
    async findAccount(ctx, sub) {
      return { accountId: sub, claims: async () => ({ sub }) }
    },
    async renderError(ctx, out) {
      ctx.type = 'json'
      ctx.body = out
    },
  })

  // oidc-provider sets no CORS on registration: a browser app registering itself needs it.
  provider.use(async (ctx, next) => {
    if (ctx.path === '/reg' && ctx.get('Origin')) {
      ctx.set('Access-Control-Allow-Origin', ctx.get('Origin'))
      ctx.vary('Origin')
      if (ctx.method === 'OPTIONS') {
        ctx.set('Access-Control-Allow-Methods', 'POST')
        ctx.set('Access-Control-Allow-Headers', ctx.get('Access-Control-Request-Headers') || 'content-type')
        ctx.status = 204
        return
      }
    }
    if (ctx.method === 'POST' && ctx.path === '/token') stats.token++
    if (ctx.method === 'POST' && ctx.path === '/reg') stats.registration++
    if (ctx.method === 'POST' && ctx.path === '/token/revocation') stats.revocation++
    if (ctx.path === '/auth') stats.authorization++
    await next()
  })

  async function autoInteraction(req, res) {
    const { prompt, params, session, grantId } = await provider.interactionDetails(req, res)
    if (prompt.name === 'login') {
      return provider.interactionFinished(req, res, { login: { accountId: TEST_USER } }, { mergeWithLastSubmission: false })
    }
    const grant = grantId ? await provider.Grant.find(grantId) : new provider.Grant({ accountId: session.accountId, clientId: params.client_id })
    const details = prompt.details
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '))
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims)
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '))
    return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true })
  }

  // With the dev forms on, a sign-in that sends login_hint=AUTO_LOGIN_HINT is still approved at once: browser
  // tests cannot fill a cross-origin popup's forms (Playwright e2e can, and does).
  async function wantsAuto(req, res) {
    if (interactions === 'auto') return true
    const details = await provider.interactionDetails(req, res).catch(() => undefined)
    return details?.params.login_hint === AUTO_LOGIN_HINT
  }

  const callback = provider.callback()
  server.on('request', async (req, res) => {
    try {
      if (req.method === 'GET' && /^\/interaction\/[^/?]+(\?|$)/.test(req.url) && (await wantsAuto(req, res))) return await autoInteraction(req, res)
      callback(req, res)
    } catch (error) {
      res.statusCode = 500
      res.end(String(error))
    }
  })

  return {
    issuer,
    provider,
    stats,
    /** The MCP server this AS mints tokens for, and the scopes it knows. */
    configure(options) {
      resource = options.resource
      resourceScopes = options.scopes
    },
    close: () => closeServer(server),
  }
}
