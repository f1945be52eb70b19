// The result of every client → server request, by method. Complete results only: the 2026-07-28 interim
// `input_required` result (requests.ts) and the tasks extension's `task` result (task-results.ts) are read
// before these apply.
import * as z from 'zod/mini'
import { cacheable, ImplementationSchema, must, optBool, optInt, optStr, page, result, str } from './base'
import { ContentBlockSchema, ResourceContentsSchema } from './content'
import { PromptMessageSchema, PromptSchema, ResourceSchema, ResourceTemplateSchema, ServerCapabilitiesSchema, ToolSchema } from './entities'

/** An empty acknowledgement (`ping`, `logging/setLevel`, `resources/subscribe`, `tasks/update`, …). */
export const EmptyResultSchema = z.looseObject(result)

/** Legacy revisions only. */
export const InitializeResultSchema = z.looseObject({
  protocolVersion: str,
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
  instructions: optStr,
  _meta: result._meta,
})

/** 2026-07-28 only; the server's own description is in `_meta["io.modelcontextprotocol/serverInfo"]`. */
export const DiscoverResultSchema = z.looseObject({ ...result, ...cacheable, supportedVersions: z.array(str), capabilities: ServerCapabilitiesSchema, instructions: optStr })

export const ListToolsResultSchema = z.looseObject({ ...page, tools: z.array(ToolSchema) })
export const ListPromptsResultSchema = z.looseObject({ ...page, prompts: z.array(PromptSchema) })
export const ListResourcesResultSchema = z.looseObject({ ...page, resources: z.array(ResourceSchema) })
export const ListResourceTemplatesResultSchema = z.looseObject({ ...page, resourceTemplates: z.array(ResourceTemplateSchema) })

/**
 * `isError: true` is a tool-level failure for the model to see, not a protocol error. `structuredContent` is
 * any JSON value on 2026-07-28 (an object before); it is checked against the tool's `outputSchema` by callTool.
 */
export const CallToolResultSchema = z.looseObject({ ...result, content: z.array(ContentBlockSchema), structuredContent: z.optional(z.unknown()), isError: z.optional(z.boolean()) })

export const GetPromptResultSchema = z.looseObject({ ...result, description: optStr, messages: z.array(PromptMessageSchema) })

export const ReadResourceResultSchema = z.looseObject({ ...result, ...cacheable, contents: z.array(ResourceContentsSchema) })

/** At most 100 values per answer (spec: completion). */
export const CompleteResultSchema = z.looseObject({
  ...result,
  completion: z.looseObject({ values: z.array(str).check(must((v: string[]) => v.length <= 100, 'at most 100 values')), total: optInt, hasMore: optBool }),
})

/** 2026-07-28: a graceful end of a listen stream. */
export const SubscriptionsListenResultSchema = EmptyResultSchema
