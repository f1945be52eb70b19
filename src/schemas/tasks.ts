// Tasks: the 2026-07-28 extension `io.modelcontextprotocol/tasks` (flat results, `ttlMs`/`pollIntervalMs`) and
// 2025-11-25's experimental tasks (`ttl`/`pollInterval`). Both are read by the same schemas.
import * as z from 'zod/mini'
import { int, jsonObject, optInt, optObject, optStr, str } from './base'
import { InputRequestsSchema } from './requests'

export const TaskStatusSchema = z.literal(['working', 'input_required', 'completed', 'failed', 'cancelled'])

/** A JSON-RPC error object; `code` is an integer in every revision. */
export const ErrorObjectSchema = z.looseObject({ code: int, message: str, data: z.optional(z.unknown()) })

const nullableInt = z.optional(z.union([int, z.literal(null)]))
const task = {
  taskId: str,
  status: TaskStatusSchema,
  statusMessage: optStr,
  createdAt: optStr,
  lastUpdatedAt: optStr,
  /** Extension: ms, or null for "no limit". 2025-11-25 calls it `ttl`. */
  ttlMs: nullableInt,
  pollIntervalMs: optInt,
  ttl: nullableInt,
  pollInterval: optInt,
}
export const TaskSchema = z.looseObject(task)

/** Extension: the answer to a `tools/call` the server chose to run as a task (`resultType: "task"`). */
export const CreateTaskResultSchema = z.looseObject({ ...task, resultType: z.literal('task'), _meta: optObject })

/** `tasks/get`: the task plus, by status, what is outstanding, the original result, or the error. */
export const GetTaskResultSchema = z.looseObject({
  ...task,
  resultType: z.optional(z.literal('complete')),
  inputRequests: z.optional(InputRequestsSchema),
  result: z.optional(jsonObject),
  error: z.optional(ErrorObjectSchema),
  _meta: optObject,
})
