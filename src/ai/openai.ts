// OpenAI's own formats, for apps that call its HTTP API themselves: no dependency, plain objects.
import type { CallToolResult, Tool } from '../schemas/types'
import { asText, toParts } from './content'
import { dataUrl, definitions, omitted, type PlainOptions } from './plain'

export type OpenAiApi = 'chat' | 'responses'

export type OpenAiTool =
  | { type: 'function'; function: { name: string; description?: string; parameters: Record<string, unknown> } }
  | { type: 'function'; name: string; description?: string; parameters: Record<string, unknown>; strict: false }

/**
 * Tool definitions for Chat Completions (`tools` of a chat request) or the Responses API. Schemas go as the
 * server wrote them (`strict: false`: strict mode rejects most real schemas), except that an object schema
 * without `properties` gets an empty one. App-only tools (MCP Apps) are left out.
 */
export function openaiTools(tools: readonly Tool[], options: PlainOptions & { api: OpenAiApi }): OpenAiTool[] {
  return definitions(tools, options).map(({ name, description, parameters }) =>
    options.api === 'chat'
      ? { type: 'function', function: { name, description, parameters } }
      : { type: 'function', name, description, parameters, strict: false },
  )
}

/** Chat Completions: the `tool` message that answers a call. */
export interface OpenAiChatToolMessage {
  role: 'tool'
  tool_call_id: string
  content: string
}

/** Responses API: the `function_call_output` input item that answers a call. */
export interface OpenAiFunctionCallOutput {
  type: 'function_call_output'
  call_id: string
  output: ({ type: 'input_text'; text: string } | { type: 'input_image'; image_url: string } | { type: 'input_file'; file_data: string; filename: string })[]
}

export type OpenAiToolResult = OpenAiChatToolMessage | OpenAiFunctionCallOutput

/**
 * A tool result as the message that answers the model's call: Chat Completions takes text only in a tool
 * message (images are named, not sent); the Responses API takes text, images (as `data:` URLs) and PDFs.
 * OpenAI has no error flag: a result with `isError` starts with "Error:".
 */
export function openaiToolResult(result: CallToolResult, callId: string, options: { api: 'chat' }): OpenAiChatToolMessage
export function openaiToolResult(result: CallToolResult, callId: string, options: { api: 'responses' }): OpenAiFunctionCallOutput
export function openaiToolResult(result: CallToolResult, callId: string, options: { api: OpenAiApi }): OpenAiToolResult
export function openaiToolResult(result: CallToolResult, callId: string, options: { api: OpenAiApi }): OpenAiToolResult {
  const parts = toParts(result)
  if (result.isError) parts.unshift({ kind: 'text', text: 'Error:' })
  if (options.api === 'chat') {
    return { role: 'tool', tool_call_id: callId, content: asText(parts, omitted) }
  }
  const output = parts.map((part) => {
    if (part.kind === 'text') return { type: 'input_text' as const, text: part.text }
    if (part.mediaType.startsWith('image/')) return { type: 'input_image' as const, image_url: dataUrl(part) }
    if (part.mediaType === 'application/pdf') return { type: 'input_file' as const, file_data: dataUrl(part), filename: part.filename ?? 'file.pdf' }
    return { type: 'input_text' as const, text: omitted(part) }
  })
  return { type: 'function_call_output', call_id: callId, output }
}
