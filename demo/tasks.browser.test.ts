import { describe, expect, it, vi } from 'vitest'
import type { TraceEvent } from '../src/index'
import { createTaskMonitor } from './tasks'

const out = (id: number, method: string, params: Record<string, unknown>): TraceEvent => ({ direction: 'out', era: 'modern', message: { jsonrpc: '2.0', id, method, params }, at: 0 })
const answer = (id: number, result: unknown): TraceEvent => ({ direction: 'in', era: 'modern', message: { jsonrpc: '2.0', id, result }, at: 0 })
const task = (status: string, statusMessage?: string) => ({ taskId: 't1', status, statusMessage, createdAt: 'x', lastUpdatedAt: 'x', ttlMs: null })

describe('createTaskMonitor', () => {
  it('adds a row when tools/call answers with a task and follows it through tasks/get answers', () => {
    const monitor = createTaskMonitor(async () => ({}))
    monitor.observe(out(1, 'tools/call', { name: 'long_job' }))
    monitor.observe(answer(1, { resultType: 'task', ...task('working', 'step 0 of 2') }))
    expect(monitor.tasks()).toEqual([{ taskId: 't1', tool: 'long_job', status: 'working', statusMessage: 'step 0 of 2' }])
    expect(monitor.element.querySelector('button')?.textContent).toBe('Cancel')

    monitor.observe(out(2, 'tasks/get', { taskId: 't1' }))
    monitor.observe(answer(2, { resultType: 'complete', ...task('completed', 'step 2 of 2'), result: { content: [] } }))
    expect(monitor.tasks()[0]).toMatchObject({ status: 'completed', statusMessage: 'step 2 of 2' })
    expect(monitor.element.querySelector('[data-testid=task-status]')?.textContent).toBe('completed')
    // A finished task cannot be cancelled.
    expect(monitor.element.querySelector('button')).toBeNull()
  })

  it('ignores plain results, answers it did not see asked, and a tasks/get about another task', () => {
    const monitor = createTaskMonitor(async () => ({}))
    monitor.observe(out(1, 'tools/call', { name: 'echo' }))
    monitor.observe(answer(1, { resultType: 'complete', content: [] }))
    monitor.observe(answer(9, { resultType: 'task', ...task('working') }))
    expect(monitor.tasks()).toEqual([])
    monitor.observe(out(2, 'tools/call', { name: 'job' }))
    monitor.observe(answer(2, { resultType: 'task', ...task('working') }))
    monitor.observe(out(3, 'tasks/get', { taskId: 'other' }))
    monitor.observe(answer(3, { resultType: 'complete', ...task('failed') }))
    expect(monitor.tasks()[0]!.status).toBe('working')
  })

  it('Cancel calls back with the task id, and a refusal is shown on the row as text', async () => {
    const cancel = vi.fn(() => Promise.reject(new Error('<b>nope</b>')))
    const monitor = createTaskMonitor(cancel)
    monitor.observe(out(1, 'tools/call', { name: '<img src=x>' }))
    monitor.observe(answer(1, { resultType: 'task', ...task('working', '<i>busy</i>') }))
    expect(monitor.element.querySelector('img, i')).toBeNull()
    expect(monitor.element.textContent).toContain('<img src=x>')
    monitor.element.querySelector('button')!.click()
    expect(cancel).toHaveBeenCalledWith('t1')
    await vi.waitFor(() => expect(monitor.element.querySelector('.error-text')?.textContent).toBe('Could not cancel: <b>nope</b>'))
    expect(monitor.element.querySelector('b')).toBeNull()
    monitor.clear()
    expect(monitor.tasks()).toEqual([])
  })
})
