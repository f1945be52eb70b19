import { AbortError } from '../errors/abort-error'
import { McpError } from '../errors/mcp-error'
import { NetworkError } from '../errors/network-error'
import { ProtocolError } from '../errors/protocol-error'
import { abortable, contentType, httpFetch, isAuthFailure } from './http'
import { parseMessages } from './json-rpc'
import { progressKey, progressOwner } from './legacy/progress'
import { noop, onSignal, route, track, type Debug, type OnMessage, type Pending } from './pending'
import { readText } from './read-body'
import { settings } from './settings'
import { httpError, isCrossOrigin } from './response-errors'
import { openSource } from './sse-source'
import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  SendOptions,
  ServerStream,
  SseTransportOptions,
  Transport,
} from './types'

export type { SseTransportOptions }

const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000

interface Connection {
  /** The endpoint, or an AbortError when `signal` fires first, or ProtocolError('no-endpoint') at `endpointTimeout`. */
  wait(signal: AbortSignal | undefined): Promise<string>
  /** Ends the session: rejects what waits on it with `error`; `openStream` views too, unless `quietly`. */
  end(error: unknown, quietly?: boolean): void
}

interface View {
  onMessage: OnMessage
  end(error?: unknown): void
}

/**
 * The 2024-11-05 HTTP+SSE transport: one stream per session carries every server message; client messages are
 * POSTed to the endpoint the stream announces. The session lives exactly as long as the stream, so when it
 * drops, everything waiting fails and the next message opens a new stream (a new `sessionId`).
 */
export class SseTransport implements Transport {
  readonly url: string
  readonly sessionStream = true
  readonly #options: SseTransportOptions
  readonly #max: number
  /** `endpointTimeout` in ms, Infinity for none. */
  readonly #endpointTimeout: number
  readonly #debug: Debug
  readonly #pending = new Map<string, Pending>()
  /** Requests by progress token: their progress arrives on the shared stream, but belongs to them alone. */
  readonly #progress = new Map<string, Pending>()
  readonly #views = new Set<View>()
  #connection: Connection | undefined
  #sessionId: string | undefined

  constructor(url: string | URL, options: SseTransportOptions = {}) {
    const { url: href, max, debug, endpointTimeout } = settings(url, options, DEFAULT_ENDPOINT_TIMEOUT_MS)
    this.url = href
    this.#options = options
    this.#max = max
    this.#debug = debug
    this.#endpointTimeout = endpointTimeout
    options.auth?.attach?.(this)
  }

  get sessionId(): string | undefined {
    return this.#sessionId
  }

  request(message: JsonRpcRequest, options: SendOptions = {}): Promise<JsonRpcResponse> {
    const token = options.onMessage && progressKey(message)
    // Everything else that is not the final answer goes where the session's messages go (openStream views).
    return track(
      this.#pending,
      message.id,
      options.onMessage,
      onSignal(options.signal, (entry) => void (token && this.#progress.get(token) === entry && this.#progress.delete(token))),
      (entry) => {
        if (token) this.#progress.set(token, entry)
        return this.#post(message, options.signal)
      },
    )
  }

  async send(message: JsonRpcNotification | JsonRpcResponse, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.#post(message, options.signal)
  }

  async openStream(onMessage: OnMessage, options: { signal?: AbortSignal } = {}): Promise<ServerStream> {
    await this.#connect().wait(options.signal)
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

  /** Ends the stream and what waits on it (an auth provider withdrew their credentials): the session is bound to it. */
  dropStreams(): void {
    this.#connection?.end(new AbortError('signed out'))
  }

  async close(): Promise<void> {
    this.#connection?.end(new AbortError('transport closed'), true)
    this.#sessionId = undefined
  }

  async #post(message: JsonRpcMessage, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) throw new AbortError(signal.reason)
    const endpoint = await this.#connect().wait(signal)
    const headers = { 'Content-Type': 'application/json' }
    const response = await httpFetch(endpoint, { method: 'POST', headers, body: JSON.stringify(message) }, this.#options, signal)
    if (!response.ok) throw await httpError(response, this.#max)
    // The answer normally comes on the stream (202, whatever its Content-Type says of an empty body); a server
    // that answers in the POST body is heard too.
    if (contentType(response) !== 'application/json') return void (await response.body?.cancel())
    const text = await readText(response, this.#max)
    if (text.trim() !== '') this.#receive(text)
  }

  #connect(): Connection {
    return this.#connection ?? this.#open()
  }

  #open(): Connection {
    const base = new URL(this.url, (globalThis as { location?: { href?: string } }).location?.href)
    let resolveEndpoint!: (url: string) => void
    let rejectEndpoint!: (error: unknown) => void
    const endpoint = new Promise<string>((resolve, reject) => {
      resolveEndpoint = resolve
      rejectEndpoint = reject
    })
    endpoint.catch(noop)
    let announced = false
    // Who waits for the endpoint: with nobody left, the half-open stream is closed. `endpointTimeout` is the
    // server's deadline, whoever waits: a caller's own shorter limit still ends its own wait first.
    let waiting = 0
    const timeout = this.#endpointTimeout
    const timer = Number.isFinite(timeout)
      ? setTimeout(() => connection.end(new ProtocolError('no-endpoint', `${this.url} sent no endpoint event within ${timeout} ms`, { timeout })), timeout)
      : undefined
    const connection: Connection = {
      wait: (signal) => {
        if (announced) return endpoint
        waiting++
        return abortable(endpoint, signal).finally(() => {
          if (--waiting || announced) return
          connection.end(new AbortError('nobody waits for the HTTP+SSE endpoint any more'), true)
        })
      },
      end: (error, quietly) => {
        if (this.#connection !== connection) return
        this.#connection = undefined
        this.#sessionId = undefined
        clearTimeout(timer)
        close()
        rejectEndpoint(error)
        for (const entry of this.#pending.values()) entry.settle(error)
        for (const view of this.#views) view.end(quietly ? undefined : error)
      },
    }
    this.#connection = connection
    const close = openSource(this.url, this.#options, this.#max, {
      endpoint: (data) => {
        if (announced) return
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
      },
      message: (data) => this.#receive(data),
      // Any failure ends the session: the server's session is bound to this one connection, so even an
      // EventSource that reconnects by itself would come back to a new session with a new endpoint.
      failed: (error) => {
        const why = error === undefined ? 'the server ended it' : (error as Error).message
        connection.end(
          error instanceof McpError || isAuthFailure(error)
            ? error
            : announced
              ? new ProtocolError('stream-ended', `SSE stream closed (${why}): the session has ended`)
              : error === undefined
                ? new ProtocolError('stream-ended', `${this.url} ended the stream before its endpoint event`)
                : new NetworkError(this.url, error, isCrossOrigin(this.url, (globalThis as { location?: { origin?: string } }).location?.origin)),
        )
      },
    })
    return connection
  }

  #receive(text: string): void {
    let messages: JsonRpcMessage[]
    try {
      messages = parseMessages(text)
    } catch (error) {
      // On the shared stream a bad message belongs to no request: report it and keep the session.
      return this.#debug('ignoring a malformed SSE message', error)
    }
    for (const message of messages) {
      const owner = progressOwner(message, this.#progress)
      route(message, this.#pending, owner ? [owner] : this.#views, this.#debug)
    }
  }
}
