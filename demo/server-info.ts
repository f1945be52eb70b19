// What the server said about itself: era and revision badges, name and version, capabilities, instructions.
import type { Mcp, ServerState } from '../src/index'
import { fill, h, isRecord, json } from './dom'
import { renderMarkdown } from './markdown'

/** "tools (listChanged)", "resources (subscribe, listChanged)", … from the capabilities object. */
function capabilityChips(capabilities: Record<string, unknown>) {
  return Object.entries(capabilities).map(([name, value]) => {
    const flags = isRecord(value) ? Object.keys(value).filter((k) => value[k] === true || isRecord(value[k])) : []
    return h('li', { class: 'chip' }, name, flags.length > 0 && h('span', { class: 'flags' }, ` (${flags.join(', ')})`))
  })
}

/** Health: a ping on older servers; on 2026-07-28, what server/discover says now. */
function health(server: ServerState, mcp: Mcp) {
  const out = h('div', { class: 'health', 'data-testid': 'health', 'aria-live': 'polite' })
  const request = mcp.client.request.bind(mcp.client) as unknown as (method: string, params: Record<string, unknown>, options: { timeout: number }) => Promise<unknown>
  const ping = async () => {
    const started = performance.now()
    try {
      await request('ping', {}, { timeout: 10_000 })
      fill(out, h('p', { class: 'hint' }, `Answered ping in ${Math.round(performance.now() - started)} ms.`))
    } catch (error) {
      fill(out, h('p', { class: 'error-text' }, `Ping failed: ${error instanceof Error ? error.message : String(error)}`))
    }
  }
  const discover = async () => {
    try {
      const result = await request('server/discover', {}, { timeout: 10_000 })
      fill(out, h('details', { open: true }, h('summary', {}, 'server/discover'), h('pre', {}, json(result))))
    } catch (error) {
      fill(out, h('p', { class: 'error-text' }, `server/discover failed: ${error instanceof Error ? error.message : String(error)}`))
    }
  }
  const button =
    server.era === 'legacy'
      ? h('button', { type: 'button', class: 'small', onclick: () => void ping() }, 'Ping')
      : h('button', { type: 'button', class: 'small', onclick: () => void discover() }, 'Ask server/discover')
  return [h('div', { class: 'actions' }, button), out]
}

export function renderServerInfo(root: HTMLElement, server: ServerState, transport: string, mcp?: Mcp) {
  const info = server.serverInfo
  fill(
    root,
    h(
      'div',
      { class: 'server-head' },
      h('h2', { 'data-testid': 'server-name' }, info ? info.title || info.name : 'Unnamed server'),
      info?.version && h('span', { class: 'version' }, `v${info.version}`),
      h('span', { class: `badge badge-${server.era}`, 'data-testid': 'era' }, server.era),
      h('span', { class: 'badge badge-revision', 'data-testid': 'revision' }, server.protocolVersion),
      h('span', { class: 'badge badge-transport' }, transport),
    ),
    server.era === 'legacy' &&
      h(
        'p',
        { class: 'hint' },
        `The server predates 2026-07-28, so nanomcp fell back to the initialize handshake and speaks ${server.protocolVersion}.`,
      ),
    h('h3', {}, 'Capabilities'),
    Object.keys(server.capabilities).length
      ? h('ul', { class: 'chips', 'data-testid': 'capabilities' }, capabilityChips(server.capabilities))
      : h('p', { class: 'hint' }, 'None declared.'),
    h('details', {}, h('summary', {}, 'Raw capabilities'), h('pre', {}, json(server.capabilities))),
    mcp && health(server, mcp),
    server.instructions &&
      h('details', { open: true }, h('summary', {}, 'Instructions'), h('div', { class: 'instructions', 'data-testid': 'instructions' }, renderMarkdown(server.instructions))),
  )
}
