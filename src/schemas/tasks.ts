// Tasks: the 2026-07-28 extension `io.modelcontextprotocol/tasks` (flat results, `ttlMs`/`pollIntervalMs`) and
// 2025-11-25's experimental tasks (`ttl`/`pollInterval`). Both are read by the same schemas. Only what every app
// needs lives here (a task as status notifications carry it, the JSON-RPC error object); the results of a task's
// own methods are in task-results.ts, which the client loads on demand.
import * as z from 'zod/mini'
import { int, optInt, optStr, str } from './base'

export const TaskStatusSchema = z.literal(['working', 'input_required', 'completed', 'failed', 'cancelled'])

/** A JSON-RPC error object; `code` is an integer in every revision. */
export const ErrorObjectSchema = z.looseObject({ code: int, message: str, data: z.optional(z.unknown()) })

const nullableInt = z.optional(z.union([int, z.literal(null)]))
export const TaskSchema = z.looseObject({
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
})
