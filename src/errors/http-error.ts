import { McpError } from './mcp-error'
import type { JsonRpcErrorObject } from '../transport/types'

/**
 * Thrown by a transport when the server answers with an HTTP status that carries no usable JSON-RPC response
 * (any non-2xx status). Carries the status, the response headers, the raw body text (bounded by the transport's
 * size limit) and, when the body is a JSON-RPC error, that error (`rpcError`), which the client reads to decide
 * the era. `sessionExpired` is true for a 404 on a request that carried `Mcp-Session-Id`.
 */
export class HttpError extends McpError {
  override readonly name = 'HttpError'
  readonly status: number
  readonly headers: Headers
  readonly body: string
  readonly rpcError: JsonRpcErrorObject | undefined
  readonly sessionExpired: boolean

  constructor(
    status: number,
    headers: Headers,
    body: string,
    rpcError?: JsonRpcErrorObject,
    sessionExpired = false,
  ) {
    super(`HTTP ${status}${rpcError ? `: ${rpcError.message} (${rpcError.code})` : body ? `: ${body.slice(0, 200)}` : ''}`)
    this.status = status
    this.headers = headers
    this.body = body
    this.rpcError = rpcError
    this.sessionExpired = sessionExpired
  }
}
