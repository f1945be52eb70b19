// createSharedMcp: wires a tab's mirrored atoms, its connection to the host, its calls and its input answers into the SharedMcp API.
import type { ServerNotification, TraceEvent } from '../client/types'
import { createMirror } from './mirror'
import type { HostMessage } from './protocol'
import { shareKey } from './share-key'
import { SharedError } from './shared-error'
import { createCalls } from './tab-calls'
import { connect } from './tab-connection'
import { createTabInput, notConfigured } from './tab-input'
import type { SharedMcp, SharedMcpOptions } from './types'

/**
 * createMcp for every tab of the origin at once: one client, in a SharedWorker (else in a leader tab elected
 * with Web Locks, else in this tab), whose atoms every tab mirrors and whose helpers every tab calls. One
 * listen stream and one load of each list serve all tabs; a tab closing or the worker dying disturbs no other.
 */
export function createSharedMcp(url: string, options: SharedMcpOptions = {}): SharedMcp {
  const { onNotification, onInputRequest, onTrace, oauth } = options
  const { key, authorize } = shareKey(url, options)
  const resources = new Map<number, { uri: string; onUpdate(): void }>()
  let nextWatch = 0

  const { atoms, watching, apply } = createMirror((name, on) => connection.send({ t: 'watch', atom: name, on }))
  const connection = connect(options, {
    hello: () => ({
      key,
      watching: [...watching],
      resources: [...resources].map(([wid, { uri }]) => [wid, uri]),
      notifications: !!onNotification,
      trace: !!onTrace,
    }),
    onPost: (message) => message.t === 'call' && calls.sent(message.id),
    onMessage: receive,
    onLost() {
      calls.lost()
      input.abortAll(new SharedError('host-lost', 'The shared client went away'))
    },
    onNowhere(error) {
      atoms.$status.set({ status: 'error', error })
      calls.rejectAll(error)
    },
  })
  const calls = createCalls(connection, options.timeout)
  const input = createTabInput(connection.send, onInputRequest, authorize, !!oauth)
  const { call } = calls
  const { $shared } = connection

  function receive(message: HostMessage) {
    switch (message.t) {
      case 'atom':
        return apply(message)
      case 'result':
      case 'progress':
      case 'log':
        return calls.receive(message)
      case 'input':
        return void input.answer(message)
      case 'authorize':
        return void input.authorize(message)
      case 'input-abort':
        return input.drop(message.iid)
      case 'notification':
        return onNotification?.(message.value as ServerNotification)
      case 'trace':
        return onTrace?.(message.value as TraceEvent)
      case 'updated':
        return resources.get(message.wid)?.onUpdate()
    }
  }

  return {
    $status: atoms.$status as SharedMcp['$status'],
    $server: atoms.$server as SharedMcp['$server'],
    $tools: atoms.$tools as SharedMcp['$tools'],
    $prompts: atoms.$prompts as SharedMcp['$prompts'],
    $resources: atoms.$resources as SharedMcp['$resources'],
    $resourceTemplates: atoms.$resourceTemplates as SharedMcp['$resourceTemplates'],
    $subscription: atoms.$subscription as SharedMcp['$subscription'],
    $auth: atoms.$auth as SharedMcp['$auth'],
    signIn: () => input.signIn((timeout) => call('signIn', [], { timeout })),
    signOut: () => (oauth ? call('signOut', []) : Promise.reject(notConfigured())),
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
      connection.send({ t: 'watch-resource', wid, uri })
      return () => {
        if (resources.delete(wid)) connection.send({ t: 'unwatch-resource', wid })
      }
    },
    async close() {
      if (connection.closed) return
      connection.close()
      calls.rejectAll(new SharedError('closed', 'This shared client was closed'))
      input.abortAll(new SharedError('closed', 'This shared client was closed'))
      atoms.$status.set({ status: 'closed' })
      $shared.set({ mode: 'closed' })
    },
  }
}
