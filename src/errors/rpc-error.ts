import { McpError } from './mcp-error'

/**
 * Thrown when the server answers a request with a JSON-RPC error object (on HTTP 200, or inside an HTTP error
 * the client decided belongs to the caller). Carries the server's `code`, `message` and optional `data` as sent.
 */
export class RpcError extends McpError {
  override readonly name = 'RpcError'
  readonly code: number
  readonly data: unknown

  constructor(code: number, message: string, data?: unknown) {
    super(`${message} (${code})`)
    this.code = code
    this.data = data
  }
}
