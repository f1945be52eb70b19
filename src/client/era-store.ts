import type { EraRecord, EraStore } from './types'

/**
 * An EraStore kept in `localStorage` (or any Web Storage), one key per server URL, so a reloaded page goes
 * straight to the handshake of a server it already knows to be legacy. Storage failures (private mode, quota)
 * only cost the saved round trip, so they are swallowed.
 */
export function localStorageEraStore(
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined = globalThis.localStorage,
  prefix = 'nanomcp:era:',
): EraStore {
  return {
    get(url) {
      try {
        const raw = storage?.getItem(prefix + url)
        const record = raw ? (JSON.parse(raw) as EraRecord) : undefined
        return record && (record.era === 'modern' || record.era === 'legacy') ? record : undefined
      } catch {
        return undefined
      }
    },
    set(url, record) {
      try {
        if (record) storage?.setItem(prefix + url, JSON.stringify(record))
        else storage?.removeItem(prefix + url)
      } catch {
        // not worth failing a request over
      }
    },
  }
}
