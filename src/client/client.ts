import type { JsonRpcErrorObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, ServerStream, Transport } from '../transport/types'
import type {
  ClientOptions,
  Era,
  EraRecord,
  InputRequest,
  InputRequestHandler,
  ListenFilter,
  Progress,
  RequestOptions,
  ServerDescription,
  ServerNotification,
  Subscription,
} from './types'
import { LEGACY_VERSIONS, PACKAGE_VERSION, VERSION } from '../version'
import { AbortError } from '../errors/abort-error'
import { HttpError } from '../errors/http-error'
import { InputRequiredError } from '../errors/input-required-error'
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { TimeoutError } from '../errors/timeout-error'
import { UnsupportedVersionError } from '../errors/unsupported-version-error'
import { abortable, reasonOf } from './abortable'
import { applyDefaults } from './apply-defaults'
import { awaitTask } from './await-task'
import { discoverResult, errorObject, initializeResult, inputRequiredResult, resultObject, resultSchemas } from './schemas'
import { listen, type ListenHost } from './listen'
import { fits, parse } from './shape'
import { toRpcError } from './to-rpc-error'

type Result = Record<string, unknown>
type OnMessage = (message: JsonRpcRequest | JsonRpcNotification) => void

const noop = () => undefined
const TASKS = 'io.modelcontextprotocol/tasks'
/** Only these may answer `input_required` (spec: MRTR). */
const INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read'])
const ALL_VERSIONS = [VERSION, ...LEGACY_VERSIONS]

/** Eras learnt in this page, per server URL: a second Client for the same server skips the probe. */
const memory = new Map<string, EraRecord>()

/** What the client does with an answer that tells something about the era. */
type Verdict = 'retry' | 'modern-error' | 'other' | Handshake
/** Fall back to the handshake, offering this revision (and HTTP+SSE when the POST itself was refused). */
type Handshake = { offer: string; sse: boolean }

/**
 * Speaks JSON-RPC to one MCP server over a transport: 2026-07-28 first, falling back to the `initialize`
 * handshake exactly as `design.md` "Era negotiation" says. The first real request is the probe.
 */
export class Client {
  #transport: Transport
  readonly #options: ClientOptions
  #nextId = 0
  #era: Era | undefined
  #version: string | undefined
  #server: ServerDescription | undefined
  /** The era came from memory and no answer in this instance has confirmed it yet. */
  #unconfirmed = false
  /** A modern request got a result without `resultType` before the era was known. */
  #ambiguous = false
  #recalled = false
  #session = false
  #sessionIssued = false
  #gate: Promise<unknown> | undefined
  #connecting: Promise<ServerDescription> | undefined
  #closed: Error | undefined
  readonly #inflight = new Set<AbortController>()
  #stream: ServerStream | undefined
  #streamOpening: Promise<ServerStream | undefined> | undefined
  readonly #streamListeners = new Set<(message: JsonRpcNotification) => boolean>()
  readonly #streamEnded = new Set<() => void>()

  constructor(transport: Transport, options: ClientOptions = {}) {
    this.#transport = transport
    this.#options = options
  }

  /** The transport in use; after a fallback to HTTP+SSE it is the SseTransport that replaced the original. */
  get transport(): Transport {
    return this.#transport
  }

  get era(): Era | undefined {
    return this.#ambiguous ? undefined : this.#era
  }

  get protocolVersion(): string | undefined {
    return this.era && this.#version
  }

  /** What the server said about itself (after `connect()`, or once the era is settled). */
  get server(): ServerDescription | undefined {
    return this.#server
  }

  /** The `_meta` this client adds to 2026-07-28 requests; merge it into requests an app sends by other means. */
  get meta(): Record<string, unknown> {
    return {
      'io.modelcontextprotocol/protocolVersion': VERSION,
      'io.modelcontextprotocol/clientInfo': this.#options.clientInfo ?? { name: 'nanomcp', version: PACKAGE_VERSION },
      'io.modelcontextprotocol/clientCapabilities': this.#capabilities(),
    }
  }

  /**
   * Settles the era and learns what the server says about itself: `server/discover` on 2026-07-28 (which is
   * itself the probe when the era is unknown), the `initialize` result on older servers.
   */
  connect(options: RequestOptions = {}): Promise<ServerDescription> {
    if (this.#server && this.era) return Promise.resolve(this.#server)
    // Concurrent callers (several subscriptions opening at once) share one discovery.
    this.#connecting ??= this.#connect({ timeout: options.timeout }).finally(() => (this.#connecting = undefined))
    return abortable(this.#connecting, options.signal)
  }

  async #connect(options: RequestOptions): Promise<ServerDescription> {
    const result = await this.request('server/discover', {}, options).catch((error: unknown) => {
      // A legacy era decided while probing leaves the handshake's description behind; anything else is real.
      if (this.#era === 'legacy' && this.#server) return undefined
      throw error
    })
    if (this.#era === 'modern' && result) this.#describeModern(result)
    if (!this.#server) throw new ProtocolError('invalid-result', 'The server did not describe itself')
    return this.#server
  }

  /** Sends a request and resolves with its result; see README for the errors it rejects with. */
  request(method: string, params: Result = {}, options: RequestOptions = {}): Promise<Result> {
    const deferred: ServerNotification[] = []
    const promise = this.#guarded(method, params, options, deferred)
    // Notifications an older server sent on this request's stream reach the app only once the request has
    // settled and its caller has resumed (a macrotask later), so a handler that awaits a request of its own
    // never runs inside this one.
    const flush = () => {
      if (deferred.length) setTimeout(() => deferred.splice(0).forEach((n) => this.#notify(n)))
    }
    promise.then(flush, flush)
    return promise
  }

  /** Opens a change subscription and returns it at once; see `Subscription`. */
  listen(filter: ListenFilter, handler: (notification: ServerNotification) => void = (n) => this.#notify(n)): Subscription {
    return listen(this.#listenHost(), filter, handler, this.#options)
  }

  /** Ends the session (legacy), closes every stream and rejects everything pending with AbortError. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = new AbortError('client closed')
    for (const controller of this.#inflight) controller.abort(this.#closed)
    this.#stream?.close()
    await this.#transport.close().catch(noop)
  }

  async #guarded(method: string, params: Result, options: RequestOptions, deferred: ServerNotification[]): Promise<Result> {
    if (this.#closed) throw this.#closed
    const controller = new AbortController()
    const timeout = options.timeout ?? this.#options.timeout ?? 60_000
    const timer = setTimeout(() => controller.abort(new TimeoutError(method, timeout)), timeout)
    const onAbort = () => controller.abort(new AbortError(options.signal?.reason))
    if (options.signal?.aborted) onAbort()
    options.signal?.addEventListener('abort', onAbort, { once: true })
    this.#inflight.add(controller)
    try {
      return await this.#dispatch(method, params, options, controller.signal, deferred)
    } catch (error) {
      throw controller.signal.aborted ? reasonOf(controller.signal) : error
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      this.#inflight.delete(controller)
    }
  }

  async #dispatch(method: string, params: Result, options: RequestOptions, signal: AbortSignal, deferred: ServerNotification[]): Promise<Result> {
    for (;;) {
      if (this.#closed) throw this.#closed
      if (this.#gate) {
        // The gate never rejects: it only says when the exclusive work is over.
        await abortable(this.#gate, signal)
        continue
      }
      if (!this.#recalled) {
        await this.#exclusive(() => this.#recall())
        continue
      }
      if (this.#ambiguous) {
        await this.#exclusive(() => this.#settleAmbiguity())
        continue
      }
      if (this.#era === 'legacy') {
        if (this.#sessionGone()) {
          await this.#renew(true)
          continue
        }
        return this.#legacy(method, params, options, signal, deferred)
      }
      if (this.#era === undefined || this.#unconfirmed) {
        // The probe runs alone: requests behind it wait to learn the era rather than probe again.
        return this.#exclusive(() => this.#modern(method, params, options, signal, true, deferred))
      }
      return this.#modern(method, params, options, signal, false, deferred)
    }
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const promise = work()
    const gate = promise.then(noop, noop)
    this.#gate = gate
    void gate.then(() => {
      if (this.#gate === gate) this.#gate = undefined
    })
    return promise
  }

  async #recall(): Promise<void> {
    const url = this.#transport.url
    const record = this.#transport.kind === 'sse' ? { era: 'legacy' as const, protocolVersion: LEGACY_VERSIONS[0]! } : (memory.get(url) ?? (await this.#options.eraStore?.get(url)))
    this.#recalled = true
    if (!record) return
    if (record.sse && this.#transport.legacySse) this.#transport = await this.#transport.legacySse()
    this.#era = record.era
    this.#version = record.era === 'modern' ? VERSION : record.protocolVersion
    this.#unconfirmed = record.era === 'modern'
  }

  #remember(record: EraRecord): void {
    const url = this.#transport.url
    memory.set(url, record)
    void Promise.resolve(this.#options.eraStore?.set(url, record)).catch(noop)
  }

  // ---- 2026-07-28 ----------------------------------------------------------------------------------------

  #capabilities(): Result {
    const capabilities: Result = this.#options.onInputRequest ? { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } : {}
    Object.assign(capabilities, this.#options.capabilities)
    if (this.#options.tasks) {
      capabilities.extensions = { ...(capabilities.extensions as Result | undefined), [TASKS]: {} }
    }
    return capabilities
  }

  async #sendModern(method: string, params: Result, options: RequestOptions, signal: AbortSignal): Promise<JsonRpcResponse> {
    const token = options.onProgress ? `nanomcp-${++this.#nextId}` : undefined
    const meta: Result = { ...(params._meta as Result | undefined), ...this.meta }
    if (token) meta.progressToken = token
    if (options.logLevel) meta['io.modelcontextprotocol/logLevel'] = options.logLevel
    return this.#send({ jsonrpc: '2.0', id: ++this.#nextId, method, params: { ...params, _meta: meta } }, signal, (message) => {
      const p = message.params ?? {}
      if (message.method === 'notifications/progress' && p.progressToken === token) {
        options.onProgress?.(toProgress(p))
      } else if (message.method === 'notifications/message') {
        options.onLog?.(p as never)
      } else {
        this.#options.debug?.('ignored on a request stream', message)
      }
    })
  }

  async #modern(method: string, params: Result, options: RequestOptions, signal: AbortSignal, probing: boolean, deferred: ServerNotification[]): Promise<Result> {
    let retried = false
    let round = 0
    let current = params
    for (;;) {
      let response: JsonRpcResponse | undefined
      let failure: HttpError | undefined
      try {
        response = await this.#sendModern(method, current, options, signal)
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        failure = error
      }
      // A rejection says the same about the era whether it came as an HTTP status or as a JSON-RPC error.
      const rpcError = failure ? failure.rpcError : response!.error
      if (failure || rpcError) {
        const verdict = this.#verdict(failure?.status, rpcError, probing)
        if (verdict === 'retry') {
          if (retried) throw this.#versionError(rpcError, 'rejected 2026-07-28 twice')
          retried = true
          continue
        }
        if (typeof verdict === 'object') return this.#fallback(verdict, method, params, options, signal, deferred)
        if (verdict === 'modern-error') this.#confirm()
        else if (failure) throw failure
        throw toRpcError(rpcError!)
      }
      const result = response!.result!
      if (probing && typeof result.resultType !== 'string' && method === 'server/discover') {
        // The probe was discovery itself, so its answer settles the era at once: an empty or foreign result is
        // what a legacy server gives (the raw-HTTP initialize mock answers `{}`).
        if (speaksModern(result)) {
          this.#confirm()
          return result
        }
        return this.#fallback({ offer: LEGACY_VERSIONS[0]!, sse: false }, method, params, options, signal, deferred)
      }
      if (probing && typeof result.resultType !== 'string') {
        // A legacy server that ignored _meta, or a sloppy modern one: keep the answer, ask server/discover later.
        this.#ambiguous = true
        this.#era = undefined
        return this.#validate(method, result)
      }
      if (probing) this.#confirm()
      const type = result.resultType ?? 'complete'
      if (type === 'complete') return this.#validate(method, result)
      if (type === 'input_required' && INPUT_METHODS.has(method)) {
        round++
        current = await this.#answerInput(method, params, result, round, signal)
        continue
      }
      if (type === 'task' && method === 'tools/call' && this.#options.tasks) {
        return awaitTask(result, signal, {
          call: (m, p, s) => this.#modern(m, p, {}, s, false, []),
          answer: this.#options.onInputRequest && ((requests, s) => this.#answer(requests, { method: 'tools/call', params: { taskId: result.taskId }, round: 1, signal: s })),
        })
      }
      throw new ProtocolError('invalid-result', `Unexpected resultType "${String(type)}" for ${method}`, result)
    }
  }

  /** Reads what a rejection or JSON-RPC error says about the era (design.md, the era table). */
  #verdict(status: number | undefined, error: JsonRpcErrorObject | undefined, probing: boolean): Verdict {
    const code = error?.code
    if (code === -32022) {
      const supported = this.#supported(error)
      if (supported.includes(VERSION)) return 'retry'
      const legacy = LEGACY_VERSIONS.find((v) => supported.includes(v))
      if (legacy || supported.length === 0) return { offer: legacy ?? LEGACY_VERSIONS[0]!, sse: false }
      throw this.#versionError(error, 'no common revision')
    }
    if (isModernError(code) || (status === 404 && code === -32601)) return 'modern-error'
    if (probing && (status === undefined ? code === -32601 || code === -32000 : status === 400 || status === 404 || status === 405)) {
      return { offer: LEGACY_VERSIONS[0]!, sse: status !== undefined }
    }
    return 'other'
  }

  #supported(error: JsonRpcErrorObject | undefined): string[] {
    const list = (error?.data as { supported?: unknown } | undefined)?.supported
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : []
  }

  #versionError(error: JsonRpcErrorObject | undefined, detail: string): UnsupportedVersionError {
    return new UnsupportedVersionError(this.#supported(error), ALL_VERSIONS, detail)
  }

  #confirm(): void {
    if (this.#era === 'modern' && !this.#unconfirmed) return
    this.#era = 'modern'
    this.#version = VERSION
    this.#unconfirmed = false
    this.#remember({ era: 'modern', protocolVersion: VERSION })
  }

  async #fallback(
    verdict: Handshake,
    method: string,
    params: Result,
    options: RequestOptions,
    signal: AbortSignal,
    deferred: ServerNotification[],
  ): Promise<Result> {
    await this.#handshake(verdict.offer, verdict.sse)
    // The rejection proved the request did not run, so sending it again is safe.
    return this.#legacy(method, params, options, signal, deferred)
  }

  async #settleAmbiguity(): Promise<void> {
    let modern = false
    try {
      const { result } = await this.#sendModern('server/discover', {}, {}, AbortSignal.timeout(this.#options.timeout ?? 60_000))
      if (speaksModern(result)) {
        this.#describeModern(result!)
        modern = true
      }
    } catch {
      // Whatever went wrong, the server is not a 2026-07-28 one that describes itself.
    }
    this.#ambiguous = false
    if (modern) return this.#confirm()
    this.#era = 'legacy'
    this.#version = LEGACY_VERSIONS[0]
    this.#session = false
  }

  #describeModern(result: Result): void {
    const { capabilities, instructions, supportedVersions } = parse(discoverResult, result, 'server/discover result')
    const meta = result._meta as Result | undefined
    this.#server = {
      era: 'modern',
      protocolVersion: VERSION,
      serverInfo: meta?.['io.modelcontextprotocol/serverInfo'] as ServerDescription['serverInfo'],
      capabilities,
      instructions,
      supportedVersions,
    }
  }

  async #answerInput(method: string, params: Result, result: Result, round: number, signal: AbortSignal): Promise<Result> {
    const parsed = parse(inputRequiredResult, result, 'input_required result')
    const requests = parsed.inputRequests ?? {}
    if (Object.values(requests).some((r) => typeof r?.method !== 'string')) throw new ProtocolError('invalid-result', 'Malformed inputRequests', requests)
    const handler = this.#options.onInputRequest
    if (!handler) throw new InputRequiredError(`${method} needs input and the client has no onInputRequest handler`, requests, round)
    if (round > (this.#options.maxInputRounds ?? 10)) throw new InputRequiredError(`${method} still needs input after ${round - 1} rounds`, requests, round)
    const next: Result = { ...params }
    if (Object.keys(requests).length) next.inputResponses = await this.#answer(requests, { method, params, round, signal })
    // Echoed byte for byte: requestState is the server's, never ours to parse.
    if (parsed.requestState !== undefined) next.requestState = result.requestState
    return next
  }

  /** Asks the app's handler for one round's answers, with schema defaults filled into accepted forms. */
  async #answer(requests: Record<string, InputRequest>, context: Parameters<InputRequestHandler>[1]): Promise<Result> {
    return this.#withDefaults(requests, await abortable(Promise.resolve(this.#options.onInputRequest!(requests, context)), context.signal))
  }

  #withDefaults(requests: Record<string, InputRequest>, responses: Result): Result {
    const out: Result = { ...responses }
    for (const [key, request] of Object.entries(requests)) {
      const answer = out[key] as { action?: string; content?: Result } | undefined
      if (request.method === 'elicitation/create' && answer?.action === 'accept') {
        out[key] = { ...answer, content: applyDefaults(request.params?.requestedSchema, answer.content) }
      }
    }
    return out
  }

  #validate(method: string, result: Result): Result {
    const schema = resultSchemas[method]
    return schema ? parse(schema, result, `${method} result`) : result
  }

  // ---- the handshake era ---------------------------------------------------------------------------------

  /** No session yet, or one the server issued an id for and the transport has since forgotten (a 404). */
  #sessionGone(): boolean {
    return !this.#session || (this.#sessionIssued && !this.#transport.sessionId)
  }

  /** A new session at the revision already agreed (or the newest handshake one), alone on the client. */
  #renew(trySse = false): Promise<void> {
    return this.#exclusive(() => this.#handshake(this.#version ?? LEGACY_VERSIONS[0]!, trySse))
  }

  async #handshake(offer: string, trySse: boolean): Promise<void> {
    this.#session = false
    this.#transport.resetSession()
    this.#transport.protocolVersion = undefined
    const capabilities: Result = {}
    // Only extensions: an older server that is offered roots, sampling or elicitation may call the client back.
    const extensions = this.#capabilities().extensions
    if (extensions) capabilities.extensions = extensions
    if (this.#options.legacyElicitation && this.#options.onInputRequest) capabilities.elicitation = { form: { applyDefaults: true } }
    const params = { protocolVersion: offer, capabilities, clientInfo: this.meta['io.modelcontextprotocol/clientInfo'] }
    const signal = AbortSignal.timeout(this.#options.timeout ?? 60_000)
    let response: JsonRpcResponse
    try {
      response = await this.#send({ jsonrpc: '2.0', id: ++this.#nextId, method: 'initialize', params }, signal, (m) => this.#onSessionMessage(m))
    } catch (error) {
      // Spec: 400/404/405 without a modern error body on the initialize POST means "try HTTP+SSE".
      const refused = error instanceof HttpError && [400, 404, 405].includes(error.status) && !isModernError(error.rpcError?.code)
      if (trySse && refused && this.#transport.legacySse) {
        this.#transport = await this.#transport.legacySse()
        return this.#handshake(offer, false)
      }
      throw error
    }
    if (response.error) throw toRpcError(response.error)
    const { protocolVersion, capabilities: serverCapabilities, serverInfo, instructions } = parse(initializeResult, response.result, 'initialize result')
    if (!LEGACY_VERSIONS.includes(protocolVersion)) {
      const error = new UnsupportedVersionError([protocolVersion], LEGACY_VERSIONS, `The handshake answered ${protocolVersion}`)
      this.#closed = error
      for (const controller of this.#inflight) controller.abort(error)
      await this.#transport.close().catch(noop)
      throw error
    }
    this.#transport.protocolVersion = protocolVersion
    await this.#transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, { signal })
    this.#trace('out', { jsonrpc: '2.0', method: 'notifications/initialized' })
    this.#era = 'legacy'
    this.#version = protocolVersion
    this.#unconfirmed = false
    this.#session = true
    this.#sessionIssued = !!this.#transport.sessionId
    this.#server = { era: 'legacy', protocolVersion, serverInfo, capabilities: serverCapabilities, instructions }
    this.#remember({ era: 'legacy', protocolVersion, sse: this.#transport.kind === 'sse' || undefined })
    // HTTP+SSE has one stream for everything: listen on it from the start so nothing the server says is lost.
    // An app that answers elicitations needs the GET stream too: servers send their requests there.
    if (this.#transport.kind === 'sse' || (this.#options.legacyElicitation && this.#options.onInputRequest)) {
      void this.#openStream().catch((error: unknown) => this.#options.debug?.('could not open the session stream', error))
    }
  }

  async #legacy(method: string, params: Result, options: RequestOptions, signal: AbortSignal, deferred: ServerNotification[]): Promise<Result> {
    // Older revisions have no server/discover: asking would only earn a -32601 round trip (connect() reads
    // the handshake's description instead).
    if (method === 'server/discover') throw new RpcError(-32601, 'server/discover does not exist before 2026-07-28')
    const token = options.onProgress ? `nanomcp-${++this.#nextId}` : undefined
    const body: Result = { ...params }
    if (token) body._meta = { ...(params._meta as Result | undefined), progressToken: token }
    let resent = false
    for (;;) {
      const id = ++this.#nextId
      try {
        const response = await this.#send({ jsonrpc: '2.0', id, method, params: body }, signal, (message) => {
          if (token && message.method === 'notifications/progress' && message.params?.progressToken === token) {
            options.onProgress?.(toProgress(message.params))
          } else if ('id' in message) {
            void this.#answerServer(message as JsonRpcRequest)
          } else {
            deferred.push(message)
          }
        })
        if (response.error) throw toRpcError(response.error)
        return this.#validate(method, response.result!)
      } catch (error) {
        if (error instanceof HttpError && error.sessionExpired && !resent) {
          // The session is gone, so the request never ran: a new session, then the same request once more.
          resent = true
          await this.#renew()
          continue
        }
        if (signal.aborted && !(error instanceof RpcError)) {
          // On these revisions a closed stream is not a cancellation; the server must be told.
          void this.#transport
            .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(reasonOf(signal).message) } })
            .catch(noop)
        }
        throw error
      }
    }
  }

  /** Older servers may call the client: `ping` is answered; elicitation only when the app opted in. */
  async #answerServer(request: JsonRpcRequest): Promise<void> {
    const { id, method, params } = request
    let answer: { result: Result } | { error: JsonRpcErrorObject }
    if (method === 'ping') {
      answer = { result: {} }
    } else if (method === 'elicitation/create' && this.#options.legacyElicitation && this.#options.onInputRequest) {
      try {
        const key = String(id)
        const requests = { [key]: { method, params } }
        const answers = this.#withDefaults(requests, await this.#options.onInputRequest(requests, { method, params: params ?? {}, round: 1, signal: new AbortController().signal }))
        answer = { result: (answers[key] as Result) ?? { action: 'cancel' } }
      } catch (error) {
        answer = { error: { code: -32603, message: error instanceof Error ? error.message : 'elicitation failed' } }
      }
    } else {
      answer = { error: { code: -32601, message: `Method not found: ${method}` } }
    }
    const reply: JsonRpcResponse = { jsonrpc: '2.0', id, ...answer }
    this.#trace('out', reply)
    await this.#transport.send(reply).catch((error: unknown) => this.#options.debug?.('could not answer a server request', error))
  }

  #onSessionMessage(message: JsonRpcRequest | JsonRpcNotification): void {
    if ('id' in message) return void this.#answerServer(message)
    let claimed = false
    for (const listener of this.#streamListeners) claimed = listener(message) || claimed
    if (!claimed) this.#notify(message)
  }

  /** The session's own stream (GET SSE, or the HTTP+SSE EventSource), opened once and shared. */
  #openStream(): Promise<ServerStream | undefined> {
    if (this.#stream) return Promise.resolve(this.#stream)
    this.#streamOpening ??= (async () => {
      const onMessage = this.#traced((message) => this.#onSessionMessage(message))
      if (this.#sessionGone()) await this.#renew()
      let stream: ServerStream | undefined
      try {
        stream = await this.#transport.openStream(onMessage)
      } catch (error) {
        if (!(error instanceof HttpError && error.sessionExpired)) throw error
        await this.#renew()
        if (this.#stream) return this.#stream
        stream = await this.#transport.openStream(onMessage)
      }
      if (!stream) return undefined
      this.#stream = stream
      const ended = () => {
        if (this.#stream !== stream) return
        this.#stream = undefined
        // An HTTP+SSE session lives exactly as long as its stream.
        if (this.#transport.kind === 'sse') this.#session = false
        for (const callback of this.#streamEnded) callback()
      }
      stream.closed.then(ended, (error: unknown) => {
        if (error instanceof HttpError && error.sessionExpired) this.#session = false
        ended()
      })
      return stream
    })().finally(() => {
      this.#streamOpening = undefined
    })
    return this.#streamOpening
  }

  // ---- shared ---------------------------------------------------------------------------------------------

  async #send(message: JsonRpcRequest, signal: AbortSignal, onMessage: OnMessage): Promise<JsonRpcResponse> {
    const started = Date.now()
    const response = await this.#request(message, signal, onMessage)
    this.#trace('in', response, Date.now() - started)
    if (response.error !== undefined) {
      if (!fits(errorObject, response.error)) throw new ProtocolError('invalid-result', `Malformed error object for ${message.method}`, response.error)
    } else if (!fits(resultObject, response.result)) {
      throw new ProtocolError('invalid-result', `The answer to ${message.method} has no result object or error`, response)
    }
    return response
  }

  /** Hands a request to the transport with what it sends and hears traced; its answer is the caller's to trace. */
  #request(message: JsonRpcRequest, signal: AbortSignal, onMessage: OnMessage): Promise<JsonRpcResponse> {
    this.#trace('out', message)
    return this.#transport.request(message, { signal, onMessage: this.#traced(onMessage) })
  }

  #traced(onMessage: OnMessage): OnMessage {
    return (message) => {
      this.#trace('in', message)
      onMessage(message)
    }
  }

  #trace(direction: 'in' | 'out', message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse, elapsed?: number): void {
    this.#options.onTrace?.({ direction, era: this.era, message: message as never, elapsed, at: Date.now() })
  }

  #notify(notification: ServerNotification): void {
    try {
      this.#options.onNotification?.(notification)
    } catch (error) {
      this.#options.debug?.('onNotification threw', error)
    }
  }

  #listenHost(): ListenHost {
    return {
      connect: (signal) => this.connect({ signal }),
      era: () => this.era,
      closed: () => !!this.#closed,
      listenModern: (filter, signal, onMessage) => {
        const id = ++this.#nextId
        const params = { notifications: filter, _meta: this.meta }
        return { id, response: this.#request({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params }, signal, onMessage) }
      },
      request: (method, params, signal) => this.request(method, params, { signal }),
      openStream: () => this.#openStream(),
      onStream: (listener) => {
        this.#streamListeners.add(listener)
        return () => this.#streamListeners.delete(listener)
      },
      onStreamEnd: (callback) => {
        this.#streamEnded.add(callback)
        return () => this.#streamEnded.delete(callback)
      },
    }
  }
}

function isModernError(code: number | undefined): boolean {
  return code === -32020 || code === -32021 || code === -32022
}

/** Whether a server/discover result says the server speaks 2026-07-28. */
function speaksModern(result: Result | undefined): boolean {
  return fits(discoverResult, result) && (result!.supportedVersions as string[]).includes(VERSION)
}

function toProgress(p: Result): Progress {
  return { progress: p.progress as number, total: p.total as number | undefined, message: p.message as string | undefined }
}

/** Forgets every era learnt in this page (tests, or an app that knows a server was upgraded). */
export function forgetEras(): void {
  memory.clear()
}
