import { describe, expect, it } from 'vitest'
import { OAuthError } from '../errors/oauth-error'
import { parseChallenges } from './challenge'
import { resourceMetadata, serverMetadata, type Get } from './discovery'

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

  it('tries the path-inserted well-known, then the root one, when the challenge names none', async () => {
    const { get, asked } = scripted({ 'https://mcp.example.com/.well-known/oauth-protected-resource': { resource: 'https://mcp.example.com' } })
    const prm = await resourceMetadata(server, undefined, get)
    expect(prm?.resource).toBe('https://mcp.example.com')
    expect(asked).toEqual(['https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp', 'https://mcp.example.com/.well-known/oauth-protected-resource'])
  })

  it('refuses metadata for another resource (resource_mismatch)', async () => {
    const { get } = scripted({ 'https://mcp.example.com/prm': { resource: 'https://evil.example.com/mcp' } })
    const error = (await resourceMetadata(server, 'https://mcp.example.com/prm', get).catch((e: unknown) => e)) as OAuthError
    expect(error).toBeInstanceOf(OAuthError)
    expect(error.code).toBe('resource_mismatch')
  })

  it('refuses a sibling path that merely starts with the same letters', async () => {
    const { get } = scripted({ 'https://mcp.example.com/prm': { resource: 'https://mcp.example.com/ten' } })
    await expect(resourceMetadata(server, 'https://mcp.example.com/prm', get)).rejects.toMatchObject({ code: 'resource_mismatch' })
  })

  it('is undefined when nothing answers (a 2025-03-26 server)', async () => {
    expect(await resourceMetadata(server, undefined, scripted({}).get)).toBeUndefined()
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
