import { McpError } from './mcp-error'

/**
 * An app broke the protocol. `malformed`: a message that is not JSON-RPC 2.0 (answered with -32600 when it has
 * an id; the view goes on, the error stays in `$state.error`). `flood`: size changes faster than any layout
 * needs (a resize loop); the view is removed and `$state` is `error`. Carries the problem and the offending
 * message, as data.
 */
export class AppProtocolError extends McpError {
  override readonly name = 'AppProtocolError'
  declare readonly problem: 'malformed' | 'flood'
  declare readonly data: unknown

  constructor(problem: 'malformed' | 'flood', message: string, data?: unknown) {
    super(message)
    this.problem = problem
    this.data = data
  }
}
