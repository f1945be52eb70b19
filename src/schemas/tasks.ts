// Tasks: the 2026-07-28 extension `io.modelcontextprotocol/tasks` (flat results, `ttlMs`/`pollIntervalMs`) and
// 2025-11-25's experimental tasks (`ttl`/`pollInterval`). Both are read by the same schemas. A task as status
// notifications carry it lives here; the results of a task's own methods are in task-results.ts.
import * as z from 'zod/mini'
import { int, optInt, optStr, str } from './base'

export const TaskStatusSchema = z.literal(['working', 'input_required', 'completed', 'failed', 'cancelled'])

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
