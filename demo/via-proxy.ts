// "Via proxy" in Headers and options: on `npm run demo`, requests go through nanomcp/proxy in the demo's own dev
// server (the same origin as the page, so the server needs no CORS). Its allowlist is loopback plus the servers this
// page connects to via the proxy (asked of the stdio bridge, with the terminal's token), so no other site can use it
// and it forwards nowhere nobody picked. The hosted page has no proxy: it shows the one line that deploys one.
import type { ProxyOption } from '../src/index'
import { h } from './dom'
import { askBridge, isLocal } from './local-bridge'

const LOOPBACK = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/
const box = h('input', { id: 'via-proxy', type: 'checkbox' }) as HTMLInputElement

/** Adds the choice to the options (disabled, with the reason, on the hosted page). */
export function mountViaProxy(options: HTMLElement): void {
  box.disabled = !isLocal()
  options.append(
    h(
      'div',
      { class: 'field check-field' },
      h('div', { class: 'check' }, box, h('label', { for: 'via-proxy' }, 'Connect via proxy (for servers without CORS)')),
      h(
        'p',
        { class: 'hint' },
        isLocal()
          ? 'Through nanomcp/proxy in this dev server: MCP requests and the OAuth metadata, registration and token requests.'
          : 'Only on the local demo (npm run demo): a static page has no proxy of its own.',
      ),
    ),
  )
}

export const viaProxyChecked = (): boolean => box.checked && !box.disabled

/** Before connecting via the proxy: the server's origin joins its allowlist. */
export async function allowViaProxy(url: string): Promise<void> {
  if (viaProxyChecked() && !LOOPBACK.test(new URL(url).origin)) await askBridge('allow-upstream', { url })
}

/** The transports' `proxy` option; for OAuth, only the origins the proxy forwards to go through it. */
export function proxyOptions(url: string): { transport?: ProxyOption; oauth?: ProxyOption } {
  if (!viaProxyChecked()) return {}
  const prefix = import.meta.env.VITE_DEMO_PROXY ?? '/mcp-proxy/'
  const server = new URL(url).origin
  const via = (target: string) => `${prefix}${encodeURIComponent(target)}`
  return { transport: prefix, oauth: (target) => (new URL(target).origin === server || LOOPBACK.test(new URL(target).origin) ? via(target) : target) }
}

/** Under a CORS diagnosis: a button that retries via the proxy (local), or the deployment line (hosted). */
export function proxyOffer(url: string, retry: () => void): HTMLElement {
  if (isLocal()) {
    const button = h('button', { type: 'button', 'data-testid': 'retry-via-proxy' }, 'Connect via proxy')
    button.addEventListener('click', () => {
      box.checked = true
      retry()
    })
    return h('p', { class: 'hint' }, 'This demo can reach it through its own proxy instead: ', button)
  }
  const origin = new URL(url).origin
  return h(
    'div',
    { class: 'hint', 'data-testid': 'proxy-deployment' },
    h('p', {}, 'A page of your own reaches such a server through nanomcp/proxy, deployed in one line (Vite dev server shown; a Worker or Node server are as short):'),
    h('pre', { class: 'proxy-line' }, `plugins: [nanomcpProxy({ upstreams: ['${origin}'] })]  // vite.config.ts, from 'nanomcp/vite'`),
  )
}
