import { McpError } from './mcp-error'

/** What was wrong with the server's bytes, for code that branches on it (the message is for people). */
export type ProtocolErrorReason =
  /** The body or an SSE event is not JSON. */
  | 'malformed-json'
  /** JSON, but not a JSON-RPC 2.0 message. */
  | 'not-json-rpc'
  /** A response media type the transport cannot read (or a JSON answer with no response for the request). */
  | 'content-type'
  /** A body or a single SSE event over `maxBodyBytes`. */
  | 'too-large'
  /** The stream ended before the final response, or the session stream closed. */
  | 'stream-ended'
  /** A result, error object or server message of the wrong shape. */
  | 'invalid-result'
  /** A request id that is already in flight. */
  | 'duplicate-id'
  /** The server broke the transport's rules (an unexpected 202, a bad `endpoint` event, no EventSource). */
  | 'transport'
  /** A paginated list that did not end (`maxPages`, a repeated cursor). */
  | 'pagination'
  /**
   * HTTP+SSE: no `endpoint` event within `endpointTimeout` (a caller's shorter signal or timeout fires first, as
   * AbortError/TimeoutError). Not a TimeoutError: no request's limit fired, the server missed its deadline.
   */
  | 'no-endpoint'

/**
 * Thrown when the server's bytes are not a valid MCP message where one was due: malformed JSON, a wrong
 * content type, SSE data that is not JSON-RPC, a result of the wrong shape, a body over the size limit, or a
 * stream that ended before the final response. Only the affected request fails. `reason` says which, in a
 * form code can branch on; `detail` holds the offending text or validation issues when there are any.
 */
export class ProtocolError extends McpError {
  override readonly name = 'ProtocolError'
  readonly reason: ProtocolErrorReason
  readonly detail: unknown
  /** The stream ended before the answer (`reason === 'stream-ended'`): the request may be retried. */
  readonly streamClosed: boolean

  constructor(reason: ProtocolErrorReason, message: string, detail?: unknown) {
    super(message)
    this.reason = reason
    this.detail = detail
    this.streamClosed = reason === 'stream-ended'
  }
}
