// The grant provider's token lifecycle (cache, expiry, 401/403 handling, one origin), driven through clientCredentials; apart from what each grant sends (requests.test.ts).
import { describe, expect, it, vi } from 'vitest'
import { network, send, tokenResponse } from '../../testing/grants-network'
import { clientCredentials } from './grants'

describe('a grant provider', () => {
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
})
