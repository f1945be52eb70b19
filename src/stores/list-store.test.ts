import { afterEach, describe, expect, it, vi } from 'vitest'
import { createListStore, type ListSource } from './list-store'

// nanostores unmounts a store this long after its last listener left.
const UNMOUNT_DELAY = 1000
const turn = () => new Promise((resolve) => setImmediate(resolve))
afterEach(() => void vi.useRealTimers())

const pages = (name: string) => ({ items: [{ name }], invalid: [], expiresAt: Date.now() + 60_000, scope: 'private' as const })

describe('a list store', () => {
  it('does not take pages loaded before an announced change as fresh', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let version = 1
    let release!: () => void
    let loads = 0
    const source: ListSource = {
      ttlMs: undefined,
      cached: () => undefined,
      mounted: () => undefined,
      async load() {
        loads++
        const seen = version
        if (loads === 1) await new Promise<void>((resolve) => (release = resolve))
        return pages(`v${seen}`)
      },
    }
    const store = createListStore<{ name: string }>('tools', source)
    const unbind = store.$atom.listen(() => undefined)
    expect(loads).toBe(1)
    unbind()
    await vi.advanceTimersByTimeAsync(UNMOUNT_DELAY)
    version = 2
    store.invalidate() // list_changed arrives while the first load is still in flight
    release()
    await turn()
    expect(store.$atom.get()).toMatchObject({ items: [{ name: 'v1' }], stale: true })
    const rebind = store.$atom.listen(() => undefined)
    await turn()
    expect(loads).toBe(2)
    expect(store.$atom.get()).toMatchObject({ items: [{ name: 'v2' }], stale: false, loading: false })
    rebind()
  })

  it('close() during a load leaves no list spinning', async () => {
    const source: ListSource = { ttlMs: undefined, cached: () => undefined, mounted: () => undefined, load: () => new Promise(() => undefined) }
    const store = createListStore<{ name: string }>('tools', source)
    const unbind = store.$atom.listen(() => undefined)
    await turn()
    expect(store.$atom.get().loading).toBe(true)
    store.close()
    expect(store.$atom.get().loading).toBe(false)
    unbind()
  })
})
