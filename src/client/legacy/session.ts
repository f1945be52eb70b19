import type { JsonRpcErrorObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, ServerStream } from '../../transport/types'
import type { RequestOptions, ServerNotification } from '../types'
import type { EraState } from '../era'
import type { Wire } from '../trace'
import { LEGACY_VERSIONS } from '../../version'
import { HttpError } from '../../errors/http-error'
import { RpcError } from '../../errors/rpc-error'
import { UnsupportedVersionError } from '../../errors/unsupported-version-error'
import { abortable } from '../../transport/http'
import { noop } from '../../transport/pending'
import { withDefaults } from '../apply-defaults'
import { isModernError } from '../era'
import { Joinable, reasonOf } from '../limits'
import { capabilities, clientMeta, toProgress } from '../modern'
import { toRpcError } from '../to-rpc-error'
import { accepted } from '../url-required'
import { Held } from './held'
import { checkResult, inputRequest, notification } from '../validate'
import { ServerNotificationSchema } from '../../schemas/notifications'
import { parseWith } from '../../schemas/explain'
import { InitializeResultSchema } from '../../schemas/results'

type Result = Record<string, unknown>

/** The server requests an older server may send the client, each behind the option that opts in to it. */
const OPT_INS = { 'elicitation/create': 'legacyElicitation', 'sampling/createMessage': 'legacySampling', 'roots/list': 'legacyRoots' } as const

/** What the session needs from its client. */
export interface SessionHost {
  wire: Wire
  era: EraState
  /** Runs work alone on the client: requests wait for it rather than race it. */
  exclusive<T>(work: () => Promise<T>): Promise<T>
  /** The server cannot be spoken to (a revision the client does not know): the client ends with `error`. */
  fail(error: Error): Promise<void>
  /** A server notification for `handler`, or without one the app's `onNotification`. */
  notify(notification: ServerNotification, handler?: (notification: ServerNotification) => void): void
}

/**
 * The legacy era (before 2026-07-28): the `initialize` handshake, a new session when the server says the
 * old one ended (404), answers to the server's own requests, and the session's stream (GET SSE, or the
 * HTTP+SSE EventSource) shared by every subscription.
 */
export class LegacySession {
  #session = false
  /** The server issued a session id for the current session. */
  #issued = false
  #stream: ServerStream | undefined
  readonly #opening = new Joinable((signal) => this.#open(signal))
  /** Counts sessions: a subscription that set up on one session knows when it must subscribe again. */
  generation = 0
  readonly #listeners = new Set<(message: JsonRpcNotification) => boolean>()
  readonly #endedCallbacks = new Set<() => void>()
  /** The last handshake declared URL-mode elicitation: only then may a -32042 be answered (url-required.ts). */
  urlMode: boolean | undefined

  constructor(readonly host: SessionHost) {}

  /** A notification typed on its way to the app; a malformed one is dropped with a debug line. */
  #checked(message: JsonRpcNotification): ServerNotification | undefined {
    return notification(message, this.host.wire.debug, ServerNotificationSchema)
  }

  /** No session yet, or one the server issued an id for and the transport has since forgotten (a 404). */
  gone(): boolean {
    return !this.#session || (this.#issued && !this.host.wire.transport.sessionId)
  }

  /** A new session at the revision already agreed (or the newest handshake one), alone on the client. */
  renew(signal: AbortSignal, trySse = false): Promise<void> {
    return this.host.exclusive(() => this.handshake(this.host.era.version ?? LEGACY_VERSIONS[0]!, trySse, signal))
  }

  /** A new session, within the limits of the request that needs it. */
  async handshake(offer: string, trySse: boolean, signal: AbortSignal): Promise<void> {
    const { wire, era } = this.host
    const options = wire.options
    this.#session = false
    // The old session's stream would carry nothing for the new one: its subscriptions must set up again.
    this.#drop()
    wire.transport.resetSession()
    const declared: Result = {}
    // Only extensions: an older server that is offered roots, sampling or elicitation may call the client back.
    const extensions = capabilities(options).extensions
    if (extensions) declared.extensions = extensions
    if (options.onInputRequest) {
      // URL mode arrived with 2025-11-25; an older revision has no such mode to offer.
      if (options.legacyElicitation) declared.elicitation = { form: { applyDefaults: true }, ...((this.urlMode = offer >= '2025-11-25') && { url: {} }) }
      if (options.legacySampling) declared.sampling = {}
      if (options.legacyRoots) declared.roots = { listChanged: true }
    }
    const params = { protocolVersion: offer, capabilities: declared, clientInfo: clientMeta(options)['io.modelcontextprotocol/clientInfo'] }
    let response: JsonRpcResponse
    try {
      response = await wire.call({ jsonrpc: '2.0', id: wire.nextId(), method: 'initialize', params }, signal, (m) => this.#onMessage(m))
    } catch (error) {
      // Spec: 400/404/405 without a modern error body on the initialize POST means "try HTTP+SSE".
      const refused = error instanceof HttpError && [400, 404, 405].includes(error.status) && !isModernError(error.rpcError?.code)
      if (trySse && refused && wire.transport.legacySse) {
        wire.transport = await abortable(wire.transport.legacySse(), signal)
        return this.handshake(offer, false, signal)
      }
      throw error
    }
    if (response.error) throw toRpcError(response.error)
    const { protocolVersion, capabilities: serverCapabilities, serverInfo, instructions } = parseWith(InitializeResultSchema, response.result, 'initialize result')
    if (!LEGACY_VERSIONS.includes(protocolVersion)) {
      const error = new UnsupportedVersionError([protocolVersion], LEGACY_VERSIONS, `The handshake answered ${protocolVersion}`)
      await this.host.fail(error)
      throw error
    }
    await wire.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, signal)
    this.#session = true
    this.#issued = !!wire.transport.sessionId
    this.generation++
    era.legacy(protocolVersion, { era: 'legacy', protocolVersion, serverInfo, capabilities: serverCapabilities, instructions })
    // HTTP+SSE has one stream for everything: listen on it from the start so nothing the server says is lost.
    // An app that answers elicitations needs the GET stream too: servers send their requests there.
    if (wire.transport.sessionStream || (options.onInputRequest && Object.values(OPT_INS).some((o) => options[o]))) {
      void this.openStream(wire.background() ?? new AbortController().signal).catch((error: unknown) => wire.debug('could not open the session stream', error))
    }
  }

  /**
   * Sends a request on the session, renewing it once if the server says it ended. Notifications the server sent on
   * the request's stream reach the app only once the request has settled and its caller has resumed (a macrotask
   * later), so a handler that awaits a request of its own never runs inside this one.
   */
  async request(method: string, params: Result, options: RequestOptions, signal: AbortSignal): Promise<Result> {
    let held: Held | undefined
    try {
      return await this.#request(method, params, options, signal, (message) => (held ??= new Held(this.host.wire)).push(message))
    } finally {
      const notifications = held?.take() ?? []
      const handler = options.onNotification
      if (notifications.length) setTimeout(() => notifications.forEach((n) => this.host.notify(n, handler)))
    }
  }

  async #request(method: string, params: Result, options: RequestOptions, signal: AbortSignal, hold: (message: JsonRpcNotification) => void): Promise<Result> {
    const { wire } = this.host
    // Older revisions have no server/discover: asking would only earn a -32601 round trip (connect() reads
    // the handshake's description instead).
    if (method === 'server/discover') throw new RpcError(-32601, 'server/discover does not exist before 2026-07-28')
    const token = options.onProgress ? `nanomcp-${wire.nextId()}` : undefined
    const body: Result = { ...params }
    if (token) body._meta = { ...(params._meta as Result | undefined), progressToken: token }
    let resent = false
    let elicited = 0
    for (;;) {
      const id = wire.nextId()
      try {
        const response = await wire.call({ jsonrpc: '2.0', id, method, params: body }, signal, (message) => {
          if (token && message.method === 'notifications/progress' && message.params?.progressToken === token) {
            const progress = toProgress(message, wire)
            if (progress) options.onProgress?.(progress)
          } else if ('id' in message) {
            void this.#answer(message as JsonRpcRequest)
          } else {
            // Checked when the request settles and they are handed over (held.ts).
            hold(message)
          }
        })
        if (response.error) throw toRpcError(response.error)
        return checkResult(method, response.result!)
      } catch (error) {
        if (error instanceof HttpError && error.sessionExpired && !resent) {
          // The session is gone, so the request never ran: a new session, then the same request once more.
          resent = true
          await this.renew(signal)
          continue
        }
        // 2025-11-25: the user must visit URLs first, then the same request goes once more (once per request: a
        // second -32042 is the caller's).
        if (error instanceof RpcError && error.code === -32042 && this.urlMode && !elicited++ && (await accepted(error, this, method, params, signal))) continue
        if (signal.aborted && !(error instanceof RpcError)) {
          // On these revisions a closed stream is not a cancellation; the server must be told.
          void wire.transport
            .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(reasonOf(signal).message) } })
            .catch(noop)
        }
        throw error
      }
    }
  }

  /** Older servers may call the client: `ping` is answered; elicitation, sampling and roots only when the app opted in. */
  async #answer(request: JsonRpcRequest): Promise<void> {
    const { wire } = this.host
    const options = wire.options
    const { id, method, params } = request
    let answer: { result: Result } | { error: JsonRpcErrorObject }
    if (method === 'ping') {
      answer = { result: {} }
    } else if (options.onInputRequest && options[OPT_INS[method as keyof typeof OPT_INS]]) {
      try {
        const key = String(id)
        // A chunk that never arrives would leave the server's request unanswered: its load gets the client's timeout.
        const requests = { [key]: await inputRequest({ method, params }, wire.background()) }
        const answers = withDefaults(requests, await options.onInputRequest(requests, { method, params: params ?? {}, round: 1, signal: new AbortController().signal }))
        answer = { result: (answers[key] as Result) ?? { action: 'cancel' } }
      } catch (error) {
        answer = { error: { code: -32603, message: error instanceof Error ? error.message : `${method} failed` } }
      }
    } else {
      answer = { error: { code: -32601, message: `Method not found: ${method}` } }
    }
    await wire.send({ jsonrpc: '2.0', id, ...answer }).catch((error: unknown) => wire.debug('could not answer a server request', error))
  }

  #onMessage(message: JsonRpcRequest | JsonRpcNotification): void {
    if ('id' in message) return void this.#answer(message)
    let claimed = false
    for (const listener of this.#listeners) claimed = listener(message) || claimed
    const checked = claimed ? undefined : this.#checked(message)
    if (checked) this.host.notify(checked)
  }

  /** Adds a listener to the session stream; it returns true when it took the message. */
  onStream(listener: (message: JsonRpcNotification) => boolean): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  onStreamEnd(callback: () => void): () => void {
    this.#endedCallbacks.add(callback)
    return () => this.#endedCallbacks.delete(callback)
  }

  /** The session's own stream (GET SSE, or the HTTP+SSE EventSource), opened once and shared; `signal` bounds the wait. */
  openStream(signal: AbortSignal): Promise<ServerStream | undefined> {
    return this.#stream ? Promise.resolve(this.#stream) : this.#opening.join(signal)
  }

  async #open(signal: AbortSignal): Promise<ServerStream | undefined> {
    const { wire } = this.host
    const onMessage = wire.traced((message) => this.#onMessage(message))
    if (this.gone()) await this.renew(signal)
    let stream: ServerStream | undefined
    try {
      stream = await wire.transport.openStream(onMessage, { signal })
    } catch (error) {
      if (!(error instanceof HttpError && error.sessionExpired)) throw error
      await this.renew(signal)
      if (this.#stream) return this.#stream
      stream = await wire.transport.openStream(onMessage, { signal })
    }
    if (!stream) return undefined
    this.#stream = stream
    stream.closed.then(
      () => this.#ended(stream, false),
      (error: unknown) => this.#ended(stream, error instanceof HttpError && error.sessionExpired),
    )
    return stream
  }

  #ended(stream: ServerStream, sessionExpired: boolean): void {
    if (this.#stream !== stream) return
    // An HTTP+SSE session lives exactly as long as its stream.
    if (sessionExpired || this.host.wire.transport.sessionStream) this.#session = false
    this.#drop()
  }

  /** Lets go of the session stream and tells its subscriptions. */
  #drop(): void {
    const stream = this.#stream
    if (!stream) return
    this.#stream = undefined
    stream.close()
    for (const callback of this.#endedCallbacks) callback()
  }

  close(): void {
    this.#stream?.close()
  }
}
