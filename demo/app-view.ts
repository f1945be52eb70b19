// MCP Apps in the demo: for a tool with a `ui://` app, the result panel mounts the app (nanomcp/apps, loaded
// only then) beside the text result, in nanomcp's sandbox page on a second origin. `npm run demo` serves that
// page on another loopback port; a hosted build takes its URL from VITE_APPS_SANDBOX_URL.
import type { Mcp, Tool } from '../src/index'
import type { AppView } from '../src/apps/index'
import { h } from './dom'

const SANDBOX = import.meta.env.VITE_APPS_SANDBOX_URL

let current: (() => void) | undefined

/** Where apps are shown from: without it, a tool's app is not shown (the result panel says how to deploy one). */
export const APPS_SANDBOX: string | undefined = SANDBOX

export const hasApp = (tool: Tool) => {
  const meta = (tool._meta ?? {}) as { ui?: { resourceUri?: unknown }; 'ui/resourceUri'?: unknown }
  return typeof (meta.ui?.resourceUri ?? meta['ui/resourceUri']) === 'string'
}

/** The place a tool's app goes; closes the app of the tool shown before (its frame is leaving the page). */
export function appSlot(): HTMLElement {
  current?.()
  current = undefined
  return h('section', { class: 'app-slot', 'aria-label': 'App', 'data-testid': 'app-slot' })
}

/** Shows `tool`'s app in `slot` for this call (when it has one), and hands `result` back unchanged. */
export function withApp<T>(slot: HTMLElement, mcp: Mcp, tool: Tool, args: Record<string, unknown>, result: Promise<T>): Promise<T> {
  if (!hasApp(tool)) return result
  current?.()
  current = undefined
  if (!SANDBOX) {
    slot.replaceChildren(
      h('h3', {}, 'App'),
      h(
        'p',
        { class: 'hint', 'data-testid': 'app-sandbox-missing' },
        'This tool comes with an app (MCP Apps). To show it, serve nanomcp/apps/sandbox.html as it is from a static host on another origin than this page, and build the page with VITE_APPS_SANDBOX_URL set to its address (npm run demo does this on a second loopback port).',
      ),
    )
    return result
  }
  const box = h('div', {})
  slot.replaceChildren(h('h3', {}, 'App'), box)
  current = showApp(box, mcp, tool, args, result)
  return result
}

/**
 * Mounts `tool`'s app in `box` (needs APPS_SANDBOX) with a line saying how it is doing; returns the function that
 * closes it. nanomcp/apps loads only now, the first time an app is shown.
 */
export function showApp(box: HTMLElement, mcp: Mcp, tool: Tool, args: Record<string, unknown>, result: Promise<unknown>): () => void {
  let view: AppView | undefined
  let closed = false
  const state = h('p', { class: 'hint', 'data-testid': 'app-state' }, 'Loading the app…')
  const frame = h('div', { class: 'app-frame' })
  box.replaceChildren(state, frame)
  void import('../src/apps/index').then(({ mountApp, permissiveCsp }) => {
    if (closed || !box.isConnected || !SANDBOX) return
    view = mountApp(frame, {
      mcp,
      tool,
      input: args,
      result: result as Promise<never>,
      sandbox: SANDBOX,
      // The demo shows any server's app: eval, blob: and workers are allowed, still only the declared domains.
      csp: permissiveCsp,
      onOpenLink: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
      onMessage: (message) => void (state.textContent = `The app says: ${message.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' ')}`),
    })
    view.$state.subscribe(({ status, error }) => {
      state.textContent = status === 'ready' ? '' : status === 'error' ? `The app failed: ${error?.message}` : status === 'closed' ? 'Closed.' : 'Loading the app…'
      state.hidden = status === 'ready'
    })
  })
  return () => {
    closed = true
    void view?.close()
  }
}
