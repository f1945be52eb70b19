import type { Tool } from '../schemas/types'
import { AiToolError } from './ai-tool-error'

/**
 * MCP Apps: a tool whose `_meta.ui.visibility` lists who may call it, without "model", is for its app's view
 * only, and the model must not see it. Without the field every tool is the model's.
 */
export function forModel(tool: Tool): boolean {
  const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility
  return !Array.isArray(visibility) || visibility.includes('model')
}

/** Providers take only object schemas for tool input; MCP requires one too, but not every server keeps to it. */
export function objectSchema(tool: Tool): boolean {
  // Parsed JSON: only an object can carry `type` (a string's or an array's is undefined).
  return (tool.inputSchema as { type?: unknown } | null | undefined)?.type === 'object'
}

/** The model-visible tools that pass `filter`; a tool whose input schema is not an object schema joins `skipped`. */
export function usable(tools: readonly Tool[], skipped: AiToolError[], filter: (tool: Tool) => boolean = () => true): Tool[] {
  return tools.filter((t) => forModel(t) && filter(t) && (objectSchema(t) || void skipped.push(new AiToolError('input-schema', t.name, 'inputSchema is no object schema', t.inputSchema))))
}

/**
 * The schema as providers take it: unchanged, except that an object schema without `properties` gets an empty
 * one (OpenAI rejects an object schema without `properties`; `{}` means the same: no named arguments).
 */
export function providerSchema(tool: Tool): Record<string, unknown> {
  const schema = tool.inputSchema as Record<string, unknown>
  return 'properties' in schema ? schema : { ...schema, properties: {} }
}
