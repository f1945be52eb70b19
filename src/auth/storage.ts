// Token storage that survives a reload. Both are readable by any script running on the page: an XSS flaw exposes
// the tokens (OAuth for browser-based apps BCP §8). Memory (the default: no `storage` option) does not outlive the
// page; sessionStorage lives as long as the tab; localStorage until signOut() and is shared by all tabs.
import type { TokenStorage } from './types'

const web = (store: () => Storage): TokenStorage => ({
  get: (key) => store().getItem(key),
  set: (key, value) => store().setItem(key, value),
  delete: (key) => store().removeItem(key),
})

/** Tokens in sessionStorage: kept across reloads (and redirect-mode sign-ins) of this tab only. */
export const sessionTokenStorage = (): TokenStorage => web(() => sessionStorage)

/** Tokens in localStorage: kept until sign-out, shared by every tab of the origin. */
export const localTokenStorage = (): TokenStorage => web(() => localStorage)
