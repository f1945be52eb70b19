import type { CallToolParams, CompleteParams, ExtensionMethod, GetPromptParams, Method, ParamsOf, ReadResourceParams, ResultOf } from '../schemas/method-map'
import type { LoggingLevel, Prompt, Resource, ResourceTemplate, Tool } from '../schemas/types'
import type { Transport } from '../transport/types'
import type { ClientOptions, Era, ListenFilter, RequestOptions, ServerDescription, ServerNotification, Subscription } from './types'
import { AbortError } from '../errors/abort-error'
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { duration } from '../transport/duration'
import { noop } from '../transport/pending'
import { EraState, Fallback } from './era'
import { Gate } from './gate'
import { listAll, OutputSchemas, type ListOptions } from './helpers'
import { LegacySession } from './legacy/session'
import { listenLegacy } from './legacy/subscription'
import { Joinable, limit, reasonOf } from './limits'
import { listen, type ListenHost } from './listen'
import { clientMeta, Modern } from './modern'
import { Wire } from './trace'
import { checkItems } from './validate'

export { forgetEras } from './era'

type Result = Record<string, unknown>

/**
 * Speaks JSON-RPC to one MCP server over a transport: 2026-07-28 first, falling back to the `initialize`
 * handshake as the era table (`verdict` in era.ts) says. The first real request is the probe. Its parts: the
 * Wire (ids, tracing, the transport), the EraState (the one owner of where the client stands), the Modern path,
 * the LegacySession once an older server needs one, and the OutputSchemas of the tools it has listed.
 */
export class Client {
  readonly #options: ClientOptions
  readonly #wire: Wire
  readonly #era: EraState
  readonly #modern: Modern
  readonly #schemas = new OutputSchemas()
  /** The legacy era's session, made when a request first needs it. */
  #legacy: LegacySession | undefined
  readonly #gate = new Gate()
  readonly #connecting = new Joinable((signal) => this.#connect(signal))
  #closed: Error | undefined
  readonly #inflight = new Set<AbortController>()
  #logLevel: LoggingLevel | undefined

  constructor(transport: Transport, options: ClientOptions = {}) {
    this.#options = options
    this.#wire = new Wire(transport, options, () => this.era)
    this.#era = new EraState(this.#wire, options.eraStore)
    this.#modern = new Modern({ wire: this.#wire, era: this.#era })
  }

  /**
   * The transport in use. It changes once at most: when a server turns out to speak HTTP+SSE (2024-11-05), the
   * StreamableHttpTransport given to the constructor is replaced by the SseTransport its `legacySse()` made, for
   * the same URL and options, and from then on every message goes through that one.
   */
  get transport(): Transport {
    return this.#wire.transport
  }

  get era(): Era | undefined {
    return this.#era.settled
  }

  get protocolVersion(): string | undefined {
    return this.#era.version
  }

  /** What the server said about itself (after `connect()`, or once the era is settled). */
  get server(): ServerDescription | undefined {
    return this.#era.server
  }

  /** The `_meta` this client adds to 2026-07-28 requests; merge it into requests an app sends by other means. */
  get meta(): Record<string, unknown> {
    return clientMeta(this.#options)
  }

  /**
   * Settles the era and learns what the server says about itself: `server/discover` on 2026-07-28 (which is
   * itself the probe when the era is unknown), the `initialize` result on older servers.
   */
  connect(options: Pick<RequestOptions, 'signal' | 'timeout'> = {}): Promise<ServerDescription> {
    if (this.server && this.era) return Promise.resolve(this.server)
    if (this.#closed) return Promise.reject(this.#closed)
    let timeout: number
    try {
      timeout = this.#timeout(options)
    } catch (error) {
      return Promise.reject(error)
    }
    // Concurrent callers (several subscriptions opening at once) share one discovery, each within its own limits.
    const { controller, done } = limit('connect', timeout, options.signal)
    return this.#connecting.join(controller.signal).finally(done)
  }

  async #connect(signal: AbortSignal): Promise<ServerDescription> {
    const result = await this.request('server/discover', {}, { signal, timeout: Infinity }).catch((error: unknown) => {
      // A legacy era decided while probing leaves the handshake's description behind; anything else is real.
      if (this.era === 'legacy' && this.server) return undefined
      throw error
    })
    if (this.era === 'modern' && result) this.#era.describeModern(result)
    if (!this.server) throw new ProtocolError('invalid-result', 'The server did not describe itself')
    return this.server
  }

  /**
   * Sends a request and resolves with its checked result; see README for the errors it rejects with. Spec
   * methods are typed by the method map (a misspelled one does not compile); any other method goes through
   * `extensionMethod('vendor/method')` and resolves with an unchecked object. On 2026-07-28 it carries the
   * client-wide log level (a request's own `logLevel` wins); list items are checked (or dropped and reported).
   */
  request<M extends Method>(method: M, ...args: {} extends ParamsOf<M> ? [params?: ParamsOf<M>, options?: RequestOptions] : [params: ParamsOf<M>, options?: RequestOptions]): Promise<ResultOf<M>>
  request(method: ExtensionMethod, params?: Result, options?: RequestOptions): Promise<Result>
  async request(method: string, params: Result = {}, options: RequestOptions = {}): Promise<Result> {
    const level = this.#logLevel
    // The log message was checked on its way to onLog (modern.ts).
    const onLog = (log: Result) => this.#notify({ jsonrpc: '2.0', method: 'notifications/message', params: log } as ServerNotification)
    const result = checkItems(method, await this.#send(method, params, level ? { logLevel: level, onLog, ...options } : options), options.onInvalidItem)
    this.#schemas.learn(method, result)
    return result
  }

  /** Every tool, all pages followed (at most `maxPages`). */
  listTools(options?: ListOptions): Promise<Tool[]> {
    return listAll(this, 'tools/list', options)
  }

  listPrompts(options?: ListOptions): Promise<Prompt[]> {
    return listAll(this, 'prompts/list', options)
  }

  listResources(options?: ListOptions): Promise<Resource[]> {
    return listAll(this, 'resources/list', options)
  }

  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]> {
    return listAll(this, 'resources/templates/list', options)
  }

  /**
   * Calls a tool. When the tool declares an `outputSchema` (from a tools/list this client has seen, else one
   * listing fetched now), a result whose `structuredContent` does not match rejects with OutputSchemaError,
   * which carries the result.
   */
  async callTool(params: CallToolParams, options?: RequestOptions): Promise<ResultOf<'tools/call'>> {
    const result = await this.request('tools/call', params, options)
    await this.#schemas.check(this, params.name, result, options)
    return result
  }

  getPrompt(params: GetPromptParams, options?: RequestOptions): Promise<ResultOf<'prompts/get'>> {
    return this.request('prompts/get', params, options)
  }

  readResource(params: ReadResourceParams, options?: RequestOptions): Promise<ResultOf<'resources/read'>> {
    return this.request('resources/read', params, options)
  }

  complete(params: CompleteParams, options?: RequestOptions): Promise<ResultOf<'completion/complete'>> {
    return this.request('completion/complete', params, options)
  }

  /**
   * Older servers: a `ping` round trip. 2026-07-28 removed ping in both directions, so there it rejects
   * (RpcError -32601, nothing sent): any request shows the server is alive.
   */
  async ping(options?: Pick<RequestOptions, 'signal' | 'timeout'>): Promise<void> {
    await this.connect(options)
    if (this.era === 'modern') throw new RpcError(-32601, '2026-07-28 has no ping: any request shows the server is alive')
    await this.request('ping', {}, options)
  }

  /**
   * Asks for log messages of `level` and above. Older servers: `logging/setLevel` for the session. 2026-07-28:
   * no request; every later request carries the level in `_meta` (a request's own `logLevel` wins), and the
   * `notifications/message` it brings go to `onLog` or, without one, to `onNotification`.
   */
  async setLoggingLevel(level: LoggingLevel, options?: Pick<RequestOptions, 'signal' | 'timeout'>): Promise<void> {
    await this.connect(options)
    if (this.era === 'modern') this.#logLevel = level
    else await this.request('logging/setLevel', { level }, options)
  }

  /** Opens a change subscription and returns it at once; see `Subscription`. */
  listen(filter: ListenFilter, handler: (notification: ServerNotification) => void = (n) => this.#notify(n)): Subscription {
    return listen(this.#listenHost(), filter, handler, this.#options)
  }

  /** Ends the session (legacy), closes every stream and rejects everything pending with AbortError. */
  async close(): Promise<void> {
    if (this.#closed) return
    await this.#fail(new AbortError('client closed'))
  }

  async #fail(error: Error): Promise<void> {
    this.#closed = error
    for (const controller of this.#inflight) controller.abort(error)
    this.#legacy?.close()
    await this.#wire.transport.close({ signal: this.#wire.background() }).catch(noop)
  }

  /** The request's own `timeout`, else the client's; a RangeError when it is no valid limit. */
  #timeout(options: Pick<RequestOptions, 'timeout'>): number {
    return duration('timeout', options.timeout, this.#wire.timeout)
  }

  /**
   * Sends a request the way the era calls for, within the caller's limits, which bound every step of it (a recall,
   * the probe, a handshake, a new session): after whatever exclusive work is due, the modern or the legacy way.
   */
  async #send(method: string, params: Result, options: RequestOptions): Promise<Result> {
    if (this.#closed) throw this.#closed
    const { controller, done } = limit(method, this.#timeout(options), options.signal)
    const { signal } = controller
    this.#inflight.add(controller)
    try {
      for (;;) {
        if (this.#closed) throw this.#closed
        if (this.#gate.busy) {
          await this.#gate.pass(signal)
          continue
        }
        const standing = this.#era.standing
        switch (standing.kind) {
          case 'unrecalled':
            await this.#gate.run(() => this.#era.recall(signal))
            continue
          case 'ambiguous':
            await this.#gate.run(() => this.#modern.settleAmbiguity(signal))
            continue
          case 'legacy': {
            const legacy = this.#session()
            if (!legacy.gone()) return await legacy.request(method, params, options, signal)
            await legacy.renew(signal, true)
            continue
          }
          case 'modern':
            if (standing.confirmed) return await this.#viaModern(method, params, options, signal, false)
        }
        // Unknown, or remembered as modern and not yet proved: the probe runs alone, and requests behind it wait to
        // learn the era rather than probe again.
        return await this.#gate.run(() => this.#viaModern(method, params, options, signal, true))
      }
    } catch (error) {
      throw signal.aborted ? reasonOf(signal) : error
    } finally {
      done()
      this.#inflight.delete(controller)
    }
  }

  /** A 2026-07-28 request; when its answer proved the server older, the handshake, then the request the legacy way. */
  async #viaModern(method: string, params: Result, options: RequestOptions, signal: AbortSignal, probing: boolean): Promise<Result> {
    const outcome = await this.#modern.request(method, params, options, signal, probing)
    if (!(outcome instanceof Fallback)) return outcome
    const legacy = this.#session()
    await legacy.handshake(outcome.offer, outcome.sse, signal)
    return legacy.request(method, params, options, signal)
  }

  #session(): LegacySession {
    return (this.#legacy ??= new LegacySession({
      wire: this.#wire,
      era: this.#era,
      exclusive: (work) => this.#gate.run(work),
      fail: (error) => this.#fail(error),
      notify: (notification, handler) => this.#notify(notification, handler),
    }))
  }

  /** A notification on its way to the app, checked already by the code that received it. */
  #notify(notification: ServerNotification, handler = this.#options.onNotification): void {
    this.#schemas.noticed(notification)
    try {
      handler?.(notification)
    } catch (error) {
      this.#wire.debug('onNotification threw', error)
    }
  }

  #listenHost(): ListenHost {
    return {
      connect: (signal, timeout) => this.connect({ signal, timeout }),
      era: () => this.era,
      closed: () => !!this.#closed,
      listenModern: (filter, signal, onMessage) => this.#modern.listen(filter, signal, onMessage),
      listenLegacy: (subscriber, description, signal, acknowledged) => {
        const host = {
          session: this.#session(),
          request: (method: string, params: Result, s: AbortSignal | undefined) => this.request(method as ExtensionMethod, params, { signal: s }),
          closed: () => !!this.#closed,
        }
        return listenLegacy(host, subscriber, description, signal, acknowledged)
      },
    }
  }
}
