// What the model reads back from an MCP tool call, in the AI SDK's v7 tool output: `content` parts (text, and
// files with their media type), or `error-text` when the server says the call failed (`isError`): the model
// sees the failure and can recover, where a thrown exception would end the step.
import type { ToolResultPart } from 'ai'
import type { CallToolResult } from '../schemas/types'
import { asText, toParts } from './content'

export function toModelOutput(result: CallToolResult): ToolResultPart['output'] {
  const parts = toParts(result)
  if (result.isError) return { type: 'error-text', value: asText(parts) }
  return {
    type: 'content',
    value: parts.map((part) =>
      part.kind === 'text'
        ? { type: 'text' as const, text: part.text }
        : { type: 'file' as const, data: { type: 'data' as const, data: part.data }, mediaType: part.mediaType, filename: part.filename },
    ),
  }
}
