// mountApp: shows a tool's `ui://` app in nanomcp's sandbox page (another origin) and speaks the host side of
// MCP Apps with it over postMessage. Returns at once; what happens next is in `$state`.
import { atom } from 'nanostores'
import type { CallToolResult } from '../schemas/types'
import type { AppState, AppView, DisplayMode, HostContext, MountAppOptions } from './types'
import { AppProtocolError } from '../errors/app-protocol-error'
import { AppSandboxError } from '../errors/app-sandbox-error'
import { TimeoutError } from '../errors/timeout-error'
import { buildCsp, grantedPermissions } from './csp'
import { APP_PROTOCOL } from './extension'
import { changed, dimensions, initialContext, theme } from './host-context'
import { MessageQueue } from './queue'
import { answer, Refusal, NOT_FOUND } from './requests'
import { readApp } from './resource'
import { server } from './server'
import { uiResourceUri } from './visibility'

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown }

const N = 'ui/notifications/'
/** More size reports than this within FLOOD_MS is a resize loop, not a layout settling. */
const FLOOD_COUNT = 40
const FLOOD_MS = 2000

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e))

export function mountApp(element: Element, options: MountAppOptions): AppView {
  if (!element || typeof element.appendChild !== 'function') throw new TypeError('mountApp: element must be a DOM element')
  if (!options?.mcp) throw new TypeError('mountApp: options.mcp is required (a Client, createMcp() or a shared-tab client)')
  const uri = uiResourceUri(options.tool)
  let sandbox: URL
  try {
    sandbox = new URL(options.sandbox, location.href)
  } catch {
    throw new AppSandboxError(String(options.sandbox), `mountApp: sandbox is not a URL: ${String(options.sandbox)}`)
  }
  if (!/^https?:$/.test(sandbox.protocol)) throw new AppSandboxError(sandbox.href, 'mountApp: the sandbox URL must be http(s)')
  if (sandbox.origin === location.origin) {
    throw new AppSandboxError(sandbox.href, `mountApp: the sandbox must be on another origin than this page (${location.origin}), or the app could script the page`)
  }

  const o = options
  const $state = atom<AppState>({ status: 'loading', displayMode: 'inline' })
  const set = (patch: Partial<AppState>) => $state.set({ ...$state.get(), ...patch })
  const live = () => $state.get().status === 'loading' || $state.get().status === 'ready'
  const abort = new AbortController()
  const srv = server(o.mcp)
  const modes: DisplayMode[] = o.onDisplayMode ? ['inline', 'fullscreen', 'pip'] : ['inline']
  let context = initialContext(element, o.tool, modes, o.hostContext)
  const cleanups: (() => void)[] = []
  let frame: HTMLIFrameElement | undefined
  let html: string | undefined
  let grant: Record<string, unknown> = {}
  let listChanged: string[] = []
  let answered = false
  let initialized = false
  let lastHeight = -1
  const sizes: number[] = []
  let ids = 0
  const pending = new Map<number, () => void>()

  const post = (message: Record<string, unknown>) => frame?.contentWindow?.postMessage({ jsonrpc: '2.0', ...message }, sandbox.origin)
  const queue = new MessageQueue((method, params) => post({ method, params }))

  function cleanup() {
    abort.abort()
    for (const fn of cleanups.splice(0)) fn()
    for (const ack of pending.values()) ack()
    frame?.remove()
    frame = undefined
  }

  function fail(error: Error) {
    if (!live()) return
    cleanup()
    set({ status: 'error', error })
  }

  const on = (target: EventTarget, type: string, fn: (e: Event) => void) => {
    target.addEventListener(type, fn)
    cleanups.push(() => target.removeEventListener(type, fn))
  }

  function updateContext(next: HostContext) {
    const diff = changed(context, next)
    if (!diff) return
    context = { ...context, ...diff }
    // Before the `ui/initialize` answer there is nothing to send: that answer carries the whole context.
    if (answered) queue.context(diff)
  }

  function setDisplayMode(mode: DisplayMode) {
    set({ displayMode: mode })
    updateContext({ displayMode: mode })
  }

  function respond(id: unknown, result: Record<string, unknown> | undefined, error?: { code: number; message: string }) {
    post(error ? { id, error } : { id, result })
  }

  function hostCapabilities() {
    return {
      serverTools: { listChanged: listChanged.includes('tools') },
      serverResources: { listChanged: listChanged.includes('resources') },
      ...(o.onOpenLink && { openLinks: {} }),
      ...(o.onMessage && { message: { text: {} } }),
      ...(o.onModelContext && { updateModelContext: { text: {} } }),
      ...(o.onLog && { logging: {} }),
      sandbox: grant,
    }
  }

  function onRequest(id: unknown, method: string, params: Record<string, unknown>) {
    if (method === 'ui/initialize') {
      // A second initialize is the app reloading: hold everything again, then catch it up after `initialized`.
      queue.reset()
      initialized = false
      const version = typeof params.protocolVersion === 'string' ? params.protocolVersion : undefined
      set({ app: { appInfo: params.appInfo as never, appCapabilities: params.appCapabilities as never, protocolVersion: version } })
      answered = true
      return respond(id, { protocolVersion: APP_PROTOCOL, hostInfo: o.hostInfo ?? { name: 'nanomcp', version: '0' }, hostCapabilities: hostCapabilities(), hostContext: context })
    }
    const ctx = {
      options: o,
      server: srv,
      appModes: () => $state.get().app?.appCapabilities?.availableDisplayModes as DisplayMode[] | undefined,
      displayMode: () => $state.get().displayMode,
      setDisplayMode,
    }
    answer(ctx, method, params, abort.signal).then(
      (result) => live() && respond(id, result),
      (error: unknown) => {
        if (!live()) return
        const e = error as { code?: unknown; message?: unknown }
        const code = error instanceof Refusal || typeof e?.code === 'number' ? (e.code as number) : -32603
        respond(id, undefined, { code, message: typeof e?.message === 'string' ? e.message : String(error) })
      },
    )
  }

  function onSize(params: Record<string, unknown>) {
    const now = Date.now()
    sizes.push(now)
    while (sizes[0]! < now - FLOOD_MS) sizes.shift()
    if (sizes.length > FLOOD_COUNT) return fail(new AppProtocolError('flood', `the app reported its size ${sizes.length} times within ${FLOOD_MS} ms (a resize loop)`, params))
    const { width, height } = params
    const size = { ...(typeof width === 'number' && { width }), ...(typeof height === 'number' && { height }) }
    set({ size })
    // The host owns the width inline; the height is applied to the frame's content box (it has no border), so the
    // app measures exactly what it reported and no correction feeds back into its next report.
    if (typeof height === 'number' && Number.isFinite(height) && height >= 0 && Math.ceil(height) !== lastHeight && frame) {
      lastHeight = Math.ceil(height)
      frame.style.height = `${lastHeight}px`
    }
  }

  function onNotification(method: string, params: Record<string, unknown>) {
    if (method === `${N}sandbox-proxy-ready`) {
      if (html !== undefined) post({ method: `${N}sandbox-resource-ready`, params: { html, ...grant } })
    } else if (method === `${N}initialized`) {
      if (!answered) return
      initialized = true
      set({ status: 'ready' })
      queue.ready()
    } else if (method === `${N}size-changed`) onSize(params)
    else if (method === 'notifications/message') o.onLog?.(params as never)
    else if (method === `${N}request-teardown`) o.onRequestTeardown?.()
  }

  function onMessage(data: Message) {
    if (!live()) return
    const id = data?.id
    const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))
    if (!isObject(data) || data.jsonrpc !== '2.0' || (data.params !== undefined && !isObject(data.params))) {
      if (validId) respond(id, undefined, { code: -32600, message: 'invalid JSON-RPC 2.0 message' })
      return set({ error: new AppProtocolError('malformed', 'the app sent a message that is not JSON-RPC 2.0', data) })
    }
    const params = (data.params ?? {}) as Record<string, unknown>
    if (typeof data.method === 'string') {
      if (id === undefined) return onNotification(data.method, params)
      if (!validId) return set({ error: new AppProtocolError('malformed', 'a request id must be a string or a number', data) })
      // The sandbox's own messages never come as requests.
      if (data.method.startsWith(`${N}sandbox-`)) return respond(id, undefined, { code: NOT_FOUND, message: 'method not found' })
      return onRequest(id, data.method, params)
    }
    if (validId && ('result' in data || 'error' in data)) return pending.get(id as number)?.()
    set({ error: new AppProtocolError('malformed', 'the app sent a message that is neither request, notification nor response', data) })
  }

  async function start() {
    const resource = await readApp(srv.request, uri, o.maxHtmlSize ?? 10_000_000, abort.signal)
    const csp = o.csp ? o.csp(resource.csp) : resource.csp
    const requested = resource.permissions
    const { permissions, allow } = grantedPermissions(typeof o.permissions === 'function' ? o.permissions(requested) : o.permissions)
    // The policy text travels with the HTML; the sandbox puts it in a <meta> before the first byte of the app.
    grant = { csp, permissions, policy: buildCsp(csp), ...(resource.sandbox && { sandbox: resource.sandbox }) }
    html = resource.html
    // What the server announces is known before the app asks (the initialize answer says which lists can change).
    const lists = await srv
      .watchLists((kind) => initialized && post({ method: `notifications/${kind}/list_changed` }))
      .catch(() => ({ kinds: [], stop() {} }))
    cleanups.push(lists.stop)
    listChanged = lists.kinds
    if (!live()) return lists.stop()
    const f = (frame = document.createElement('iframe'))
    f.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms')
    if (allow) f.allow = allow
    f.title = o.tool.title ?? o.tool.name
    f.style.cssText = 'display:block;width:100%;border:0;box-sizing:content-box'
    f.src = sandbox.href
    element.appendChild(f)
  }

  // Only messages from our frame, from the sandbox's origin: another frame or window cannot speak for the app.
  on(window, 'message', (event) => {
    const e = event as MessageEvent
    if (frame && e.source === frame.contentWindow && e.origin === sandbox.origin) onMessage(e.data as Message)
  })
  if ('ResizeObserver' in globalThis) {
    const observer = new ResizeObserver(() => updateContext({ containerDimensions: { ...context.containerDimensions, ...dimensions(element) } }))
    observer.observe(element)
    cleanups.push(() => observer.disconnect())
  }
  const scheme = globalThis.matchMedia?.('(prefers-color-scheme: dark)')
  if (scheme && !o.hostContext?.theme) on(scheme, 'change', () => updateContext({ theme: theme() }))
  const timeout = o.timeout ?? 30_000
  const timer = setTimeout(() => initialized || fail(new TimeoutError('ui/initialize', timeout)), timeout)
  cleanups.push(() => clearTimeout(timer))
  start().catch((error: Error) => fail(error))

  const view: AppView = {
    $state,
    input: (args) => live() && queue.input(args),
    inputPartial: (args) => live() && queue.partial(args),
    result(result: CallToolResult | Promise<CallToolResult>) {
      Promise.resolve(result).then(
        (r) => live() && queue.result(r),
        (e: unknown) => live() && queue.cancel(reasonOf(e)),
      )
    },
    cancel: (reason) => live() && queue.cancel(reason),
    setContext: (partial) => live() && updateContext(partial),
    close,
  }
  if (o.input) view.input(o.input)
  if (o.result) view.result(o.result)

  let closing: Promise<void> | undefined
  function close(): Promise<void> {
    return (closing ??= (async () => {
      if (!live()) return
      if (initialized) {
        // Any answer counts (apps without a handler say -32601); a silent app is not waited for past the limit.
        const id = --ids
        await new Promise<void>((done) => {
          const t = setTimeout(done, o.teardownTimeout ?? 2000)
          pending.set(id, () => (clearTimeout(t), done()))
          post({ id, method: 'ui/resource-teardown', params: {} })
        })
      }
      cleanup()
      set({ status: 'closed' })
    })())
  }
  if (o.signal?.aborted) void close()
  else if (o.signal) on(o.signal, 'abort', () => void close())
  return view
}
