import { HttpError } from '../errors/http-error'
import { NetworkError } from '../errors/network-error'
import type { JsonRpcErrorObject } from './types'
import { readText } from './read-body'

/**
 * The error for a fetch that failed before any response. A browser reports a refused CORS preflight only as
 * a TypeError, so a TypeError towards another origin is flagged as a possible CORS problem. `location` is
 * compared rather than `window` sniffed: workers have one too, and Node has none.
 */
export function networkError(url: string, cause: unknown): NetworkError {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin
  return new NetworkError(url, cause, cause instanceof TypeError && isCrossOrigin(url, origin))
}

/** Whether `url` is on another origin than `origin` (a page's or worker's); never in Node, where there is none. */
export function isCrossOrigin(url: string, origin: string | undefined): boolean {
  // An opaque origin ("null": sandboxed frames, file: pages) makes every request cross-origin.
  return origin !== undefined && (origin === 'null' || new URL(url, origin).origin !== origin)
}

/** The error for a non-2xx response, with its (bounded) body and the JSON-RPC error in it, if any. */
export async function httpError(response: Response, maxBytes: number, sessionExpired = false): Promise<HttpError> {
  const body = await readText(response, maxBytes, true).catch(() => '')
  let rpcError: JsonRpcErrorObject | undefined
  try {
    const error = (JSON.parse(body) as { error?: JsonRpcErrorObject }).error
    if (typeof error?.code === 'number' && typeof error.message === 'string') rpcError = error
  } catch {
    // Not JSON: the body text is all there is.
  }
  return new HttpError(response.status, response.headers, body, rpcError, sessionExpired)
}
