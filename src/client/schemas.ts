// Shapes of the results nanomcp reads, checked once where the client receives them. Loose objects: servers may
// add fields, and list items are checked one by one by the stores (a bad item must not sink a whole page).
import * as z from 'zod/mini'

// looseObject({}) rather than z.record: the same check for our purpose, and it keeps zod's record parser
// (about half a kilobyte gzipped) out of every app's bundle.
const record = z.looseObject({})
const implementation = z.looseObject({ name: z.string(), version: z.string() })

export const resultObject = record

export const errorObject = z.looseObject({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) })

export const initializeResult = z.looseObject({
  protocolVersion: z.string(),
  capabilities: record,
  serverInfo: implementation,
  instructions: z.optional(z.string()),
})

export const discoverResult = z.looseObject({
  supportedVersions: z.array(z.string()),
  capabilities: record,
  instructions: z.optional(z.string()),
})

const page = (key: string) => z.looseObject({ [key]: z.array(z.unknown()), nextCursor: z.optional(z.string()) })

const taskFields = {
  taskId: z.string(),
  status: z.string(),
  pollIntervalMs: z.optional(z.number()),
}
export const createTaskResult = z.looseObject(taskFields)
export const detailedTask = z.looseObject({
  ...taskFields,
  inputRequests: z.optional(record),
  result: z.optional(record),
  error: z.optional(errorObject),
})

export const inputRequiredResult = z.looseObject({
  inputRequests: z.optional(record),
  requestState: z.optional(z.string()),
})

/** Result shapes by method; methods not listed only need to be objects. */
export const resultSchemas: Record<string, z.ZodMiniType> = {
  initialize: initializeResult,
  'server/discover': discoverResult,
  'tools/list': page('tools'),
  'prompts/list': page('prompts'),
  'resources/list': page('resources'),
  'resources/templates/list': page('resourceTemplates'),
  'tools/call': z.looseObject({ content: z.array(z.looseObject({ type: z.string() })), isError: z.optional(z.boolean()) }),
  'prompts/get': z.looseObject({ messages: z.array(z.looseObject({ role: z.string(), content: record })) }),
  'resources/read': z.looseObject({ contents: z.array(z.looseObject({ uri: z.string() })) }),
  'completion/complete': z.looseObject({ completion: z.looseObject({ values: z.array(z.string()) }) }),
}
