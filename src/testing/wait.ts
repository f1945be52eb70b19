// Test helper: waiting on events instead of sleeping or polling.
import type { ReadableAtom } from 'nanostores'

/** Resolves with the store's value as soon as `check` holds (at once when it already does). */
export function when<T>(store: ReadableAtom<T>, check: (value: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    let done = false
    let off: (() => void) | undefined
    off = store.subscribe((value) => {
      if (done || !check(value)) return
      done = true
      resolve(value)
      off?.()
    })
    if (done) off()
  })
}

/** Things that happen, in order, each awaitable before or after it happened. */
export class Arrivals<T> {
  readonly all: T[] = []
  readonly #waiting: { n: number; resolve: (value: T) => void }[] = []

  push(value: T): void {
    this.all.push(value)
    const due = this.#waiting.filter((waiter) => waiter.n < this.all.length)
    for (const waiter of due) {
      this.#waiting.splice(this.#waiting.indexOf(waiter), 1)
      waiter.resolve(this.all[waiter.n]!)
    }
  }

  /** The nth arrival (counting from 0). */
  nth(n: number): Promise<T> {
    if (n < this.all.length) return Promise.resolve(this.all[n]!)
    return new Promise((resolve) => this.#waiting.push({ n, resolve }))
  }

  /** The first arrival for which `check` holds. */
  async find(check: (value: T) => boolean): Promise<T> {
    for (let n = 0; ; n++) {
      const value = await this.nth(n)
      if (check(value)) return value
    }
  }
}
