// The page at redirect_uri calls handleOAuthCallback(): it takes the AS's answer out of the address bar (codes
// never stay in history) and hands it to whoever started the sign-in.
import { CALLBACK_KEY, CHANNEL, FLOW_KEY } from './keys'

/**
 * Finishes a sign-in on the redirect_uri page. Popup mode: posts the answer to the opening page (BroadcastChannel,
 * same origin) and closes the popup. Redirect mode (this tab started it): keeps the answer for the app page, which
 * redeems it when its oauth() is created, and goes back there. Returns which case it was, 'none' when the URL
 * carries no authorization response.
 */
export function handleOAuthCallback(url: string = location.href): 'popup' | 'redirect' | 'none' {
  const callback = new URL(url)
  const state = callback.searchParams.get('state')
  if (!state && !callback.searchParams.has('error') && !callback.searchParams.has('code')) return 'none'
  history.replaceState(history.state, '', callback.pathname + callback.hash)
  const flow = sessionStorage.getItem(FLOW_KEY + state)
  if (flow) {
    sessionStorage.setItem(CALLBACK_KEY, callback.href)
    const { returnTo } = JSON.parse(flow) as { returnTo?: string }
    location.replace(returnTo ?? '/')
    return 'redirect'
  }
  const channel = new BroadcastChannel(CHANNEL)
  channel.postMessage({ url: callback.href })
  channel.close()
  globalThis.close()
  return 'popup'
}
