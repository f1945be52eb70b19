// What the host asks of this tab's page: answers to input requests (onInputRequest) and OAuth's browser step (popup or authorize hook).
import type { InputRequest } from '../client/types'
import { AbortError } from '../errors/abort-error'
import { OAuthError } from '../errors/oauth-error'
import type { HostMessage, TabMessage } from './protocol'
import { SharedError } from './shared-error'
import type { SharedMcpOptions } from './types'
import { encodeError } from './wire-error'

export interface TabInput {
  answer(message: Extract<HostMessage, { t: 'input' }>): Promise<void>
  authorize(message: Extract<HostMessage, { t: 'authorize' }>): Promise<void>
  /** The host no longer needs input `iid`. */
  drop(iid: number): void
  /** Stops every input in progress (the host went away, or the tab closed). */
  abortAll(reason: SharedError): void
  /** Opens the sign-in popup inside the click, then runs `signIn` on the host, which sends its URL here. */
  signIn(call: (timeout: number) => Promise<void>): Promise<void>
}

export const notConfigured = () => new OAuthError('not_configured', 'No OAuth client: pass createSharedMcp(url, { oauth: { redirectUri } }) to sign in')

export function createTabInput(
  send: (message: TabMessage) => void,
  onInputRequest: SharedMcpOptions['onInputRequest'],
  authorize: NonNullable<SharedMcpOptions['oauth']>['authorize'],
  oauth: boolean,
): TabInput {
  const inputs = new Map<number, AbortController>()
  // The window of the sign-in this tab's click started, until the worker asks for the authorization step.
  let popup: Window | null | undefined

  return {
    async answer(message) {
      const controller = new AbortController()
      inputs.set(message.iid, controller)
      let reply: TabMessage
      try {
        if (!onInputRequest) throw new SharedError('closed', 'This tab has no onInputRequest handler')
        const { method, params, round } = message
        const value = await onInputRequest(message.requests as Record<string, InputRequest>, { method, params, round, signal: controller.signal })
        reply = { t: 'answer', iid: message.iid, ok: true, value }
      } catch (error) {
        reply = { t: 'answer', iid: message.iid, ok: false, error: encodeError(error) }
      }
      if (!inputs.delete(message.iid)) return
      try {
        send(reply)
      } catch (error) {
        send({ t: 'answer', iid: message.iid, ok: false, error: encodeError(new SharedError('not-cloneable', 'The input answer cannot be sent to the shared worker', { cause: error })) })
      }
    },

    /** The worker's sign-in needs the browser: this tab's popup (opened by the click) or its `authorize` hook. */
    async authorize(message) {
      const controller = new AbortController()
      inputs.set(message.iid, controller)
      let reply: TabMessage
      const url = new URL(message.url)
      const window = popup
      popup = undefined
      try {
        let callback: URL | string
        if (authorize) callback = await authorize(url)
        // Loaded now, not with the tab: only a sign-in needs it, and the window is already open.
        else if (window) callback = await (await import('../auth/popup')).waitForPopup(window, url, new Map([[url.searchParams.get('state') ?? '', true]]))
        else throw new OAuthError('interaction_required', 'Sign-in needed: call signIn() from a click in this tab')
        reply = { t: 'answer', iid: message.iid, ok: true, value: { url: String(callback) } }
      } catch (error) {
        window?.close()
        reply = { t: 'answer', iid: message.iid, ok: false, error: encodeError(error) }
      }
      if (inputs.delete(message.iid)) send(reply)
    },

    drop(iid) {
      inputs.get(iid)?.abort(new AbortError('the request no longer needs this input'))
      inputs.delete(iid)
    },

    abortAll(reason) {
      for (const controller of inputs.values()) controller.abort(reason)
      inputs.clear()
    },

    signIn(call) {
      if (!oauth) return Promise.reject(notConfigured())
      // Browsers allow a popup only inside the click: it opens now, blank; the worker's authorization URL fills it.
      if (!authorize) {
        popup?.close()
        popup = globalThis.open?.('about:blank', 'nanomcp-oauth', 'popup,width=500,height=650') ?? null
        if (!popup) return Promise.reject(new OAuthError('popup_blocked', 'The browser blocked the sign-in popup: call signIn() from a click handler'))
      }
      // A long timeout: a person is filling in forms in the popup.
      return call(600_000).finally(() => {
        popup?.close()
        popup = undefined
      })
    },
  }
}
