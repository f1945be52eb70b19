// Result schema of every client → server method, for the one place the client checks what comes back.
import { EmptyResultSchema, CallToolResultSchema, CompleteResultSchema, DiscoverResultSchema, GetPromptResultSchema, InitializeResultSchema, ListPromptsResultSchema, ListResourcesResultSchema, ListResourceTemplatesResultSchema, ListToolsResultSchema, ReadResourceResultSchema } from './results'
import type * as z from 'zod/mini'
import { parseWith } from './check'
import { GetTaskResultSchema } from './tasks'

export const resultSchemas = {
  initialize: InitializeResultSchema,
  ping: EmptyResultSchema,
  'server/discover': DiscoverResultSchema,
  'tools/list': ListToolsResultSchema,
  'tools/call': CallToolResultSchema,
  'prompts/list': ListPromptsResultSchema,
  'prompts/get': GetPromptResultSchema,
  'resources/list': ListResourcesResultSchema,
  'resources/templates/list': ListResourceTemplatesResultSchema,
  'resources/read': ReadResourceResultSchema,
  'resources/subscribe': EmptyResultSchema,
  'resources/unsubscribe': EmptyResultSchema,
  'completion/complete': CompleteResultSchema,
  'logging/setLevel': EmptyResultSchema,
  'subscriptions/listen': EmptyResultSchema,
  'tasks/get': GetTaskResultSchema,
  'tasks/update': EmptyResultSchema,
  // 2026-07-28 acknowledges with an empty result, 2025-11-25 answers with the task: both fit a loose object.
  'tasks/cancel': EmptyResultSchema,
}

export type ResultMethod = keyof typeof resultSchemas

/**
 * Checks a complete result of `method` and returns it (unknown fields kept). A method without a schema
 * (an extension's) only needs to be an object, which the transport has already checked.
 * Throws ProtocolError('invalid-result') naming the path, e.g. `result.tools[0].inputSchema: required object`.
 */
export function parseResult<M extends string>(method: M, value: unknown): M extends ResultMethod ? z.infer<(typeof resultSchemas)[M]> : Record<string, unknown> {
  const schema = (resultSchemas as Record<string, z.ZodMiniType>)[method]
  return (schema ? parseWith(schema, value, `${method} result`) : value) as never
}
