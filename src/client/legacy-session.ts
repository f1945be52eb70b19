import type { JsonRpcErrorObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, ServerStream } from '../transport/types'
import type { RequestOptions, ServerNotification } from './types'
import type { EraState } from './era'
import type { Wire } from './trace'
import { LEGACY_VERSIONS } from '../version'
import { HttpError } from '../errors/http-error'
import { RpcError } from '../errors/rpc-error'
import { UnsupportedVersionError } from '../errors/unsupported-version-error'
import { noop } from '../transport/pending'
import { withDefaults } from './apply-defaults'
import { isModernError } from './era'
import { reasonOf } from './limits'
import { capabilities, clientMeta, toProgress } from './modern'
import { toRpcError } from './to-rpc-error'
import { check, checkResult } from './validate'

type Result = Record<string, unknown>

/** What the session needs from its client. */
export interface SessionHost {
  wire: Wire
  era: EraState
  /** Runs work alone on the client: requests wait for it rather than race it. */
  exclusive<T>(work: () => Promise<T>): Promise<T>
  /** The server cannot be spoken to (a revision the client does not know): the client ends with `error`. */
  fail(error: Error): Promise<void>
  /** A server notification for the app's `onNotification`. */
  notify(notification: ServerNotification): void
}

/**
 * The handshake era (before 2026-07-28): the `initialize` handshake, a new session when the server says the
 * old one ended (404), answers to the server's own requests, and the session's stream (GET SSE, or the
 * HTTP+SSE EventSource) shared by every subscription.
 */
export class LegacySession {
  #session = false
  /** The server issued a session id for the current session. */
  #issued = false
  #stream: ServerStream | undefined
  #opening: Promise<ServerStream | undefined> | undefined
  readonly #listeners = new Set<(message: JsonRpcNotification) => boolean>()
  readonly #ended = new Set<() => void>()

  constructor(readonly host: SessionHost) {}

  /** No session yet, or one the server issued an id for and the transport has since forgotten (a 404). */
  gone(): boolean {
    return !this.#session || (this.#issued && !this.host.wire.transport.sessionId)
  }

  /** A new session at the revision already agreed (or the newest handshake one), alone on the client. */
  renew(trySse = false): Promise<void> {
    return this.host.exclusive(() => this.handshake(this.host.era.version ?? LEGACY_VERSIONS[0]!, trySse))
  }

  async handshake(offer: string, trySse: boolean): Promise<void> {
    const { wire, era } = this.host
    const options = wire.options
    this.#session = false
    wire.transport.resetSession()
    wire.transport.protocolVersion = undefined
    const declared: Result = {}
    // Only extensions: an older server that is offered roots, sampling or elicitation may call the client back.
    const extensions = capabilities(options).extensions
    if (extensions) declared.extensions = extensions
    if (options.legacyElicitation && options.onInputRequest) declared.elicitation = { form: { applyDefaults: true } }
    const params = { protocolVersion: offer, capabilities: declared, clientInfo: clientMeta(options)['io.modelcontextprotocol/clientInfo'] }
    const signal = AbortSignal.timeout(options.timeout ?? 60_000)
    let response: JsonRpcResponse
    try {
      response = await wire.call({ jsonrpc: '2.0', id: wire.nextId(), method: 'initialize', params }, signal, (m) => this.#onMessage(m))
    } catch (error) {
      // Spec: 400/404/405 without a modern error body on the initialize POST means "try HTTP+SSE".
      const refused = error instanceof HttpError && [400, 404, 405].includes(error.status) && !isModernError(error.rpcError?.code)
      if (trySse && refused && wire.transport.legacySse) {
        wire.transport = await wire.transport.legacySse()
        return this.handshake(offer, false)
      }
      throw error
    }
    if (response.error) throw toRpcError(response.error)
    const { protocolVersion, capabilities: serverCapabilities, serverInfo, instructions } = check('initialize', response.result)
    if (!LEGACY_VERSIONS.includes(protocolVersion)) {
      const error = new UnsupportedVersionError([protocolVersion], LEGACY_VERSIONS, `The handshake answered ${protocolVersion}`)
      await this.host.fail(error)
      throw error
    }
    wire.transport.protocolVersion = protocolVersion
    await wire.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, signal)
    this.#session = true
    this.#issued = !!wire.transport.sessionId
    era.legacy(protocolVersion, { era: 'legacy', protocolVersion, serverInfo, capabilities: serverCapabilities, instructions })
    // HTTP+SSE has one stream for everything: listen on it from the start so nothing the server says is lost.
    // An app that answers elicitations needs the GET stream too: servers send their requests there.
    if (wire.transport.kind === 'sse' || (options.legacyElicitation && options.onInputRequest)) {
      void this.openStream().catch((error: unknown) => wire.debug('could not open the session stream', error))
    }
  }

  /** Sends a request on the session, renewing it once if the server says it ended. */
  async request(method: string, params: Result, options: RequestOptions, signal: AbortSignal, deferred: ServerNotification[]): Promise<Result> {
    const { wire } = this.host
    // Older revisions have no server/discover: asking would only earn a -32601 round trip (connect() reads
    // the handshake's description instead).
    if (method === 'server/discover') throw new RpcError(-32601, 'server/discover does not exist before 2026-07-28')
    const token = options.onProgress ? `nanomcp-${wire.nextId()}` : undefined
    const body: Result = { ...params }
    if (token) body._meta = { ...(params._meta as Result | undefined), progressToken: token }
    let resent = false
    for (;;) {
      const id = wire.nextId()
      try {
        const response = await wire.call({ jsonrpc: '2.0', id, method, params: body }, signal, (message) => {
          if (token && message.method === 'notifications/progress' && message.params?.progressToken === token) {
            options.onProgress?.(toProgress(message.params))
          } else if ('id' in message) {
            void this.#answer(message as JsonRpcRequest)
          } else {
            deferred.push(message)
          }
        })
        if (response.error) throw toRpcError(response.error)
        return checkResult(method, response.result!)
      } catch (error) {
        if (error instanceof HttpError && error.sessionExpired && !resent) {
          // The session is gone, so the request never ran: a new session, then the same request once more.
          resent = true
          await this.renew()
          continue
        }
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

  /** Older servers may call the client: `ping` is answered; elicitation only when the app opted in. */
  async #answer(request: JsonRpcRequest): Promise<void> {
    const { wire } = this.host
    const options = wire.options
    const { id, method, params } = request
    let answer: { result: Result } | { error: JsonRpcErrorObject }
    if (method === 'ping') {
      answer = { result: {} }
    } else if (method === 'elicitation/create' && options.legacyElicitation && options.onInputRequest) {
      try {
        const key = String(id)
        const requests = { [key]: { method, params } }
        const answers = withDefaults(requests, await options.onInputRequest(requests, { method, params: params ?? {}, round: 1, signal: new AbortController().signal }))
        answer = { result: (answers[key] as Result) ?? { action: 'cancel' } }
      } catch (error) {
        answer = { error: { code: -32603, message: error instanceof Error ? error.message : 'elicitation failed' } }
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
    if (!claimed) this.host.notify(message)
  }

  /** Adds a listener to the session stream; it returns true when it took the message. */
  onStream(listener: (message: JsonRpcNotification) => boolean): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  onStreamEnd(callback: () => void): () => void {
    this.#ended.add(callback)
    return () => this.#ended.delete(callback)
  }

  /** The session's own stream (GET SSE, or the HTTP+SSE EventSource), opened once and shared. */
  openStream(): Promise<ServerStream | undefined> {
    if (this.#stream) return Promise.resolve(this.#stream)
    this.#opening ??= (async () => {
      const { wire } = this.host
      const onMessage = wire.traced((message) => this.#onMessage(message))
      if (this.gone()) await this.renew()
      let stream: ServerStream | undefined
      try {
        stream = await wire.transport.openStream(onMessage)
      } catch (error) {
        if (!(error instanceof HttpError && error.sessionExpired)) throw error
        await this.renew()
        if (this.#stream) return this.#stream
        stream = await wire.transport.openStream(onMessage)
      }
      if (!stream) return undefined
      this.#stream = stream
      const ended = () => {
        if (this.#stream !== stream) return
        this.#stream = undefined
        // An HTTP+SSE session lives exactly as long as its stream.
        if (wire.transport.kind === 'sse') this.#session = false
        for (const callback of this.#ended) callback()
      }
      stream.closed.then(ended, (error: unknown) => {
        if (error instanceof HttpError && error.sessionExpired) this.#session = false
        ended()
      })
      return stream
    })().finally(() => {
      this.#opening = undefined
    })
    return this.#opening
  }

  close(): void {
    this.#stream?.close()
  }
}
