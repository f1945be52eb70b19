// stdio servers in the local demo: a command typed here is started by the stdio bridge of `npm run demo` and
// connected to like any other server (its Streamable HTTP endpoint on 127.0.0.1). The hosted page cannot start
// programs and says so.
import { byId, h } from './dom'
import { askBridge, bridgeUrl, isLocal } from './local-bridge'

const EXAMPLE = 'npx -y @modelcontextprotocol/server-everything stdio'

/** Adds the stdio section below the connection form. `connect(url)` connects the page to the started command. */
export function mountStdio(after: HTMLElement, connect: (url: string) => void): void {
  const section = h('details', { class: 'options', id: 'stdio' }, h('summary', {}, 'Run a stdio server'))
  after.after(section)
  // The bridge's address without its token: nothing secret, and tests find the bridge by it.
  if (import.meta.env.VITE_STDIO_BRIDGE) section.dataset.bridge = import.meta.env.VITE_STDIO_BRIDGE
  if (!isLocal()) {
    section.append(h('p', { class: 'hint', 'data-testid': 'stdio-hosted' }, 'Only on the local demo (npm run demo): a web page cannot start programs on your computer.'))
    return
  }
  const input = h('input', { id: 'stdio-command', type: 'text', spellcheck: 'false', placeholder: EXAMPLE, 'aria-label': 'stdio command' }) as HTMLInputElement
  const start = h('button', { type: 'button', id: 'stdio-start' }, 'Start and connect')
  const problem = h('p', { class: 'error-text', role: 'alert', 'data-testid': 'stdio-problem' })
  const hint = bridgeUrl()
    ? 'Runs on this computer, without a shell, through the bridge `npm run demo` started on 127.0.0.1.'
    : 'Open the page from the link `npm run demo` printed in the terminal: it carries the token the bridge asks for.'
  section.append(h('div', { class: 'field' }, input), h('div', { class: 'actions' }, start), h('p', { class: 'hint' }, hint), problem)
  start.addEventListener('click', async () => {
    problem.textContent = ''
    start.setAttribute('disabled', '')
    try {
      const { url } = await askBridge<{ url: string }>('start', { command: input.value.trim() || EXAMPLE })
      connect(url)
    } catch (error) {
      problem.textContent = (error as Error).message
    } finally {
      start.removeAttribute('disabled')
    }
  })
}

/** For main.ts: fills the form with the command's endpoint (Streamable HTTP) and submits it. */
export function connectTo(url: string): void {
  byId<HTMLInputElement>('server-url').value = url
  byId<HTMLSelectElement>('transport').value = 'http'
  byId<HTMLFormElement>('connect').requestSubmit()
}
