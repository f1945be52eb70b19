import { McpError } from './mcp-error'

/**
 * Thrown when a part of nanomcp that is fetched only when first needed (the outputSchema validator, the HTTP+SSE
 * transport, the tasks extension, input-request rounds, x-mcp-header validation) cannot be fetched: the app's own
 * server is unreachable, or a deploy removed the file. It says nothing about the MCP server, which may well be
 * healthy; reloading the page usually helps. `part` names the code; `cause` is the bundler's or the browser's error.
 */
export class CodeLoadError extends McpError {
  override readonly name = 'CodeLoadError'
  readonly part: string

  constructor(part: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    super(`nanomcp could not load its ${part} code (${reason}); the MCP server was not involved`, { cause })
    this.part = part
  }
}
