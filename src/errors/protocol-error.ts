import { McpError } from './mcp-error'

/**
 * Thrown when the server's bytes are not a valid MCP message where one was due: malformed JSON, a wrong
 * content type, SSE data that is not JSON-RPC, a result of the wrong shape, a body over the size limit, or a
 * stream that ended before the final response (`streamClosed: true`). Only the affected request fails.
 * `detail` holds the offending text or validation issues when there are any.
 */
export class ProtocolError extends McpError {
  readonly detail: unknown
  readonly streamClosed: boolean

  constructor(message: string, detail?: unknown, streamClosed = false) {
    super(message)
    this.detail = detail
    this.streamClosed = streamClosed
  }
}
