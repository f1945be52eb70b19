import { describe, expect, it } from 'vitest'
import { OAuthError } from '../errors/oauth-error'
import { parseChallenges } from './challenge'
import { findAuthorizationServer, serverMetadata, type Get } from './discovery'

/** A scripted GET: answers from `routes` (JSON, 200) or 404, and records what was asked in order. */
function scripted(routes: Record<string, unknown>) {
  const asked: string[] = []
  const get: Get = async (_what, url) => {
    asked.push(url)
    return url in routes
      ? new Response(JSON.stringify(routes[url]), { status: 200, headers: { 'content-type': 'application/json' } })
      : new Response('not found', { status: 404 })
  }
  return { get, asked }
}

describe('WWW-Authenticate', () => {
  it('reads several challenges with quoted (escaped) and token parameters', () => {
    const [bearer, dpop] = parseChallenges(
      'Bearer resource_metadata="https://s/.well-known/oauth-protected-resource/mcp", scope="a b", error=insufficient_scope, error_description="say \\"no\\"", DPoP algs="ES256"',
    )
    expect(bearer).toEqual({
      scheme: 'bearer',
      params: { resource_metadata: 'https://s/.well-known/oauth-protected-resource/mcp', scope: 'a b', error: 'insufficient_scope', error_description: 'say "no"' },
    })
    expect(dpop).toEqual({ scheme: 'dpop', params: { algs: 'ES256' } })
  })
})

describe('Protected Resource Metadata', () => {
  const server = new URL('https://mcp.example.com/tenant/mcp')
  const AS = 'https://as.example.com'
  const asMetadata = { issuer: AS, authorization_endpoint: `${AS}/authorize`, token_endpoint: `${AS}/token`, registration_endpoint: `${AS}/register` }

  it('tries the path-inserted well-known, then the root one, when the challenge names none', async () => {
    const { get, asked } = scripted({ 'https://mcp.example.com/.well-known/oauth-protected-resource': { resource: 'https://mcp.example.com' } })
    const { prm } = await findAuthorizationServer(server, undefined, get)
    expect(prm?.resource).toBe('https://mcp.example.com')
    expect(asked).toEqual(['https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp', 'https://mcp.example.com/.well-known/oauth-protected-resource'])
  })

  it('reads the metadata of the AS the PRM names, then hands out both once the resource covers the server', async () => {
    const { get, asked } = scripted({ 'https://mcp.example.com/prm': { resource: 'https://mcp.example.com/tenant', authorization_servers: [AS] }, [`${AS}/.well-known/oauth-authorization-server`]: asMetadata })
    const found = await findAuthorizationServer(server, 'https://mcp.example.com/prm', get)
    expect(found).toMatchObject({ issuer: AS, as: { issuer: AS }, prm: { resource: 'https://mcp.example.com/tenant' } })
    expect(asked).toEqual(['https://mcp.example.com/prm', `${AS}/.well-known/oauth-authorization-server`])
  })

  it('refuses metadata for another resource (resource_mismatch) after reading its AS metadata, naming the resource and the AS', async () => {
    const { get, asked } = scripted({ 'https://mcp.example.com/prm': { resource: 'https://evil.example.com/mcp', authorization_servers: [AS] }, [`${AS}/.well-known/oauth-authorization-server`]: asMetadata })
    const error = (await findAuthorizationServer(server, 'https://mcp.example.com/prm', get).catch((e: unknown) => e)) as OAuthError
    expect(error).toBeInstanceOf(OAuthError)
    expect(error).toMatchObject({ code: 'resource_mismatch', detail: 'https://evil.example.com/mcp' })
    expect(error.message).toContain('https://evil.example.com/mcp')
    expect(error.message).toContain(`the authorization server ${AS}`)
    // Two anonymous GETs, nothing else: the caller gets no AS to register or sign in with.
    expect(asked).toEqual(['https://mcp.example.com/prm', `${AS}/.well-known/oauth-authorization-server`])
  })

  it('reports the mismatch, not the AS metadata failure, when the AS the PRM names is broken too', async () => {
    const { get } = scripted({ 'https://mcp.example.com/prm': { resource: 'https://evil.example.com/mcp', authorization_servers: [AS] }, [`${AS}/.well-known/oauth-authorization-server`]: { ...asMetadata, issuer: 'https://attacker.example.com' } })
    const error = (await findAuthorizationServer(server, 'https://mcp.example.com/prm', get).catch((e: unknown) => e)) as OAuthError
    expect(error.code).toBe('resource_mismatch')
    expect((error.cause as OAuthError).code).toBe('issuer_mismatch')
  })

  it('refuses a mismatched PRM that names no authorization server, asking nothing more', async () => {
    const { get, asked } = scripted({ 'https://mcp.example.com/prm': { resource: 'https://evil.example.com/mcp' } })
    await expect(findAuthorizationServer(server, 'https://mcp.example.com/prm', get)).rejects.toMatchObject({ code: 'resource_mismatch', message: expect.stringContaining('no authorization server') })
    expect(asked).toEqual(['https://mcp.example.com/prm'])
  })

  it('refuses a sibling path that merely starts with the same letters', async () => {
    const { get } = scripted({ 'https://mcp.example.com/prm': { resource: 'https://mcp.example.com/ten' } })
    await expect(findAuthorizationServer(server, 'https://mcp.example.com/prm', get)).rejects.toMatchObject({ code: 'resource_mismatch' })
  })

  it('without any PRM (a 2025-03-26 server) looks for the AS at the server origin', async () => {
    const { get, asked } = scripted({})
    expect(await findAuthorizationServer(server, undefined, get)).toEqual({ prm: undefined, issuer: 'https://mcp.example.com', as: undefined })
    expect(asked.slice(2)).toEqual(['https://mcp.example.com/.well-known/oauth-authorization-server', 'https://mcp.example.com/.well-known/openid-configuration'])
  })
})

describe('Authorization server metadata', () => {
  const metadata = (issuer: string) => ({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, code_challenge_methods_supported: ['S256'] })

  it('for an issuer with a path: RFC 8414 inserted, OpenID inserted, then OpenID appended, in that order', async () => {
    const issuer = 'https://as.example.com/t1'
    const { get, asked } = scripted({ 'https://as.example.com/t1/.well-known/openid-configuration': metadata(issuer) })
    expect((await serverMetadata(issuer, get))?.issuer).toBe(issuer)
    expect(asked).toEqual([
      'https://as.example.com/.well-known/oauth-authorization-server/t1',
      'https://as.example.com/.well-known/openid-configuration/t1',
      'https://as.example.com/t1/.well-known/openid-configuration',
    ])
  })

  it('for an issuer without a path: RFC 8414, then OpenID', async () => {
    const issuer = 'https://as.example.com'
    const { get, asked } = scripted({ 'https://as.example.com/.well-known/openid-configuration': metadata(issuer) })
    await serverMetadata(issuer, get)
    expect(asked).toEqual(['https://as.example.com/.well-known/oauth-authorization-server', 'https://as.example.com/.well-known/openid-configuration'])
  })

  it('refuses metadata whose issuer is not the identical string, even one a URL parser would call equal', async () => {
    const issuer = 'https://as.example.com'
    const { get } = scripted({ 'https://as.example.com/.well-known/oauth-authorization-server': metadata('https://as.example.com/') })
    await expect(serverMetadata(issuer, get)).rejects.toMatchObject({ name: 'OAuthError', code: 'issuer_mismatch' })
  })

  it('refuses metadata naming another issuer', async () => {
    const issuer = 'https://as.example.com'
    const { get } = scripted({ 'https://as.example.com/.well-known/oauth-authorization-server': metadata('https://attacker.example.com') })
    await expect(serverMetadata(issuer, get)).rejects.toMatchObject({ code: 'issuer_mismatch' })
  })
})
