// Anthropic's Messages API formats, for apps that call its HTTP API themselves: no dependency, plain objects.
import type { CallToolResult, Tool } from '../schemas/types'
import { toParts } from './content'
import { definitions, omitted, type PlainOptions } from './plain'

export interface AnthropicTool {
  name: string
  description?: string
  input_schema: Record<string, unknown>
}

/** Tool definitions for the Messages API's `tools`; schemas as the server wrote them. App-only tools are left out. */
export function anthropicTools(tools: readonly Tool[], options: PlainOptions = {}): AnthropicTool[] {
  return definitions(tools, options).map(({ name, description, parameters }) => ({ name, description, input_schema: parameters }))
}

type Base64 = { type: 'base64'; media_type: string; data: string }

export interface AnthropicToolResult {
  type: 'tool_result'
  tool_use_id: string
  content: ({ type: 'text'; text: string } | { type: 'image'; source: Base64 } | { type: 'document'; source: Base64 })[]
  is_error?: true
}

/** The image types the Messages API takes. */
const IMAGES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])

/**
 * A tool result as the `tool_result` block of the next user message: text, images (base64 sources, the API's
 * form; JPEG, PNG, GIF, WebP) and PDFs as documents; other files are named, not sent. `isError` → `is_error`.
 */
export function anthropicToolResult(result: CallToolResult, toolUseId: string): AnthropicToolResult {
  const content = toParts(result).map((part) => {
    if (part.kind === 'text') return { type: 'text' as const, text: part.text }
    const source = { type: 'base64' as const, media_type: part.mediaType, data: part.data }
    if (IMAGES.has(part.mediaType)) return { type: 'image' as const, source }
    if (part.mediaType === 'application/pdf') return { type: 'document' as const, source }
    return { type: 'text' as const, text: omitted(part) }
  })
  return { type: 'tool_result', tool_use_id: toolUseId, content, ...(result.isError && { is_error: true as const }) }
}
