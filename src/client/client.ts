import type { ExtensionMethod, Method, ParamsOf, ResultOf } from '../schemas/method-map'
import type { Transport } from '../transport/types'
import type { ClientOptions, Era, ListenFilter, RequestOptions, ServerDescription, ServerNotification, Subscription } from './types'
import { AbortError } from '../errors/abort-error'
import { ProtocolError } from '../errors/protocol-error'
import { abortable } from '../transport/http'
import { noop } from '../transport/pending'
import { EraState, type Handshake } from './era'
import { Helpers } from './helpers'
import { LegacySession, type SessionHost } from './legacy/session'
import { listenLegacy } from './legacy/subscription'
import { Joinable, limit, reasonOf } from './limits'
import { listen, type ListenHost } from './listen'
import { clientMeta, Modern, type ModernHost } from './modern'
import { Wire } from './trace'
import { duration } from '../transport/duration'

export { forgetEras } from './era'

type Result = Record<string, unknown>

/**
 * Speaks JSON-RPC to one MCP server over a transport: 2026-07-28 first, falling back to the `initialize`
 * handshake as the era table (`verdict` in era.ts) says. The first real request is the probe.
 */
export class Client extends Helpers {
  readonly #options: ClientOptions
  readonly #wire: Wire
  readonly #era: EraState
  readonly #modern: Modern
  readonly #host: SessionHost & ModernHost
  /** The legacy era's session, made when a request first needs it. */
  #legacy: LegacySession | undefined
  #gate: Promise<unknown> | undefined
  readonly #connecting = new Joinable((signal) => this.#connect(signal))
  #closed: Error | undefined
  readonly #inflight = new Set<AbortController>()

  constructor(transport: Transport, options: ClientOptions = {}) {
    super()
    this.#options = options
    this.#wire = new Wire(transport, options, () => this.era)
    this.#era = new EraState(this.#wire, options.eraStore)
    const host = (this.#host = {
      wire: this.#wire,
      era: this.#era,
      exclusive: <T>(work: () => Promise<T>) => this.#exclusive(work),
      fail: (error: Error) => this.#fail(error),
      notify: (notification: ServerNotification, handler?: (notification: ServerNotification) => void) => this.#notify(notification, handler),
      fallback: (...args: Parameters<ModernHost['fallback']>) => this.#fallback(...args),
    })
    this.#modern = new Modern(host)
  }

  /** The transport in use; after a fallback to HTTP+SSE it is the SseTransport that replaced the original. */
  get transport(): Transport {
    return this.#wire.transport
  }

  get era(): Era | undefined {
    return this.#era.settled
  }

  get protocolVersion(): string | undefined {
    return this.era && this.#era.version
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
      if (this.#era.era === 'legacy' && this.server) return undefined
      throw error
    })
    if (this.#era.era === 'modern' && result) this.#era.describeModern(result)
    if (!this.server) throw new ProtocolError('invalid-result', 'The server did not describe itself')
    return this.server
  }

  /**
   * Sends a request and resolves with its checked result; see README for the errors it rejects with. Spec
   * methods are typed by the method map (a misspelled one does not compile); any other method goes through
   * `extensionMethod('vendor/method')` and resolves with an unchecked object.
   */
  request<M extends Method>(method: M, ...args: {} extends ParamsOf<M> ? [params?: ParamsOf<M>, options?: RequestOptions] : [params: ParamsOf<M>, options?: RequestOptions]): Promise<ResultOf<M>>
  request(method: ExtensionMethod, params?: Result, options?: RequestOptions): Promise<Result>
  request(method: string, params: Result = {}, options: RequestOptions = {}): Promise<Result> {
    return this.checked(method, options, (n) => this.#notify(n), (sent) => this.#guarded(method, params, sent))
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

  /** Runs a request within the caller's limits, which bound every step of it (handshakes included). */
  async #guarded(method: string, params: Result, options: RequestOptions): Promise<Result> {
    if (this.#closed) throw this.#closed
    const { controller, done } = limit(method, this.#timeout(options), options.signal)
    this.#inflight.add(controller)
    try {
      return await this.#dispatch(method, params, options, controller.signal)
    } catch (error) {
      throw controller.signal.aborted ? reasonOf(controller.signal) : error
    } finally {
      done()
      this.#inflight.delete(controller)
    }
  }

  /** Decides how a request goes out: after whatever exclusive work is due, the modern or the legacy way. */
  async #dispatch(method: string, params: Result, options: RequestOptions, signal: AbortSignal): Promise<Result> {
    const era = this.#era
    for (;;) {
      if (this.#closed) throw this.#closed
      if (this.#gate) {
        // The gate never rejects: it only says when the exclusive work is over.
        await abortable(this.#gate, signal)
        continue
      }
      if (!era.recalled) {
        await this.#exclusive(() => era.recall(signal))
        continue
      }
      if (era.ambiguous) {
        await this.#exclusive(() => this.#modern.settleAmbiguity(signal))
        continue
      }
      if (era.era === 'legacy') {
        const legacy = this.#session()
        if (legacy.gone()) {
          await legacy.renew(signal, true)
          continue
        }
        return legacy.request(method, params, options, signal)
      }
      if (era.era === undefined || era.unconfirmed) {
        // The probe runs alone: requests behind it wait to learn the era rather than probe again.
        return this.#exclusive(() => this.#modern.request(method, params, options, signal, true))
      }
      return this.#modern.request(method, params, options, signal, false)
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

  async #fallback(verdict: Handshake, method: string, params: Result, options: RequestOptions, signal: AbortSignal): Promise<Result> {
    const legacy = this.#session()
    await legacy.handshake(verdict.offer, verdict.sse, signal)
    return legacy.request(method, params, options, signal)
  }

  #session(): LegacySession {
    return (this.#legacy ??= new LegacySession(this.#host))
  }

  /** A notification on its way to the app, checked already by the code that received it. */
  #notify(notification: ServerNotification, handler = this.#options.onNotification): void {
    this.noticed(notification)
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
      listenModern: (filter, signal, onMessage) => {
        const id = this.#wire.nextId()
        const params = { notifications: filter, _meta: this.meta }
        return { id, response: this.#wire.request({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params }, signal, onMessage) }
      },
      listenLegacy: (subscriber, description, signal, acknowledged) => {
        const session = this.#session()
        const host = {
          session,
          request: (method: string, params: Result, s: AbortSignal | undefined) => this.request(method as ExtensionMethod, params, { signal: s }),
          closed: () => !!this.#closed,
        }
        return listenLegacy(host, subscriber, description, signal, acknowledged)
      },
    }
  }
}
