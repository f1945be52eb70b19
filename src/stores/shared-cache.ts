import type { Pages } from './fetch-pages'

// Lists the server marked `cacheScope: 'public'`, shared by every createMcp instance that runs under the
// public scope, keyed by server URL and method. Private lists never enter it.
const entries = new Map<string, Pages>()

export const sharedCache = {
  get(key: string): Pages | undefined {
    const pages = entries.get(key)
    if (pages && pages.expiresAt <= Date.now()) entries.delete(key)
    else return pages
    return undefined
  },
  set(key: string, pages: Pages): void {
    if (pages.scope === 'public' && pages.expiresAt > Date.now()) entries.set(key, pages)
    else entries.delete(key)
  },
  delete(key: string): void {
    entries.delete(key)
  },
}
