// The connection panel's OAuth part: what `$auth` says, and the Sign in / Sign out buttons. signIn() runs inside
// the click, because browsers only let a click open the sign-in popup.
import type { AuthState, Mcp } from '../src/index'
import { fill, h } from './dom'
import { renderError } from './render-content'

/** The page at the redirect URI, beside index.html: a relative URL keeps the hosted sub-path build working. */
export const callbackUrl = (href = location.href) => new URL('oauth-callback.html', href).href

const scopes = (state: AuthState) => (state.scopes?.length ? h('span', { class: 'hint' }, ` (scopes: ${state.scopes.join(' ')})`) : '')

export function bindSignIn(target: HTMLElement, mcp: Pick<Mcp, '$auth' | 'signIn' | 'signOut'>): () => void {
  const button = (label: string, testId: string, action: () => Promise<void>) => {
    const b = h('button', { type: 'button', class: 'small', 'data-testid': testId }, label)
    // Failures show in $auth (popup closed, blocked, refused): nothing more to do with the rejection here.
    b.addEventListener('click', () => void action().catch(() => undefined))
    return b
  }
  const signIn = () => button('Sign in', 'sign-in', () => mcp.signIn())
  const stop = mcp.$auth.subscribe((state) => {
    target.hidden = state.status === 'none'
    target.dataset.status = state.status
    const issuer = state.issuer ? h('code', {}, state.issuer) : 'its authorization server'
    if (state.status === 'none') return fill(target)
    if (state.status === 'required') return fill(target, h('p', { 'data-testid': 'auth-state' }, 'This server wants you to sign in at ', issuer, scopes(state), '. '), signIn())
    if (state.status === 'authorizing') return fill(target, h('p', { class: 'busy', 'data-testid': 'auth-state' }, 'Signing in at ', issuer, ': finish in the window that opened…'))
    if (state.status === 'authorized') {
      return fill(target, h('p', { 'data-testid': 'auth-state' }, 'Signed in at ', issuer, scopes(state), '. '), button('Sign out', 'sign-out', () => mcp.signOut()))
    }
    return fill(target, h('p', { 'data-testid': 'auth-state' }, 'Signing in failed. '), state.error ? renderError(state.error) : '', signIn())
  })
  return () => {
    stop()
    fill(target)
    target.hidden = true
  }
}
