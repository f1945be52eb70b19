// createMcp with an OAuth client against a real authorization server (oidc-provider) in front of the embedded
// modern and legacy servers. The person at the AS is nodeAuthorize(): auto-approved login and consent. Without an
// `authorize` hook a 401 waits for signIn(), as in a page; the hook is set just before signIn() here, standing in
// for the popup a click would open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ReadableAtom } from 'nanostores'
import { OAuthError } from '../errors/oauth-error'
import { oauth } from '../auth/oauth'
import type { OAuthOptions } from '../auth/types'
import { createMcp } from './create-mcp'
// @ts-expect-error plain ESM test servers without types
import { startModern } from '../../scripts/servers/modern.mjs'
// @ts-expect-error plain ESM test servers without types
import { startLegacy } from '../../scripts/servers/legacy.mjs'
// @ts-expect-error plain ESM test servers without types
import { startSse } from '../../scripts/servers/sse.mjs'
// @ts-expect-error plain ESM test servers without types
import { startOAuthStack } from '../../scripts/servers/oauth/start.mjs'
// @ts-expect-error plain ESM test servers without types
import { nodeAuthorize } from '../../scripts/servers/oauth/node-authorize.mjs'

const REDIRECT = 'http://localhost:53682/callback'

interface Stack {
  url: string
  issuer: string
  as: { stats: Record<string, number> }
  close(): Promise<void>
}
let upstreams: { url: string; close(): Promise<void> }[] = []
let modern: Stack
let legacy: Stack

beforeAll(async () => {
  upstreams = [await startModern(), await startLegacy()]
  modern = await startOAuthStack({ upstream: upstreams[0]!.url })
  legacy = await startOAuthStack({ upstream: upstreams[1]!.url })
})
afterAll(async () => {
  await Promise.all([modern?.close(), legacy?.close()])
  await Promise.all(upstreams.map((u) => u.close()))
})

/** Resolves with the first value of `$atom` that `test` accepts (now, or when it changes). */
function until<T>($atom: ReadableAtom<T>, test: (value: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const stop = $atom.subscribe((value) => {
      if (!test(value)) return
      queueMicrotask(() => stop())
      resolve(value)
    })
  })
}

/** An oauth() client whose person at the AS shows up only when `arrive()` is called (as a click would). */
function lateUser(options: Partial<OAuthOptions> = {}) {
  const settings: OAuthOptions = { redirectUri: REDIRECT, ...options }
  const auth = oauth(settings)
  return { auth, arrive: () => void (settings.authorize = nodeAuthorize(REDIRECT)) }
}

describe('createMcp({ auth }) with a real authorization server', () => {
  it('a 401 leaves $auth required and the lists in error; signIn() reloads them and $status recovers', async () => {
    const { auth, arrive } = lateUser()
    const mcp = createMcp(modern.url, { auth, clientInfo: { name: 'auth-stores-test', version: '1' } })
    expect(mcp.$auth).toBe(auth.$auth)
    const stop = mcp.$tools.listen(() => {})
    const failed = await until(mcp.$tools, (s) => !s.loading && !!s.error)
    expect(failed.error).toBeInstanceOf(OAuthError)
    expect((failed.error as OAuthError).code).toBe('interaction_required')
    expect(mcp.$auth.get()).toMatchObject({ status: 'required', issuer: modern.issuer })
    expect(mcp.$status.get().status).toBe('error')

    const states: boolean[] = []
    const track = mcp.$tools.listen((s) => states.push(s.loading))
    arrive()
    await mcp.signIn()
    expect(mcp.$auth.get()).toMatchObject({ status: 'authorized', issuer: modern.issuer })
    const loaded = await until(mcp.$tools, (s) => !s.loading && s.items.length > 0)
    expect(loaded.error).toBeUndefined()
    expect(loaded.items.map((t) => t.name)).toContain('echo')
    // The list in error went back to loading before it loaded.
    expect(states[0]).toBe(true)
    await until(mcp.$status, (s) => s.status === 'ready')
    track()
    stop()
    await mcp.close()
  })

  it('reconnects $status after sign-in even when no list is watched', async () => {
    const { auth, arrive } = lateUser({ dpop: false })
    const mcp = createMcp(modern.url, { auth, autoListen: false })
    const error = (await mcp.connect().catch((e: unknown) => e)) as OAuthError
    expect(error.code).toBe('interaction_required')
    expect(mcp.$status.get().status).toBe('error')
    arrive()
    await mcp.signIn()
    expect((await until(mcp.$status, (s) => s.status !== 'error')).status).toMatch(/connecting|ready/)
    await until(mcp.$status, (s) => s.status === 'ready')
    await mcp.close()
  })

  it('passes auth on to the HTTP+SSE transport it falls back to (its stream and its messages ask for headers)', async () => {
    const sse = await startSse()
    try {
      const asked: string[] = []
      const auth = { headers: (request: { url: string; method: string }) => (asked.push(`${request.method} ${new URL(request.url).pathname}`), { 'x-test': '1' }), unauthorized: async () => false }
      const mcp = createMcp(sse.url, { auth })
      await mcp.connect()
      await mcp.callTool('echo', { message: 'through the fallback' }).catch(() => undefined)
      expect(asked).toContain('GET /sse')
      expect(asked.some((line) => line.startsWith('POST /messages'))).toBe(true)
      await mcp.close()
    } finally {
      await sse.close()
    }
  })

  it('signOut() forwards to the OAuth client: $auth goes back to none', async () => {
    const { auth, arrive } = lateUser()
    arrive()
    // No subscription: a stream reconnecting with the revoked token would race the assertion below.
    const mcp = createMcp(modern.url, { auth })
    await mcp.connect()
    const revocations = modern.as.stats.revocation ?? 0
    await mcp.signOut()
    expect(mcp.$auth.get()).toEqual({ status: 'none' })
    expect(modern.as.stats.revocation).toBeGreaterThan(revocations)
    await mcp.close()
  })
})

describe('createMcp without an OAuth client', () => {
  it('has $auth none, and signIn()/signOut() reject with OAuthError not_configured', async () => {
    const mcp = createMcp('http://127.0.0.1:9/mcp', { auth: { headers: () => ({}), unauthorized: async () => false } })
    expect(mcp.$auth.get()).toEqual({ status: 'none' })
    for (const action of [mcp.signIn, mcp.signOut]) {
      const error = (await action().catch((e: unknown) => e)) as OAuthError
      expect(error).toBeInstanceOf(OAuthError)
      expect(error.code).toBe('not_configured')
    }
    await mcp.close()
  })
})
