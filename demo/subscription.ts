// The Subscription card: the state of the page's notification stream and what the server promised to tell it.
import type { SubscriptionState } from '../src/index'
import { byId, fill, h } from './dom'
import { renderError } from './render-content'

export function renderSubscription(state: SubscriptionState | undefined) {
  const target = byId('subscription')
  if (!state) return fill(target, h('p', { class: 'hint' }, 'None open yet: it opens while the lists are on screen.'))
  const badge = h('span', { class: `badge badge-sub-${state.status}`, 'data-testid': 'subscription-status' }, state.status)
  if (state.status === 'opening') return fill(target, badge, ` attempt ${state.attempt}`)
  if (state.status === 'closed') {
    return fill(target, badge, ` by the ${state.reason}`, state.message && h('p', {}, state.message), state.error && renderError(state.error))
  }
  const honoured = Object.entries(state.notifications).filter(([, v]) => v === true || (Array.isArray(v) && v.length))
  fill(
    target,
    badge,
    h('p', { class: 'hint' }, 'The server will tell the page about:'),
    h('ul', { class: 'chips' }, honoured.map(([k, v]) => h('li', { class: 'chip' }, Array.isArray(v) ? `${k}: ${v.join(', ')}` : k))),
  )
}
