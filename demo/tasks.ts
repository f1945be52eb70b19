// The Tasks card: every tool call the server chose to run as a task (tasks extension, 2026-07-28), with its
// status and status message as the library's polls see them, and a Cancel button while it runs.
//
// The library polls `tasks/get` to the end inside `callTool`, so the page learns of each task from the protocol
// trace (the `resultType: "task"` answer, then each `tasks/get` result) rather than from a second poller of its
// own: one poll loop, and the card shows exactly what went over the wire. Tasks have no progress notifications
// (the extension says so); `statusMessage` is how a server reports how far it got.
import type { TraceEvent } from '../src/index'
import { h, isRecord } from './dom'

const TERMINAL = new Set(['completed', 'failed', 'cancelled'])

export interface TaskRow {
  taskId: string
  tool: string
  status: string
  statusMessage?: string
}

export interface TaskMonitor {
  element: HTMLElement
  /** Feed it every trace event (the client's `onTrace`). */
  observe(event: TraceEvent): void
  tasks(): TaskRow[]
  clear(): void
}

/** `cancel(taskId)` sends `tasks/cancel`; its failure is shown on the row. */
export function createTaskMonitor(cancel: (taskId: string) => Promise<unknown>): TaskMonitor {
  const rows = new Map<string, TaskRow>()
  // Request id → what the request was, so an answer (which names no method) can be read.
  const sent = new Map<unknown, { method: string; tool?: string; taskId?: string }>()
  const problems = new Map<string, string>()
  const list = h('ol', { class: 'log', 'data-testid': 'tasks' })

  const render = () => {
    list.replaceChildren(
      ...(rows.size
        ? [...rows.values()].map((row) =>
            h(
              'li',
              { 'data-testid': 'task', 'data-status': row.status },
              h('strong', {}, row.tool),
              ' ',
              h('span', { class: `badge badge-task-${row.status}`, 'data-testid': 'task-status' }, row.status),
              row.statusMessage && h('span', { 'data-testid': 'task-message' }, ` ${row.statusMessage}`),
              h('br'),
              h('code', { class: 'hint' }, row.taskId),
              ' ',
              !TERMINAL.has(row.status) &&
                h('button', { type: 'button', class: 'small', 'aria-label': `Cancel task ${row.taskId}`, onclick: () => requestCancel(row.taskId) }, 'Cancel'),
              problems.has(row.taskId) && h('p', { class: 'error-text' }, problems.get(row.taskId)!),
            ),
          )
        : [h('li', { class: 'hint' }, 'No tasks yet: tools the server runs as tasks show here while they run.')]),
    )
  }
  const requestCancel = (taskId: string) => {
    problems.delete(taskId)
    cancel(taskId).catch((error: unknown) => {
      problems.set(taskId, `Could not cancel: ${error instanceof Error ? error.message : String(error)}`)
      render()
    })
  }
  const update = (taskId: string, fields: Partial<TaskRow>) => {
    const row = rows.get(taskId)
    if (!row) return
    Object.assign(row, fields)
    render()
  }

  render()
  return {
    element: h(
      'section',
      { class: 'card tasks', 'aria-labelledby': 'tasks-title' },
      h('h2', { id: 'tasks-title' }, 'Tasks'),
      list,
    ),
    observe({ direction, message }) {
      if (direction === 'out') {
        if (!('id' in message) || !('method' in message)) return
        const params = isRecord(message.params) ? message.params : {}
        sent.set(message.id, { method: message.method, tool: typeof params.name === 'string' ? params.name : undefined, taskId: typeof params.taskId === 'string' ? params.taskId : undefined })
        return
      }
      if (!('id' in message) || 'method' in message) return
      const request = sent.get(message.id)
      if (!request) return
      sent.delete(message.id)
      const result = isRecord(message.result) ? message.result : undefined
      if (!result || typeof result.taskId !== 'string' || typeof result.status !== 'string') return
      const statusMessage = typeof result.statusMessage === 'string' ? result.statusMessage : undefined
      if (request.method === 'tools/call' && result.resultType === 'task') {
        rows.set(result.taskId, { taskId: result.taskId, tool: request.tool ?? '?', status: result.status, statusMessage })
        render()
      } else if (request.method === 'tasks/get' && request.taskId === result.taskId) {
        update(result.taskId, { status: result.status, statusMessage })
      }
    },
    tasks: () => [...rows.values()].map((row) => ({ ...row })),
    clear() {
      rows.clear()
      sent.clear()
      problems.clear()
      render()
    },
  }
}
