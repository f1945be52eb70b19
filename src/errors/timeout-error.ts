import { McpError } from './mcp-error'

/**
 * Thrown when a request (or a subscription's acknowledgement) does not complete within its timeout.
 * Carries the method and the limit in milliseconds. The request's stream has been closed by then.
 */
export class TimeoutError extends McpError {
  override readonly name = 'TimeoutError'
  readonly method: string
  readonly timeout: number

  constructor(method: string, timeout: number) {
    super(`${method} timed out after ${timeout} ms`)
    this.method = method
    this.timeout = timeout
  }
}
