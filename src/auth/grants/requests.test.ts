// What each machine grant sends to the AS and how it refuses; apart from the provider's token lifecycle (provider.test.ts).
import { exportJWK, generateKeyPair, jwtVerify } from 'jose'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { OAuthError } from '../../errors/oauth-error'
import { AS, IDP, json, MCP, network, send, tokenResponse } from '../../testing/grants-network'
import { clientCredentials, enterpriseManaged, jwtBearer } from './grants'

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

  it('refuses a server whose PRM names another resource, naming it and the AS, before any token request', async () => {
    const net = network(() => tokenResponse())
    const misconfigured = (async (input: string | URL | Request, init?: RequestInit) =>
      String(input) === 'http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp'
        ? json({ resource: 'https://evil.example.com/mcp', authorization_servers: [AS] })
        : net.fetch(input, init)) as typeof fetch
    const error = await send(clientCredentials({ clientId: 'a', clientSecret: 'b', fetch: misconfigured }), misconfigured).catch((e) => e)
    expect(error).toMatchObject({ name: 'OAuthError', code: 'resource_mismatch', detail: 'https://evil.example.com/mcp' })
    expect(error.message).toContain(AS)
    expect(net.calls).toHaveLength(0)
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
