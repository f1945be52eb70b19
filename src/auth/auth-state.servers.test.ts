// $auth tells the truth across a reload and a sign-out, and signIn() works before any connection, against the real
// authorization server (oidc-provider) and the protected front of the embedded legacy server (it has a GET stream).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../client/client'
import { OAuthError } from '../errors/oauth-error'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { oauth } from './oauth'
import type { TokenStorage } from './types'
// @ts-expect-error plain ESM test servers without types
import { startLegacy } from '../../scripts/servers/legacy.mjs'
// @ts-expect-error plain ESM test servers without types
import { startOAuthStack } from '../../scripts/servers/oauth/start.mjs'
// @ts-expect-error plain ESM test servers without types
import { cookieJar, nodeAuthorize } from '../../scripts/servers/oauth/node-authorize.mjs'

const REDIRECT = 'http://localhost:53682/callback'
let legacy: { url: string; close(): Promise<void> }
let stack: { url: string; issuer: string; close(): Promise<void> }

beforeAll(async () => {
  legacy = await startLegacy()
  stack = await startOAuthStack({ upstream: legacy.url })
})
afterAll(async () => {
  await stack?.close()
  await legacy?.close()
})

/** A TokenStorage that outlives the oauth() built on it, as sessionStorage outlives a reload. */
function memoryStorage(): TokenStorage & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return { map, get: (k) => map.get(k), set: (k, v) => void map.set(k, v), delete: (k) => void map.delete(k) }
}

function build(storage?: TokenStorage) {
  const authorizations: URL[] = []
  const drive = nodeAuthorize(REDIRECT, cookieJar())
  const auth = oauth({ redirectUri: REDIRECT, storage, authorize: async (url) => (authorizations.push(url), drive(url)) })
  const transport = new StreamableHttpTransport(stack.url, { auth })
  const client = new Client(transport, { clientInfo: { name: 'auth-state-test', version: '1' } })
  return { auth, transport, client, authorizations }
}

const settled = (check: () => boolean) =>
  new Promise<void>((resolve, reject) => {
    const started = Date.now()
    const poll = () => (check() ? resolve() : Date.now() - started > 5000 ? reject(new Error('timed out')) : setTimeout(poll, 10))
    poll()
  })

describe('$auth, sign-out and sign-in before connecting', () => {
  it('with stored tokens, a reloaded page is authorized before its first request, and needs no new sign-in', async () => {
    const storage = memoryStorage()
    const first = build(storage)
    await first.client.connect()
    expect(first.authorizations).toHaveLength(1)
    expect(storage.map.size).toBe(1)
    await first.client.close()

    const reloaded = build(storage)
    await settled(() => reloaded.auth.$auth.get().status !== 'none')
    expect(reloaded.auth.$auth.get()).toMatchObject({ status: 'authorized', issuer: stack.issuer, scopes: ['mcp:tools'] })
    await reloaded.client.connect()
    await expect(reloaded.client.request('tools/list', {})).resolves.toHaveProperty('tools')
    expect(reloaded.authorizations).toHaveLength(0)
    await reloaded.client.close()
  })

  it('without stored tokens a new page stays none', async () => {
    const { auth } = build(memoryStorage())
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(auth.$auth.get().status).toBe('none')
  })

  it('signOut() closes the GET stream opened with the old token; the session stays, the next request signs in anew', async () => {
    const { auth, transport, client, authorizations } = build()
    await client.connect()
    const stream = await transport.openStream(() => undefined)
    expect(stream).toBeDefined()
    let ended = false
    void stream!.closed.finally(() => (ended = true))
    await auth.signOut()
    await settled(() => ended)
    expect(auth.$auth.get().status).toBe('none')
    // The session is kept; the server now wants a token again, and a sign-in (the authorize hook) gives one.
    await expect(client.request('tools/list', {})).resolves.toHaveProperty('tools')
    expect(authorizations).toHaveLength(2)
    expect(auth.$auth.get().status).toBe('authorized')
    await client.close()
    // The protected front answers a GET stream's headers only when the upstream sends its first bytes.
  }, 45_000)

  it('signIn() before any request discovers the server of the transport, then signs in', async () => {
    const { auth, client, authorizations } = build()
    await auth.signIn()
    expect(authorizations).toHaveLength(1)
    expect(authorizations[0]!.searchParams.get('resource')).toBe(stack.url)
    expect(auth.$auth.get()).toMatchObject({ status: 'authorized', issuer: stack.issuer })
    await client.connect()
    expect(authorizations).toHaveLength(1)
    await client.close()
  })

  it('signIn() with no transport at all says what to do in words', async () => {
    const auth = oauth({ redirectUri: REDIRECT, authorize: async () => REDIRECT })
    const error = await auth.signIn().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OAuthError)
    expect((error as Error).message).toMatch(/connect to the server first/)
    expect(auth.$auth.get().status).toBe('error')
  })
})
