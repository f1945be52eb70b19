import { McpError } from './mcp-error'

/**
 * Thrown by `client.callTool()` when a tool that declares an `outputSchema` answers with `structuredContent`
 * that does not match it, or with none at all (spec: a tool with an output schema MUST return conforming
 * structured results). Carries the tool's name, the whole result (the app may still show its `content`) and
 * the validator's findings (`instanceLocation`, `keywordLocation`, `error`).
 */
export class OutputSchemaError extends McpError {
  override readonly name = 'OutputSchemaError'
  readonly tool: string
  readonly result: Record<string, unknown>
  readonly errors: readonly { instanceLocation: string; keywordLocation: string; error: string }[]

  constructor(tool: string, result: Record<string, unknown>, errors: OutputSchemaError['errors']) {
    super(`The result of tool "${tool}" does not match its outputSchema${errors[0] ? `: ${errors[0].instanceLocation} ${errors[0].error}` : ''}`)
    this.tool = tool
    this.result = result
    this.errors = errors
  }
}
