// Shapes of the results nanomcp reads, checked once where the client receives them. Loose objects: servers may
// add fields, and list items are checked one by one by the stores (a bad item must not sink a whole page).
import type { Implementation, InputRequest } from './types'
import { array, boolean, number, object, optional, shape, string, type Shape } from './shape'

type Result = Record<string, unknown>
const record = object()

export const resultObject = shape<Result>(record)

const error = object({ code: number, message: string })
export const errorObject = shape<{ code: number; message: string; data?: unknown }>(error)

export const initializeResult = shape<{ protocolVersion: string; capabilities: Result; serverInfo: Implementation; instructions?: string }>(
  object({ protocolVersion: string, capabilities: record, serverInfo: object({ name: string, version: string }), instructions: optional(string) }),
)

export const discoverResult = shape<{ supportedVersions: string[]; capabilities: Result; instructions?: string }>(
  object({ supportedVersions: array(string), capabilities: record, instructions: optional(string) }),
)

const page = (key: string) => shape<Result>(object({ [key]: array(), nextCursor: optional(string) }))

const taskFields = { taskId: string, status: string, pollIntervalMs: optional(number) }
interface Task {
  taskId: string
  status: string
  pollIntervalMs?: number
}
export const createTaskResult = shape<Task>(object(taskFields))
export const detailedTask = shape<Task & { inputRequests?: Result; result?: Result; error?: { code: number; message: string; data?: unknown } }>(
  object({ ...taskFields, inputRequests: optional(record), result: optional(record), error: optional(error) }),
)

export const inputRequiredResult = shape<{ inputRequests?: Record<string, InputRequest>; requestState?: string }>(
  object({ inputRequests: optional(record), requestState: optional(string) }),
)

/** Result shapes by method; methods not listed only need to be objects. */
export const resultSchemas: Record<string, Shape<Result>> = {
  initialize: initializeResult as Shape<Result>,
  'server/discover': discoverResult as Shape<Result>,
  'tools/list': page('tools'),
  'prompts/list': page('prompts'),
  'resources/list': page('resources'),
  'resources/templates/list': page('resourceTemplates'),
  'tools/call': shape(object({ content: array(object({ type: string })), isError: optional(boolean) })),
  'prompts/get': shape(object({ messages: array(object({ role: string, content: record })) })),
  'resources/read': shape(object({ contents: array(object({ uri: string })) })),
  'completion/complete': shape(object({ completion: object({ values: array(string) }) })),
}
