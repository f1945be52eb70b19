// The protocol transcript (every message in and out, from the client's `onTrace`) and the notification log.
import type { TraceEvent } from '../src/index'
import type { HttpAnswer } from './diagnose'
import { clockMs as clock } from './clock'
import { h, isRecord, json } from './dom'

// A listen stream or a chatty server can run for hours; old rows go so the page stays light.
const MAX_ROWS = 300


function describe(message: TraceEvent['message']): { label: string; kind: string } {
  const m = message as Record<string, unknown>
  if (typeof m.method === 'string') {
    const p = isRecord(m.params) ? m.params : {}
    const name = typeof p.name === 'string' ? p.name : typeof p.uri === 'string' ? p.uri : ''
    return { label: `${m.method}${name ? ` ${name}` : ''}${'id' in m ? ` #${String(m.id)}` : ''}`, kind: 'id' in m ? 'request' : 'notification' }
  }
  if (m.error !== undefined) {
    const code = isRecord(m.error) ? m.error.code : undefined
    return { label: `error #${String(m.id)} (${String(code)})`, kind: 'error' }
  }
  const type = isRecord(m.result) && typeof m.result.resultType === 'string' ? ` ${m.result.resultType}` : ''
  return { label: `result #${String(m.id)}${type}`, kind: 'result' }
}

function prepend(list: HTMLElement, row: HTMLElement) {
  list.prepend(row)
  while (list.childElementCount > MAX_ROWS) list.lastElementChild?.remove()
}

export function createTranscript(list: HTMLElement) {
  return {
    add(event: TraceEvent) {
      const { label, kind } = describe(event.message)
      prepend(
        list,
        h(
          'li',
          { class: `trace trace-${kind}` },
          h(
            'details',
            {},
            h(
              'summary',
              {},
              h('span', { class: 'time' }, clock(event.at)),
              h('span', { class: 'dir', title: event.direction === 'out' ? 'sent' : 'received' }, event.direction === 'out' ? '→' : '←'),
              event.era && h('span', { class: `badge badge-${event.era}` }, event.era),
              h('span', { class: 'label' }, label),
              event.elapsed !== undefined && h('span', { class: 'elapsed' }, `${Math.round(event.elapsed)} ms`),
            ),
            h('pre', {}, json(event.message)),
          ),
        ),
      )
    },
    /** A failed HTTP exchange: the JSON-RPC trace never sees these, yet they are often the whole story. */
    addHttp(answer: HttpAnswer) {
      if (answer.status >= 200 && answer.status < 300) return
      const label = answer.status ? `HTTP ${answer.status}${answer.contentType ? ` ${answer.contentType.split(';')[0]}` : ''}` : 'no response'
      prepend(
        list,
        h(
          'li',
          { class: 'trace trace-error trace-http', 'data-testid': 'http-failure' },
          h(
            'details',
            {},
            h(
              'summary',
              {},
              h('span', { class: 'time' }, clock(answer.at)),
              h('span', { class: 'dir', title: 'received' }, '←'),
              h('span', { class: 'badge' }, 'http'),
              h('span', { class: 'label' }, `${label} · ${answer.method} ${answer.url}`),
              h('span', { class: 'elapsed' }, `${Math.round(answer.elapsed)} ms`),
            ),
            h('pre', {}, answer.error ?? (answer.body || '(empty body)')),
          ),
        ),
      )
    },
    clear: () => list.replaceChildren(),
  }
}

export function createNotificationLog(list: HTMLElement) {
  return {
    add(notification: { method: string; params?: Record<string, unknown> }, at = Date.now()) {
      const p = notification.params ?? {}
      const detail = typeof p.uri === 'string' ? p.uri : typeof p.level === 'string' ? `${p.level}: ${json(p.data, 300)}` : ''
      prepend(
        list,
        h(
          'li',
          { class: 'note' },
          h('span', { class: 'time' }, clock(at)),
          h('code', {}, notification.method),
          detail && h('span', { class: 'detail' }, detail),
        ),
      )
    },
    clear: () => list.replaceChildren(),
  }
}
