// Every check the client makes on what a server sends, behind one small API (check, checkResult, checkItems,
// fits, checkAnswer), with the zod/mini schemas of src/schemas as the single source of truth. Loose objects:
// servers may add fields, and new kinds of content, capabilities and input requests pass through. The schemas
// of rare messages (a task's, input requests) are loaded on demand, so their checks answer with a promise.
import * as z from 'zod/mini'
import type { JsonRpcResponse } from '../transport/types'
import { ProtocolError } from '../errors/protocol-error'
import { describe, issuesOf, parseWith } from '../schemas/check'
import { coreResultSchemas } from '../schemas/core-methods'
import { DiscoverResultSchema, InitializeResultSchema } from '../schemas/results'
import { ErrorObjectSchema } from '../schemas/tasks'
import { jsonObject, page } from '../schemas/base'
import { ServerNotificationSchema } from '../schemas/notifications'
import type { InputRequest, ServerNotification } from '../schemas/types'
import { load } from '../transport/load'

type Result = Record<string, unknown>

const shapes = {
  initialize: InitializeResultSchema,
  'server/discover': DiscoverResultSchema,
}
type Shapes = typeof shapes

/** List methods and the field that holds a page's items. */
const lists: Record<string, string> = { 'tools/list': 'tools', 'prompts/list': 'prompts', 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates' }
const schemas = coreResultSchemas as Record<string, z.ZodMiniType>
/** Result schemas of methods.ts that the core bundle leaves out, each loaded the first time its method answers. */
const later: Record<string, () => Promise<z.ZodMiniType>> = {
  'tasks/get': () => import('../schemas/task-results').then((m) => m.GetTaskResultSchema),
}

/**
 * A page whose items are only required to be objects: its envelope (the array, `nextCursor`, `ttlMs`,
 * `cacheScope`) is checked here, each item by `checkItems`, so that a caller may drop a bad item instead of the
 * whole page (spec: "drop invalid tools from what tools/list surfaces").
 */
const pages = Object.fromEntries(Object.entries(lists).map(([method, field]) => [method, z.looseObject({ ...page, [field]: z.array(jsonObject) })]))

/** The value, typed, when it has the named shape; else a ProtocolError "Malformed <what>: <path>: <expected>". */
export function check<K extends keyof Shapes>(name: K, value: unknown, what = `${name} result`): z.infer<Shapes[K]> {
  return parseWith(shapes[name], value, what) as z.infer<Shapes[K]>
}

/** Whether a value has the named shape (for answers that may rightly be something else). */
export function fits(name: keyof Shapes, value: unknown): boolean {
  return !issuesOf(shapes[name], value)
}

/**
 * The complete result of `method`, when it has the shape the spec gives it; else a ProtocolError for that
 * request only. List items are left to `checkItems`; a method without a schema (an extension's) only needs to
 * be an object, which `checkAnswer` has seen to. A promise only for a method whose schema loads on demand
 * (`tasks/get`): that load waits within `signal`.
 */
export function checkResult(method: string, result: unknown, signal: AbortSignal, what = `${method} result`): Result | Promise<Result> {
  const schema = pages[method] ?? schemas[method]
  if (schema) return parseWith(schema, result, what) as Result
  const loading = later[method]
  return loading ? load(`${method} schema`, loading, signal).then((schema) => parseWith(schema, result, what) as Result) : (result as Result)
}

/**
 * Checks each item of a list page. Without `onInvalid`, a bad item fails the request naming its path; with it,
 * the item leaves the page and is handed over with the reason (the stores show it beside the valid ones).
 */
export function checkItems(method: string, result: Result, onInvalid?: (item: unknown, reason: string) => void): Result {
  const field = lists[method]
  if (!field) return result
  const items = result[field] as unknown[]
  // The page schema's own array (z.array(ToolSchema) for tools/list), and the item schema in it.
  const array = (schemas[method] as z.ZodMiniObject).def.shape[field] as z.ZodMiniArray<z.ZodMiniType>
  if (!onInvalid) return parseWith(array, items, `${method} result`, `result.${field}`), result
  const kept = items.filter((item, i) => {
    const issues = issuesOf(array.def.element, item)
    if (issues) onInvalid(item, describe(issues, `${field}[${i}]`).join('; '))
    return !issues
  })
  return kept.length === items.length ? result : { ...result, [field]: kept }
}

/** The answer to `method`, when it carries a result object or a well-formed error object (integer `code`). */
export function checkAnswer(method: string, response: JsonRpcResponse): JsonRpcResponse {
  if (response.error !== undefined) parseWith(ErrorObjectSchema, response.error, `error object for ${method}`, 'error')
  else if (issuesOf(jsonObject, response.result)) throw new ProtocolError('invalid-result', `The answer to ${method} has no result object or error`, response)
  return response
}

/**
 * A server notification, typed, before it reaches an app's handler; undefined (and a debug line) when a
 * notification of a known method is malformed. One of an unknown method passes as sent.
 */
export function notification(message: { method: string; params?: unknown }, debug: (message: string, detail?: unknown) => void): ServerNotification | undefined {
  const issues = issuesOf(ServerNotificationSchema, message)
  // The message itself, not zod's copy (see parseWith).
  if (!issues) return message as ServerNotification
  debug(`dropped a malformed ${message.method}: ${describe(issues, 'notification').join('; ')}`, message)
}

/**
 * A legacy server's request for input, typed; a ProtocolError naming the path when it is malformed. Its schemas
 * load on demand, within `signal` (the user's answer that follows is the app's to bound).
 */
export async function inputRequest(request: { method: string; params?: unknown }, signal?: AbortSignal): Promise<InputRequest> {
  return (await load('input-request code', () => import('./input-requests'), signal)).inputRequest(request)
}
