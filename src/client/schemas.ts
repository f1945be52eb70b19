// Shapes of the results nanomcp reads, checked once where the client receives them. Loose objects: servers may
// add fields, and list items are checked one by one by the stores (a bad item must not sink a whole page).
import type { Implementation, InputRequest } from './types'
import { array, boolean, number, object, optional, string, type Shape } from './shape'

type Result = Record<string, unknown>
const record = object()

export const resultObject = record

const error = object({ code: number, message: string })
export const errorObject = error as Shape<{ code: number; message: string; data?: unknown }>

export const initializeResult = object({ protocolVersion: string, capabilities: record, serverInfo: object({ name: string, version: string }), instructions: optional(string) }) as Shape<{ protocolVersion: string; capabilities: Result; serverInfo: Implementation; instructions?: string }>

export const discoverResult = object({ supportedVersions: array(string), capabilities: record, instructions: optional(string) }) as Shape<{ supportedVersions: string[]; capabilities: Result; instructions?: string }>

const page = (key: string) => object({ [key]: array(), nextCursor: optional(string) })

const taskFields = { taskId: string, status: string, pollIntervalMs: optional(number) }
interface Task {
  taskId: string
  status: string
  pollIntervalMs?: number
}
export const createTaskResult = object(taskFields) as Shape<Task>
export const detailedTask = object({ ...taskFields, inputRequests: optional(record), result: optional(record), error: optional(error) }) as Shape<Task & { inputRequests?: Result; result?: Result; error?: { code: number; message: string; data?: unknown } }>

export const inputRequiredResult = object({ inputRequests: optional(record), requestState: optional(string) }) as Shape<{ inputRequests?: Record<string, InputRequest>; requestState?: string }>

/** Result shapes by method; methods not listed only need to be objects. */
export const resultSchemas: Record<string, Shape<Result>> = {
  initialize: initializeResult as Shape<Result>,
  'server/discover': discoverResult as Shape<Result>,
  'tools/list': page('tools'),
  'prompts/list': page('prompts'),
  'resources/list': page('resources'),
  'resources/templates/list': page('resourceTemplates'),
  'tools/call': object({ content: array(object({ type: string })), isError: optional(boolean) }),
  'prompts/get': object({ messages: array(object({ role: string, content: record })) }),
  'resources/read': object({ contents: array(object({ uri: string })) }),
  'completion/complete': object({ completion: object({ values: array(string) }) }),
}
