// Result schema of every client → server method (nanomcp/schemas, and the types of client.request()). The client
// checks results with the same schemas: core-methods.ts's as each arrives, `tasks/get`'s in the tasks code.
import type * as z from 'zod/mini'
import { parseWith } from './explain'
import { coreResultSchemas } from './core-methods'
import { GetTaskResultSchema } from './task-results'

export const resultSchemas = { ...coreResultSchemas, 'tasks/get': GetTaskResultSchema }

export type ResultMethod = keyof typeof resultSchemas

/**
 * Checks a complete result of `method` and returns it (unknown fields kept). A method without a schema
 * (an extension's) only needs to be an object, which the transport has already checked.
 * Throws ProtocolError('invalid-result') naming the path, e.g. `result.tools[0].inputSchema: required object`.
 */
export function parseResult<M extends string>(method: M, value: unknown): M extends ResultMethod ? z.infer<(typeof resultSchemas)[M]> : Record<string, unknown> {
  const schema = (resultSchemas as Record<string, z.ZodMiniType>)[method]
  return (schema ? parseWith(schema, value, `${method} result`) : value) as never
}
