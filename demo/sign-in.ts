// The connection panel's OAuth part: what `$auth` says, and the Sign in / Sign out buttons. signIn() runs inside
// the click, because browsers only let a click open the sign-in popup.
import type { AuthState, Mcp } from '../src/index'
import { CALLBACK_PAGE } from './callback-page'
import { fill, h } from './dom'
import { renderError } from './render-content'

/** The page at the redirect URI, under demo/: a URL relative to index.html keeps the hosted sub-path build working. */
export const callbackUrl = (href = location.href) => new URL(CALLBACK_PAGE, href).href

/**
 * The site's Client ID Metadata Document URL, when this page has one: built with DEMO_SITE_URL (see
 * scripts/demo-client-metadata.ts), served beside the page, and naming exactly its own URL as client_id. A build
 * served from another address than it was made for gets undefined (its document's redirect_uris point at the
 * other site), and so does every build without one, which fetches nothing.
 */
export async function siteClientMetadataUrl(href = location.href): Promise<string | undefined> {
  const url = new URL('client-metadata.json', href).href
  if (import.meta.env.DEMO_CLIENT_METADATA_URL !== url) return undefined
  try {
    // The page waits on this before its first client: a static host that stalls must not leave it blank.
    const response = await fetch(url, { credentials: 'omit', signal: AbortSignal.timeout(5000) })
    const published = response.ok ? ((await response.json()) as { client_id?: unknown }) : undefined
    return published?.client_id === url ? url : undefined
  } catch {
    return undefined
  }
}

// Known before the page builds its first client, so a `?url=` link that connects at once already uses it.
const ownClientMetadataUrl = await siteClientMetadataUrl()

/** What the page's oauth() gets: its callback, its name, and its CIMD client id when it has one (else DCR). */
export const oauthOptions = () => ({
  redirectUri: callbackUrl(),
  clientName: 'nanomcp demo',
  ...(ownClientMetadataUrl && { clientMetadataUrl: ownClientMetadataUrl }),
})

const scopes = (state: AuthState) => (state.scopes?.length ? h('span', { class: 'hint' }, ` (scopes: ${state.scopes.join(' ')})`) : '')

/** `onSignedOut` runs once the user's own Sign out has gone through; the panel then stays, with Sign in. */
export function bindSignIn(target: HTMLElement, mcp: Pick<Mcp, '$auth' | 'signIn' | 'signOut'>, onSignedOut: () => void = () => undefined): () => void {
  // `none` after the user's Sign out is "signed out", not "this server needs no sign-in".
  let signedOutAt: string | undefined
  const button = (label: string, testId: string, action: () => Promise<void>) => {
    const b = h('button', { type: 'button', class: 'small', 'data-testid': testId }, label)
    // Failures show in $auth (popup closed, blocked, refused): nothing more to do with the rejection here.
    b.addEventListener('click', () => void action().catch(() => undefined))
    return b
  }
  const signIn = () => button('Sign in', 'sign-in', () => mcp.signIn())
  const stop = mcp.$auth.subscribe((state) => {
    if (state.status === 'none' && signedOutAt !== undefined) {
      target.hidden = false
      target.dataset.status = 'signed-out'
      return fill(target, h('p', { 'data-testid': 'auth-state' }, 'Signed out of ', h('code', {}, signedOutAt), '. '), signIn())
    }
    if (state.status !== 'none') signedOutAt = undefined
    target.hidden = state.status === 'none'
    target.dataset.status = state.status
    const issuer = state.issuer ? h('code', {}, state.issuer) : 'its authorization server'
    if (state.status === 'none') return fill(target)
    if (state.status === 'required') return fill(target, h('p', { 'data-testid': 'auth-state' }, 'This server wants you to sign in at ', issuer, scopes(state), '. '), signIn())
    if (state.status === 'authorizing') return fill(target, h('p', { class: 'busy', 'data-testid': 'auth-state' }, 'Signing in at ', issuer, ': finish in the window that opened…'))
    if (state.status === 'authorized') {
      const signOut = async () => {
        signedOutAt = state.issuer ?? 'its authorization server'
        try {
          await mcp.signOut()
        } catch (error) {
          signedOutAt = undefined
          throw error
        }
        // signOut() resolves after $auth went to none; draw the signed-out panel even if nothing changed.
        if (mcp.$auth.get().status === 'none') {
          target.hidden = false
          target.dataset.status = 'signed-out'
          fill(target, h('p', { 'data-testid': 'auth-state' }, 'Signed out of ', h('code', {}, signedOutAt), '. '), signIn())
        }
        onSignedOut()
      }
      return fill(target, h('p', { 'data-testid': 'auth-state' }, 'Signed in at ', issuer, scopes(state), '. '), button('Sign out', 'sign-out', signOut))
    }
    return fill(target, h('p', { 'data-testid': 'auth-state' }, 'Signing in failed. '), state.error ? renderError(state.error) : '', signIn())
  })
  return () => {
    stop()
    fill(target)
    target.hidden = true
  }
}
