import { AbortError } from '../errors/abort-error'
import { NetworkError } from '../errors/network-error'
import { ProtocolError } from '../errors/protocol-error'
import type { EventSourceConstructor } from './event-source'
import { abortable, contentType, DEFAULT_MAX_BODY_BYTES, httpFetch, type HttpTransportOptions } from './http'
import { parseMessages } from './json-rpc'
import { noop, route, track, type OnMessage, type Pending } from './pending'
import { readText } from './read-body'
import { httpError, isCrossOrigin } from './response-errors'
import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  SendOptions,
  ServerStream,
  Transport,
} from './types'

export interface SseTransportOptions extends HttpTransportOptions {
  /** How long to wait for the server's `endpoint` event after opening the stream. Default 10 000 ms. */
  endpointTimeout?: number
}

interface Connection {
  endpoint: Promise<string>
  /** Ends the session: rejects what waits on it with `error`; `openStream` views too, unless `quietly`. */
  end(error: unknown, quietly?: boolean): void
}

interface View {
  onMessage: OnMessage
  end(error?: unknown): void
}

/**
 * The 2024-11-05 HTTP+SSE transport: one EventSource per session carries every server message; client
 * messages are POSTed to the endpoint the stream announces. The session lives exactly as long as the stream,
 * so when it drops, everything waiting fails and the next message opens a new stream (a new `sessionId`).
 */
export class SseTransport implements Transport {
  readonly url: string
  readonly kind = 'sse'
  /** Settable for symmetry with Streamable HTTP; this transport never sends it. */
  protocolVersion: string | undefined
  readonly #options: SseTransportOptions
  readonly #max: number
  readonly #pending = new Map<string, Pending>()
  readonly #views = new Set<View>()
  #connection: Connection | undefined
  #sessionId: string | undefined

  constructor(url: string | URL, options: SseTransportOptions = {}) {
    this.url = String(url)
    this.#options = options
    this.#max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  }

  get sessionId(): string | undefined {
    return this.#sessionId
  }

  request(message: JsonRpcRequest, options: SendOptions = {}): Promise<JsonRpcResponse> {
    // Everything but the final answer goes where the session's messages go (this transport has one stream).
    return track(this.#pending, message.id, undefined, () => options, () => this.#post(message, options.signal))
  }

  async send(message: JsonRpcNotification | JsonRpcResponse, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.#post(message, options.signal)
  }

  async openStream(onMessage: OnMessage): Promise<ServerStream> {
    await (this.#connection ?? this.#open()).endpoint
    let end!: (error?: unknown) => void
    const closed = new Promise<void>((resolve, reject) => {
      end = (error) => {
        this.#views.delete(view)
        if (error) reject(error)
        else resolve()
      }
    })
    closed.catch(noop)
    const view: View = { onMessage, end }
    this.#views.add(view)
    // Closing a view only stops its deliveries; the session's stream stays open for the transport.
    return { closed, close: () => end() }
  }

  resetSession(): void {
    this.#sessionId = undefined
  }

  async close(): Promise<void> {
    this.#connection?.end(new AbortError('transport closed'), true)
    this.#sessionId = undefined
  }

  async #post(message: JsonRpcMessage, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) throw new AbortError(signal.reason)
    const endpoint = await abortable((this.#connection ?? this.#open()).endpoint, signal)
    const headers = { 'Content-Type': 'application/json' }
    const response = await httpFetch(endpoint, { method: 'POST', headers, body: JSON.stringify(message) }, this.#options, signal)
    if (!response.ok) throw await httpError(response, this.#max)
    // The answer normally comes on the stream (202); a server that answers in the POST body is heard too.
    if (contentType(response) === 'application/json') this.#receive(await readText(response, this.#max))
    else await response.body?.cancel()
  }

  #open(): Connection {
    const EventSource = this.#options.EventSource ?? (globalThis as { EventSource?: EventSourceConstructor }).EventSource
    if (!EventSource) throw new ProtocolError('transport', 'No EventSource: pass one as options.EventSource')
    const base = new URL(this.url, (globalThis as { location?: { href?: string } }).location?.href)
    let resolveEndpoint!: (url: string) => void
    let rejectEndpoint!: (error: unknown) => void
    const endpoint = new Promise<string>((resolve, reject) => {
      resolveEndpoint = resolve
      rejectEndpoint = reject
    })
    endpoint.catch(noop)
    let announced = false
    const source = new EventSource(this.url, { withCredentials: this.#options.requestInit?.credentials === 'include' })
    const connection: Connection = {
      endpoint,
      end: (error, quietly) => {
        if (this.#connection !== connection) return
        this.#connection = undefined
        this.#sessionId = undefined
        clearTimeout(timer)
        source.close()
        rejectEndpoint(error)
        for (const entry of this.#pending.values()) entry.settle(error)
        for (const view of this.#views) view.end(quietly ? undefined : error)
      },
    }
    const timeout = this.#options.endpointTimeout ?? 10_000
    const timer = setTimeout(
      () => connection.end(new ProtocolError('transport', `${this.url} sent no endpoint event within ${timeout} ms`)),
      timeout,
    )
    source.addEventListener('endpoint', (event) => {
      if (announced) return
      const data = (event as MessageEvent).data as string
      let target: URL
      try {
        target = new URL(data, base)
      } catch {
        return connection.end(new ProtocolError('transport', 'The endpoint event holds no URL', data))
      }
      // Messages carry the session (and maybe credentials): they go to the origin the app chose, nowhere else.
      if (target.origin !== base.origin) {
        return connection.end(new ProtocolError('transport', `Refusing endpoint ${target.href} on another origin`, data))
      }
      announced = true
      clearTimeout(timer)
      this.#sessionId = target.searchParams.get('sessionId') ?? undefined
      resolveEndpoint(target.href)
    })
    source.addEventListener('message', (event) => this.#receive((event as MessageEvent).data as string))
    // Any error ends the session: the server's session is bound to this one connection, so even an
    // EventSource that reconnects by itself would come back to a new session with a new endpoint.
    source.addEventListener('error', (event) => {
      const reason = (event as { message?: string }).message ?? 'the EventSource failed'
      connection.end(
        announced
          ? new ProtocolError('stream-ended', `SSE stream closed (${reason}): the session has ended`)
          : new NetworkError(this.url, new Error(reason), isCrossOrigin(this.url, (globalThis as { location?: { origin?: string } }).location?.origin)),
      )
    })
    this.#connection = connection
    return connection
  }

  #receive(text: string): void {
    let messages: JsonRpcMessage[]
    try {
      messages = parseMessages(text)
    } catch (error) {
      // On the shared stream a bad message belongs to no request: report it and keep the session.
      return void console.warn('nanomcp: ignoring a malformed SSE message', error)
    }
    for (const message of messages) route(message, this.#pending, this.#views)
  }
}
