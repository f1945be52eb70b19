import { abortable } from '../transport/http'
import { noop } from '../transport/pending'

/**
 * Exclusive work on a client (a recall, the probe, a handshake, a new session): while it runs, requests wait for it
 * rather than race it, then look again at where the client stands.
 */
export class Gate {
  #current: Promise<unknown> | undefined

  /** Runs `work` as the exclusive work of the moment; its outcome is the caller's alone. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const promise = work()
    // The gate never rejects: it only says when the exclusive work is over.
    const gate = promise.then(noop, noop)
    this.#current = gate
    void gate.then(() => {
      if (this.#current === gate) this.#current = undefined
    })
    return promise
  }

  /** Whether exclusive work runs now. */
  get busy(): boolean {
    return this.#current !== undefined
  }

  /** Resolves once the exclusive work running now is over; rejects with AbortError as soon as `signal` aborts. */
  pass(signal: AbortSignal): Promise<unknown> {
    return abortable(this.#current ?? Promise.resolve(), signal)
  }
}
