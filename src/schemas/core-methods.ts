// The result schema of each method whose result the client checks the moment it arrives: every method of
// methods.ts but the tasks extension's `tasks/get`, whose schema (with the input requests a task may carry) lives
// with the tasks code, loaded on demand, which checks its own polls. Apart from methods.ts so that the core bundle
// can hold this map without that schema.
import { EmptyResultSchema, CallToolResultSchema, CompleteResultSchema, DiscoverResultSchema, GetPromptResultSchema, InitializeResultSchema, ListPromptsResultSchema, ListResourcesResultSchema, ListResourceTemplatesResultSchema, ListToolsResultSchema, ReadResourceResultSchema } from './results'

export const coreResultSchemas = {
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
  'tasks/update': EmptyResultSchema,
  // 2026-07-28 acknowledges with an empty result, 2025-11-25 answers with the task: both fit a loose object.
  'tasks/cancel': EmptyResultSchema,
}
