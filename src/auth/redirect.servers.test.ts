// Redirect mode end to end against the real AS, in Node with the few browser globals it touches stood in for
// (sessionStorage, location, history): signIn() leaves for the AS, the callback page hands the answer back,
// and the app page that comes back (a new oauth()) redeems it. A browser test cannot navigate its own frame away.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../client/client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { handleOAuthCallback } from './callback'
import { oauth } from './oauth'
// @ts-expect-error plain ESM test servers without types
import { startModern } from '../../scripts/servers/modern.mjs'
// @ts-expect-error plain ESM test servers without types
import { startOAuthStack } from '../../scripts/servers/oauth/start.mjs'
// @ts-expect-error plain ESM test servers without types
import { nodeAuthorize } from '../../scripts/servers/oauth/node-authorize.mjs'

const APP = 'http://localhost:53682/app?tab=tools'
const REDIRECT = 'http://localhost:53682/callback'

let modern: { url: string; close(): Promise<void> }
let stack: { url: string; issuer: string; as: { stats: Record<string, number> }; close(): Promise<void> }
const globals = globalThis as Record<string, unknown>

beforeAll(async () => {
  modern = await startModern()
  stack = await startOAuthStack({ upstream: modern.url })
})
afterAll(async () => {
  await stack?.close()
  await modern?.close()
})
afterEach(() => {
  for (const name of ['sessionStorage', 'location', 'history']) delete globals[name]
})

/** The browser tab: one sessionStorage across its page loads, and where it was sent. */
function tab() {
  const items = new Map<string, string>()
  globals.sessionStorage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  }
  const visits: string[] = []
  const addressBar: string[] = []
  globals.location = { href: APP, origin: 'http://localhost:53682', assign: (url: string) => visits.push(url), replace: (url: string) => visits.push(url) }
  globals.history = { state: null, replaceState: (_s: unknown, _t: string, url: string) => addressBar.push(url) }
  return { items, visits, addressBar }
}

describe('oauth() redirect mode', () => {
  it('leaves for the AS, comes back through the callback page, and the app page redeems the code', async () => {
    const { items, visits, addressBar } = tab()
    const first = oauth({ redirectUri: REDIRECT, mode: 'redirect' })
    const client = new Client(new StreamableHttpTransport(stack.url, { auth: first }), { clientInfo: { name: 'redirect-test', version: '1' } })
    await client.connect().catch(() => undefined)
    expect(first.$auth.get().status).toBe('required')
    await first.signIn()
    const authorization = new URL(visits.pop()!)
    expect(authorization.origin).toBe(stack.issuer)
    await client.close()

    // At the AS, then on the callback page (a fresh page load in the same tab).
    const callback: URL = await nodeAuthorize(REDIRECT)(authorization)
    expect(handleOAuthCallback(callback.href)).toBe('redirect')
    expect(addressBar.pop()).toBe('/callback')
    expect(visits.pop()).toBe(APP)

    // Back on the app page: a new oauth() finds the answer and redeems it before the first request.
    const tokens = stack.as.stats.token!
    const second = oauth({ redirectUri: REDIRECT, mode: 'redirect' })
    const again = new Client(new StreamableHttpTransport(stack.url, { auth: second }), { clientInfo: { name: 'redirect-test', version: '1' } })
    await again.connect()
    await again.request('tools/list', {})
    expect(stack.as.stats.token).toBe(tokens + 1)
    expect(second.$auth.get()).toMatchObject({ status: 'authorized', issuer: stack.issuer })
    // Nothing of the sign-in is left in the tab's storage.
    expect([...items.keys()]).toEqual([])
    await again.close()
  })

  it('a callback for a sign-in this tab did not start goes to the opener (popup), not into this page', async () => {
    tab()
    const posted: unknown[] = []
    const channel = new BroadcastChannel('nanomcp-oauth')
    const received = new Promise((resolve) => (channel.onmessage = (event) => resolve(posted.push(event.data))))
    const closed: boolean[] = []
    globals.close = () => closed.push(true)
    try {
      expect(handleOAuthCallback(`${REDIRECT}?code=abc&state=unknown&iss=x`)).toBe('popup')
      await received
      expect(posted).toEqual([{ url: `${REDIRECT}?code=abc&state=unknown&iss=x` }])
      expect(closed).toEqual([true])
    } finally {
      channel.close()
      delete globals.close
    }
  })
})
