import type { InputRequest } from './types'
import { AbortError } from '../errors/abort-error'
import { InputRequiredError } from '../errors/input-required-error'
import { ProtocolError } from '../errors/protocol-error'
import { sleep } from './abortable'
import { toRpcError } from './to-rpc-error'
import { createTaskResult, detailedTask, resultSchemas } from './schemas'

type Result = Record<string, unknown>

export interface TaskHost {
  /** Sends a 2026-07-28 request (tasks/get, tasks/update, tasks/cancel) and resolves with its result. */
  call(method: string, params: Result, signal: AbortSignal): Promise<Result>
  /** Answers a task's input requests; absent when the app has no onInputRequest handler. */
  answer: ((requests: Record<string, InputRequest>, signal: AbortSignal) => Promise<Result>) | undefined
}

/**
 * Polls a task of the tasks extension (`io.modelcontextprotocol/tasks`) until it ends, honouring the server's
 * `pollIntervalMs` (which may change between polls), and resolves with the tool's result or rejects with the
 * task's error. Input requests are answered once per key (keys are unique for a task's lifetime).
 */
export async function awaitTask(result: Result, signal: AbortSignal, host: TaskHost): Promise<Result> {
  const created = createTaskResult.safeParse(result)
  if (!created.success) throw new ProtocolError('Malformed task result', created.error.issues)
  const { taskId } = created.data
  let interval = created.data.pollIntervalMs ?? 1000
  const answered = new Set<string>()
  try {
    for (;;) {
      await sleep(interval, signal)
      const task = detailedTask.safeParse(await host.call('tasks/get', { taskId }, signal))
      if (!task.success) throw new ProtocolError('Malformed tasks/get result', task.error.issues)
      const { status, inputRequests, error } = task.data
      interval = task.data.pollIntervalMs ?? interval
      if (status === 'completed') {
        const parsed = resultSchemas['tools/call']!.safeParse(task.data.result)
        if (!parsed.success) throw new ProtocolError('Malformed tools/call result in a completed task', parsed.error.issues)
        return task.data.result!
      }
      if (status === 'failed') throw toRpcError(error ?? { code: -32603, message: 'Task failed' })
      if (status === 'cancelled') throw new AbortError('task cancelled by the server')
      const open = Object.fromEntries(Object.entries((inputRequests ?? {}) as Record<string, InputRequest>).filter(([key]) => !answered.has(key)))
      if (status === 'input_required' && Object.keys(open).length) {
        if (!host.answer) throw new InputRequiredError('The task needs input and the client has no onInputRequest handler', open, 1)
        const inputResponses = await host.answer(open, signal)
        for (const key of Object.keys(open)) answered.add(key)
        await host.call('tasks/update', { taskId, inputResponses }, signal)
      }
    }
  } catch (error) {
    // Tasks outlive streams: only tasks/cancel stops the work on the server.
    if (signal.aborted) void host.call('tasks/cancel', { taskId }, AbortSignal.timeout(5000)).catch(() => undefined)
    throw error
  }
}
