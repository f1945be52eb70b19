// Every check the client makes on what a server sends, behind one small API (check, checkResult, checkItems,
// fits, checkAnswer), with the zod/mini schemas of src/schemas as the single source of truth. Loose objects:
// servers may add fields, and new kinds of content, capabilities and input requests pass through.
import * as z from 'zod/mini'
import type { JsonRpcResponse } from '../transport/types'
import { ProtocolError } from '../errors/protocol-error'
import { describe, parseWith } from '../schemas/check'
import { resultSchemas } from '../schemas/methods'
import { DiscoverResultSchema, InitializeResultSchema, InputRequiredResultSchema } from '../schemas/results'
import { CreateTaskResultSchema, ErrorObjectSchema, GetTaskResultSchema } from '../schemas/tasks'
import { PromptSchema, ResourceSchema, ResourceTemplateSchema, ToolSchema } from '../schemas/entities'
import { jsonObject, page } from '../schemas/base'
import { ServerNotificationSchema } from '../schemas/notifications'
import { InputRequestSchema } from '../schemas/requests'
import type { InputRequest, ServerNotification } from '../schemas/types'

type Result = Record<string, unknown>

const shapes = {
  initialize: InitializeResultSchema,
  'server/discover': DiscoverResultSchema,
  task: CreateTaskResultSchema,
  'tasks/get': GetTaskResultSchema,
  input_required: InputRequiredResultSchema,
}
type Shapes = typeof shapes

/** List methods: the field that holds a page's items, and the schema of one item. */
const lists: Record<string, [field: string, item: z.ZodMiniType]> = {
  'tools/list': ['tools', ToolSchema],
  'prompts/list': ['prompts', PromptSchema],
  'resources/list': ['resources', ResourceSchema],
  'resources/templates/list': ['resourceTemplates', ResourceTemplateSchema],
}
const entries = Object.entries(lists)

/**
 * A page whose items are only required to be objects: its envelope (the array, `nextCursor`, `ttlMs`,
 * `cacheScope`) is checked here, each item by `checkItems`, so that a caller may drop a bad item instead of the
 * whole page (spec: "drop invalid tools from what tools/list surfaces").
 */
// Items are only looked at here (a zod object would copy each one, and 10,000 tools make that show).
const anObject = z.custom<Result>((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
const pages = Object.fromEntries(entries.map(([method, [field]]) => [method, z.looseObject({ ...page, [field]: z.array(anObject) })]))
/** The item arrays, checked whole. */
const strict = Object.fromEntries(entries.map(([method, [, item]]) => [method, z.array(item)]))

/** The value, typed, when it has the named shape; else a ProtocolError "Malformed <what>: <path>: <expected>". */
export function check<K extends keyof Shapes>(name: K, value: unknown, what = `${name} result`): z.infer<Shapes[K]> {
  return parseWith(shapes[name], value, what) as z.infer<Shapes[K]>
}

/** Whether a value has the named shape (for answers that may rightly be something else). */
export function fits(name: keyof Shapes, value: unknown): boolean {
  return shapes[name].safeParse(value).success
}

/**
 * The complete result of `method`, when it has the shape the spec gives it; else a ProtocolError for that
 * request only. List items are left to `checkItems`; a method without a schema (an extension's) only needs to
 * be an object, which `checkAnswer` has seen to.
 */
export function checkResult(method: string, result: unknown, what = `${method} result`): Result {
  const schema = pages[method] ?? (resultSchemas as Record<string, z.ZodMiniType>)[method]
  return schema ? (parseWith(schema, result, what) as Result) : (result as Result)
}

/**
 * Checks each item of a list page. Without `onInvalid`, a bad item fails the request naming its path; with it,
 * the item leaves the page and is handed over with the reason (the stores show it beside the valid ones).
 */
export function checkItems(method: string, result: Result, onInvalid?: (item: unknown, reason: string) => void): Result {
  const list = lists[method]
  if (!list) return result
  const [field, schema] = list
  const items = result[field] as unknown[]
  if (!onInvalid) return parseWith(strict[method]!, items, `${method} result`, `result.${field}`), result
  const kept = items.filter((item, i) => {
    const verdict = schema.safeParse(item)
    if (!verdict.success) onInvalid(item, describe(verdict.error.issues, `${field}[${i}]`).join('; '))
    return verdict.success
  })
  return kept.length === items.length ? result : { ...result, [field]: kept }
}

/** The answer to `method`, when it carries a result object or a well-formed error object (integer `code`). */
export function checkAnswer(method: string, response: JsonRpcResponse): JsonRpcResponse {
  if (response.error !== undefined) parseWith(ErrorObjectSchema, response.error, `error object for ${method}`, 'error')
  else if (!jsonObject.safeParse(response.result).success) throw new ProtocolError('invalid-result', `The answer to ${method} has no result object or error`, response)
  return response
}

/**
 * A server notification, typed, before it reaches an app's handler; undefined (and a debug line) when a
 * notification of a known method is malformed. One of an unknown method passes as sent.
 */
export function notification(message: { method: string; params?: unknown }, debug: (message: string, detail?: unknown) => void): ServerNotification | undefined {
  const verdict = ServerNotificationSchema.safeParse(message)
  // The message itself, not zod's copy (see parseWith).
  if (verdict.success) return message as ServerNotification
  debug(`dropped a malformed ${message.method}: ${describe(verdict.error.issues, 'notification').join('; ')}`, message)
}

/** A legacy server's request for input, typed; a ProtocolError naming the path when it is malformed. */
export function inputRequest(request: { method: string; params?: unknown }): InputRequest {
  return parseWith(InputRequestSchema, request, `${request.method} request`)
}
