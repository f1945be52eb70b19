// Which shared client a tab asks for: the URL and every option that can reach the worker, apart from what stays in the tab.
import type { ShareKey } from './protocol'
import type { SharedMcpOptions } from './types'

/** An option holding a function anywhere (eraStore, auth) cannot reach the worker; it stays out of the key. */
const cloneable = (value: unknown) => {
  if (typeof value === 'function') return false
  try {
    structuredClone(value)
    return true
  } catch {
    return false
  }
}

/**
 * The key the host matches tabs by, and the `authorize` hook, which stays here: the worker signs in; this
 * hook (Node, tests) does the tab's browser step.
 */
export function shareKey(url: string, options: SharedMcpOptions): { key: ShareKey; authorize: NonNullable<SharedMcpOptions['oauth']>['authorize'] } {
  // Functions stay in the tab (they are called back over the port); everything else is the client's config,
  // and the same config means the same shared client.
  const { modes: _m, worker: _w, workerTimeout: _t, namespace: _n, oauth: oauthOptions, ...rest } = options
  const clientOptions: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(rest)) if (cloneable(value)) clientOptions[name] = value
  const { authorize, ...workerOAuth } = oauthOptions ?? {}
  if (oauthOptions) clientOptions.oauth = workerOAuth
  return { key: { url: new URL(url, globalThis.location?.href).href, options: clientOptions, input: !!options.onInputRequest }, authorize }
}
