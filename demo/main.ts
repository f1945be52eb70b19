// The demo page: pick a server, connect, and bind nanomcp's atoms to the DOM.
// Every binding is `atom.subscribe(render)`; the stores layer does the loading, refreshing and retrying.
import { createMcp, SseTransport, type InputRequest, type Mcp, type SubscriptionState } from '../src/index'
// Not part of the package's index; the demo reports the library's own version as its client version.
import { PACKAGE_VERSION } from '../src/version'
import { bindCatalog } from './catalog'
import { createDetails } from './details'
import { byId, fill, h } from './dom'
import { askUser } from './elicitation'
import { renderError } from './render-content'
import { renderServerInfo } from './server-info'
import { loadServers, type EmbeddedServer, type TransportChoice } from './servers'
import { createNotificationLog, createTranscript } from './transcript'

const form = byId<HTMLFormElement>('connect')
const picker = byId<HTMLSelectElement>('server-pick')
const urlInput = byId<HTMLInputElement>('server-url')
const disconnectButton = byId<HTMLButtonElement>('disconnect-button')
const status = byId('status')
const serverCard = byId('server')
const dialog = byId<HTMLDialogElement>('input-dialog')
const sections = [byId('workspace'), byId('activity')]

const transcript = createTranscript(byId('transcript'))
const notifications = createNotificationLog(byId('notifications'))
byId('clear-transcript').addEventListener('click', transcript.clear)
byId('clear-notifications').addEventListener('click', notifications.clear)

let servers: EmbeddedServer[] = []
let current: { mcp: Mcp; unbind: (() => void)[] } | undefined

const transportChoice = () => (form.elements.namedItem('transport') as RadioNodeList).value as TransportChoice
const setTransport = (value: TransportChoice) => ((form.elements.namedItem('transport') as RadioNodeList).value = value)

// One input round at a time: a second one waits for the first dialog to close.
let inputQueue: Promise<unknown> = Promise.resolve()
function answerInput(mcp: Mcp, requests: Record<string, InputRequest>, signal: AbortSignal) {
  const serverName = mcp.$server.get()?.serverInfo?.name ?? mcp.client.server?.serverInfo?.name ?? urlInput.value
  const answer = inputQueue.then(() => askUser(dialog, serverName, requests, signal))
  inputQueue = answer.catch(() => undefined)
  return answer
}

function renderSubscription(state: SubscriptionState | undefined) {
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

async function connect(url: string, transport: TransportChoice) {
  await disconnect()
  let mcp: Mcp
  try {
    mcp = createMcp(transport === 'sse' ? new SseTransport(url) : url, {
      clientInfo: { name: 'nanomcp-demo', version: PACKAGE_VERSION },
      capabilities: { elicitation: { form: {} } },
      onInputRequest: (requests, context) => answerInput(mcp, requests, context.signal),
      onTrace: transcript.add,
      onNotification: notifications.add,
    })
  } catch (error) {
    return status.replaceChildren(renderError(error))
  }
  const unbind = [
    mcp.$subscription.subscribe(renderSubscription),
    mcp.$status.subscribe((s) => s.status === 'error' && status.replaceChildren(renderError(s.error))),
  ]
  current = { mcp, unbind }
  disconnectButton.hidden = false
  status.replaceChildren(h('p', { class: 'busy' }, 'Connecting to ', h('code', {}, url), '…'))
  try {
    const server = await mcp.connect()
    if (current?.mcp !== mcp) return
    status.replaceChildren()
    for (const section of sections) section.hidden = false
    const transportLabel = transport === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP'
    const details = createDetails(byId('detail'), mcp)
    details.clear()
    unbind.push(
      mcp.$server.subscribe((s) => s && renderServerInfo(serverCard, s, transportLabel)),
      bindCatalog(byId('catalog'), mcp, server, (kind, item) => {
        details.show(kind, item)
        // In the one-column (phone) layout the pane sits below the whole list: bring it into view.
        if (matchMedia('(max-width: 900px)').matches) byId('detail').scrollIntoView({ block: 'start' })
      }),
      details.clear,
    )
  } catch (error) {
    if (current?.mcp !== mcp) return
    // Nothing to disconnect from; the transcript stays up to show what was tried.
    await disconnect()
    byId('activity').hidden = false
    status.replaceChildren(renderError(error))
  }
}

async function disconnect() {
  const session = current
  current = undefined
  disconnectButton.hidden = true
  for (const section of sections) section.hidden = true
  if (!session) return
  for (const stop of session.unbind) stop()
  await session.mcp.close().catch(() => undefined)
}

form.addEventListener('submit', (event) => {
  event.preventDefault()
  transcript.clear()
  notifications.clear()
  void connect(urlInput.value.trim(), transportChoice())
})
disconnectButton.addEventListener('click', () => {
  void disconnect().then(() => status.replaceChildren(h('p', { class: 'hint' }, 'Disconnected.')))
})
picker.addEventListener('change', () => {
  const server = servers.find((s) => s.kind === picker.value)
  if (!server) return urlInput.focus()
  urlInput.value = server.url
  setTransport(server.transport)
})
urlInput.addEventListener('input', () => {
  if (servers.find((s) => s.kind === picker.value)?.url !== urlInput.value) picker.value = ''
})

loadServers().then(
  (list) => {
    servers = list
    if (!list.length) return
    picker.replaceChildren(
      ...list.map((s) => h('option', { value: s.kind }, s.label)),
      h('option', { value: '' }, 'Another server (type its URL)'),
    )
    byId('picker-field').hidden = false
    picker.dispatchEvent(new Event('change'))
  },
  (error: unknown) => status.replaceChildren(h('p', { class: 'warn' }, `Could not load the server list: ${error instanceof Error ? error.message : String(error)}`)),
)
