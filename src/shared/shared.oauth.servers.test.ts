// The shared mode with OAuth, against a real authorization server (oidc-provider) in front of the embedded modern
// server. The host (the SharedWorker's code) holds the tokens; the tab that signs in does the browser step, here
// nodeAuthorize() (auto-approved login and consent) standing in for the popup.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { OAuthError } from '../errors/oauth-error'
import { createHost } from './host'
import type { HostMessage, ShareKey, TabMessage } from './protocol'
import { createSharedMcp } from './tab'
import { tabPort } from '../testing/tab-port'
// @ts-expect-error plain ESM test servers without types
import { startModern } from '../../scripts/servers/modern.mjs'
// @ts-expect-error plain ESM test servers without types
import { startOAuthStack } from '../../scripts/servers/oauth/start.mjs'
// @ts-expect-error plain ESM test servers without types
import { nodeAuthorize } from '../../scripts/servers/oauth/node-authorize.mjs'

const REDIRECT = 'http://localhost:53682/callback'
const WAIT = { timeout: 15_000 }

let upstream: { url: string; close(): Promise<void> }
let stack: { url: string; issuer: string; as: { stats: Record<string, number> }; close(): Promise<void> }
const opened: { close(): unknown }[] = []

beforeAll(async () => {
  upstream = await startModern()
  stack = await startOAuthStack({ upstream: upstream.url })
})
afterEach(async () => {
  await Promise.all(opened.splice(0).map((x) => x.close()))
})
afterAll(async () => {
  await stack?.close()
  await upstream?.close()
})


describe('shared mode with OAuth: the host signs in once for every tab', () => {
  it('mirrors $auth to both tabs, runs the browser step in the tab that signed in, and loads the lists for both', async () => {
    const host = createHost('oauth-two')
    const key: ShareKey = { url: stack.url, options: { oauth: { redirectUri: REDIRECT } }, input: false }
    const hello = (tab: string): TabMessage => ({ t: 'hello', tab, key, watching: ['$tools'], resources: [], notifications: false, trace: false })
    const a = tabPort(host, opened)
    const b = tabPort(host, opened)
    a.send(hello('a'))
    b.send(hello('b'))
    // A 401 with nobody at a Sign-in button: both tabs see 'required', nobody was asked for a window.
    for (const tab of [a, b]) await vi.waitFor(() => expect(tab.atom('$auth')?.value.status).toBe('required'), WAIT)
    expect(b.atom('$tools')!.value.error.__error.props.code).toBe('interaction_required')
    expect([...a.received, ...b.received].some((m) => m.t === 'authorize')).toBe(false)

    const authorizations = stack.as.stats.authorization ?? 0
    const tokens = stack.as.stats.token ?? 0
    a.send({ t: 'call', id: 1, op: 'signIn', args: [], options: { progress: false, log: false } })
    await vi.waitFor(() => expect(a.received.some((m) => m.t === 'authorize')).toBe(true), WAIT)
    const ask = a.received.find((m) => m.t === 'authorize') as Extract<HostMessage, { t: 'authorize' }>
    expect(new URL(ask.url).searchParams.get('resource')).toBe(stack.url)
    const callback: URL = await nodeAuthorize(REDIRECT)(new URL(ask.url))
    a.send({ t: 'answer', iid: ask.iid, ok: true, value: { url: callback.href } })
    await vi.waitFor(() => expect(a.received.find((m) => m.t === 'result' && m.id === 1)).toMatchObject({ ok: true }), WAIT)

    for (const tab of [a, b]) await vi.waitFor(() => expect(tab.atom('$auth')?.value).toMatchObject({ status: 'authorized', issuer: stack.issuer }), WAIT)
    // The list that failed with 401 loads again, for both tabs, without either asking.
    for (const tab of [a, b]) await vi.waitFor(() => expect(tab.atom('$tools')?.value.items.map((t: { name: string }) => t.name)).toContain('echo'), WAIT)
    expect(b.received.some((m) => m.t === 'authorize')).toBe(false)
    expect(stack.as.stats.token).toBe(tokens + 1)
    if (stack.as.stats.authorization !== undefined) expect(stack.as.stats.authorization).toBe(authorizations + 1)
    a.send({ t: 'bye' })
    b.send({ t: 'bye' })
  })
})

describe('createSharedMcp({ oauth })', () => {
  it('signIn() in a tab signs the shared client in; $auth mirrors; signOut() goes back to none', async () => {
    const mcp = createSharedMcp(stack.url, { modes: ['local'], oauth: { redirectUri: REDIRECT, authorize: nodeAuthorize(REDIRECT) } })
    opened.push(mcp)
    expect(mcp.$auth.get()).toEqual({ status: 'none' })
    const stop = mcp.$tools.listen(() => {})
    await vi.waitFor(() => expect(mcp.$auth.get().status).toBe('required'), WAIT)
    // The error crossed the port and is an OAuthError again in the tab.
    expect(mcp.$tools.get().error).toBeInstanceOf(OAuthError)
    await mcp.signIn()
    await vi.waitFor(() => expect(mcp.$tools.get().items.map((t) => t.name)).toContain('echo'), WAIT)
    expect(mcp.$auth.get()).toMatchObject({ status: 'authorized', issuer: stack.issuer })
    const seen: string[] = []
    const track = mcp.$auth.listen((state) => seen.push(state.status))
    await mcp.signOut()
    await vi.waitFor(() => expect(seen).toContain('none'), WAIT)
    track()
    stop()
  })

  it('without the oauth option: $auth none, and signIn() rejects with OAuthError not_configured', async () => {
    const mcp = createSharedMcp(stack.url, { modes: ['local'] })
    opened.push(mcp)
    expect(mcp.$auth.get()).toEqual({ status: 'none' })
    const error = (await mcp.signIn().catch((e: unknown) => e)) as OAuthError
    expect(error).toBeInstanceOf(OAuthError)
    expect(error.code).toBe('not_configured')
  })
})
