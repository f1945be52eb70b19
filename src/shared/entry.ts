import type { ReadableAtom } from 'nanostores'
import type { InputRequest, InputRequestHandler, RequestOptions } from '../client/types'
import { AbortError } from '../errors/abort-error'
import { InputRequiredError } from '../errors/input-required-error'
import { McpError } from '../errors/mcp-error'
import { oauth } from '../auth/oauth'
import { createMcp } from '../stores/create-mcp'
import { StreamableHttpTransport } from '../transport/streamable-http'
import type { Mcp } from '../stores/types'
import type { SharedOAuthOptions } from './types'
import { ATOMS, OPS, type AtomName, type HostMessage, type ShareKey, type TabMessage } from './protocol'
import { decodeError, encodeError, encodeValue } from './wire-error'

/** One tab attached to an entry, as the host sees it. */
export interface HostTab {
  readonly id: string
  /** The ShareKey it said hello with, as JSON. */
  readonly key: string
  send(message: HostMessage): void
  watching: Set<AtomName>
  notifications: boolean
  trace: boolean
  calls: Map<number, Call>
  resources: Map<number, () => void>
}

interface Call {
  controller: AbortController
  method: string
  /** The params object handed to createMcp, compared by identity first, then by JSON. */
  params: Record<string, unknown>
  args: unknown
}

interface PendingInput {
  tab: HostTab
  resolve(value: Record<string, unknown>): void
  reject(error: unknown): void
}

const LISTS = new Set<AtomName>(['$tools', '$prompts', '$resources', '$resourceTemplates'])

const isAtom = (value: unknown): value is ReadableAtom<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as ReadableAtom<unknown>).listen === 'function'

/** What a helper call puts on the wire, so an input request can be traced back to the call that caused it. */
function wireOf(op: string, args: unknown[]): { method: string; params: Record<string, unknown> } {
  const [a, b, c] = args as [never, never, never]
  if (op === 'callTool') return { method: 'tools/call', params: { name: a, arguments: b ?? {} } }
  if (op === 'getPrompt') return { method: 'prompts/get', params: { name: a, arguments: b ?? {} } }
  if (op === 'readResource') return { method: 'resources/read', params: { uri: a } }
  if (op === 'complete') return { method: 'completion/complete', params: { ref: a, argument: b, ...(c ? { context: c } : {}) } }
  return { method: String(a), params: (b as Record<string, unknown> | undefined) ?? {} }
}

const sameObject = (call: Call, params: Record<string, unknown>) =>
  call.params === params || (call.args !== undefined && call.args === params.arguments)

const sameJson = (call: Call, params: Record<string, unknown>) => {
  const { inputResponses: _i, requestState: _r, ...rest } = params
  return JSON.stringify(rest) === JSON.stringify(call.params)
}

export interface Entry {
  attach(tab: HostTab, hello: Extract<TabMessage, { t: 'hello' }>): void
  handle(tab: HostTab, message: TabMessage): void
  detach(tab: HostTab): void
}

/**
 * One createMcp for every tab that asked for the same server with the same options. Lists are watched on the
 * host while any tab watches them, so each loads once and one listen() serves all; the last tab to leave
 * closes the client, and with it the server stream.
 */
export function createEntry(key: ShareKey, onEmpty: () => void): Entry {
  const tabs = new Set<HostTab>()
  const counts = new Map<AtomName, number>()
  const stops = new Map<AtomName, () => void>()
  const inputs = new Map<number, PendingInput>()
  let nextInput = 0

  const broadcast = (message: HostMessage, to: (tab: HostTab) => boolean = () => true) => {
    for (const tab of tabs) if (to(tab)) tab.send(message)
  }

  const askTab: InputRequestHandler = (requests, context) => {
    // The client hands back the params object it was given, so identity finds the call even when two tabs make
    // the same one at once; equal JSON is the fallback should a layer below ever copy them.
    let owner: [HostTab, number] | undefined
    for (const same of [sameObject, sameJson])
      for (const tab of tabs)
        for (const [id, call] of tab.calls) if (!owner && call.method === context.method && same(call, context.params)) owner = [tab, id]
    if (!owner) throw new InputRequiredError(`${context.method} needs input and no tab that made the call is left to answer`, requests, context.round)
    const [tab, id] = owner
    const iid = ++nextInput
    return new Promise((resolve, reject) => {
      inputs.set(iid, { tab, resolve, reject })
      context.signal.addEventListener('abort', () => {
        if (inputs.delete(iid)) tab.send({ t: 'input-abort', iid })
        reject(context.signal.reason)
      }, { once: true })
      tab.send({ t: 'input', iid, id, requests: requests as Record<string, InputRequest>, method: context.method, params: context.params, round: context.round })
    })
  }

  // OAuth runs here, so the tokens are held once for every tab. The browser step (a window) is the signing-in
  // tab's: the session reads `authorize` at each use, and it exists only while a tab's signIn() runs, so a 401 at
  // any other time leaves $auth 'required' for a tab to offer its Sign-in button.
  let signer: HostTab | undefined
  let signing: Promise<unknown> = Promise.resolve()
  const askAuthorize = (tab: HostTab, url: URL) =>
    new Promise<URL>((resolve, reject) => {
      const iid = ++nextInput
      inputs.set(iid, { tab, resolve: (value) => resolve(new URL(String(value.url))), reject })
      tab.send({ t: 'authorize', iid, url: url.href })
    })
  const { headers, oauth: oauthOptions, ...options } = key.options as { headers?: Record<string, string>; oauth?: SharedOAuthOptions }
  const auth = oauthOptions
    ? oauth({
        ...oauthOptions,
        get authorize() {
          const tab = signer
          return tab && ((url: URL) => askAuthorize(tab, url))
        },
      })
    : undefined
  const signIn = (tab: HostTab) => {
    // One sign-in at a time: a second tab's click waits for the first (whose tokens it may then not need).
    const run = signing.catch(() => undefined).then(async () => {
      signer = tab
      try {
        await mcp.signIn()
      } finally {
        signer = undefined
      }
    })
    signing = run
    return run
  }
  const mcp: Mcp = createMcp(headers ? new StreamableHttpTransport(key.url, { headers, auth }) : key.url, {
    ...options,
    ...(auth ? { auth } : {}),
    onNotification: (value) => broadcast({ t: 'notification', value }, (tab) => tab.notifications),
    onTrace: (value) => tabs.size && broadcast({ t: 'trace', value }, (tab) => tab.trace),
    ...(key.input ? { onInputRequest: askTab } : {}),
  })
  const atoms = new Map<AtomName, ReadableAtom<unknown>>()
  for (const name of ATOMS) {
    const atom = (mcp as unknown as Record<string, unknown>)[name]
    if (isAtom(atom)) atoms.set(name, atom)
  }
  const publish = (name: AtomName) => (value: unknown) => broadcast({ t: 'atom', name, value: encodeValue(value) })
  // Plain state atoms are followed for the entry's whole life; lists only while a tab watches them, because
  // watching a list is what loads it and opens the subscription.
  for (const [name, atom] of atoms) if (!LISTS.has(name)) stops.set(name, atom.listen(publish(name)))

  const watch = (name: AtomName, on: boolean) => {
    const atom = atoms.get(name)
    if (!atom || !LISTS.has(name)) return
    const count = (counts.get(name) ?? 0) + (on ? 1 : -1)
    counts.set(name, count)
    if (on && count === 1) {
      stops.set(name, atom.listen(publish(name)))
      // Mounting may have set `loading` before the listener was attached.
      publish(name)(atom.get())
    } else if (!on && count === 0) {
      stops.get(name)?.()
      stops.delete(name)
    }
  }

  const run = async (tab: HostTab, message: Extract<TabMessage, { t: 'call' }>) => {
    const { id, op, args, options } = message
    const controller = new AbortController()
    const wire = wireOf(op, args)
    tab.calls.set(id, { controller, ...wire, args: op === 'callTool' || op === 'getPrompt' ? wire.params.arguments : undefined })
    const requestOptions: RequestOptions = {
      signal: controller.signal,
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
      ...(options.progress ? { onProgress: (value) => tab.send({ t: 'progress', id, value }) } : {}),
      ...(options.log ? { onLog: (value) => tab.send({ t: 'log', id, value }) } : {}),
    }
    try {
      let value: unknown
      if (op === 'request') {
        // Any method, as the tab asked: the typed overloads are the tab's concern, not the relay's.
        const request = mcp.client.request.bind(mcp.client) as (method: string, params: object, options: RequestOptions) => Promise<unknown>
        value = await request(wire.method, wire.params, requestOptions)
      } else if (op === 'signIn') value = await signIn(tab)
      else {
        const fn = (mcp as unknown as Record<string, unknown>)[op]
        if (typeof fn !== 'function' || !(op in OPS)) throw new McpError(`${op} is not available on this client`)
        const positional = op === 'callTool' || op === 'getPrompt' ? [args[0], wire.params.arguments] : args.slice(0, OPS[op])
        value = await (fn as (...a: unknown[]) => Promise<unknown>)(...positional, requestOptions)
      }
      tab.send({ t: 'result', id, ok: true, value })
    } catch (error) {
      tab.send({ t: 'result', id, ok: false, error: encodeError(error) })
    } finally {
      tab.calls.delete(id)
    }
  }

  return {
    attach(tab, hello) {
      tabs.add(tab)
      for (const [name, atom] of atoms) tab.send({ t: 'atom', name, value: encodeValue(atom.get()) })
      for (const name of hello.watching) this.handle(tab, { t: 'watch', atom: name, on: true })
      for (const [wid, uri] of hello.resources) this.handle(tab, { t: 'watch-resource', wid, uri })
    },
    handle(tab, message) {
      switch (message.t) {
        case 'watch':
          if (message.on === tab.watching.has(message.atom)) return
          if (message.on) tab.watching.add(message.atom)
          else tab.watching.delete(message.atom)
          return watch(message.atom, message.on)
        case 'call':
          return void run(tab, message)
        case 'abort':
          return tab.calls.get(message.id)?.controller.abort(new AbortError(message.reason))
        case 'answer': {
          const pending = inputs.get(message.iid)
          if (!pending || pending.tab !== tab) return
          inputs.delete(message.iid)
          return message.ok ? pending.resolve(message.value) : pending.reject(decodeError(message.error))
        }
        case 'watch-resource':
          if (!tab.resources.has(message.wid)) tab.resources.set(message.wid, mcp.watchResource(message.uri, () => tab.send({ t: 'updated', wid: message.wid })))
          return
        case 'unwatch-resource':
          tab.resources.get(message.wid)?.()
          tab.resources.delete(message.wid)
          return
      }
    },
    detach(tab) {
      if (!tabs.delete(tab)) return
      // Its calls are cancelled on the server (the client sends the cancellation); other tabs' calls go on.
      for (const call of tab.calls.values()) call.controller.abort(new AbortError('the tab that made this call closed'))
      for (const [iid, pending] of inputs)
        if (pending.tab === tab) {
          inputs.delete(iid)
          pending.reject(new AbortError('the tab that made this call closed'))
        }
      for (const stop of tab.resources.values()) stop()
      for (const name of tab.watching) watch(name, false)
      if (tabs.size) return
      onEmpty()
      for (const stop of stops.values()) stop()
      void mcp.close().catch(() => undefined)
    },
  }
}
