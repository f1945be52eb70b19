import { AbortError } from '../errors/abort-error'
import type { EventSourceConstructor } from './event-source'
import { networkError } from './response-errors'

/** Options both HTTP transports accept; `legacySse()` hands the same object on. */
export interface HttpTransportOptions {
  /** Replaces the global fetch (tests, proxies, auth middleware). */
  fetch?: typeof fetch
  /** Sent on every request; a function is called per request (e.g. for a fresh access token). */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>)
  /** Largest JSON body, and largest single SSE event, accepted from the server. Default 16 MiB. */
  maxBodyBytes?: number
  /** The EventSource for HTTP+SSE; default `globalThis.EventSource` (Node 20 has none: inject one). */
  EventSource?: EventSourceConstructor
  /** Extra fetch options such as `credentials` or `mode`. */
  requestInit?: Omit<RequestInit, 'body' | 'headers' | 'method' | 'signal'>
}

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024

export const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }

/** fetch with the app's headers under ours; failures before a response become NetworkError or AbortError. */
export async function httpFetch(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  options: HttpTransportOptions,
  signal?: AbortSignal,
): Promise<Response> {
  const headers = new Headers(typeof options.headers === 'function' ? await options.headers() : options.headers)
  for (const [name, value] of Object.entries(init.headers)) headers.set(name, value)
  try {
    return await (options.fetch ?? globalThis.fetch)(url, { ...options.requestInit, ...init, headers, signal })
  } catch (error) {
    if (signal?.aborted) throw new AbortError(signal.reason)
    throw networkError(url, error)
  }
}

/** The media type of a response, without parameters, lower-cased ('' when there is none). */
export const contentType = (response: Response): string =>
  (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()

/** `promise`, or an AbortError as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new AbortError(signal.reason))
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** Waits `ms`, or rejects with AbortError as soon as `signal` aborts (and then the timer is cleared too). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return abortable(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), signal).finally(() => clearTimeout(timer))
}
