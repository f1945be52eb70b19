import { McpError } from './mcp-error'

/** What a cross-origin MCP server must allow and expose for a browser client to work. */
export const CORS_ALLOW_HEADERS =
  'Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*, Mcp-Session-Id, Authorization, Last-Event-ID'
export const CORS_EXPOSE_HEADERS = 'Mcp-Session-Id, WWW-Authenticate'

/**
 * Thrown when a request fails before any HTTP response arrives: connection refused, DNS, a reset, or (in a
 * browser) a CORS preflight the server refused, which fetch only reports as an opaque `TypeError`. Then
 * `possibleCors` is true and the message names the headers the server must allow and expose.
 * `cause` is the original error.
 */
export class NetworkError extends McpError {
  override readonly name = 'NetworkError'
  readonly url: string
  readonly possibleCors: boolean

  constructor(url: string, cause: unknown, possibleCors: boolean) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    super(
      possibleCors
        ? `Could not reach ${url} (${reason}). If the server is on another origin, it must answer CORS preflights ` +
            `allowing the headers ${CORS_ALLOW_HEADERS} and the methods GET, POST, DELETE, and expose ${CORS_EXPOSE_HEADERS}.`
        : `Could not reach ${url}: ${reason}`,
      { cause },
    )
    this.url = url
    this.possibleCors = possibleCors
  }
}
