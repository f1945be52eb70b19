// Test helper: a real authorization server (oidc-provider) for the machine grants, on 127.0.0.1, in front of a
// tiny protected MCP endpoint that checks the JWT access tokens it issues (jose: issuer, audience, expiry).
// Clients: `agent` (client_secret_basic), `agent-jwt` (private_key_jwt), `workload` (RFC 7523 JWT bearer, no
// client authentication, assertions signed by the test's workload key and addressed to the AS issuer).
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import { randomBytes } from 'node:crypto'
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose'
// oidc-provider ships no types; the few parts used here are typed loosely on purpose.
// @ts-expect-error -- no declaration file
import OidcProvider, { errors as oidcErrors } from 'oidc-provider'

const Provider = OidcProvider as new (issuer: string, config: unknown) => any
const errors = oidcErrors as Record<'InvalidTarget' | 'InvalidGrant', new (message?: string) => Error>

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer'
export const WORKLOAD_ISSUER = 'https://workload.example'

export interface GrantStack {
  issuer: string
  mcpUrl: string
  /** Private key of `agent-jwt`, as a JWK. */
  agentJwk: Record<string, unknown>
  /** A workload JWT for the JWT bearer grant (audience: the AS issuer unless told otherwise). */
  workloadJwt(options?: { audience?: string; expiresIn?: string }): Promise<string>
  /** Token requests the AS answered, by grant type. */
  tokenRequests: string[]
  /** Bearer tokens the MCP endpoint accepted. */
  accepted: string[]
  /** Make the MCP endpoint refuse the next n valid tokens with 401 (a revoked token). */
  revokeNext(n: number): void
  close(): Promise<void>
}

const listen = async (server: Server): Promise<string> => {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

export async function startGrantStack({ accessTokenTTL = 300 } = {}): Promise<GrantStack> {
  const rs = createServer()
  const as = createServer()
  const base = await listen(rs)
  const issuer = await listen(as)
  const mcpUrl = `${base}/mcp`

  const signing = await generateKeyPair('ES256', { extractable: true })
  const agent = await generateKeyPair('ES256', { extractable: true })
  const workload = await generateKeyPair('ES256', { extractable: true })
  const agentJwk = { ...(await exportJWK(agent.privateKey)), alg: 'ES256' }
  const resourceInfo = { scope: 'mcp:tools', audience: mcpUrl, accessTokenTTL, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } }

  const common = { redirect_uris: [], response_types: [], scope: 'mcp:tools', id_token_signed_response_alg: 'ES256' }
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...(await exportJWK(signing.privateKey)), kid: 'as', alg: 'ES256', use: 'sig' }] },
    cookies: { keys: [randomBytes(16).toString('base64url')] },
    clients: [
      { ...common, client_id: 'agent', client_secret: 'agent-secret', grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_basic' },
      { ...common, client_id: 'agent-jwt', grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', token_endpoint_auth_signing_alg: 'ES256', jwks: { keys: [{ ...(await exportJWK(agent.publicKey)), alg: 'ES256' }] } },
      { ...common, client_id: 'workload', grant_types: [JWT_BEARER], token_endpoint_auth_method: 'none' },
    ],
    scopes: ['mcp:tools'],
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl,
        useGrantedResource: async () => true,
        async getResourceServerInfo(_ctx: unknown, indicator: string) {
          if (indicator !== mcpUrl) throw new errors.InvalidTarget()
          return resourceInfo
        },
      },
    },
  })

  // RFC 7523: a workload assertion signed by the known workload key, addressed to this AS, buys an access token
  // for the MCP endpoint. (oidc-provider has no built-in JWT bearer grant; this is the usual custom one.)
  provider.registerGrantType(
    JWT_BEARER,
    async (ctx: any) => {
      try {
        await jwtVerify(ctx.oidc.params.assertion, workload.publicKey, { issuer: WORKLOAD_ISSUER, audience: issuer })
      } catch (error) {
        throw new errors.InvalidGrant(`assertion rejected: ${(error as Error).message}`)
      }
      const token = new provider.ClientCredentials({ client: ctx.oidc.client, scope: 'mcp:tools' })
      token.resourceServer = new provider.ResourceServer(mcpUrl, resourceInfo)
      const value = await token.save()
      ctx.body = { access_token: value, expires_in: token.expiration, token_type: 'Bearer', scope: 'mcp:tools' }
    },
    ['assertion', 'scope', 'resource'],
  )

  const tokenRequests: string[] = []
  provider.on('grant.success', (ctx: any) => tokenRequests.push(ctx.oidc.params.grant_type))
  // Advertise the custom grant next to the built-in ones, as an AS that supports it would.
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    await next()
    if (ctx.path.startsWith('/.well-known/') && ctx.body && typeof ctx.body === 'object') {
      const body = ctx.body as Record<string, unknown>
      body.grant_types_supported = [...((body.grant_types_supported as string[]) ?? []), JWT_BEARER]
    }
  })
  as.on('request', provider.callback())

  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`))
  const accepted: string[] = []
  let revoke = 0
  const challenge = `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`
  rs.on('request', async (req, res) => {
    if (req.method === 'GET' && req.url === '/.well-known/oauth-protected-resource/mcp') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ resource: mcpUrl, authorization_servers: [issuer], scopes_supported: ['mcp:tools'] }))
      return
    }
    let raw = ''
    for await (const chunk of req) raw += chunk
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    let valid = false
    if (token) {
      valid = await jwtVerify(token, jwks, { issuer, audience: mcpUrl, typ: 'at+jwt' }).then(() => true, () => false)
    }
    if (valid && revoke > 0) {
      revoke--
      valid = false
    }
    if (!valid) {
      res.writeHead(401, { 'www-authenticate': token ? `${challenge}, error="invalid_token"` : challenge })
      res.end()
      return
    }
    accepted.push(token!)
    const message = JSON.parse(raw)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] } }))
  })

  return {
    issuer,
    mcpUrl,
    agentJwk,
    workloadJwt: ({ audience = issuer, expiresIn = '5m' } = {}) =>
      new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer(WORKLOAD_ISSUER).setSubject('workload-1').setAudience(audience).setIssuedAt().setExpirationTime(expiresIn).sign(workload.privateKey),
    tokenRequests,
    accepted,
    revokeNext: (n) => (revoke = n),
    async close() {
      for (const server of [rs, as]) {
        server.closeAllConnections()
        server.close()
      }
      await Promise.all([once(rs, 'close'), once(as, 'close')])
    },
  }
}
