// Every check the client makes on what a server sends, behind one small API (checkResult, checkItems,
// checkAnswer, speaks, notification), with the zod/mini schemas of src/schemas as the single source of truth.
// Loose objects: servers may add fields, and new kinds of content, capabilities and input requests pass through.
import * as z from 'zod/mini'
import type { JsonRpcResponse } from '../transport/types'
import { ProtocolError } from '../errors/protocol-error'
import { issuesOf, malformed } from '../schemas/check'
import { describe } from '../schemas/explain'
import { coreResultSchemas } from '../schemas/core-methods'
import { DiscoverResultSchema } from '../schemas/results'
import { ErrorObjectSchema, jsonObject, page } from '../schemas/base'
import type { InputRequest, ServerNotification } from '../schemas/types'
import { load } from '../transport/load'
import { isObject } from '../transport/json-rpc'

type Result = Record<string, unknown>

/** List methods and the field that holds a page's items. */
export const LISTS = { 'tools/list': 'tools', 'prompts/list': 'prompts', 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates' } as const
const lists: Record<string, string> = LISTS
const schemas = coreResultSchemas as Record<string, z.ZodMiniType>

/**
 * A page whose items are only required to be objects: its envelope (the array, `nextCursor`, `ttlMs`,
 * `cacheScope`) is checked here, each item by `checkItems`, so that a caller may drop a bad item instead of the
 * whole page (spec: "drop invalid tools from what tools/list surfaces").
 */
const pages = Object.fromEntries(Object.entries(lists).map(([method, field]) => [method, z.looseObject({ ...page, [field]: z.array(jsonObject) })]))

/** The value once the schema accepts it; else the ProtocolError naming path and expectation. */
function parse<T>(schema: z.ZodMiniType, value: T, what: string, root = 'result'): T {
  const issues = issuesOf(schema, value)
  if (issues) throw malformed(what, describe(issues, root))
  return value
}

/** Whether a server/discover result says the server speaks `version`. */
export function speaks(result: Result | undefined, version: string): boolean {
  return !issuesOf(DiscoverResultSchema, result) && (result!.supportedVersions as string[]).includes(version)
}

/**
 * The complete result of `method`, when it has the shape the spec gives it; else a ProtocolError for that
 * request only. List items are left to `checkItems`; a method without a schema (an extension's) only needs to
 * be an object, which `checkAnswer` has seen to.
 */
export function checkResult(method: string, value: unknown, what = `${method} result`): Result {
  const schema = pages[method] ?? schemas[method]
  return schema ? parse(schema, value as Result, what) : (value as Result)
}

/**
 * Checks each item of a list page. Without `onInvalid`, a bad item fails the request naming its path; with it,
 * the item leaves the page and is handed over with the reason (the stores show it beside the valid ones).
 */
export function checkItems(method: string, result: Result, onInvalid: ((item: unknown, reason: string) => void) | undefined): Result {
  const field = lists[method]
  if (!field) return result
  const items = result[field] as unknown[]
  // The page schema's own array (z.array(ToolSchema) for tools/list), and the item schema in it.
  const array = (schemas[method] as z.ZodMiniObject).def.shape[field] as z.ZodMiniArray<z.ZodMiniType>
  if (!onInvalid) return parse(array, items, `${method} result`, `result.${field}`), result
  const bad = items.map((item) => issuesOf(array.def.element, item))
  if (!bad.some(Boolean)) return result
  bad.forEach((issues, i) => issues && onInvalid(items[i], describe(issues, `${field}[${i}]`).join('; ')))
  return { ...result, [field]: items.filter((_, i) => !bad[i]) }
}

/** The answer to `method`, when it carries a result object or a well-formed error object (integer `code`). */
export function checkAnswer(method: string, response: JsonRpcResponse): JsonRpcResponse {
  if (response.error !== undefined) parse(ErrorObjectSchema, response.error, `error object for ${method}`, 'error')
  else if (issuesOf(jsonObject, response.result)) throw new ProtocolError('invalid-result', `The answer to ${method} has no result object or error`, response)
  return response
}

/**
 * A server notification, typed, before it reaches an app's handler; undefined (and a debug line) when it is
 * malformed. `schema` is ServerNotificationSchema (where one of an unknown method passes as sent), or the schema of
 * the one kind the caller expects (progress, log messages).
 */
export function notification(message: { method: string; params?: unknown }, debug: (message: string, detail?: unknown) => void, schema: z.ZodMiniType): ServerNotification | undefined {
  const issues = issuesOf(schema, message)
  // The message itself, not zod's copy (see parseWith in schemas/explain.ts).
  if (!issues) return message as ServerNotification
  debug(`dropped a malformed ${message.method}: ${describe(issues, 'notification').join('; ')}`, message)
}

/**
 * A narrower yes than ProgressNotificationSchema's, for a progress notification as servers send it: read field by
 * field, without walking the schema. A stream may carry a hundred thousand of them, and the walk was a tenth of
 * the client's time per event. It never says yes where the schema says no (progress-check.test.ts holds it to
 * that); whatever it turns down goes to the schema, which gives the verdict and the reason.
 */
export function isPlainProgress(message: { method: string; params?: unknown; jsonrpc?: unknown }): boolean {
  const p = message.params as Result
  // Number.isFinite is false for anything but a finite number, as zod's z.number() wants.
  return (
    message.method === 'notifications/progress' &&
    (message.jsonrpc === '2.0' || message.jsonrpc === undefined) &&
    isObject(p) &&
    (typeof p.progressToken === 'string' || Number.isInteger(p.progressToken)) &&
    Number.isFinite(p.progress) &&
    (p.total === undefined || Number.isFinite(p.total)) &&
    (p.message === undefined || typeof p.message === 'string') &&
    (p._meta === undefined || isObject(p._meta))
  )
}

/**
 * A legacy server's request for input, typed; a ProtocolError naming the path when it is malformed. Its schemas
 * load on demand, within `signal` (the user's answer that follows is the app's to bound).
 */
export async function inputRequest(request: { method: string; params?: unknown }, signal?: AbortSignal): Promise<InputRequest> {
  return (await load('input-request', () => import('./input-requests'), signal)).inputRequest(request)
}
