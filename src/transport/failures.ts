// What goes wrong on a Streamable HTTP exchange, as the transport's typed errors.
import { AbortError } from '../errors/abort-error'
import { McpError } from '../errors/mcp-error'
import { NetworkError } from '../errors/network-error'
import { isAuthFailure } from './http'

/** Every failure as one of the transport's typed errors. */
export function typedFailure(url: string, error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return error instanceof AbortError ? error : new AbortError(signal.reason)
  // fetch bodies fail with TypeError ("terminated", "network error") when a connection drops mid-stream.
  return error instanceof McpError || isAuthFailure(error) ? error : new NetworkError(url, error, false)
}
