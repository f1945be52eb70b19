// The results of the tasks extension's methods. Apart from tasks.ts because only a client that meets a task
// needs them (with the input requests a task may carry): client/tasks.ts, loaded on demand, checks its polls with
// them, so the core bundle does not carry them.
import * as z from 'zod/mini'
import { jsonObject, optObject } from './base'
import { InputRequestsSchema } from './requests'
import { ErrorObjectSchema } from './base'
import { TaskSchema } from './tasks'

const task = TaskSchema.def.shape

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
