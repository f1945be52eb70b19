// Request history: every call the user made (tools/call, prompts/get, resources/read, …) with its params, its
// result or error and its time; each can be replayed or copied as JSON. The protocol transcript shows the wire;
// this shows the calls, one row each, however many rounds or retries one took.
import { AbortError, type Mcp } from '../src/index'
import { clock } from './clock'
import { h, json } from './dom'
import { reveal } from './reveal'

export interface Call {
  method: string
  params: Record<string, unknown>
}

interface Entry extends Call {
  at: number
  ms?: number
  result?: unknown
  error?: string
  /** Aborted (the user's Cancel, or a disconnect): an outcome of its own, not a failure of the server. */
  cancelled?: boolean
}

const MAX_ENTRIES = 100

const label = ({ method, params }: Call) => {
  const target = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : ''
  return `${method}${target ? ` ${target}` : ''}`
}

/** What "Copy as JSON" puts on the clipboard: whole milliseconds, since the rest is timer noise. */
export function entryJson(entry: Entry): string {
  const outcome = entry.cancelled ? { cancelled: true, error: entry.error } : entry.error !== undefined ? { error: entry.error } : { result: entry.result }
  return JSON.stringify({ method: entry.method, params: entry.params, ...outcome, ms: entry.ms === undefined ? undefined : Math.round(entry.ms) }, null, 2)
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
      navigator.clipboard.writeText(entryJson(entry)).then(
        () => (note.textContent = 'Copied.'),
        () => (note.textContent = 'The browser refused the clipboard.'),
      )
    })
    replay.addEventListener('click', () => {
      const mcp = getMcp()
      if (!mcp) return void (note.textContent = 'Not connected.')
      // Untyped on purpose: a replay sends back whatever method and params the entry holds.
      const request = mcp.client.request.bind(mcp.client) as unknown as (method: string, params: Record<string, unknown>, options: { signal?: AbortSignal }) => Promise<unknown>
      note.textContent = 'Replaying: its result opens at the top of the history.'
      const again = record({ method: entry.method, params: entry.params }, (options) => request(entry.method, entry.params, options), {}, true)
      again.then(
        () => (note.textContent = 'Replayed: the result is open at the top of the history.'),
        () => (note.textContent = 'Replayed: it failed; the error is open at the top of the history.'),
      )
    })
    const details = h(
      'details',
      {},
      h('summary', {}, h('span', { class: 'time' }, clock(entry.at)), h('span', { class: 'label' }, label(entry)), status, time),
      body,
      h('div', { class: 'actions' }, replay, copy, note),
    )
    const li = h('li', { class: 'trace', 'data-testid': 'history-entry' }, details)
    return {
      li,
      details,
      settle() {
        time.textContent = `${Math.round(entry.ms ?? 0)} ms`
        const failed = entry.error !== undefined
        const toolError = !failed && (entry.result as { isError?: unknown } | undefined)?.isError === true
        status.textContent = entry.cancelled ? 'cancelled' : failed ? 'error' : toolError ? 'isError' : 'ok'
        status.className = `badge ${entry.cancelled ? 'badge-cancelled' : failed || toolError ? 'badge-sub-closed' : 'badge-sub-acknowledged'}`
        body.append(
          h('p', { class: 'hint' }, entry.cancelled ? 'cancelled' : failed ? 'error' : 'result'),
          h('pre', { 'data-testid': 'history-outcome' }, failed ? entry.error : json(entry.result)),
        )
      },
    }
  }

  /**
   * Runs one call and keeps it in the history; resolves or rejects as the call did. A replay opens its own entry
   * and brings it into view: the user is looking at the history, not at the detail pane.
   */
  async function record<T>(call: Call, run: (options: { signal?: AbortSignal }) => Promise<T>, options: { signal?: AbortSignal } = {}, replayed = false): Promise<T> {
    const entry: Entry = { ...call, at: Date.now() }
    const view = row(entry)
    list.prepend(view.li)
    while (list.childElementCount > MAX_ENTRIES) list.lastElementChild?.remove()
    if (replayed) {
      view.li.classList.add('replayed')
      view.details.open = true
      list.scrollTop = 0
      reveal(view.li)
    }
    const started = performance.now()
    try {
      const result = await run(options)
      entry.result = result
      return result
    } catch (error) {
      entry.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      entry.cancelled = error instanceof AbortError
      throw error
    } finally {
      entry.ms = performance.now() - started
      view.settle()
      if (replayed) reveal(view.li)
    }
  }

  return { record, clear: () => list.replaceChildren() }
}

export type History = ReturnType<typeof createHistory>
