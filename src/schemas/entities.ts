// What a server lists and describes: tools, prompts, resources, templates, capabilities.
import * as z from 'zod/mini'
import { ContentBlockSchema } from './content'
import { annotations, icons, optBool, optInt, optObject, optStr, RoleSchema, str } from './base'

const described = { name: str, title: optStr, description: optStr, icons, _meta: optObject }

/** Tool arguments are always a JSON object, so every revision requires `type: "object"` at the root. */
export const InputSchemaSchema = z.looseObject({ type: z.literal('object') })

/** Untrusted hints (spec: never rely on them unless the server is trusted). */
export const ToolAnnotationsSchema = z.looseObject({
  title: optStr,
  readOnlyHint: optBool,
  destructiveHint: optBool,
  idempotentHint: optBool,
  openWorldHint: optBool,
})

export const ToolSchema = z.looseObject({
  ...described,
  inputSchema: InputSchemaSchema,
  /** 2025-06-18+. Any JSON Schema on 2026-07-28; an object schema before. */
  outputSchema: optObject,
  annotations: z.optional(ToolAnnotationsSchema),
  /** 2025-11-25 only (experimental tasks). */
  execution: z.optional(z.looseObject({ taskSupport: z.optional(z.literal(['forbidden', 'optional', 'required'])) })),
})

export const PromptArgumentSchema = z.looseObject({ name: str, title: optStr, description: optStr, required: optBool })
export const PromptSchema = z.looseObject({ ...described, arguments: z.optional(z.array(PromptArgumentSchema)) })
/** Prompts speak as the user or the assistant; there is no "system" role in any revision. */
export const PromptMessageSchema = z.looseObject({ role: RoleSchema, content: ContentBlockSchema })

export const ResourceSchema = z.looseObject({ ...described, uri: str, mimeType: optStr, size: optInt, annotations })
/** `uriTemplate` is an RFC 6570 template. */
export const ResourceTemplateSchema = z.looseObject({ ...described, uriTemplate: str, mimeType: optStr, annotations })

const listChanged = z.optional(z.looseObject({ listChanged: optBool }))

/**
 * What a server offers. Each known capability is an object (`{}` means "supported"); a capability this library
 * does not know (`extensions` entries, `experimental`, 2025-11-25 `tasks`, or anything newer) is kept as sent.
 */
export const ServerCapabilitiesSchema = z.looseObject({
  tools: listChanged,
  prompts: listChanged,
  resources: z.optional(z.looseObject({ listChanged: optBool, subscribe: optBool })),
  logging: optObject,
  completions: optObject,
  experimental: optObject,
  extensions: optObject,
  tasks: optObject,
})

export const ClientCapabilitiesSchema = z.looseObject({
  roots: optObject,
  sampling: optObject,
  elicitation: optObject,
  experimental: optObject,
  extensions: optObject,
  tasks: optObject,
})
