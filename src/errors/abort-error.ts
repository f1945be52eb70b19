import { McpError } from './mcp-error'

/**
 * Thrown when the caller's `AbortSignal` fires, or when the client or transport is closed while a request
 * is in flight. `reason` is the signal's reason (or a string saying the client closed).
 */
export class AbortError extends McpError {
  override readonly name = 'AbortError'
  readonly reason: unknown

  constructor(reason?: unknown) {
    super(`Request aborted${reason instanceof Error ? `: ${reason.message}` : typeof reason === 'string' ? `: ${reason}` : ''}`)
    this.reason = reason
  }
}
