// Bad input from the AS side that a real AS will not produce on demand, through oauth()'s `fetch` option: each
// ends in an OAuthError with its code, `$auth` says so, and no token is stored.
import { describe, expect, it } from 'vitest'
import { OAuthError } from '../errors/oauth-error'
import { oauth } from './oauth'

const SERVER = 'https://mcp.example.com/mcp'
const ISSUER = 'https://as.example.com'
const REDIRECT = 'https://app.example.com/callback'
const challenge = () =>
  new Response('{}', { status: 401, headers: { 'www-authenticate': `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"` } })

/** A scripted AS: metadata (overridable), a token endpoint answering `token`, behind a PRM naming `resource`. */
function fakeAs(metadata: Record<string, unknown>, token: Record<string, unknown> = {}, resource = SERVER) {
  const calls: string[] = []
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  const fetch = (async (input: string | URL) => {
    const url = String(input)
    calls.push(url)
    if (url.endsWith('/oauth-protected-resource/mcp')) return json({ resource, authorization_servers: [ISSUER] })
    if (url === `${ISSUER}/.well-known/oauth-authorization-server`) {
      return json({ issuer: ISSUER, authorization_endpoint: `${ISSUER}/authorize`, token_endpoint: `${ISSUER}/token`, ...metadata })
    }
    if (url === `${ISSUER}/token`) return json(token)
    return new Response('', { status: 404 })
  }) as typeof globalThis.fetch
  return { fetch, calls }
}

/** The AS "redirects at once" with a code for the request's state. */
const approve = async (url: URL) => `${REDIRECT}?code=c0de&state=${url.searchParams.get('state')}&iss=${encodeURIComponent(ISSUER)}`

async function refusal(auth: ReturnType<typeof oauth>): Promise<OAuthError> {
  const error = await auth.unauthorized(challenge(), { url: SERVER, method: 'POST' }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(OAuthError)
  expect(await auth.headers({ url: SERVER, method: 'POST' })).toEqual({})
  return error as OAuthError
}

describe('oauth() before the user signs in', () => {
  it('any number of 401s leave $auth required (interaction_required each time), never "keeps refusing"', async () => {
    const as = fakeAs({ code_challenge_methods_supported: ['S256'], registration_endpoint: `${ISSUER}/register` })
    // No authorize hook: as in popup mode until the user clicks "Sign in" (signIn()).
    const auth = oauth({ redirectUri: REDIRECT, fetch: as.fetch, clientId: 'app' })
    for (let i = 0; i < 5; i++) {
      const error = await auth.unauthorized(challenge(), { url: SERVER, method: 'POST' }).catch((e: unknown) => e)
      expect(error).toMatchObject({ name: 'OAuthError', code: 'interaction_required' })
    }
    expect(auth.$auth.get()).toMatchObject({ status: 'required', issuer: ISSUER })
  })
})

describe('oauth() refuses', () => {
  it('a PRM for another resource (resource_mismatch), naming it and its AS, with no registration, authorization or token request', async () => {
    const as = fakeAs({ code_challenge_methods_supported: ['S256'], registration_endpoint: `${ISSUER}/register` }, {}, 'https://evil.example.com/mcp')
    let authorized = false
    // No clientId: were the check late, dynamic registration would be the next request.
    const auth = oauth({ redirectUri: REDIRECT, fetch: as.fetch, authorize: async (url) => ((authorized = true), approve(url)) })
    const error = await refusal(auth)
    expect(error.code).toBe('resource_mismatch')
    expect(error.message).toContain('https://evil.example.com/mcp')
    expect(error.message).toContain(ISSUER)
    expect(authorized).toBe(false)
    // The PRM and the AS metadata, both anonymous GETs: no client id or credential went anywhere.
    expect(as.calls).toEqual(['https://mcp.example.com/.well-known/oauth-protected-resource/mcp', `${ISSUER}/.well-known/oauth-authorization-server`])
    expect(auth.$auth.get()).toMatchObject({ status: 'error', error: { code: 'resource_mismatch' } })
  })

  it('an AS that does not list S256 (pkce_unsupported), before any authorization request', async () => {
    const as = fakeAs({ code_challenge_methods_supported: ['plain'], registration_endpoint: `${ISSUER}/register` })
    let authorized = false
    const auth = oauth({ redirectUri: REDIRECT, fetch: as.fetch, authorize: async (url) => ((authorized = true), approve(url)) })
    expect((await refusal(auth)).code).toBe('pkce_unsupported')
    expect(authorized).toBe(false)
    expect(auth.$auth.get()).toMatchObject({ status: 'error', error: { code: 'pkce_unsupported' } })
  })

  it('an AS with no way to get a client id: client_id_required asks the app for one', async () => {
    const as = fakeAs({ code_challenge_methods_supported: ['S256'] })
    const auth = oauth({ redirectUri: REDIRECT, fetch: as.fetch, authorize: approve })
    expect((await refusal(auth)).code).toBe('client_id_required')
  })

  it('a token response without access_token (token), nothing stored', async () => {
    const as = fakeAs({ code_challenge_methods_supported: ['S256'] }, { token_type: 'Bearer', expires_in: 60 })
    const auth = oauth({ redirectUri: REDIRECT, clientId: 'app', fetch: as.fetch, authorize: approve })
    const error = await refusal(auth)
    expect(error.code).toBe('token')
    expect(as.calls).toContain(`${ISSUER}/token`)
  })

  it('an unreachable AS endpoint (unreachable), naming the endpoint', async () => {
    const fetch = (async (input: string | URL) => {
      if (String(input).includes('oauth-protected-resource')) {
        return new Response(JSON.stringify({ resource: SERVER, authorization_servers: [ISSUER] }), { headers: { 'content-type': 'application/json' } })
      }
      throw new TypeError('Failed to fetch')
    }) as typeof globalThis.fetch
    const auth = oauth({ redirectUri: REDIRECT, fetch, authorize: approve })
    const error = await refusal(auth)
    expect(error.code).toBe('unreachable')
    expect(error.message).toContain(`${ISSUER}/.well-known/oauth-authorization-server`)
    expect(error.detail).toBe('authorization server metadata')
  })

  it('a callback with the wrong iss never reaches the token endpoint', async () => {
    const as = fakeAs({ code_challenge_methods_supported: ['S256'], authorization_response_iss_parameter_supported: true })
    const auth = oauth({
      redirectUri: REDIRECT,
      clientId: 'app',
      fetch: as.fetch,
      authorize: async (url) => `${REDIRECT}?code=c0de&state=${url.searchParams.get('state')}&iss=${encodeURIComponent(`${ISSUER}/`)}`,
    })
    expect((await refusal(auth)).code).toBe('iss_mismatch')
    expect(as.calls).not.toContain(`${ISSUER}/token`)
  })
})
