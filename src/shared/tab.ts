import { atom, onMount, type WritableAtom } from 'nanostores'
import type { InputRequest, Progress, ServerNotification, TraceEvent } from '../client/types'
import { AbortError } from '../errors/abort-error'
import { OAuthError } from '../errors/oauth-error'
import type { AuthState } from '../auth/types'
import { mergeItems } from '../stores/merge-items'
import type { ListState } from '../stores/types'
import { holdLock, locks, newId, whenFree } from './id'
import { available, openLink, type Link, type LinkMode } from './link'
import { ATOMS, type AtomName, type HostMessage, type Op, OPS, type ShareKey, type TabMessage } from './protocol'
import { SharedError } from './shared-error'
import type { SharedMcp, SharedMcpOptions, SharedRequestOptions, SharedState } from './types'
import { decodeError, decodeValue, encodeError } from './wire-error'

// Each list atom and the field that identifies its items (as in stores/list-kinds, which would pull the
// transport's validation into every tab).
const LIST_KEY: Partial<Record<AtomName, string>> = { $tools: 'name', $prompts: 'name', $resources: 'uri', $resourceTemplates: 'uriTemplate' }
const PING_MS = 10_000
const GUARD_MS = 10_000

/** An option holding a function anywhere (eraStore, auth) cannot reach the worker; it stays out of the key. */
const cloneable = (value: unknown) => {
  if (typeof value === 'function') return false
  try {
    structuredClone(value)
    return true
  } catch {
    return false
  }
}

interface PendingCall {
  resolve(value: never): void
  reject(error: unknown): void
  sent: boolean
  onProgress?: (progress: Progress) => void
  onLog?: SharedRequestOptions['onLog']
}

/**
 * createMcp for every tab of the origin at once: one client, in a SharedWorker (else in a leader tab elected
 * with Web Locks, else in this tab), whose atoms every tab mirrors and whose helpers every tab calls. One
 * listen stream and one load of each list serve all tabs; a tab closing or the worker dying disturbs no other.
 */
export function createSharedMcp(url: string, options: SharedMcpOptions = {}): SharedMcp {
  const { modes = ['worker', 'leader', 'local'], worker, workerTimeout = 5000, namespace = 'nanomcp' } = options
  const { onNotification, onInputRequest, onTrace } = options
  // Functions stay in the tab (they are called back over the port); everything else is the client's config,
  // and the same config means the same shared client.
  const { modes: _m, worker: _w, workerTimeout: _t, namespace: _n, oauth: oauthOptions, ...rest } = options
  const clientOptions: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(rest)) if (cloneable(value)) clientOptions[name] = value
  // The worker signs in; the `authorize` hook (Node, tests) stays here and does this tab's browser step.
  const { authorize, ...workerOAuth } = oauthOptions ?? {}
  if (oauthOptions) clientOptions.oauth = workerOAuth
  // The window of the sign-in this tab's click started, until the worker asks for the authorization step.
  let popup: Window | null | undefined
  const key: ShareKey = { url: new URL(url, globalThis.location?.href).href, options: clientOptions, input: !!onInputRequest }

  const id = newId()
  const atoms = {} as Record<AtomName, WritableAtom<unknown>>
  for (const name of ATOMS) {
    const list = LIST_KEY[name]
    atoms[name] = atom<unknown>(
      list
        ? ({ items: [], loading: false, error: undefined, stale: false, updatedAt: 0 } satisfies ListState<never>)
        : name === '$status'
          ? { status: 'idle' }
          : name === '$auth'
            ? ({ status: 'none' } satisfies AuthState)
            : undefined,
    )
    if (list)
      onMount(atoms[name], () => {
        watching.add(name)
        send({ t: 'watch', atom: name, on: true })
        return () => {
          watching.delete(name)
          send({ t: 'watch', atom: name, on: false })
        }
      })
  }
  const $shared = atom<SharedState>({ mode: 'connecting' })

  const watching = new Set<AtomName>()
  const resources = new Map<number, { uri: string; onUpdate(): void }>()
  const pending = new Map<number, PendingCall>()
  const inputs = new Map<number, AbortController>()
  let queue: TabMessage[] = []
  let link: Link | undefined
  let modeIndex = 0
  let ready = false
  let closed = false
  let nextId = 0
  let nextWatch = 0
  let failure: SharedError | undefined
  let stopHostWatch = () => {}
  let readyTimer: ReturnType<typeof setTimeout> | undefined
  const tabLock = holdLock(`${namespace}:tab:${id}`)

  /** Posts now when a host is listening, else queues (after checking the message can be cloned at all). */
  function send(message: TabMessage) {
    if (closed) return
    if (ready && link) {
      link.port.post(message)
      if (message.t === 'call') pending.get(message.id)!.sent = true
    } else {
      structuredClone(message)
      queue.push(message)
    }
  }

  const hello = () => {
    link?.port.post({
      t: 'hello',
      tab: id,
      key,
      ...(locks() ? { lock: `${namespace}:tab:${id}` } : {}),
      watching: [...watching],
      resources: [...resources].map(([wid, { uri }]) => [wid, uri]),
      notifications: !!onNotification,
      trace: !!onTrace,
    })
  }

  async function start(from: number) {
    await tabLock.granted
    for (let i = from; i < modes.length && !closed; i++) {
      const mode = modes[i] as LinkMode
      if (!available(mode)) continue
      try {
        const opened = await openLink(mode, {
          id,
          namespace,
          ...(worker ? { worker } : {}),
          onFail: (error) => opened && link === opened && !ready && fail(error),
          onLeader: () => link === opened && !ready && hello(),
          onMessage: (message) => link === opened && receive(message),
        })
        if (closed) return opened.port.close()
        link = opened
        modeIndex = i
        hello()
        if (mode === 'worker') readyTimer = setTimeout(() => fail(new SharedError('worker-failed', `The shared worker did not answer within ${workerTimeout} ms`)), workerTimeout)
        return
      } catch (error) {
        failure = new SharedError('worker-failed', `Shared mode "${mode}" could not start`, { cause: error })
      }
    }
    if (closed) return
    // Nowhere to run (no MessageChannel either): every call settles now rather than at its guard.
    const error = failure ?? new SharedError('worker-failed', 'No way to run a shared client here')
    $shared.set({ mode: 'closed', error })
    atoms.$status.set({ status: 'error', error })
    for (const call of pending.values()) call.reject(error)
    pending.clear()
    queue = []
  }

  function fail(error: SharedError) {
    clearTimeout(readyTimer)
    failure = error
    link?.port.close()
    link = undefined
    void start(modeIndex + 1)
  }

  function hostLost() {
    if (closed || !ready) return
    ready = false
    stopHostWatch()
    // Calls the old host received may have run on the server: failing them is honest, re-sending is not.
    for (const [callId, call] of pending)
      if (call.sent) {
        pending.delete(callId)
        call.reject(new SharedError('host-lost', 'The shared client went away while this call was in flight'))
      }
    for (const controller of inputs.values()) controller.abort(new SharedError('host-lost', 'The shared client went away'))
    inputs.clear()
    $shared.set({ mode: 'connecting', ...(failure ? { error: failure } : {}) })
    if (link?.hosting() === false && modes[modeIndex] === 'worker') {
      link.port.close()
      link = undefined
      void start(modeIndex)
    } else hello()
  }

  function receive(message: HostMessage) {
    if (closed) return
    switch (message.t) {
      case 'ready': {
        if (ready) return
        clearTimeout(readyTimer)
        ready = true
        const mode = modes[modeIndex] === 'worker' ? 'worker' : modes[modeIndex] === 'local' ? 'local' : link?.hosting() ? 'leader' : 'follower'
        $shared.set({ mode, ...(failure ? { error: failure } : {}) })
        stopHostWatch = whenFree(message.lock, hostLost)
        const queued = queue
        queue = []
        for (const m of queued) send(m)
        return
      }
      case 'atom': {
        const value = decodeValue(message.value) as ListState<object> | undefined
        const key = LIST_KEY[message.name]
        const target = atoms[message.name]
        if (key && value) value.items = mergeItems((target.get() as ListState<object>).items, value.items as object[], (item) => String((item as Record<string, unknown>)[key]))
        return target.set(value)
      }
      case 'result': {
        const call = pending.get(message.id)
        if (!call) return
        pending.delete(message.id)
        return message.ok ? call.resolve(message.value as never) : call.reject(decodeError(message.error))
      }
      case 'progress':
        return pending.get(message.id)?.onProgress?.(message.value as Progress)
      case 'log':
        return pending.get(message.id)?.onLog?.(message.value as never)
      case 'input':
        return void answer(message)
      case 'authorize':
        return void authorizeStep(message)
      case 'input-abort':
        inputs.get(message.iid)?.abort(new AbortError('the request no longer needs this input'))
        return void inputs.delete(message.iid)
      case 'notification':
        return onNotification?.(message.value as ServerNotification)
      case 'trace':
        return onTrace?.(message.value as TraceEvent)
      case 'updated':
        return resources.get(message.wid)?.onUpdate()
    }
  }

  async function answer(message: Extract<HostMessage, { t: 'input' }>) {
    const controller = new AbortController()
    inputs.set(message.iid, controller)
    let reply: TabMessage
    try {
      if (!onInputRequest) throw new SharedError('closed', 'This tab has no onInputRequest handler')
      const { method, params, round } = message
      const value = await onInputRequest(message.requests as Record<string, InputRequest>, { method, params, round, signal: controller.signal })
      reply = { t: 'answer', iid: message.iid, ok: true, value }
    } catch (error) {
      reply = { t: 'answer', iid: message.iid, ok: false, error: encodeError(error) }
    }
    if (!inputs.delete(message.iid)) return
    try {
      send(reply)
    } catch (error) {
      send({ t: 'answer', iid: message.iid, ok: false, error: encodeError(new SharedError('not-cloneable', 'The input answer cannot be sent to the shared worker', { cause: error })) })
    }
  }

  /** The worker's sign-in needs the browser: this tab's popup (opened by the click) or its `authorize` hook. */
  async function authorizeStep(message: Extract<HostMessage, { t: 'authorize' }>) {
    const controller = new AbortController()
    inputs.set(message.iid, controller)
    let reply: TabMessage
    const url = new URL(message.url)
    const window = popup
    popup = undefined
    try {
      let callback: URL | string
      if (authorize) callback = await authorize(url)
      // Loaded now, not with the tab: only a sign-in needs it, and the window is already open.
      else if (window) callback = await (await import('../auth/popup')).waitForPopup(window, url, new Map([[url.searchParams.get('state') ?? '', true]]))
      else throw new OAuthError('interaction_required', 'Sign-in needed: call signIn() from a click in this tab')
      reply = { t: 'answer', iid: message.iid, ok: true, value: { url: String(callback) } }
    } catch (error) {
      window?.close()
      reply = { t: 'answer', iid: message.iid, ok: false, error: encodeError(error) }
    }
    if (inputs.delete(message.iid)) send(reply)
  }

  function signIn(): Promise<void> {
    if (!oauthOptions) return Promise.reject(new OAuthError('not_configured', 'No OAuth client: pass createSharedMcp(url, { oauth: { redirectUri } }) to sign in'))
    // Browsers allow a popup only inside the click: it opens now, blank; the worker's authorization URL fills it.
    if (!authorize) {
      popup?.close()
      popup = globalThis.open?.('about:blank', 'nanomcp-oauth', 'popup,width=500,height=650') ?? null
      if (!popup) return Promise.reject(new OAuthError('popup_blocked', 'The browser blocked the sign-in popup: call signIn() from a click handler'))
    }
    // A long timeout: a person is filling in forms in the popup.
    return call('signIn', [], { timeout: 600_000 }).finally(() => {
      popup?.close()
      popup = undefined
    })
  }

  function call(op: Op, args: unknown[], requestOptions: SharedRequestOptions = {}): Promise<never> {
    const { signal, timeout, logLevel, onProgress, onLog } = requestOptions
    if (closed) return Promise.reject(new SharedError('closed', 'This shared client is closed'))
    if (signal?.aborted) return Promise.reject(new AbortError(signal.reason))
    const callId = ++nextId
    return new Promise<never>((resolve, reject) => {
      const onAbort = () => {
        const entry = pending.get(callId)
        if (!entry) return
        pending.delete(callId)
        if (entry.sent) send({ t: 'abort', id: callId, reason: String(signal?.reason instanceof Error ? signal.reason.message : (signal?.reason ?? 'aborted')) })
        else queue = queue.filter((m) => !(m.t === 'call' && m.id === callId))
        reject(new AbortError(signal?.reason))
      }
      // The shared client bounds every call by its timeout; this guard only catches a host that can no longer
      // answer and whose death went unnoticed (no Web Locks on this origin).
      const limit = (timeout ?? (typeof options.timeout === 'number' ? options.timeout : 60_000)) + GUARD_MS
      const guard = Number.isFinite(limit)
        ? setTimeout(() => {
            const entry = pending.get(callId)
            pending.delete(callId)
            entry?.reject(new SharedError('host-lost', `${op}: the shared client did not answer within ${limit} ms`))
          }, limit)
        : undefined
      const settle = <T>(fn: (value: T) => void) => (value: T) => {
        clearTimeout(guard)
        signal?.removeEventListener('abort', onAbort)
        fn(value)
      }
      pending.set(callId, { resolve: settle(resolve), reject: settle(reject), sent: false, ...(onProgress ? { onProgress } : {}), ...(onLog ? { onLog } : {}) })
      const callOptions = { ...(timeout === undefined ? {} : { timeout }), ...(logLevel === undefined ? {} : { logLevel }), progress: !!onProgress, log: !!onLog }
      try {
        send({ t: 'call', id: callId, op, args: args.slice(0, OPS[op]), options: callOptions })
      } catch (error) {
        pending.delete(callId)
        clearTimeout(guard)
        return reject(new SharedError('not-cloneable', `${op}: its arguments cannot be sent to the shared client (${(error as Error).name}: ${(error as Error).message})`, { cause: error }))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  let ping: ReturnType<typeof setInterval> | undefined
  if (!locks()) ping = setInterval(() => ready && send({ t: 'ping' }), PING_MS)
  void start(0)

  return {
    $status: atoms.$status as SharedMcp['$status'],
    $server: atoms.$server as SharedMcp['$server'],
    $tools: atoms.$tools as SharedMcp['$tools'],
    $prompts: atoms.$prompts as SharedMcp['$prompts'],
    $resources: atoms.$resources as SharedMcp['$resources'],
    $resourceTemplates: atoms.$resourceTemplates as SharedMcp['$resourceTemplates'],
    $subscription: atoms.$subscription as SharedMcp['$subscription'],
    $auth: atoms.$auth as SharedMcp['$auth'],
    signIn,
    signOut: () => (oauthOptions ? call('signOut', []) : Promise.reject(new OAuthError('not_configured', 'No OAuth client: pass createSharedMcp(url, { oauth: { redirectUri } }) to sign in'))),
    $shared,
    connect: () => call('connect', []),
    request: (method, params = {}, requestOptions) => call('request', [method, params], requestOptions),
    callTool: (name, args = {}, requestOptions) => call('callTool', [name, args], requestOptions),
    getPrompt: (name, args = {}, requestOptions) => call('getPrompt', [name, args], requestOptions),
    readResource: (uri, requestOptions) => call('readResource', [uri], requestOptions),
    complete: (ref, argument, context, requestOptions) => call('complete', [ref, argument, context], requestOptions),
    refresh: (kind) => call('refresh', [kind]),
    watchResource(uri, onUpdate) {
      const wid = ++nextWatch
      resources.set(wid, { uri, onUpdate })
      send({ t: 'watch-resource', wid, uri })
      return () => {
        if (resources.delete(wid)) send({ t: 'unwatch-resource', wid })
      }
    },
    async close() {
      if (closed) return
      if (ready) send({ t: 'bye' })
      closed = true
      clearTimeout(readyTimer)
      clearInterval(ping)
      stopHostWatch()
      tabLock.release()
      link?.port.close()
      for (const entry of pending.values()) entry.reject(new SharedError('closed', 'This shared client was closed'))
      pending.clear()
      for (const controller of inputs.values()) controller.abort(new SharedError('closed', 'This shared client was closed'))
      atoms.$status.set({ status: 'closed' })
      $shared.set({ mode: 'closed' })
    },
  }
}
