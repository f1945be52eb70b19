import { AbortError } from '../errors/abort-error'
import { McpError } from '../errors/mcp-error'

/** Our own errors (a TimeoutError, a closing client) pass through; anything else an app aborted with is wrapped. */
export function reasonOf(signal: AbortSignal): McpError {
  return signal.reason instanceof McpError ? signal.reason : new AbortError(signal.reason)
}
