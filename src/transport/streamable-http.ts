import { AbortError } from '../errors/abort-error'
import { ProtocolError } from '../errors/protocol-error'
import { contentType, httpFetch, JSON_HEADERS } from './http'
import { idKey, parseMessages } from './json-rpc'
import { resume } from './legacy/resume'
import { SessionStreams } from './legacy/session-stream'
import type { StreamHost } from './legacy/types'
import { load } from './load'
import { noop, route, track, type Debug, type Pending } from './pending'
import { link } from './link'
import { learnTools, modernHeaders, modernVersion, unmentioned } from './modern-headers'
import { readText } from './read-body'
import { settings } from './settings'
import { readSse, type StreamCursor } from './read-sse'
import { httpError } from './response-errors'
import { typedFailure } from './failures'
import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  SendOptions,
  ServerStream,
  StreamableHttpOptions,
  Transport,
} from './types'
import type { Mirror } from './x-mcp-header'

export type { StreamableHttpOptions }

/** How long close() waits for the server to acknowledge the DELETE that ends a session, unless given a signal. */
const GOODBYE_MS = 5000

/**
 * Streamable HTTP: every message is its own POST; answers come back as JSON or as an SSE stream. Speaks both
 * eras without deciding between them: a message whose `_meta` names its revision gets the 2026-07-28 headers,
 * anything else the session headers of the legacy era, whose GET stream, requests a 202 parks on it and resumption
 * live in legacy/.
 */
export class StreamableHttpTransport implements Transport {
  readonly url: string
  readonly sessionStream = false
  /**
   * The revision a legacy server's `initialize` answer named, learnt as that answer passes through (and forgotten
   * when the next `initialize` goes out); sent as `MCP-Protocol-Version` on every legacy-era request from 2025-06-18
   * on. Settable for an app that runs a handshake of its own by other means.
   */
  protocolVersion: string | undefined
  readonly #options: StreamableHttpOptions
  readonly #max: number
  readonly #debug: Debug
  readonly #pending = new Map<string, Pending>()
  readonly #tools = new Map<string, Mirror>()
  #sessionId: string | undefined
  #lifetime = new AbortController()
  /** How to stop each request in flight: ending the transport stops them without a listener of each on #lifetime. */
  #inflight = new Set<(reason: unknown) => void>()
  /** The session's GET streams and the requests parked on them; made by the first openStream(). */
  #streams: SessionStreams | undefined

  constructor(url: string | URL, options: StreamableHttpOptions = {}) {
    // endpointTimeout is read (and checked) for the HTTP+SSE transport a fallback hands these options on to.
    const { url: href, max, debug } = settings(url, options, 0)
    this.url = href
    this.#options = options
    this.#max = max
    this.#debug = debug
    options.auth?.attach?.(this)
  }

  get sessionId(): string | undefined {
    return this.#sessionId
  }

  request(message: JsonRpcRequest, options: SendOptions = {}): Promise<JsonRpcResponse> {
    const version = modernVersion(message)
    const handshake = !version && message.method === 'initialize'
    if (handshake) this.protocolVersion = undefined
    const listing = version && message.method === 'tools/list'
    // Whether every text that carried a tools/list answer is free of x-mcp-header (learnTools may skip its walk);
    // any other request's texts (a stream of progress events, say) are not scanned.
    let plain = true
    const read = listing ? (text: string) => void (plain &&= unmentioned(text)) : noop
    // The one signal of this request, handed to fetch. The caller's signal and the transport's end stop it through
    // `stop`, which also settles the request: one listener per request, on the caller's signal.
    const controller = new AbortController()
    const { signal } = controller
    const caller = options.signal
    const response = track(
      this.#pending,
      message.id,
      options.onMessage,
      (abort) => {
        const stop = (reason: unknown) => {
          controller.abort(reason)
          abort(reason)
        }
        const onCaller = () => stop(caller!.reason)
        if (caller?.aborted) controller.abort(caller.reason)
        else caller?.addEventListener('abort', onCaller, { once: true })
        const inflight = this.#inflight
        inflight.add(stop)
        return {
          signal,
          done: (entry) => {
            caller?.removeEventListener('abort', onCaller)
            inflight.delete(stop)
            this.#streams?.forget(entry)
            // Closes this request's stream if the server left it open after the answer. A drained JSON body
            // needs no abort, and skipping it saves fetch's abort path on every ordinary call.
            if (!entry.drained) controller.abort()
          },
        }
      },
      (entry) =>
        this.#exchange(message, version, signal, entry, read).catch((error: unknown) => {
          throw typedFailure(this.url, error, signal)
        }),
    )
    if (handshake) return response.then((answer) => this.#learnVersion(answer))
    return listing ? response.then((answer) => learnTools(answer, this.#tools, this.#debug, options.signal, plain)) : response
  }

  async send(message: JsonRpcNotification | JsonRpcResponse, options: { signal?: AbortSignal } = {}): Promise<void> {
    const { signal, done } = link(this.#lifetime.signal, options.signal)
    try {
      if (signal.aborted) throw new AbortError(signal.reason)
      const response = await this.#post(message, signal)
      if (!response.ok) throw await httpError(response, this.#max)
      await response.body?.cancel()
    } catch (error) {
      throw typedFailure(this.url, error, signal)
    } finally {
      done()
    }
  }

  async openStream(
    onMessage: (message: JsonRpcRequest | JsonRpcNotification) => void,
    options: { signal?: AbortSignal } = {},
  ): Promise<ServerStream | undefined> {
    return (this.#streams ??= new SessionStreams(this.#host())).open(onMessage, this.#lifetime.signal, options.signal)
  }

  resetSession(): void {
    this.#sessionId = undefined
  }

  async legacySse(): Promise<Transport> {
    // Loaded on demand: only servers from before 2025-03-26 need it, and most apps never meet one.
    const { SseTransport } = await load('HTTP+SSE transport', () => import('./sse'))
    return new SseTransport(this.url, this.#options)
  }

  #learnVersion(answer: JsonRpcResponse): JsonRpcResponse {
    const version = answer.result?.protocolVersion
    if (typeof version === 'string') this.protocolVersion = version
    return answer
  }

  /** Aborts every stream and request so far (an auth provider withdrew their credentials); the session stays. */
  dropStreams(reason = 'signed out'): void {
    const lifetime = this.#lifetime
    const inflight = this.#inflight
    this.#lifetime = new AbortController()
    this.#inflight = new Set()
    lifetime.abort(reason)
    for (const stop of inflight) stop(reason)
  }

  async close(options: { signal?: AbortSignal } = {}): Promise<void> {
    // A closed transport stays usable: later requests start afresh (and a new session, if any).
    this.dropStreams('transport closed')
    const headers = this.#headers()
    this.#sessionId = undefined
    if (!headers['Mcp-Session-Id']) return
    try {
      // Ending the session is a courtesy to the server (405 means it does not allow it): never fatal, never long.
      const response = await httpFetch(this.url, { method: 'DELETE', headers }, this.#options, options.signal ?? AbortSignal.timeout(GOODBYE_MS))
      await response.body?.cancel()
    } catch {
      // The server may already be gone; the session is forgotten either way.
    }
  }

  // ---- one request's exchange ------------------------------------------------------------------------------

  async #exchange(message: JsonRpcRequest, version: string | undefined, signal: AbortSignal, entry: Pending, read: (text: string) => void): Promise<void> {
    const response = await this.#post(message, signal)
    // Made once per request, not per message: a stream may carry 100,000 progress notifications.
    const key = idKey(message.id)
    const answered = () => this.#pending.get(key) !== entry
    const own = version ? entry : undefined
    const receivers = [entry]
    const deliver = (messages: JsonRpcMessage[]) => {
      for (const each of messages) route(each, this.#pending, receivers, this.#debug, own)
    }
    if (response.status === 202) {
      await response.body?.cancel()
      if (version) throw new ProtocolError('transport', `The server answered ${message.method} with 202 Accepted, which carries no response`)
      // A legacy-era server may accept a request and answer it on the session's GET stream.
      if (!this.#streams?.park(entry, message)) {
        throw new ProtocolError('transport', `${message.method} got 202, to be answered on a GET stream, but none is open`)
      }
      return
    }
    if (!response.ok) throw await httpError(response, this.#max)
    const type = contentType(response)
    if (type === 'application/json') {
      const text = await readText(response, this.#max)
      entry.drained = true
      read(text)
      const messages = parseMessages(text)
      deliver(messages)
      if (!answered()) throw new ProtocolError('content-type', `The JSON answer to ${message.method} holds no response with its id`, messages)
    } else if (type === 'text/event-stream') {
      // 2026-07-28 has no resumption: a dropped stream is a lost (and cancelled) request.
      if (!(await this.#follow(response, signal, !version, (data) => (read(data), deliver(parseMessages(data))), answered))) {
        throw new ProtocolError(
          'stream-ended',
          `The stream of ${message.method} ended before its response` +
            (version ? '' : ' with no event id to resume from, or no new events'),
        )
      }
    } else {
      await response.body?.cancel()
      throw new ProtocolError('content-type', `${message.method}: expected JSON or SSE, got "${type}"`)
    }
  }

  /**
   * Reads an SSE response, each event's `data` to `onData`, until `finished()`. Resolves true when finished, false
   * when the stream ended for good. A legacy-era stream that ends early with an event id is resumed (legacy/resume.ts).
   */
  async #follow(
    response: Response,
    signal: AbortSignal,
    resumable: boolean,
    onData: (data: string) => void,
    finished: () => boolean,
  ): Promise<boolean> {
    const cursor: StreamCursor = {}
    const read = (body: Response) => readSse(body.body, this.#max, cursor, (data) => (onData(data), finished()))
    await read(response)
    if (finished()) return true
    if (!resumable || !cursor.lastEventId) return false
    return resume(this.#host(), cursor, signal, read, finished)
  }

  // ---- what the legacy era's stream code uses ----------------------------------------------------------------

  /** What the session streams and resumption may use of this transport. */
  #host(): StreamHost {
    return {
      url: this.url,
      max: this.#max,
      debug: this.#debug,
      pending: this.#pending,
      headers: () => this.#headers(),
      fetch: (method, headers, signal) => this.#fetch(method, headers, signal),
      follow: (...args) => this.#follow(...args),
    }
  }

  // ---- HTTP ------------------------------------------------------------------------------------------------

  /** The era's headers: the body's own revision and names for modern messages; session and version otherwise. */
  #headers(message?: JsonRpcMessage): Record<string, string> {
    const version = message && modernVersion(message)
    if (version && message && 'method' in message) return modernHeaders(message, version, this.#tools)
    const headers: Record<string, string> = {}
    // The header exists from 2025-06-18 on; some 2025-03-26 servers refuse the session stream when they see it.
    // Revisions are ISO dates, so they compare as strings.
    if (this.protocolVersion && this.protocolVersion >= '2025-06-18') headers['MCP-Protocol-Version'] = this.protocolVersion
    if (this.#sessionId) headers['Mcp-Session-Id'] = this.#sessionId
    return headers
  }

  #post(message: JsonRpcMessage, signal: AbortSignal): Promise<Response> {
    // Not `{ ...JSON_HEADERS, ...headers }`: V8 copies a second spread into one literal key by key, about 2 µs,
    // nearly 1% of a call to a local server.
    return this.#fetch('POST', Object.assign({}, JSON_HEADERS, this.#headers(message)), signal, JSON.stringify(message))
  }

  /** fetch that keeps the session: takes the id from any response, and ends it on a 404 to a request that carried it. */
  async #fetch(method: string, headers: Record<string, string>, signal: AbortSignal, body?: string): Promise<Response> {
    const response = await httpFetch(this.url, { method, headers, body }, this.#options, signal)
    const sent = headers['Mcp-Session-Id']
    if (response.status === 404 && sent !== undefined) {
      if (this.#sessionId === sent) this.#sessionId = undefined
      throw await httpError(response, this.#max, true)
    }
    const session = response.headers.get('mcp-session-id')
    if (session) this.#sessionId = session
    return response
  }
}
