import { deepEqual } from './deep-equal'

/**
 * Returns `next`, except that every item equal to the one with the same key in `prev` is replaced by that
 * previous object, so UI frameworks comparing by `===` re-render only what changed. When nothing changed at
 * all (same keys, same order, same contents) `prev` itself comes back.
 */
export function mergeItems<T extends object>(prev: readonly T[], next: T[], key: (item: T) => string): readonly T[] {
  if (prev.length === 0) return next
  const byKey = new Map<string, T>()
  for (const item of prev) byKey.set(key(item), item)
  let same = prev.length === next.length
  for (let i = 0; i < next.length; i++) {
    const item = next[i] as T
    const old = byKey.get(key(item))
    if (old !== undefined && deepEqual(old, item)) next[i] = old
    if (next[i] !== prev[i]) same = false
  }
  return same ? prev : next
}
