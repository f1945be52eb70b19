// Not crypto.randomUUID: it exists only in secure contexts, and shared mode also runs on plain-http intranets.
export const newId = (): string => Math.random().toString(36).slice(2) + Date.now().toString(36)

/** Web Locks, where the page may use them (secure contexts only); undefined elsewhere. */
export const locks = (): LockManager | undefined => (globalThis.navigator as Navigator | undefined)?.locks ?? undefined

/**
 * Holds `name` until `release` is called (or the holder dies). `granted` settles once the lock is really held:
 * a request is asynchronous, and a host that asked for the lock before that would be granted it at once.
 */
export function holdLock(name: string): { release(): void; granted: Promise<void> } {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let granted: Promise<void> = Promise.resolve()
  const manager = locks()
  if (manager)
    granted = new Promise<void>((resolve) => {
      void manager
        .request(name, () => {
          resolve()
          return held
        })
        .catch(() => resolve())
    })
  return { release: () => release(), granted }
}

/** Calls `onFree` once the lock is granted: its holder released it or died. Returns a canceller. */
export function whenFree(name: string, onFree: () => void): () => void {
  const controller = new AbortController()
  void locks()
    ?.request(name, { signal: controller.signal }, () => onFree())
    .catch(() => undefined)
  return () => controller.abort()
}
