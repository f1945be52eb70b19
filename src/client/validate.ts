// Every check the client makes on what a server sends, behind one small API (checkResult, checkItems,
// checkAnswer, speaks, notification), with the zod/mini schemas of src/schemas as the single source of truth.
// Loose objects: servers may add fields, and new kinds of content, capabilities and input requests pass through.
// What only a malformed or rare message needs loads on demand, so those checks answer with a promise: the words
// of the error (schemas/explain.ts), and the schemas of a task's result and of input requests.
import * as z from 'zod/mini'
import type { JsonRpcResponse } from '../transport/types'
import { ProtocolError } from '../errors/protocol-error'
import { formatPath, issuesOf, malformed } from '../schemas/check'
import type { describe } from '../schemas/explain'
import { coreResultSchemas } from '../schemas/core-methods'
import { DiscoverResultSchema } from '../schemas/results'
import { ErrorObjectSchema, jsonObject, page } from '../schemas/base'
import type { InputRequest, ServerNotification } from '../schemas/types'
import { abortable } from '../transport/http'
import { load } from '../transport/load'
import { noop } from '../transport/pending'

type Result = Record<string, unknown>

/** List methods and the field that holds a page's items. */
export const LISTS = { 'tools/list': 'tools', 'prompts/list': 'prompts', 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates' } as const
const lists: Record<string, string> = LISTS
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

/** The words' chunk once asked for, shared by every message that needs it; forgotten if it failed, to be asked again. */
let explain: Promise<{ describe: typeof describe }> | undefined

/**
 * The words for zod's issues (schemas/explain.ts), waited for at most 2 s (a request without a timeout must not
 * wait on them for good); without them (offline, a chunk gone after a deploy), each issue's path and what zod says
 * was expected. Rejects only with an AbortError, when `signal` aborts; not through load(), whose NetworkError would
 * go unseen.
 */
function words(signal?: AbortSignal): Promise<typeof describe> {
  explain ??= import('../schemas/explain').catch((error: unknown) => {
    explain = undefined
    throw error
  })
  const plain: typeof describe = (issues, root = 'result') => issues.map((issue) => `${formatPath(root, issue.path)}: ${'expected' in issue ? `expected ${issue.expected}` : issue.message}`)
  return abortable(
    abortable(explain, AbortSignal.timeout(2000)).then((chunk) => chunk.describe, () => plain),
    signal,
  )
}

/** The value once the schema accepts it; else a promise rejected with the ProtocolError naming path and expectation. */
function parse<T>(schema: z.ZodMiniType, value: T, what: string, signal?: AbortSignal, root = 'result'): T | Promise<never> {
  const issues = issuesOf(schema, value)
  return issues
    ? words(signal).then((describe) => {
        throw malformed(what, describe(issues, root))
      })
    : value
}

/** Whether a server/discover result says the server speaks `version`. */
export function speaks(result: Result | undefined, version: string): boolean {
  return !issuesOf(DiscoverResultSchema, result) && (result!.supportedVersions as string[]).includes(version)
}

/**
 * The complete result of `method`, when it has the shape the spec gives it; else a ProtocolError for that
 * request only. List items are left to `checkItems`; a method without a schema (an extension's) only needs to
 * be an object, which `checkAnswer` has seen to. A promise for a malformed result (its error waits for its words)
 * and for a method whose schema loads on demand (`tasks/get`); both waits stay within `signal`.
 */
export function checkResult(method: string, value: unknown, signal: AbortSignal, what = `${method} result`): Result | Promise<Result> {
  const result = value as Result
  const schema = pages[method] ?? schemas[method]
  if (schema) return parse(schema, result, what, signal)
  const loading = later[method]
  return loading ? load(`${method} schema`, loading, signal).then((schema) => parse(schema, result, what, signal)) : result
}

/**
 * Checks each item of a list page. Without `onInvalid`, a bad item fails the request naming its path; with it,
 * the item leaves the page and is handed over with the reason (the stores show it beside the valid ones).
 */
export async function checkItems(method: string, result: Result, onInvalid: ((item: unknown, reason: string) => void) | undefined, signal?: AbortSignal): Promise<Result> {
  const field = lists[method]
  if (!field) return result
  const items = result[field] as unknown[]
  // The page schema's own array (z.array(ToolSchema) for tools/list), and the item schema in it.
  const array = (schemas[method] as z.ZodMiniObject).def.shape[field] as z.ZodMiniArray<z.ZodMiniType>
  if (!onInvalid) return await parse(array, items, `${method} result`, signal, `result.${field}`), result
  const bad = items.map((item) => issuesOf(array.def.element, item))
  if (!bad.some(Boolean)) return result
  const describe = await words(signal)
  bad.forEach((issues, i) => issues && onInvalid(items[i], describe(issues, `${field}[${i}]`).join('; ')))
  return { ...result, [field]: items.filter((_, i) => !bad[i]) }
}

/** The answer to `method`, when it carries a result object or a well-formed error object (integer `code`). */
export async function checkAnswer(method: string, response: JsonRpcResponse, signal?: AbortSignal): Promise<JsonRpcResponse> {
  if (response.error !== undefined) await parse(ErrorObjectSchema, response.error, `error object for ${method}`, signal, 'error')
  else if (issuesOf(jsonObject, response.result)) throw new ProtocolError('invalid-result', `The answer to ${method} has no result object or error`, response)
  return response
}

/**
 * A server notification, typed, before it reaches an app's handler; undefined (and a debug line) when it is
 * malformed. `schema` is ServerNotificationSchema, where one of an unknown method passes as sent, in the code that
 * receives notifications (the handshake era's, listen()'s: both loaded on demand, so the core bundle holds no
 * notification schema but those of progress and log messages, which it passes here for `onProgress` and `onLog`).
 * The debug line comes once the error's words have loaded, so it may follow lines written after it.
 */
export function notification(message: { method: string; params?: unknown }, debug: (message: string, detail?: unknown) => void, schema: z.ZodMiniType): ServerNotification | undefined {
  const issues = issuesOf(schema, message)
  // The message itself, not zod's copy (see parseWith in schemas/explain.ts).
  if (!issues) return message as ServerNotification
  words()
    .then((describe) => debug(`dropped a malformed ${message.method}: ${describe(issues, 'notification').join('; ')}`, message))
    .catch(noop)
}

/**
 * A legacy server's request for input, typed; a ProtocolError naming the path when it is malformed. Its schemas
 * load on demand, within `signal` (the user's answer that follows is the app's to bound).
 */
export async function inputRequest(request: { method: string; params?: unknown }, signal?: AbortSignal): Promise<InputRequest> {
  return (await load('input-request code', () => import('./input-requests'), signal)).inputRequest(request)
}
