// The grant providers against a scripted network (MCP server, PRM, AS metadata, token endpoints), driven the way a
// transport drives an AuthProvider: headers() → fetch → response() → on 401/403 unauthorized() → resend once.
import { exportJWK, generateKeyPair, jwtVerify } from 'jose'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { OAuthError } from '../../errors/oauth-error'
import type { AuthProvider } from '../../transport/types'
import { clientCredentials, enterpriseManaged, jwtBearer } from './grants'

const MCP = 'http://127.0.0.1:9/mcp'
const AS = 'http://127.0.0.1:8'
const IDP = 'http://127.0.0.1:7'
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

interface TokenCall {
  url: string
  form: URLSearchParams
  authorization: string | null
}

/** A scripted network: the MCP server wants `Bearer <a token the AS issued>`; `token` answers token requests. */
function network(token: (call: TokenCall) => Response | Promise<Response>, metadata: Record<string, unknown> = {}) {
  const issued = new Set<string>()
  const calls: TokenCall[] = []
  const mcpStatus: number[] = []
  let challenge = `Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp"`
  let mcp = (authorization: string | null): number => (authorization && issued.has(authorization.slice(7)) ? 200 : 401)
  const fetchFn = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input)
    const headers = new Headers(init.headers)
    if (url === MCP) {
      const status = mcp(headers.get('authorization'))
      mcpStatus.push(status)
      return status === 200 ? json({ jsonrpc: '2.0', id: 1, result: {} }) : new Response(null, { status, headers: { 'www-authenticate': challenge } })
    }
    if (url === 'http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp') return json({ resource: MCP, authorization_servers: [AS], scopes_supported: ['mcp'] })
    if (url === `${AS}/.well-known/oauth-authorization-server`) {
      return json({ issuer: AS, token_endpoint: `${AS}/token`, grant_types_supported: ['client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'], ...metadata })
    }
    if (url === `${AS}/token` || url === `${IDP}/token`) {
      const call = { url, form: new URLSearchParams(String(init.body)), authorization: headers.get('authorization') }
      calls.push(call)
      const response = await token(call)
      const body = await response.clone().json().catch(() => ({}))
      if (typeof body.access_token === 'string' && url === `${AS}/token`) issued.add(body.access_token)
      return response
    }
    return new Response(null, { status: 404 })
  })
  return {
    fetch: fetchFn as unknown as typeof fetch,
    calls,
    mcpStatus,
    setChallenge: (value: string) => (challenge = value),
    setMcp: (fn: typeof mcp) => (mcp = fn),
    issued,
  }
}

/** One request as a transport sends it: at most two unauthorized() rounds. */
async function send(auth: AuthProvider, fetchFn: typeof fetch): Promise<number> {
  for (let round = 0; ; round++) {
    const request = { url: MCP, method: 'POST' }
    const response = await fetchFn(MCP, { method: 'POST', headers: await auth.headers(request) })
    auth.response?.(response, request)
    if ((response.status === 401 || response.status === 403) && round < 2 && (await auth.unauthorized(response, request))) continue
    return response.status
  }
}

let n = 0
const tokenResponse = (extra: Record<string, unknown> = {}) => json({ access_token: `t${++n}`, token_type: 'Bearer', expires_in: 3600, ...extra })

describe('clientCredentials', () => {
  it('discovers the AS from the 401, sends Basic credentials, the grant, resource and scope, then the token', async () => {
    const net = network(() => tokenResponse())
    const auth = clientCredentials({ clientId: 'my app', clientSecret: 's3cret:x', fetch: net.fetch })
    expect(await send(auth, net.fetch)).toBe(200)
    const [call] = net.calls
    expect(call!.form.get('grant_type')).toBe('client_credentials')
    expect(call!.form.get('resource')).toBe(MCP)
    expect(call!.form.get('scope')).toBe('mcp')
    expect(atob(call!.authorization!.slice(6))).toBe('my+app:s3cret%3Ax')
    expect(net.mcpStatus).toEqual([401, 200])
  })

  it('reuses the cached token until it expires, then gets a new one before sending', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const net = network(() => tokenResponse({ expires_in: 120 }))
      const auth = clientCredentials({ clientId: 'a', clientSecret: 'b', fetch: net.fetch })
      await send(auth, net.fetch)
      await send(auth, net.fetch)
      expect(net.calls).toHaveLength(1)
      vi.setSystemTime(Date.now() + 91_000) // inside the 30 s skew of the 120 s lifetime
      expect(await send(auth, net.fetch)).toBe(200)
      expect(net.calls).toHaveLength(2)
      expect(net.mcpStatus).toEqual([401, 200, 200, 200])
    } finally {
      vi.useRealTimers()
    }
  })

  it('a token living less than the expiry margin is still used, until the last quarter of its life', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const net = network(() => tokenResponse({ expires_in: 20 }))
      const auth = clientCredentials({ clientId: 'a', clientSecret: 'b', fetch: net.fetch })
      await send(auth, net.fetch)
      await send(auth, net.fetch)
      expect(net.calls).toHaveLength(1)
      vi.setSystemTime(Date.now() + 16_000)
      await send(auth, net.fetch)
      expect(net.calls).toHaveLength(2)
    } finally {
      vi.useRealTimers()
    }
  })

  it('signs a private_key_jwt assertion with iss = sub = client id and aud = the AS issuer', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true })
    const net = network(() => tokenResponse())
    const auth = clientCredentials({ clientId: 'agent', privateKey: { ...(await exportJWK(privateKey)), alg: 'ES256' }, fetch: net.fetch })
    expect(await send(auth, net.fetch)).toBe(200)
    const form = net.calls[0]!.form
    expect(form.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
    const { payload } = await jwtVerify(form.get('client_assertion')!, publicKey, { audience: AS })
    expect([payload.iss, payload.sub]).toEqual(['agent', 'agent'])
    expect(net.calls[0]!.authorization).toBeNull()
  })

  it('a wrong secret rejects with the AS error and description, after one token request, and caches nothing', async () => {
    const net = network(() => json({ error: 'invalid_client', error_description: 'bad secret' }, 401))
    const auth = clientCredentials({ clientId: 'a', clientSecret: 'wrong', fetch: net.fetch })
    const error = await send(auth, net.fetch).catch((e) => e)
    expect(error).toBeInstanceOf(OAuthError)
    expect(error).toMatchObject({ code: 'token', detail: 'invalid_client', error_description: 'bad secret' })
    expect(net.calls).toHaveLength(1)
    expect(await auth.headers({ url: MCP, method: 'POST' })).toEqual({})
  })

  it('refuses before any token request when the AS does not list the grant', async () => {
    const net = network(() => tokenResponse(), { grant_types_supported: ['authorization_code'] })
    const error = await send(clientCredentials({ clientId: 'a', clientSecret: 'b', fetch: net.fetch }), net.fetch).catch((e) => e)
    expect(error).toMatchObject({ name: 'OAuthError', code: 'token', detail: 'unsupported_grant_type' })
    expect(net.calls).toHaveLength(0)
  })

  it('a token the server refuses at once ends in retry_limit, not in a loop of new tokens', async () => {
    const net = network(() => tokenResponse())
    net.setMcp(() => 401)
    const error = await send(clientCredentials({ clientId: 'a', clientSecret: 'b', fetch: net.fetch }), net.fetch).catch((e) => e)
    expect(error).toMatchObject({ name: 'OAuthError', code: 'retry_limit' })
    expect(net.calls).toHaveLength(1)
  })

  it('a token the server accepted and later refuses is replaced once', async () => {
    const net = network(() => tokenResponse())
    const auth = clientCredentials({ clientId: 'a', clientSecret: 'b', fetch: net.fetch })
    await send(auth, net.fetch)
    net.issued.clear() // revoked at the AS
    expect(await send(auth, net.fetch)).toBe(200)
    expect(net.calls).toHaveLength(2)
  })

  it('steps up on 403 insufficient_scope with the union of scopes, a bounded number of times', async () => {
    const net = network((call) => tokenResponse({ scope: call.form.get('scope') }))
    const auth = clientCredentials({ clientId: 'a', clientSecret: 'b', scope: 'read', fetch: net.fetch })
    await send(auth, net.fetch)
    net.setChallenge('Bearer error="insufficient_scope", scope="write"')
    net.setMcp(() => 403)
    const error = await send(auth, net.fetch).catch((e) => e)
    expect(net.calls.map((c) => c.form.get('scope'))).toEqual(['read', 'read write'])
    expect(error).toMatchObject({ name: 'OAuthError', code: 'retry_limit' })
  })

  it('concurrent 401s share one token request', async () => {
    const net = network(() => tokenResponse())
    const auth = clientCredentials({ clientId: 'a', clientSecret: 'b', fetch: net.fetch })
    expect(await Promise.all([send(auth, net.fetch), send(auth, net.fetch), send(auth, net.fetch)])).toEqual([200, 200, 200])
    expect(net.calls).toHaveLength(1)
  })

  it('sends a metadata GET once more when the connection drops under it, and names the endpoint when it stays down', async () => {
    const net = network(() => tokenResponse())
    let drops = 1
    const flaky = (async (input: string | URL | Request, init?: RequestInit) => {
      if (String(input).includes('/.well-known/oauth-protected-resource') && drops-- > 0) throw new TypeError('fetch failed')
      return net.fetch(input, init)
    }) as typeof fetch
    expect(await send(clientCredentials({ clientId: 'a', clientSecret: 'b', fetch: flaky }), flaky)).toBe(200)

    const down = (async (input: string | URL | Request, init?: RequestInit) => {
      if (String(input).includes('/.well-known/')) throw new TypeError('fetch failed')
      return net.fetch(input, init)
    }) as typeof fetch
    const error = await send(clientCredentials({ clientId: 'a', clientSecret: 'b', fetch: down }), down).catch((e) => e)
    expect(error).toMatchObject({ name: 'OAuthError', code: 'unreachable', detail: 'http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp' })
  })

  it('never sends its tokens to another origin, and refuses to fetch tokens for one', async () => {
    const net = network(() => tokenResponse())
    const auth = clientCredentials({ clientId: 'a', clientSecret: 'b', fetch: net.fetch })
    await send(auth, net.fetch)
    const other = { url: 'http://127.0.0.1:10/mcp', method: 'POST' }
    expect(await auth.headers(other)).toEqual({})
    await expect(auth.unauthorized(new Response(null, { status: 401 }), other)).rejects.toMatchObject({ code: 'resource_mismatch' })
    expect(net.calls).toHaveLength(1)
  })

  it('rejects bad options at once', () => {
    expect(() => clientCredentials({ clientId: 'a' })).toThrow(TypeError)
    expect(() => clientCredentials({ clientId: 'a', clientSecret: 'b', privateKey: {} })).toThrow(TypeError)
  })
})

describe('in a web page', () => {
  beforeEach(() => {
    ;(globalThis as { document?: unknown }).document = {}
  })
  afterEach(() => {
    delete (globalThis as { document?: unknown }).document
  })

  it('refuses every machine grant unless the app opts in', () => {
    const make = [
      (allowInBrowser?: boolean) => clientCredentials({ clientId: 'a', clientSecret: 'b', allowInBrowser }),
      (allowInBrowser?: boolean) => jwtBearer({ clientId: 'wl', assertion: () => 'x', allowInBrowser }),
      (allowInBrowser?: boolean) => enterpriseManaged({ clientId: 'a', clientSecret: 'b', idp: { issuer: IDP, clientId: 'c' }, idToken: () => 'x', allowInBrowser }),
    ]
    for (const grant of make) {
      expect(() => grant()).toThrow(expect.objectContaining({ name: 'OAuthError', code: 'refused_in_browser' }))
      expect(grant(true).headers).toBeTypeOf('function')
    }
  })
})

describe('jwtBearer', () => {
  it('asks the app for an assertion addressed to the AS and sends it with the JWT bearer grant', async () => {
    const net = network(() => tokenResponse())
    const assertion = vi.fn(() => 'workload.jwt.value')
    const auth = jwtBearer({ clientId: 'wl', assertion, fetch: net.fetch })
    expect(await send(auth, net.fetch)).toBe(200)
    expect(assertion).toHaveBeenCalledWith({ issuer: AS, tokenEndpoint: `${AS}/token`, resource: MCP })
    const form = net.calls[0]!.form
    expect([form.get('grant_type'), form.get('assertion'), form.get('client_id')]).toEqual(['urn:ietf:params:oauth:grant-type:jwt-bearer', 'workload.jwt.value', 'wl'])
  })

  it('an expired or malformed assertion refused by the AS is an OAuthError, and the grant is not retried', async () => {
    const net = network(() => json({ error: 'invalid_grant', error_description: 'JWT assertion is expired' }, 400))
    const assertion = vi.fn(() => 'expired.jwt')
    const error = await send(jwtBearer({ clientId: 'wl', assertion, fetch: net.fetch }), net.fetch).catch((e) => e)
    expect(error).toMatchObject({ code: 'token', detail: 'invalid_grant', error_description: 'JWT assertion is expired' })
    expect(net.calls).toHaveLength(1)
    expect(assertion).toHaveBeenCalledTimes(1)
  })
})

describe('enterpriseManaged', () => {
  const options = (fetchFn: typeof fetch) => ({
    clientId: 'mcp-client',
    clientSecret: 'mcp-secret',
    idp: { issuer: IDP, tokenEndpoint: `${IDP}/token`, clientId: 'idp-client' },
    idToken: () => 'user.id.token',
    fetch: fetchFn,
  })

  it('exchanges the ID token for an ID-JAG at the IdP, then trades it at the AS with the JWT bearer grant', async () => {
    const net = network((call) =>
      call.url === `${IDP}/token`
        ? json({ access_token: 'the.id.jag', issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' })
        : tokenResponse(),
    )
    expect(await send(enterpriseManaged(options(net.fetch)), net.fetch)).toBe(200)
    const [exchange, bearer] = net.calls
    expect(Object.fromEntries(exchange!.form)).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: 'user.id.token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: AS,
      resource: MCP,
      scope: 'mcp',
      client_id: 'idp-client',
    })
    expect(bearer!.form.get('assertion')).toBe('the.id.jag')
    expect(atob(bearer!.authorization!.slice(6))).toBe('mcp-client:mcp-secret')
  })

  it('an IdP that refuses the exchange is an OAuthError naming the IdP; the AS is never asked', async () => {
    const net = network(() => json({ error: 'invalid_grant', error_description: 'Invalid ID token' }, 400))
    const error = await send(enterpriseManaged(options(net.fetch)), net.fetch).catch((e) => e)
    expect(error).toMatchObject({ code: 'token', detail: 'invalid_grant', error_description: 'Invalid ID token' })
    expect(error.message).toContain(IDP)
    expect(net.calls.map((c) => c.url)).toEqual([`${IDP}/token`])
  })

  it('refuses an exchange answer that is not an ID-JAG', async () => {
    const net = network(() => json({ access_token: 'x', issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer' }))
    await expect(send(enterpriseManaged(options(net.fetch)), net.fetch)).rejects.toMatchObject({ code: 'token' })
    expect(net.calls.map((c) => c.url)).toEqual([`${IDP}/token`])
  })
})
