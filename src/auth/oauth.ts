// oauth(): the part of OAuth every app that imports it downloads. It only holds `$auth` and forwards to the
// session module, which (with oauth4webapi) is fetched the first time a server answers 401/403 or the user signs in.
import { atom } from 'nanostores'
import { OAuthError } from '../errors/oauth-error'
import { CALLBACK_KEY, FLOW_KEY, serverOf, tokenKey } from './keys'
import type { AuthState, OAuthClient, OAuthOptions } from './types'
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
  const load = () =>
    (loading ??= import('./session').then((m) => (session = new m.Session(options, $auth, tokenKey))))
  // Any failure is shown in $auth as well as thrown.
  const track = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      if (error instanceof OAuthError && $auth.get().error !== error) {
        $auth.set({ ...$auth.get(), status: error.code === 'interaction_required' ? 'required' : 'error', error })
      }
      throw error
    }
  }
  const resumed = resume(load).catch(() => undefined)

  return {
    $auth,
    async headers(request) {
      await resumed
      if (!session && !(await options.storage?.get(tokenKey(serverOf(request.url))))) return {}
      return (await load()).headers(request)
    },
    response: (response, request) => session?.response(response, request),
    unauthorized: (response, request) => track(async () => (await load()).unauthorized(response, request)),
    signIn() {
      const { authorize, mode } = options
      if (authorize) return track(async () => (await load()).signInWith(authorize))
      if (mode === 'redirect') return track(async () => (await load()).signInWithRedirect())
      // Browsers allow a popup only inside the click: it opens now, blank, and the session fills it in later.
      const popup = window.open('about:blank', 'nanomcp-oauth', 'popup,width=500,height=650')
      return track(async () => (await load()).signInWithPopup(popup)).catch((error) => {
        popup?.close()
        throw error
      })
    },
    async signOut() {
      await resumed
      if (session || options.storage) await (await load()).signOut()
      $auth.set({ status: 'none' })
    },
  }
}

/** Redirect mode, back on the app page: handleOAuthCallback() left the AS's answer in sessionStorage. */
async function resume(load: () => Promise<Session>): Promise<void> {
  const saved = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(CALLBACK_KEY)
  if (!saved) return
  sessionStorage.removeItem(CALLBACK_KEY)
  const callback = new URL(saved)
  const key = FLOW_KEY + callback.searchParams.get('state')
  const flow = sessionStorage.getItem(key)
  sessionStorage.removeItem(key)
  await (await load()).complete(callback, flow ? JSON.parse(flow) : undefined)
}
