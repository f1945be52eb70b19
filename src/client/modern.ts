import type { JsonRpcNotification, JsonRpcResponse } from '../transport/types'
import type { ClientOptions, ListenFilter, Progress, RequestOptions } from './types'
import type { EraState } from './era'
import type { OnMessage, Wire } from './trace'
import type { DiscoverResult } from '../schemas/types'
import { LEGACY_VERSIONS, PACKAGE_VERSION, VERSION } from '../version'
import { HttpError } from '../errors/http-error'
import { ProtocolError } from '../errors/protocol-error'
import { Fallback, speaksModern, verdict, versionError } from './era'
import { load } from '../transport/load'
import { toRpcError } from './to-rpc-error'
import { checkResult, isPlainProgress, notification } from './validate'
import { LoggingMessageNotificationSchema, ProgressNotificationSchema } from '../schemas/request-stream'

type Result = Record<string, unknown>

const TASKS = 'io.modelcontextprotocol/tasks'
/** Only these may answer `input_required` (spec: MRTR). */
const INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read'])

/** The client capabilities a 2026-07-28 request declares (and, of them, the handshake keeps `extensions`). */
export function capabilities(options: ClientOptions): Result {
  const out: Result = options.onInputRequest ? { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } : {}
  Object.assign(out, options.capabilities)
  if (options.tasks) out.extensions = { ...(out.extensions as Result | undefined), [TASKS]: {} }
  return out
}

/** The `_meta` every 2026-07-28 request carries: it describes the client, as the handshake did before. */
export function clientMeta(options: ClientOptions): Result {
  return {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientInfo': options.clientInfo ?? { name: 'nanomcp', version: PACKAGE_VERSION },
    'io.modelcontextprotocol/clientCapabilities': capabilities(options),
  }
}

/** What `onProgress` gets of a progress notification, once checked; undefined (and a debug line) when it is malformed. */
export function toProgress(message: JsonRpcNotification, wire: Wire): Progress | undefined {
  const p = (isPlainProgress(message) ? message : notification(message, wire.debug, ProgressNotificationSchema))?.params
  return p && { progress: p.progress as number, total: p.total as number | undefined, message: p.message as string | undefined }
}

/** What the modern path needs from its client. */
export interface ModernHost {
  wire: Wire
  era: EraState
}

/** 2026-07-28: requests that describe themselves in `_meta`, read for what they say about the era, and MRTR rounds. */
export class Modern {
  readonly host: ModernHost
  /** What every request's `_meta` says of the client; the options are read once, as everywhere in the client. */
  readonly #meta: Result

  constructor(host: ModernHost) {
    this.host = host
    this.#meta = clientMeta(host.wire.options)
  }

  get #options(): ClientOptions {
    return this.host.wire.options
  }

  send(method: string, params: Result, options: RequestOptions, signal: AbortSignal): Promise<JsonRpcResponse> {
    const { wire } = this.host
    const token = options.onProgress ? `nanomcp-${wire.nextId()}` : undefined
    const meta: Result = { ...(params._meta as Result | undefined), ...this.#meta }
    if (token) meta.progressToken = token
    if (options.logLevel) meta['io.modelcontextprotocol/logLevel'] = options.logLevel
    return wire.call({ jsonrpc: '2.0', id: wire.nextId(), method, params: { ...params, _meta: meta } }, signal, (message) => {
      const p = message.params ?? {}
      if (message.method === 'notifications/progress' && p.progressToken === token) {
        const progress = toProgress(message, wire)
        if (progress) options.onProgress?.(progress)
      } else if (message.method === 'notifications/message') {
        const log = notification(message, wire.debug, LoggingMessageNotificationSchema)
        if (log) options.onLog?.(log.params as never)
      } else {
        wire.debug('ignored on a request stream', message)
      }
    })
  }

  /** Opens a `subscriptions/listen` stream; its notifications go to `onMessage` (listen.ts reads them). */
  listen(filter: ListenFilter, signal: AbortSignal, onMessage: OnMessage): { id: number; response: Promise<JsonRpcResponse> } {
    const { wire } = this.host
    const id = wire.nextId()
    const params = { notifications: filter, _meta: this.#meta }
    return { id, response: wire.request({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params }, signal, onMessage) }
  }

  /**
   * Sends a request until it completes; `probing` while its answer is still to decide the era. Resolves with a
   * Fallback, not a result, when the answer proved the server older and the request unexecuted.
   */
  async request(method: string, params: Result, options: RequestOptions, signal: AbortSignal, probing: boolean): Promise<Result | Fallback> {
    const { era } = this.host
    let retried = false
    let round = 0
    let current = params
    for (;;) {
      let response: JsonRpcResponse | undefined
      let failure: HttpError | undefined
      try {
        response = await this.send(method, current, options, signal)
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        failure = error
      }
      // A rejection says the same about the era whether it came as an HTTP status or as a JSON-RPC error.
      const rpcError = failure ? failure.rpcError : response!.error
      if (failure || rpcError) {
        const next = verdict(failure?.status, rpcError, probing)
        if (next === 'retry') {
          if (retried) throw versionError(rpcError, 'rejected 2026-07-28 twice')
          retried = true
          continue
        }
        // The rejection proved the request did not run, so sending it again the legacy way is safe.
        if (next instanceof Fallback) return next
        if (next === 'modern-error') era.confirm()
        else if (failure) throw failure
        throw toRpcError(rpcError!)
      }
      const result = response!.result!
      if (probing && typeof result.resultType !== 'string' && method === 'server/discover') {
        // The probe was discovery itself, so its answer settles the era at once: an empty or foreign result is
        // what a legacy server gives (the raw-HTTP initialize mock answers `{}`).
        if (speaksModern(result)) {
          era.confirm()
          return result
        }
        return new Fallback(LEGACY_VERSIONS[0]!, false)
      }
      if (probing && typeof result.resultType !== 'string') {
        // A legacy server that ignored _meta, or a sloppy modern one: keep the answer, ask server/discover later.
        era.answeredAmbiguously()
        return checkResult(method, result)
      }
      if (probing) era.confirm()
      const type = result.resultType ?? 'complete'
      if (type === 'complete') return checkResult(method, result)
      if (type === 'input_required' && INPUT_METHODS.has(method)) {
        round++
        // Rounds wait for the user anyway: their checks and handling load only now.
        const { nextRound } = await load('input-request', () => import('./input-requests'), signal)
        current = await nextRound(this.#options, method, params, result, round, signal)
        continue
      }
      if (type === 'task' && method === 'tools/call' && this.#options.tasks) {
        const { awaitTask } = await load('tasks', () => import('./tasks'), signal)
        return awaitTask(result, signal, { call: (m, p, s) => this.#taskCall(m, p, s), options: this.#options, background: () => this.host.wire.background() })
      }
      throw new ProtocolError('invalid-result', `Unexpected resultType "${String(type)}" for ${method}`, result)
    }
  }

  /** A request of a task (tasks/get, tasks/update, tasks/cancel): the server has answered 2026-07-28 already. */
  async #taskCall(method: string, params: Result, signal: AbortSignal): Promise<Result> {
    const outcome = await this.request(method, params, {}, signal, false)
    if (outcome instanceof Fallback) throw versionError(undefined, `${method} was refused as if the server were older than 2026-07-28`)
    return outcome
  }

  /**
   * After an ambiguous probe: one server/discover decides. Anything but a description listing 2026-07-28 means
   * an older server, whose handshake then follows.
   */
  async settleAmbiguity(signal: AbortSignal): Promise<void> {
    const { era } = this.host
    let modern = false
    try {
      const { result } = await this.send('server/discover', {}, {}, signal)
      if (speaksModern(result)) {
        era.describeModern(result as DiscoverResult)
        modern = true
      }
    } catch (error) {
      // The caller's limit fired: that says nothing about the server, and the next request asks again.
      if (signal.aborted) throw error
      // Whatever else went wrong, the server is not a 2026-07-28 one that describes itself.
    }
    if (modern) return era.confirm()
    era.assumeLegacy()
  }
}
