// What goes wrong on a Streamable HTTP exchange, as the transport's typed errors.
import { AbortError } from '../errors/abort-error'
import { McpError } from '../errors/mcp-error'
import { NetworkError } from '../errors/network-error'
import { ProtocolError } from '../errors/protocol-error'
import { contentType, isAuthFailure } from './http'
import { httpError } from './response-errors'

/** A GET's answer must be an event stream; anything else is a typed error (and its body is let go). */
export async function expectStream(response: Response, max: number): Promise<void> {
  if (!response.ok) throw await httpError(response, max)
  const type = contentType(response)
  if (type === 'text/event-stream') return
  await response.body?.cancel()
  throw new ProtocolError('content-type', `Expected text/event-stream from GET, got "${type}"`)
}

/** Every failure as one of the transport's typed errors. */
export function typedFailure(url: string, error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return error instanceof AbortError ? error : new AbortError(signal.reason)
  // fetch bodies fail with TypeError ("terminated", "network error") when a connection drops mid-stream.
  return error instanceof McpError || isAuthFailure(error) ? error : new NetworkError(url, error, false)
}
