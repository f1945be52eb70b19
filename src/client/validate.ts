// Every check the client makes on what a server sends, behind one small API (check, checkResult, fits,
// checkAnswer), so the checks themselves can change without touching the code that relies on them.
// Loose objects: servers may add fields, and list items are checked one by one by the stores (a bad item must
// not sink a whole page). A few lines of shape checking rather than a schema library: measured, zod/mini was
// 5.2 KB min+gzip of a 17.4 KB Client + StreamableHttpTransport bundle.
import type { JsonRpcErrorObject, JsonRpcResponse } from '../transport/types'
import type { Implementation, InputRequest } from './types'
import { ProtocolError } from '../errors/protocol-error'
import { isObject } from '../transport/json-rpc'

type Result = Record<string, unknown>

/** Returns what is wrong with a value (a path and an expectation), or undefined when it fits. */
type Check = (value: unknown, path: string) => string | undefined

const is =
  (type: string): Check =>
  (value, path) =>
    typeof value === type ? undefined : `${path}: expected ${type}`

const string = is('string')
const number = is('number')
const boolean = is('boolean')

/** An object with at least these fields; other fields pass through untouched (servers may add their own). */
const object =
  (fields: Record<string, Check> = {}): Check =>
  (value, path) => {
    if (!isObject(value)) return `${path}: expected object`
    for (const [key, check] of Object.entries(fields)) {
      const issue = check(value[key], `${path}.${key}`)
      if (issue) return issue
    }
  }

const array =
  (item?: Check): Check =>
  (value, path) =>
    Array.isArray(value) ? (item ? value.map((v, i) => item(v, `${path}[${i}]`)).find(Boolean) : undefined) : `${path}: expected array`

const optional =
  (check: Check): Check =>
  (value, path) =>
    value === undefined ? undefined : check(value, path)

const record = object()
const error = object({ code: number, message: string })
const page = (key: string) => object({ [key]: array(), nextCursor: optional(string) })
const taskFields = { taskId: string, status: string, pollIntervalMs: optional(number) }

export interface Task {
  taskId: string
  status: string
  pollIntervalMs?: number
}

/** What each named shape promises about a value that passes it. */
export interface Shapes {
  initialize: { protocolVersion: string; capabilities: Result; serverInfo: Implementation; instructions?: string }
  'server/discover': { supportedVersions: string[]; capabilities: Result; instructions?: string }
  task: Task
  'tasks/get': Task & { inputRequests?: Result; result?: Result; error?: JsonRpcErrorObject }
  input_required: { inputRequests?: Record<string, InputRequest>; requestState?: string }
}

const shapes: Record<keyof Shapes, Check> = {
  initialize: object({ protocolVersion: string, capabilities: record, serverInfo: object({ name: string, version: string }), instructions: optional(string) }),
  'server/discover': object({ supportedVersions: array(string), capabilities: record, instructions: optional(string) }),
  task: object(taskFields),
  'tasks/get': object({ ...taskFields, inputRequests: optional(record), result: optional(record), error: optional(error) }),
  input_required: object({ inputRequests: optional(record), requestState: optional(string) }),
}

/** Result shapes by method; methods not listed only need to be objects. */
const results: Record<string, Check> = {
  initialize: shapes.initialize,
  'server/discover': shapes['server/discover'],
  'tools/list': page('tools'),
  'prompts/list': page('prompts'),
  'resources/list': page('resources'),
  'resources/templates/list': page('resourceTemplates'),
  'tools/call': object({ content: array(object({ type: string })), isError: optional(boolean) }),
  'prompts/get': object({ messages: array(object({ role: string, content: record })) }),
  'resources/read': object({ contents: array(object({ uri: string })) }),
  'completion/complete': object({ completion: object({ values: array(string) }) }),
}

function parse<T>(check: Check, value: unknown, what: string): T {
  const issue = check(value, 'result')
  if (issue) throw new ProtocolError('invalid-result', `Malformed ${what}`, [issue])
  return value as T
}

/** The value, typed, when it has the named shape; else a ProtocolError "Malformed <what>" naming the path. */
export function check<K extends keyof Shapes>(name: K, value: unknown, what = `${name} result`): Shapes[K] {
  return parse(shapes[name], value, what)
}

/** Whether a value has the named shape (for answers that may rightly be something else). */
export function fits(name: keyof Shapes, value: unknown): boolean {
  return !shapes[name](value, 'result')
}

/** The result of `method`, when it has the shape the spec gives it; else a ProtocolError for that request only. */
export function checkResult(method: string, result: unknown, what = `${method} result`): Result {
  const shape = results[method]
  return shape ? parse(shape, result, what) : (result as Result)
}

/** The answer to `method`, when it carries a result object or a well-formed error object. */
export function checkAnswer(method: string, response: JsonRpcResponse): JsonRpcResponse {
  if (response.error !== undefined) {
    if (error(response.error, 'error')) throw new ProtocolError('invalid-result', `Malformed error object for ${method}`, response.error)
  } else if (record(response.result, 'result')) {
    throw new ProtocolError('invalid-result', `The answer to ${method} has no result object or error`, response)
  }
  return response
}
