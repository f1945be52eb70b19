// oauth(): the part of OAuth every app that imports it downloads. It holds `$auth` and forwards to the session
// module, which (with oauth4webapi) is fetched the first time a server answers 401/403 or the user signs in.
import { atom } from 'nanostores'
import { CALLBACK_KEY } from './keys'
import type { AuthState, OAuthClient, OAuthOptions } from './types'
import type { AuthAttachment } from '../transport/types'
import type { Session } from './session'

/**
 * An OAuth 2.1 client for one protected MCP server, to pass as the transport's (or createMcp's) `auth` option.
 * On a 401 it discovers the server's authorization server, registers (pre-registered id, Client ID Metadata
 * Document, or dynamic registration), signs in with PKCE and resends the request. Without an `authorize` hook
 * the sign-in waits for `signIn()`, called from a click (popup or redirect mode), and `$auth.status` says 'required'.
 */
export function oauth(options: OAuthOptions): OAuthClient {
  const $auth = atom<AuthState>({ status: 'none' })
  let session: Session | undefined
  let loading: Promise<Session> | undefined
  // The transports built with this client: their URL lets signIn() start before any request, and sign-out closes
  // the streams they opened with the old token.
  const attached = new Set<AuthAttachment>()
  const load = () => (loading ??= import('./session').then((m) => (session = new m.Session(options, $auth, () => [...attached][0]?.url))))
  // Redirect mode, back from the AS: handleOAuthCallback() left its answer for this page to redeem.
  const resumed =
    typeof sessionStorage !== 'undefined' && sessionStorage.getItem(CALLBACK_KEY)
      ? load().then((s) => s.resume()).catch(() => undefined)
      : undefined
  // Stored tokens (a `storage` option) are only known to the session: it loads with the first request then.
  const active = async () => (await resumed, session || options.storage ? load() : undefined)
  const dropStreams = () => {
    for (const transport of attached) transport.dropStreams()
  }

  return {
    $auth,
    headers: async (request) => (await (await active())?.headers(request)) ?? {},
    response: (response, request) => session?.response(response, request),
    unauthorized: async (response, request) => (await load()).unauthorized(response, request),
    attach(transport) {
      attached.add(transport)
      // A reloaded page with stored tokens is signed in: $auth says so before the first request.
      if (options.storage) void active().then((s) => s?.restore(transport.url)).catch(() => undefined)
    },
    signIn() {
      // Browsers allow a popup only inside the click: it opens now, blank, and the session fills it in later.
      const popup = options.authorize || options.mode === 'redirect' ? undefined : window.open('about:blank', 'nanomcp-oauth', 'popup,width=500,height=650')
      return load().then((s) => s.signIn(popup))
    },
    async signOut() {
      const current = await active()
      if (current) return current.signOut(dropStreams)
      $auth.set({ status: 'none' })
      dropStreams()
    },
  }
}
