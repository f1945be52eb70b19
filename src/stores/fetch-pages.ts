import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import type { KindSpec } from './list-kinds'

/**
 * Sends one page request; items the client finds invalid (against their schemas) go to `onInvalid` instead of
 * failing the page, so every item of the page it resolves with is an object of the right shape.
 */
export type Requester = (method: string, params: Record<string, unknown>, onInvalid: (item: unknown, reason: string) => void) => Promise<Record<string, unknown>>

export interface Pages {
  items: Record<string, unknown>[]
  invalid: { item: unknown; reason: string }[]
  /** When the earliest page expires (`Date.now()` scale); a page without `ttlMs` is stale at once. */
  expiresAt: number
  /** `public` only when every page said so. */
  scope: 'public' | 'private'
}

const show = (cursor: string) => JSON.stringify(cursor.length > 80 ? `${cursor.slice(0, 80)}…` : cursor)

/**
 * Follows `nextCursor` to the end and returns every valid item. A repeated cursor or more than `maxPages`
 * pages is a ProtocolError rather than an endless loop; a cursor the server no longer accepts (-32602)
 * restarts the list once, as the spec asks.
 */
export async function fetchPages(request: Requester, spec: KindSpec, maxPages: number): Promise<Pages> {
  try {
    return await fetchOnce(request, spec, maxPages)
  } catch (error) {
    if (!(error instanceof CursorRejected)) throw error
  }
  try {
    return await fetchOnce(request, spec, maxPages)
  } catch (error) {
    throw error instanceof CursorRejected ? error.error : error
  }
}

/** Internal: a page's cursor was refused, so the list may be restarted from the first page. */
class CursorRejected extends Error {
  readonly error: RpcError
  constructor(error: RpcError) {
    super(error.message)
    this.error = error
  }
}

async function fetchOnce(request: Requester, spec: KindSpec, maxPages: number): Promise<Pages> {
  const { method, field, key } = spec
  const items: Record<string, unknown>[] = []
  const invalid: Pages['invalid'] = []
  const keys = new Set<unknown>()
  const seen = new Set<string>()
  let expiresAt = Infinity
  let scope: Pages['scope'] = 'public'
  let cursor: string | undefined
  for (let page = 1; ; page++) {
    if (page > maxPages) throw new ProtocolError('pagination', `${method} did not end within ${maxPages} pages (maxPages)`)
    let result: Record<string, unknown>
    try {
      result = await request(method, cursor === undefined ? {} : { cursor }, (item, reason) => invalid.push({ item, reason }))
    } catch (error) {
      throw cursor !== undefined && error instanceof RpcError && error.code === -32602 ? new CursorRejected(error) : error
    }
    const list = result[field]
    if (!Array.isArray(list)) throw new ProtocolError('invalid-result', `${method} page ${page} has no "${field}" array`, result)
    for (const item of list as Record<string, unknown>[]) {
      const id = item[key]
      if (keys.has(id)) invalid.push({ item, reason: `duplicate ${key} ${JSON.stringify(id)}` })
      else {
        keys.add(id)
        items.push(item)
      }
    }
    const ttl = result.ttlMs
    expiresAt = Math.min(expiresAt, Date.now() + (typeof ttl === 'number' && ttl > 0 ? ttl : 0))
    if (result.cacheScope !== 'public') scope = 'private'
    const next = result.nextCursor
    // Only absence ends a list: an empty string is a valid cursor.
    if (next === undefined || next === null) return { items, invalid, expiresAt, scope }
    if (typeof next !== 'string') throw new ProtocolError('invalid-result', `${method} page ${page} has a nextCursor that is not a string`, next)
    if (seen.has(next)) throw new ProtocolError('pagination', `${method} repeated the cursor ${show(next)} on page ${page}: the list would never end`)
    seen.add(next)
    cursor = next
  }
}
