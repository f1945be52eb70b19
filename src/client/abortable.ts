import { AbortError } from '../errors/abort-error'
import { McpError } from '../errors/mcp-error'

/** Rejects with the signal's reason as soon as it fires, so a caller never waits on work it gave up on. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(reasonOf(signal))
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reasonOf(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** Our own errors (a TimeoutError, a closing client) pass through; anything else an app aborted with is wrapped. */
export function reasonOf(signal: AbortSignal): McpError {
  return signal.reason instanceof McpError ? signal.reason : new AbortError(signal.reason)
}

/** Waits `ms`, or less when the signal fires (then rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return abortable(new Promise((resolve) => setTimeout(resolve, ms)), signal)
}
