// The demo page: pick a server, connect, and bind nanomcp's atoms to the DOM.
// Every binding is `atom.subscribe(render)`; the stores layer does the loading, refreshing and retrying.
import { NetworkError, OAuthError, type InputRequest, type Mcp, type ServerState } from '../src/index'
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS } from '../src/errors/network-error'
import { bindCatalog } from './catalog'
import { createChat } from './chat'
import { checkServerUrl, initialSettings, isLogLevel, parseHeaders, saveSettings, SettingsError, shareLink, isTransport, type Settings } from './connection'
import { chooseStart } from './start-server'
import { capabilityHint } from './capability-hint'
import { reveal } from './reveal'
import { createDetails } from './details'
import { diagnose, watchedFetch, type HttpAnswer } from './diagnose'
import { byId, h } from './dom'
import { answerRound } from './input-round'
import { createHistory } from './history'
import { renderError } from './render-content'
import { announceRoots, createRootsEditor } from './roots'
import { openMcp } from './open-mcp'
import { createTaskMonitor } from './tasks'
import { renderServerInfo } from './server-info'
import { bindSignIn } from './sign-in'
import { loadServers, type EmbeddedServer, type TransportChoice } from './servers'
import { renderSubscription } from './subscription'
import { createNotificationLog, createTranscript } from './transcript'
import { connectTo, mountStdio } from './stdio'
import { allowViaProxy, mountViaProxy, proxyOffer, viaProxyChecked } from './via-proxy'

const form = byId<HTMLFormElement>('connect')
const picker = byId<HTMLSelectElement>('server-pick')
const urlInput = byId<HTMLInputElement>('server-url')
const transportSelect = byId<HTMLSelectElement>('transport')
const tokenInput = byId<HTMLInputElement>('bearer-token')
const headersInput = byId<HTMLTextAreaElement>('custom-headers')
const timeoutInput = byId<HTMLInputElement>('request-timeout')
const legacyBox = byId<HTMLInputElement>('legacy-elicitation')
const shareBox = byId<HTMLInputElement>('share-tabs')
const logLevelSelect = byId<HTMLSelectElement>('log-level')
const formProblem = byId('form-problem')
const disconnectButton = byId<HTMLButtonElement>('disconnect-button')
const status = byId('status')
const intro = byId('intro')
const serverCard = byId('server')
const dialog = byId<HTMLDialogElement>('input-dialog')
const sections = [byId('workspace'), byId('activity')]

const chat = createChat()
byId('workspace').after(chat.element)
mountViaProxy(byId('options').querySelector<HTMLElement>('.options-grid')!)
mountStdio(byId('options'), connectTo)

const transcript = createTranscript(byId('transcript'))
const notifications = createNotificationLog(byId('notifications'))
byId('clear-transcript').addEventListener('click', transcript.clear)
byId('clear-notifications').addEventListener('click', notifications.clear)
const calls = createHistory(byId('history'), () => current?.mcp)
byId('clear-history').addEventListener('click', calls.clear)
const roots = createRootsEditor()
const tasks = createTaskMonitor((taskId) => {
  if (!current) return Promise.reject(new Error('not connected'))
  return current.mcp.client.request('tasks/cancel', { taskId })
})
byId('activity').append(roots.element, tasks.element)
// Older servers offered roots hear of each edit; newer ones ask within each call.
let rootsOffered = false
roots.onChange(() => current && announceRoots(current.mcp.client, rootsOffered))

// The first screen: what the page is and what a server must allow, with this page's own origin filled in.
byId('page-origin').textContent = location.origin
byId('cors-headers').textContent =
  `Access-Control-Allow-Origin: ${location.origin}\n` +
  'Access-Control-Allow-Methods: GET, POST, DELETE\n' +
  `Access-Control-Allow-Headers: ${CORS_ALLOW_HEADERS}\n` +
  `Access-Control-Expose-Headers: ${CORS_EXPOSE_HEADERS}`
byId('link-example').textContent = shareLink('https://example.com/mcp', 'auto', location.origin + location.pathname)

const settings = initialSettings()
urlInput.value = settings.url
transportSelect.value = settings.transport
timeoutInput.value = settings.timeout ? String(settings.timeout) : ''
legacyBox.checked = settings.legacyElicitation
logLevelSelect.value = settings.logLevel
shareBox.checked = settings.shared

let servers: EmbeddedServer[] = []
// `view` holds what draws the connected server (catalogue, details, server card); signing out takes it down alone.
let current: { mcp: Mcp; unbind: (() => void)[]; view: (() => void)[] } | undefined
let attempt = 0

const transportChoice = (): TransportChoice => (isTransport(transportSelect.value) ? transportSelect.value : 'auto')
const setTransport = (value: TransportChoice) => (transportSelect.value = value)

/** The form as settings and transport options, or a SettingsError naming the field to fix. */
function readForm(): Settings & { headers: Record<string, string> } {
  const server = servers.some((s) => s.kind === picker.value) ? picker.value : ''
  const url = checkServerUrl(urlInput.value)
  const rawTimeout = timeoutInput.value.trim()
  const timeout = rawTimeout ? Number(rawTimeout) : 0
  if (timeoutInput.validity.badInput || !Number.isFinite(timeout) || timeout < 0 || timeout > 3600) {
    throw new SettingsError('The request timeout is a number of seconds between 1 and 3600 (empty: 60).')
  }
  const logLevel = isLogLevel(logLevelSelect.value) ? logLevelSelect.value : ''
  return {
    url,
    transport: transportChoice(),
    timeout,
    legacyElicitation: legacyBox.checked,
    logLevel,
    server,
    shared: shareBox.checked,
    headers: parseHeaders(headersInput.value, tokenInput.value),
  }
}

// One input round at a time: a second one waits for the first dialog to close.
let inputQueue: Promise<unknown> = Promise.resolve()
function answerInput(mcp: Mcp, requests: Record<string, InputRequest>, signal: AbortSignal) {
  const serverName = mcp.$server.get()?.serverInfo?.name ?? mcp.client.server?.serverInfo?.name ?? urlInput.value
  const answer = inputQueue.then(() => answerRound({ dialog, serverName, roots: roots.list }, requests, signal))
  inputQueue = answer.catch(() => undefined)
  return answer
}

async function connect(options: ReturnType<typeof readForm>) {
  const { url, legacyElicitation, shared } = options
  rootsOffered = legacyElicitation
  await disconnect()
  const mine = ++attempt
  const answers: HttpAnswer[] = []
  const fetch = watchedFetch((answer) => {
    if (attempt === mine) answers.push(answer)
    transcript.addHttp(answer)
  })
  let mcp: Mcp
  try {
    await allowViaProxy(url)
    mcp = openMcp(options, shared, fetch, {
      answerInput,
      onTrace: (event) => (transcript.add(event), tasks.observe(event)),
      onNotification: notifications.add,
    })
  } catch (error) {
    return status.replaceChildren(renderError(error))
  }
  const unbind = [mcp.$subscription.subscribe(renderSubscription), bindSignIn(byId('auth-panel'), mcp, () => signedOut(mcp, options))]
  current = { mcp, unbind, view: [] }
  disconnectButton.hidden = false
  status.replaceChildren(h('p', { class: 'busy' }, 'Connecting to ', h('code', {}, url), '…'))
  try {
    await showServer(mcp, await mcp.connect(), options)
  } catch (error) {
    if (current?.mcp !== mcp) return
    // An OAuth-protected server: the panel offers Sign in; once signed in, createMcp connects again by itself.
    if (error instanceof OAuthError && mcp.$auth.get().status === 'required') {
      status.replaceChildren(h('p', { class: 'hint', 'data-testid': 'sign-in-needed' }, 'This server needs you to sign in: use “Sign in” above.'))
      unbind.push(connectOnceAuthorized(mcp, options))
      return
    }
    // Nothing to disconnect from; the transcript stays up to show what was tried.
    await disconnect()
    byId('activity').hidden = false
    const report = await diagnose(error, url, answers)
    if (attempt !== mine) return
    // A server that answers but allows no CORS (not one that does not answer at all): a proxy is the way round.
    const corsRefused = error instanceof NetworkError && /CORS/.test(report.querySelector('[data-testid=diagnosis]')?.textContent ?? '')
    if (corsRefused && !viaProxyChecked()) report.append(proxyOffer(url, submit))
    status.replaceChildren(report)
    reveal(status)
  }
}

/** The connected page: server card, catalogue, details. */
function showServer(mcp: Mcp, server: ServerState, options: Settings) {
  {
    const { url, transport, logLevel, server: entry, shared } = options
    if (current?.mcp !== mcp) return
    status.replaceChildren()
    intro.hidden = true
    for (const section of sections) section.hidden = false
    history.replaceState(null, '', shareLink(url, transport, location.href, { server: entry, shared }))
    const transportLabel = mcp.client.transport.sessionStream ? 'HTTP+SSE' : (mcp.client.transport as { kind?: string }).kind === 'shared' ? 'shared across tabs' : 'Streamable HTTP'
    // Logs: 2026-07-28 asks per request (the details pane passes the level); older servers are told once.
    if (logLevel && server.era === 'legacy' && server.capabilities.logging !== undefined) {
      const request = mcp.client.request.bind(mcp.client) as unknown as (method: string, params: Record<string, unknown>) => Promise<unknown>
      void calls.record({ method: 'logging/setLevel', params: { level: logLevel } }, () => request('logging/setLevel', { level: logLevel })).catch(() => undefined)
    }
    const details = createDetails(
      byId('detail'),
      mcp,
      calls,
      {
        level: logLevel || undefined,
        onLog: (log) => notifications.add({ method: 'notifications/message', params: log }),
      },
      (outcome) => capabilityHint(outcome, { era: server.era, declared: options.legacyElicitation, show: showLegacyToggle }),
    )
    details.clear()
    current.view.push(
      // Failures after the connection (a list that cannot load, a dropped server) land in the same place.
      mcp.$status.subscribe((s) => s.status === 'error' && status.replaceChildren(renderError(s.error))),
      mcp.$server.subscribe((s) => s && renderServerInfo(serverCard, s, transportLabel, mcp)),
      bindCatalog(byId('catalog'), mcp, server, (kind, item) => {
        details.show(kind, item)
        // In the one-column (phone) layout the pane sits below the whole list: bring it into view.
        if (matchMedia('(max-width: 900px)').matches) byId('detail').scrollIntoView({ block: 'start' })
      }),
      details.clear,
      chat.attach(mcp),
    )
  }
}

/**
 * After Sign out the catalogue and details would show a server the page can no longer use: they go, the status
 * says so, and the auth panel offers Sign in; signing in again brings the server back.
 */
function signedOut(mcp: Mcp, options: Settings) {
  if (current?.mcp !== mcp) return
  for (const stop of current.view.splice(0)) stop()
  for (const section of sections) section.hidden = true
  status.replaceChildren(
    h('p', { class: 'hint', 'data-testid': 'signed-out' }, 'Signed out. This server’s tools, prompts and resources come back once you sign in again (“Sign in” above).'),
  )
  reveal(byId('auth-panel'))
  current.unbind.push(connectOnceAuthorized(mcp, options))
}

/** Connects `mcp` again (and shows its server) the first time it becomes authorized; returns how to stop waiting. */
function connectOnceAuthorized(mcp: Mcp, options: Settings): () => void {
  const stop = mcp.$auth.listen((state) => {
    if (state.status !== 'authorized') return
    stop()
    void mcp.connect().then(
      (server) => current?.mcp === mcp && showServer(mcp, server, options),
      (failure: unknown) => current?.mcp === mcp && status.replaceChildren(renderError(failure)),
    )
  })
  return stop
}

/** Opens "Headers and options" at the toggle that declares sampling, elicitation and roots to older servers. */
function showLegacyToggle() {
  byId<HTMLDetailsElement>('options').open = true
  legacyBox.focus()
  legacyBox.scrollIntoView({ block: 'center' })
}

async function disconnect() {
  const session = current
  current = undefined
  disconnectButton.hidden = true
  intro.hidden = false
  for (const section of sections) section.hidden = true
  if (!session) return
  for (const stop of [...session.view, ...session.unbind]) stop()
  await session.mcp.close().catch(() => undefined)
}

/** Reads the form; a bad field is a message under the form, and nothing is sent anywhere. */
function submit() {
  formProblem.textContent = ''
  // A new attempt starts clean: no error, transcript or notification from the previous one stays on screen.
  status.replaceChildren()
  let options: ReturnType<typeof readForm>
  try {
    options = readForm()
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error
    formProblem.textContent = error.message
    return
  }
  const { headers: _headers, ...remembered } = options
  saveSettings(remembered)
  transcript.clear()
  tasks.clear()
  notifications.clear()
  calls.clear()
  void connect(options)
}

form.addEventListener('submit', (event) => {
  event.preventDefault()
  submit()
})
disconnectButton.addEventListener('click', () => {
  attempt++
  void disconnect().then(() => status.replaceChildren(h('p', { class: 'hint' }, 'Disconnected.')))
})
byId('copy-link').addEventListener('click', () => {
  formProblem.textContent = ''
  let url: string
  try {
    url = checkServerUrl(urlInput.value)
  } catch (error) {
    formProblem.textContent = error instanceof Error ? error.message : String(error)
    return
  }
  const entry = servers.some((s) => s.kind === picker.value) ? picker.value : ''
  const link = shareLink(url, transportChoice(), location.href, { server: entry, shared: shareBox.checked })
  history.replaceState(null, '', link)
  const done = (text: string) => status.replaceChildren(h('p', { class: 'hint', 'data-testid': 'link-note' }, text, ' ', h('code', {}, link)))
  navigator.clipboard.writeText(link).then(
    () => done('Link copied:'),
    () => done('The browser refused the clipboard; the link is in the address bar:'),
  )
})
picker.addEventListener('change', () => {
  const server = servers.find((s) => s.kind === picker.value)
  if (!server) return urlInput.focus()
  urlInput.value = server.url
  setTransport(server.transport)
})
// A typed URL is another server: it starts on Auto, not on the transport of the entry it replaced.
urlInput.addEventListener('input', () => {
  if (servers.find((s) => s.kind === picker.value)?.url === urlInput.value) return
  if (picker.value) setTransport('auto')
  picker.value = ''
})

const startNote = h('p', { class: 'warn', 'data-testid': 'start-note' })
void loadServers()
  .then(
    (list) => {
      servers = list
      if (!list.length) return
      picker.replaceChildren(
        ...list.map((s) => h('option', { value: s.kind }, s.label)),
        h('option', { value: '' }, 'Another server (type its URL)'),
      )
      byId('picker-field').hidden = false
      const start = chooseStart(list, settings)
      picker.value = start.entry
      urlInput.value = start.url
      setTransport(start.transport)
      if (start.note) status.replaceChildren((startNote.textContent = start.note, startNote))
    },
    (error: unknown) => status.replaceChildren(h('p', { class: 'warn' }, `Could not load the server list: ${error instanceof Error ? error.message : String(error)}`)),
  )
  // A `?url=` (or `?server=`) link opens the page already connected to that server.
  .then(() => settings.fromLink && submit())
