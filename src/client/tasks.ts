// The tasks extension (`io.modelcontextprotocol/tasks`): a tools/call the server runs as a task. modern.ts loads
// this file, with the task schemas, only when a result says `resultType: "task"`; the first poll waits
// `pollIntervalMs` anyway, so the load costs such a call nothing it would notice.
import type { ClientOptions, InputRequest } from './types'
import { AbortError } from '../errors/abort-error'
import { InputRequiredError } from '../errors/input-required-error'
import { parseWith } from '../schemas/explain'
import { CreateTaskResultSchema, GetTaskResultSchema } from '../schemas/task-results'
import { sleep } from '../transport/http'
import { answer } from './input-requests'
import { toRpcError } from './to-rpc-error'
import { checkResult } from './validate'

type Result = Record<string, unknown>

export interface TaskHost {
  /** Sends a 2026-07-28 request (tasks/get, tasks/update, tasks/cancel) and resolves with its result. */
  call(method: string, params: Result, signal: AbortSignal): Promise<Result>
  /** The client's options: its onInputRequest answers a task's input requests. */
  options: ClientOptions
  /** A limit for the tasks/cancel sent after the caller gave up: the client's `timeout`. */
  background(): AbortSignal | undefined
}

/**
 * Polls a task of the tasks extension (`io.modelcontextprotocol/tasks`) until it ends, honouring the server's
 * `pollIntervalMs` (which may change between polls), and resolves with the tool's result or rejects with the
 * task's error. Input requests are answered once per key (keys are unique for a task's lifetime).
 */
export async function awaitTask(result: Result, signal: AbortSignal, host: TaskHost): Promise<Result> {
  const { taskId, pollIntervalMs } = parseWith(CreateTaskResultSchema, result, 'task result')
  let interval = pollIntervalMs ?? 1000
  const answered = new Set<string>()
  try {
    for (;;) {
      await sleep(interval, signal)
      const task = parseWith(GetTaskResultSchema, await host.call('tasks/get', { taskId }, signal), 'tasks/get result')
      const { status, inputRequests, error } = task
      interval = task.pollIntervalMs ?? interval
      if (status === 'completed') return checkResult('tools/call', task.result, 'tools/call result in a completed task')
      if (status === 'failed') throw toRpcError(error ?? { code: -32603, message: 'Task failed' })
      if (status === 'cancelled') throw new AbortError('task cancelled by the server')
      const open = Object.fromEntries(Object.entries((inputRequests ?? {}) as Record<string, InputRequest>).filter(([key]) => !answered.has(key)))
      if (status === 'input_required' && Object.keys(open).length) {
        if (!host.options.onInputRequest) throw new InputRequiredError('The task needs input and the client has no onInputRequest handler', open, 1)
        const inputResponses = await answer(host.options, open, { method: 'tools/call', params: { taskId }, round: 1, signal })
        for (const key of Object.keys(open)) answered.add(key)
        await host.call('tasks/update', { taskId, inputResponses }, signal)
      }
    }
  } catch (error) {
    // Tasks outlive streams: only tasks/cancel stops the work on the server.
    if (signal.aborted) void host.call('tasks/cancel', { taskId }, host.background() ?? new AbortController().signal).catch(() => undefined)
    throw error
  }
}
