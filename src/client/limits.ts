import { AbortError } from '../errors/abort-error'
import { McpError } from '../errors/mcp-error'
import { TimeoutError } from '../errors/timeout-error'
import { abortable } from '../transport/http'

/** Our own errors (a TimeoutError, a closing client) pass through; anything else an app aborted with is wrapped. */
export function reasonOf(signal: AbortSignal): McpError {
  return signal.reason instanceof McpError ? signal.reason : new AbortError(signal.reason)
}

/**
 * A caller's limits as one signal: it aborts with a TimeoutError naming `what` and the caller's own `timeout`
 * (none when it is not finite), or with an AbortError carrying the reason of the caller's `signal`. `done()`
 * lets go of both.
 */
export function limit(what: string, timeout: number, signal: AbortSignal | undefined): { controller: AbortController; done(): void } {
  const controller = new AbortController()
  const timer = Number.isFinite(timeout) ? setTimeout(() => controller.abort(new TimeoutError(what, timeout)), timeout) : undefined
  // Node: a timer that holds the process open is cleared along with Node's list of timers of its length, and that
  // list and the native timer under it are set up again for the next request: about 10 µs, 2% of a call to a
  // local server. An unref'd timer stays in its list. Nothing is lost: while a request waits, what it waits on (a
  // connection, a port) holds the process open. Browsers have no unref.
  ;(timer as { unref?: () => void } | undefined)?.unref?.()
  const onAbort = () => controller.abort(new AbortError(signal?.reason))
  if (signal?.aborted) onAbort()
  else signal?.addEventListener('abort', onAbort, { once: true })
  return {
    controller,
    done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    },
  }
}

interface Entry<T> {
  promise: Promise<T>
  controller: AbortController
  waiters: number
}

/**
 * Work that several callers wait on at once (one discovery, one session stream). Each waits only as long as
 * its own signal allows; the work runs under a signal of its own that aborts once every caller has stopped
 * waiting, so it is bounded by the most patient caller and never by a default none of them chose.
 */
export class Joinable<T> {
  #current: Entry<T> | undefined

  readonly start: (signal: AbortSignal) => Promise<T>

  constructor(start: (signal: AbortSignal) => Promise<T>) {
    this.start = start
  }

  join(signal: AbortSignal): Promise<T> {
    let current = this.#current
    if (!current) {
      const controller = new AbortController()
      const entry: Entry<T> = { controller, waiters: 0, promise: this.start(controller.signal) }
      void entry.promise.then(
        () => this.#end(entry),
        () => this.#end(entry),
      )
      current = this.#current = entry
    }
    const joined = current
    joined.waiters++
    return abortable(joined.promise, signal)
      .catch((error: unknown) => {
        throw signal.aborted ? reasonOf(signal) : error
      })
      .finally(() => {
        if (--joined.waiters > 0) return
        this.#end(joined)
        joined.controller.abort(new AbortError('every caller gave up'))
      })
  }

  #end(entry: Entry<T>): void {
    if (this.#current === entry) this.#current = undefined
  }
}
