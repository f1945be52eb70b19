// Popup mode: the window was opened (blank) synchronously by signIn() inside the click; here it is sent to the
// AS and watched until the callback page answers on the BroadcastChannel or the user closes it.
import { OAuthError } from '../errors/oauth-error'
import { CHANNEL } from './keys'

// How often a closed popup is looked for, and how long an answer may trail the close (the callback page
// posts, then closes itself).
const POLL_MS = 500
const GRACE_MS = 1_000

export function waitForPopup(popup: Window, url: URL, pending: ReadonlyMap<string, unknown>): Promise<URL> {
  popup.location.href = url.href
  const channel = new BroadcastChannel(CHANNEL)
  let poll: ReturnType<typeof setInterval> | undefined
  let grace: ReturnType<typeof setTimeout> | undefined
  return new Promise<URL>((resolve, reject) => {
    channel.onmessage = (event: MessageEvent<{ url?: string }>) => {
      const callback = typeof event.data?.url === 'string' ? new URL(event.data.url) : undefined
      // Another tab's sign-in answers on the same channel: only this flow's state is ours.
      if (callback && pending.has(callback.searchParams.get('state') ?? '')) resolve(callback)
    }
    poll = setInterval(() => {
      if (!popup.closed || grace) return
      grace = setTimeout(() => reject(new OAuthError('popup_closed', 'The sign-in window was closed before it finished')), GRACE_MS)
    }, POLL_MS)
  }).finally(() => {
    clearInterval(poll)
    clearTimeout(grace)
    channel.close()
  })
}
