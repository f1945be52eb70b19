// Popup mode and handleOAuthCallback() in Chromium: signIn() opens the popup, the real AS (oidc-provider,
// approving at once for the test login hint) redirects it to a callback page on this origin, which hands the
// answer back over BroadcastChannel and closes; then the protected server lists tools with the token.
import { describe, expect, inject, it } from 'vitest'
import { Client } from '../client/client'
import { OAuthError } from '../errors/oauth-error'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { oauth } from './oauth'

const AUTO_LOGIN_HINT = 'nanomcp-auto-approve'
const redirectUri = `${location.origin}/src/auth/testing/callback.html`

describe('oauth() popup mode in a browser', () => {
  it('a 401 asks for signIn(); the popup signs in, the callback page answers, and the request goes through', async (context) => {
    const entry = inject('servers').protected
    // Skipped only in a targeted run whose NANOMCP_SERVERS leaves this server out; npm test starts every server.
    if (!entry) return context.skip()
    const auth = oauth({ redirectUri, authorizationParams: { login_hint: AUTO_LOGIN_HINT }, dpop: true })
    const client = new Client(new StreamableHttpTransport(entry.url, { auth }), { clientInfo: { name: 'popup-test', version: '1' } })
    const first = await client.connect().catch((error: unknown) => error)
    expect(first).toBeInstanceOf(OAuthError)
    expect(auth.$auth.get().status).toBe('required')

    await auth.signIn()
    expect(auth.$auth.get()).toMatchObject({ status: 'authorized', issuer: entry.issuer })
    await client.connect()
    const { tools } = (await client.request('tools/list', {})) as { tools: { name: string }[] }
    expect(tools.map((t) => t.name)).toContain('echo')
    // The code never stays in this page's address bar.
    expect(location.search).not.toContain('code=')
    await client.close()
  })

  it('a popup the browser blocked is reported as popup_blocked', async (context) => {
    const entry = inject('servers').protected
    // Skipped only in a targeted run whose NANOMCP_SERVERS leaves this server out; npm test starts every server.
    if (!entry) return context.skip()
    const auth = oauth({ redirectUri })
    const client = new Client(new StreamableHttpTransport(entry.url, { auth }), { clientInfo: { name: 'popup-test', version: '1' } })
    await client.connect().catch(() => undefined)
    const open = window.open
    window.open = () => null
    try {
      const error = (await auth.signIn().catch((e: unknown) => e)) as OAuthError
      expect(error.code).toBe('popup_blocked')
      expect(auth.$auth.get().status).toBe('error')
    } finally {
      window.open = open
    }
    await client.close()
  })

  it('a popup the user closes before it finishes ends in popup_closed, with nothing stored', async (context) => {
    const entry = inject('servers').protected
    // Skipped only in a targeted run whose NANOMCP_SERVERS leaves this server out; npm test starts every server.
    if (!entry) return context.skip()
    const auth = oauth({ redirectUri })
    const client = new Client(new StreamableHttpTransport(entry.url, { auth }), { clientInfo: { name: 'popup-test', version: '1' } })
    await client.connect().catch(() => undefined)
    // A window that is already closed when the session looks at it (what the user closing it looks like).
    const closedWindow = { closed: true, location: { href: '' }, close: () => undefined } as unknown as Window
    const open = window.open
    window.open = () => closedWindow
    try {
      const error = (await auth.signIn().catch((e: unknown) => e)) as OAuthError
      expect(error.code).toBe('popup_closed')
      expect(auth.$auth.get()).toMatchObject({ status: 'error', error: { code: 'popup_closed' } })
      expect(await auth.headers({ url: entry.url, method: 'POST' })).toEqual({})
    } finally {
      window.open = open
    }
    await client.close()
  })
})
