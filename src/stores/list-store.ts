import { atom, onMount, type ReadableAtom } from 'nanostores'
import { ProtocolError } from '../errors/protocol-error'
import { coalesce } from './coalesce'
import type { Pages } from './fetch-pages'
import { KINDS } from './list-kinds'
import { mergeItems } from './merge-items'
import type { ListKind, ListState } from './types'

export interface ListSource {
  /** Fetches every page (connecting first). */
  load(kind: ListKind): Promise<Pages>
  /** A still-fresh list another createMcp instance may share, or undefined. */
  cached(kind: ListKind): Pages | undefined
  /** Told when the atom gains its first listener and when it loses its last (after nanostores' unmount delay). */
  mounted(kind: ListKind, on: boolean): void
  /** Replaces the server's `ttlMs`. */
  ttlMs: number | undefined
}

export interface ListStore<T> {
  readonly $atom: ReadableAtom<ListState<T>>
  /** Re-fetches now (coalesced); resolves when the run that covers this call has set the atom. Never rejects. */
  refresh(): Promise<void>
  /** A change was announced: re-fetch now if watched, else on the next mount. */
  invalidate(): void
  close(): void
}

// The longest delay setTimeout honours; a TTL beyond it simply never flips `stale` while mounted.
const MAX_DELAY = 2 ** 31 - 1

/**
 * One list atom. Atom updates per event (asserted in create-mcp.test.ts): the first mount sets `loading`
 * before its listener attaches, so a listener sees exactly 1 update, the complete list, however many pages
 * (10,000 tools over 100 pages: 1); a refresh of a mounted list is 2 (loading, list); a burst of change
 * notifications during a refresh is at most 3 (loading, the in-flight list, the queued run's list).
 */
export function createListStore<T extends object>(kind: ListKind, source: ListSource): ListStore<T> {
  const key = KINDS[kind].key
  const $atom = atom<ListState<T>>({ items: [], loading: false, error: undefined, stale: false, updatedAt: 0 })
  let expiresAt = 0
  let mounted = false
  let closed = false
  let timer: ReturnType<typeof setTimeout> | undefined

  const flipWhenExpired = () => {
    clearTimeout(timer)
    const delay = expiresAt - Date.now()
    if (!mounted || delay <= 0 || delay > MAX_DELAY) return
    timer = setTimeout(() => {
      const cur = $atom.value
      // Only the flag changes: the TTL says "re-fetch on next access", never "poll".
      if (!cur.stale && !cur.loading) $atom.set({ ...cur, stale: true })
    }, delay)
  }

  /** Counts announced changes, so a load that started before one can tell its pages are already old. */
  let generation = 0

  const publish = (pages: Pages, loading: boolean, outdated = false) => {
    const now = Date.now()
    expiresAt = outdated ? 0 : source.ttlMs === undefined ? pages.expiresAt : now + source.ttlMs
    const cur = $atom.value
    const state: ListState<T> = {
      items: mergeItems(cur.items, pages.items as T[], (item) => String((item as Record<string, unknown>)[key])),
      loading,
      error: pages.invalid.length
        ? new ProtocolError('invalid-result', `${KINDS[kind].method}: ${pages.invalid.length} invalid item(s) left out`, pages.invalid)
        : undefined,
      // A queued run, or a change announced while this one was loading, means these items are already old.
      stale: loading || outdated,
      updatedAt: now,
    }
    if (pages.invalid.length) state.invalid = pages.invalid
    $atom.set(state)
    flipWhenExpired()
  }

  const runner = coalesce(async () => {
    if (closed) return
    const cur = $atom.value
    if (!cur.loading) {
      const stale = cur.updatedAt > 0 && (cur.stale || Date.now() >= expiresAt)
      $atom.set({ ...cur, loading: true, stale })
    }
    const started = generation
    try {
      const pages = await source.load(kind)
      if (!closed) publish(pages, runner.queued, started !== generation)
    } catch (error) {
      expiresAt = 0
      const last = $atom.value
      // The previous items stay visible (stale) beside the error: the spec allows serving stale data.
      if (!closed) $atom.set({ ...last, loading: runner.queued, stale: last.updatedAt > 0, error: error instanceof Error ? error : new Error(String(error)) })
    }
  })

  onMount($atom, () => {
    mounted = true
    source.mounted(kind, true)
    if (Date.now() < expiresAt) flipWhenExpired()
    else {
      const shared = $atom.value.updatedAt === 0 ? source.cached(kind) : undefined
      if (shared) publish(shared, false)
      else void runner.run()
    }
    return () => {
      mounted = false
      clearTimeout(timer)
      source.mounted(kind, false)
    }
  })

  return {
    $atom,
    refresh: runner.run,
    invalidate() {
      generation++
      expiresAt = 0
      if (mounted) void runner.run()
    },
    close() {
      closed = true
      clearTimeout(timer)
      // A load cut short by close() must not leave the list spinning forever.
      const cur = $atom.value
      if (cur.loading) $atom.set({ ...cur, loading: false })
    },
  }
}
