// The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) for one tool, `long_job`, answered in front of
// the modern SDK, which has no tasks support of its own: a small scripted server part, as the team rules allow for
// what real servers will not produce. A `tools/call` of long_job from a client that declared the extension gets
// `resultType: "task"`; `tasks/get` reports `working` with a step count in `statusMessage`, then `completed` with
// the tool result; `tasks/cancel` ends it as `cancelled`. Time moves per poll, not per clock, so tests never race.
import { randomUUID } from 'node:crypto'
import * as z from 'zod'
import { sendJson } from './respond.mjs'

const EXTENSION = 'io.modelcontextprotocol/tasks'
const text = (value) => ({ content: [{ type: 'text', text: value }] })

/** Registers long_job on a modern McpServer: what a client that did not declare the extension gets (no task). */
export function registerLongJob(server) {
  server.registerTool(
    'long_job',
    {
      title: 'Long job',
      description: 'Runs as a task (tasks extension) when the client declared it: `steps` polls of work, status per poll.',
      inputSchema: z.object({ steps: z.number().int().min(1).max(50) }),
    },
    async ({ steps }) => text(`long_job ran ${steps} steps without a task (the client did not declare the tasks extension)`),
  )
}

/** The task store and the three methods; `handle` returns true when it answered the request itself. */
export function createTaskFake() {
  const tasks = new Map()
  const view = (task) => ({
    taskId: task.taskId,
    status: task.status,
    statusMessage: task.statusMessage,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: 600_000,
    pollIntervalMs: 150,
  })
  const touch = (task, status, statusMessage) => Object.assign(task, { status, statusMessage, lastUpdatedAt: new Date().toISOString() })

  function answer(method, params) {
    if (method === 'tools/call') {
      const steps = Math.max(1, Math.min(50, Math.trunc(Number(params.arguments?.steps) || 1)))
      const now = new Date().toISOString()
      const task = { taskId: randomUUID(), steps, done: 0, status: 'working', statusMessage: `step 0 of ${steps}`, createdAt: now, lastUpdatedAt: now }
      tasks.set(task.taskId, task)
      return { result: { resultType: 'task', ...view(task) } }
    }
    const task = tasks.get(params.taskId)
    if (!task) return { error: { code: -32602, message: `Unknown task: ${String(params.taskId)}` } }
    if (method === 'tasks/cancel') {
      if (task.status === 'working') touch(task, 'cancelled', `cancelled after ${task.done} of ${task.steps} steps`)
      return { result: { resultType: 'complete' } }
    }
    // tasks/get: one step of work per poll.
    if (task.status === 'working') {
      task.done++
      touch(task, task.done >= task.steps ? 'completed' : 'working', `step ${task.done} of ${task.steps}`)
    }
    const extra = task.status === 'completed' ? { result: text(`long_job finished ${task.steps} steps`) } : {}
    return { result: { resultType: 'complete', ...view(task), ...extra } }
  }

  return {
    handle(req, res, message) {
      if (req.method !== 'POST' || !message || typeof message !== 'object' || message.id === undefined) return false
      const { method, params = {} } = message
      const declared = params._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[EXTENSION]
      const mine = method === 'tasks/get' || method === 'tasks/cancel' || (method === 'tools/call' && params.name === 'long_job' && declared)
      if (!mine) return false
      sendJson(res, 200, { jsonrpc: '2.0', id: message.id, ...answer(method, params) })
      return true
    },
  }
}
