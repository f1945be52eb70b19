import { McpError } from '../errors/mcp-error'

/** Why one MCP tool could not be handed to a model, or one call of it could not go through. */
export type AiToolErrorReason =
  /** The tool's `inputSchema` is not a JSON Schema object with `type: "object"` (providers accept nothing else). */
  | 'input-schema'
  /** The tool's name has no character a provider accepts (`[a-zA-Z0-9_-]`), so no provider name can stand for it. */
  | 'name'
  /** The result holds a content block of a type this library does not know; `detail` is the block. */
  | 'unsupported-content'
  /** The call needs the user's approval and none was given, so nothing was sent to the server. */
  | 'approval-required'

/**
 * Thrown (or reported through `onSkip`) for one tool only: the rest of the tool set keeps working. Left out of
 * the set: a tool whose schema or name cannot reach a provider. From a call (the AI SDK shows it to the model as
 * the call's error): a result with unknown content, a call that needed approval. Carries the MCP tool's name, a
 * machine-readable `reason` and what was at fault (`detail`).
 */
export class AiToolError extends McpError {
  override readonly name = 'AiToolError'
  declare readonly reason: AiToolErrorReason
  declare readonly tool: string
  declare readonly detail: unknown

  constructor(reason: AiToolErrorReason, tool: string, message: string, detail?: unknown) {
    super(`Tool "${tool}": ${message}`)
    this.reason = reason
    this.tool = tool
    this.detail = detail
  }
}
