// The authorization step (front channel): the authorization URL, popup/redirect, and the callback's state/iss checks; apart so all that reaches the AS via the browser is in one place.
import { AuthorizationResponseError, calculatePKCECodeChallenge, generateRandomCodeVerifier, generateRandomState, validateAuthResponse } from 'oauth4webapi'
import { OAuthError } from '../errors/oauth-error'
import type { DpopProofs } from './dpop'
import { CALLBACK_KEY, FLOW_KEY } from './keys'
import { waitForPopup } from './popup'
import type { Context, PendingFlow } from './session-types'
import type { OAuthOptions } from './types'

export class Authorization {
  readonly #o: OAuthOptions
  readonly #dpop: DpopProofs
  readonly #pending = new Map<string, PendingFlow>()

  constructor(options: OAuthOptions, dpop: DpopProofs) {
    this.#o = options
    this.#dpop = dpop
  }

  /** Builds the authorization URL and remembers the flow under its `state`. */
  async request(context: Context, returnTo?: string): Promise<{ url: URL; flow: PendingFlow }> {
    const { as, client, resource, scopes } = context
    const flow: PendingFlow = {
      state: generateRandomState(),
      verifier: generateRandomCodeVerifier(),
      issuer: as.issuer,
      as,
      client,
      resource,
      scopes,
      server: context.server.href,
      returnTo,
    }
    const url = new URL(as.authorization_endpoint!)
    const query = url.searchParams
    for (const [name, value] of Object.entries(this.#o.authorizationParams ?? {})) query.set(name, value)
    query.set('response_type', 'code')
    query.set('client_id', client.client_id)
    query.set('redirect_uri', this.#o.redirectUri)
    query.set('state', flow.state)
    query.set('code_challenge', await calculatePKCECodeChallenge(flow.verifier))
    query.set('code_challenge_method', 'S256')
    if (scopes.length) query.set('scope', scopes.join(' '))
    if (resource) query.set('resource', resource)
    if (this.#dpop.uses(as)) query.set('dpop_jkt', await (await this.#dpop.handle()).calculateThumbprint())
    this.#pending.set(flow.state, flow)
    return { url, flow }
  }

  /** Popup mode: sends the window the click opened to the AS and waits for this flow's callback. */
  popup(popup: Window, url: URL): Promise<URL> {
    return waitForPopup(popup, url, this.#pending)
  }

  /** Redirect mode: keeps the flow for the page that comes back, then leaves. */
  redirect(url: URL, flow: PendingFlow): void {
    sessionStorage.setItem(`${FLOW_KEY}${flow.state}`, JSON.stringify(flow))
    location.assign(url.href)
  }

  /** Redirect mode, back on the app page: the callback handleOAuthCallback() kept, and its flow, each read once. */
  resumed(): { callback: URL; flow?: PendingFlow } | undefined {
    const saved = sessionStorage.getItem(CALLBACK_KEY)
    sessionStorage.removeItem(CALLBACK_KEY)
    if (!saved) return undefined
    const callback = new URL(saved)
    const key = FLOW_KEY + callback.searchParams.get('state')
    const flow = sessionStorage.getItem(key)
    sessionStorage.removeItem(key)
    return { callback, flow: flow ? (JSON.parse(flow) as PendingFlow) : undefined }
  }

  /** The flow a callback answers, at most once per `state`: a replayed callback finds nothing. */
  take(callback: URL, saved?: PendingFlow): PendingFlow | undefined {
    const state = callback.searchParams.get('state') ?? ''
    const flow = saved ?? this.#pending.get(state)
    this.#pending.delete(state)
    return flow
  }

  /** Forgets every sign-in in progress (sign-out): their callbacks will match nothing. */
  clear(): void {
    this.#pending.clear()
  }
}

/** The callback's parameters for the token request, once `state`, `iss` (RFC 9207) and `error` are checked. */
export function verifyCallback(flow: PendingFlow, callback: URL): URLSearchParams {
  const { as, client } = flow
  try {
    return validateAuthResponse(as, client, callback, flow.state)
  } catch (cause) {
    throw cause instanceof AuthorizationResponseError
      ? new OAuthError('authorization_denied', `${as.issuer} refused the authorization: ${cause.error}`, cause.error, { error_description: cause.error_description })
      : /iss/.test((cause as Error).message)
        ? new OAuthError('iss_mismatch', `The authorization response's iss does not match ${as.issuer} (RFC 9207): its code was not redeemed`, as.issuer)
        : new OAuthError('state_mismatch', `Invalid authorization response: ${(cause as Error).message}`)
  }
}
