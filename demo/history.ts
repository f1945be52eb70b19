// Request history: every call the user made (tools/call, prompts/get, resources/read, …) with its params, its
// result or error and its time; each can be replayed or copied as JSON. The protocol transcript shows the wire;
// this shows the calls, one row each, however many rounds or retries one took.
import type { Mcp } from '../src/index'
import { h, json } from './dom'

export interface Call {
  method: string
  params: Record<string, unknown>
}

interface Entry extends Call {
  at: number
  ms?: number
  result?: unknown
  error?: string
}

const MAX_ENTRIES = 100

const clock = (at: number) => new Date(at).toLocaleTimeString(undefined, { hour12: false })
const label = ({ method, params }: Call) => {
  const target = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : ''
  return `${method}${target ? ` ${target}` : ''}`
}

export function createHistory(list: HTMLElement, getMcp: () => Mcp | undefined) {
  function row(entry: Entry) {
    const status = h('span', { class: 'badge', 'data-testid': 'history-status' }, 'running')
    const time = h('span', { class: 'elapsed' })
    const body = h('div', { class: 'history-body' }, h('p', { class: 'hint' }, 'params'), h('pre', { 'data-testid': 'history-params' }, json(entry.params)))
    const note = h('span', { class: 'hint', 'aria-live': 'polite' })
    const copy = h('button', { type: 'button', class: 'small' }, 'Copy as JSON')
    const replay = h('button', { type: 'button', class: 'small' }, 'Replay')
    copy.addEventListener('click', () => {
      const text = JSON.stringify({ method: entry.method, params: entry.params, ...(entry.error ? { error: entry.error } : { result: entry.result }), ms: entry.ms }, null, 2)
      navigator.clipboard.writeText(text).then(
        () => (note.textContent = 'Copied.'),
        () => (note.textContent = 'The browser refused the clipboard.'),
      )
    })
    replay.addEventListener('click', () => {
      const mcp = getMcp()
      if (!mcp) return void (note.textContent = 'Not connected.')
      // Untyped on purpose: a replay sends back whatever method and params the entry holds.
      const request = mcp.client.request.bind(mcp.client) as unknown as (method: string, params: Record<string, unknown>, options: { signal?: AbortSignal }) => Promise<unknown>
      record({ method: entry.method, params: entry.params }, (options) => request(entry.method, entry.params, options)).catch(() => undefined)
    })
    const li = h(
      'li',
      { class: 'trace', 'data-testid': 'history-entry' },
      h(
        'details',
        {},
        h('summary', {}, h('span', { class: 'time' }, clock(entry.at)), h('span', { class: 'label' }, label(entry)), status, time),
        body,
        h('div', { class: 'actions' }, replay, copy, note),
      ),
    )
    return {
      li,
      settle() {
        time.textContent = `${Math.round(entry.ms ?? 0)} ms`
        const failed = entry.error !== undefined
        const toolError = !failed && (entry.result as { isError?: unknown } | undefined)?.isError === true
        status.textContent = failed ? 'error' : toolError ? 'isError' : 'ok'
        status.className = `badge ${failed || toolError ? 'badge-sub-closed' : 'badge-sub-acknowledged'}`
        body.append(h('p', { class: 'hint' }, failed ? 'error' : 'result'), h('pre', { 'data-testid': 'history-outcome' }, failed ? entry.error : json(entry.result)))
      },
    }
  }

  /** Runs one call and keeps it in the history; resolves or rejects as the call did. */
  async function record<T>(call: Call, run: (options: { signal?: AbortSignal }) => Promise<T>, options: { signal?: AbortSignal } = {}): Promise<T> {
    const entry: Entry = { ...call, at: Date.now() }
    const view = row(entry)
    list.prepend(view.li)
    while (list.childElementCount > MAX_ENTRIES) list.lastElementChild?.remove()
    const started = performance.now()
    try {
      const result = await run(options)
      entry.result = result
      return result
    } catch (error) {
      entry.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      throw error
    } finally {
      entry.ms = performance.now() - started
      view.settle()
    }
  }

  return { record, clear: () => list.replaceChildren() }
}

export type History = ReturnType<typeof createHistory>
