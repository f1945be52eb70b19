import { AbortError } from '../errors/abort-error'
import { ProtocolError } from '../errors/protocol-error'
import { contentType, DEFAULT_MAX_BODY_BYTES, httpFetch, JSON_HEADERS, sleep } from './http'
import { idKey, parseMessages } from './json-rpc'
import { noop, progressKey, progressOwner, route, track, type Debug, type OnMessage, type Pending } from './pending'
import { link } from './link'
import { learnTools, modernHeaders, modernVersion } from './modern-headers'
import { readText } from './read-body'
import { readSse, type StreamCursor } from './read-sse'
import { httpError } from './response-errors'
import { expectStream, typedFailure } from './failures'
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
import type { ParamHeader } from './x-mcp-header'

export type { StreamableHttpOptions }

// Consecutive reconnections that bring no new event before a stream is given up.
const MAX_RECONNECTS = 5
const DEFAULT_RETRY_MS = 1000
const SSE_ACCEPT = { Accept: 'text/event-stream' }

/**
 * Streamable HTTP: every message is its own POST; answers come back as JSON or as an SSE stream. Speaks both
 * eras without deciding between them: a message whose `_meta` names its revision gets the 2026-07-28 headers,
 * anything else the session headers of the handshake era.
 */
export class StreamableHttpTransport implements Transport {
  readonly url: string
  readonly kind = 'streamable-http'
  protocolVersion: string | undefined
  readonly #options: StreamableHttpOptions
  readonly #max: number
  readonly #debug: Debug
  readonly #pending = new Map<string, Pending>()
  readonly #parked = new Set<Pending>()
  /** Requests parked by a 202, by progress token: their progress comes on a GET stream but is theirs alone. */
  readonly #progress = new Map<string, Pending>()
  readonly #tools = new Map<string, ParamHeader[]>()
  #sessionId: string | undefined
  #lifetime = new AbortController()
  #openStreams = 0

  constructor(url: string | URL, options: StreamableHttpOptions = {}) {
    this.url = String(url)
    this.#options = options
    this.#max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    this.#debug = options.debug ?? noop
  }

  get sessionId(): string | undefined {
    return this.#sessionId
  }

  request(message: JsonRpcRequest, options: SendOptions = {}): Promise<JsonRpcResponse> {
    const version = modernVersion(message)
    let signal!: AbortSignal
    const response = track(
      this.#pending,
      message.id,
      options.onMessage,
      () => {
        const linked = link(this.#lifetime.signal, options.signal)
        signal = linked.signal
        // Closes this request's stream if the server left it open after the answer. A drained JSON body
        // needs no abort, and skipping it saves fetch's abort path on every ordinary call.
        return {
          signal,
          done: (entry) => {
            this.#parked.delete(entry)
            for (const [key, owner] of this.#progress) if (owner === entry) this.#progress.delete(key)
            linked.done(!entry.drained)
          },
        }
      },
      (entry) =>
        this.#exchange(message, version, signal, entry).catch((error: unknown) => {
          throw typedFailure(this.url, error, signal)
        }),
    )
    return version && message.method === 'tools/list' ? response.then((answer) => learnTools(answer, this.#tools, this.#debug)) : response
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
    const { signal, done, abort } = link(this.#lifetime.signal)
    // The caller's signal bounds the opening only: once open, the stream lives until close().
    const caller = options.signal
    const onCaller = () => abort(caller!.reason)
    if (caller?.aborted) onCaller()
    caller?.addEventListener('abort', onCaller, { once: true })
    let response: Response
    try {
      response = await this.#fetch('GET', { ...SSE_ACCEPT, ...this.#headers() }, signal)
      if (response.status === 405) {
        await response.body?.cancel()
        done()
        return undefined
      }
      await expectStream(response, this.#max)
    } catch (error) {
      const failure = typedFailure(this.url, error, signal)
      done()
      throw failure
    } finally {
      caller?.removeEventListener('abort', onCaller)
    }
    this.#openStreams++
    const closed = this.#follow(response, signal, true, { onMessage }, () => false, undefined, true)
      .then(noop, (error: unknown) => {
        // A stream we closed ourselves ended as asked; anything else is the error it died of.
        if (!signal.aborted) throw typedFailure(this.url, error, signal)
      })
      .finally(() => {
        this.#openStreams--
        done()
        // Requests accepted with 202 wait for an answer on a GET stream: with none left, none will come.
        if (!this.#openStreams) {
          for (const entry of this.#parked) entry.settle(new ProtocolError('stream-ended', 'The GET stream ended before the answer to a request accepted with 202'))
        }
      })
    // Whoever holds the stream sees a rejection; nobody holding it must not mean an unhandled one.
    closed.catch(noop)
    return { closed, close: done }
  }

  resetSession(): void {
    this.#sessionId = undefined
  }

  async legacySse(): Promise<Transport> {
    // Loaded on demand: only servers from before 2025-03-26 need it, and most apps never meet one.
    const { SseTransport } = await import('./sse')
    return new SseTransport(this.url, this.#options)
  }

  async close(): Promise<void> {
    const lifetime = this.#lifetime
    // A closed transport stays usable: later requests start afresh (and a new session, if any).
    this.#lifetime = new AbortController()
    lifetime.abort('transport closed')
    const headers = this.#headers()
    this.#sessionId = undefined
    if (!headers['Mcp-Session-Id']) return
    try {
      // Ending the session is a courtesy to the server (405 means it does not allow it): never fatal, never long.
      const response = await httpFetch(this.url, { method: 'DELETE', headers }, this.#options, AbortSignal.timeout(5000))
      await response.body?.cancel()
    } catch {
      // The server may already be gone; the session is forgotten either way.
    }
  }

  // ---- one request's exchange ------------------------------------------------------------------------------

  async #exchange(message: JsonRpcRequest, version: string | undefined, signal: AbortSignal, entry: Pending): Promise<void> {
    const response = await this.#post(message, signal)
    const answered = () => this.#pending.get(idKey(message.id)) !== entry
    if (response.status === 202) {
      await response.body?.cancel()
      if (version) throw new ProtocolError('transport', `The server answered ${message.method} with 202 Accepted, which carries no response`)
      // A handshake-era server may accept a request and answer it on the session's GET stream.
      if (!this.#openStreams) {
        throw new ProtocolError('transport', `${message.method} got 202, to be answered on a GET stream, but none is open`)
      }
      this.#parked.add(entry)
      const token = progressKey(message)
      if (token && entry.onMessage) this.#progress.set(token, entry)
      return
    }
    if (!response.ok) throw await httpError(response, this.#max)
    const type = contentType(response)
    if (type === 'application/json') {
      const text = await readText(response, this.#max)
      entry.drained = true
      const messages = parseMessages(text)
      for (const each of messages) route(each, this.#pending, [entry], this.#debug, version ? entry : undefined)
      if (!answered()) throw new ProtocolError('content-type', `The JSON answer to ${message.method} holds no response with its id`, messages)
    } else if (type === 'text/event-stream') {
      // 2026-07-28 has no resumption: a dropped stream is a lost (and cancelled) request.
      if (!(await this.#follow(response, signal, !version, entry, answered, version ? entry : undefined))) {
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
   * Reads an SSE response until `finished()`. When it ends early and the server gave event ids, waits the
   * server's `retry` and resumes with GET + Last-Event-ID, as often as reconnections bring new events (then
   * up to MAX_RECONNECTS more). Resolves true when finished, false when the stream ended for good.
   */
  async #follow(
    response: Response,
    signal: AbortSignal,
    resumable: boolean,
    receiver: { onMessage?: OnMessage | undefined },
    finished: () => boolean,
    own?: Pending,
    sessionStream = false,
  ): Promise<boolean> {
    const cursor: StreamCursor = {}
    const receivers = [receiver]
    let fruitless = 0
    for (;;) {
      const before = cursor.lastEventId
      await readSse(response.body, this.#max, cursor, (data) => {
        let messages
        try {
          messages = parseMessages(data)
        } catch (error) {
          // A request's stream fails on garbage; the session stream carries many messages, so it drops one.
          if (!sessionStream) throw error
          this.#debug('dropped a malformed message on the session stream', error)
          return false
        }
        for (const message of messages) {
          const owner = sessionStream ? progressOwner(message, this.#progress) : undefined
          route(message, this.#pending, owner ? [owner] : receivers, this.#debug, own)
        }
        return finished()
      })
      if (finished()) return true
      // Header values must be visible ASCII: an id that cannot be sent back cannot resume anything.
      if (!resumable || !cursor.lastEventId || !/^[\x20-\x7e]+$/.test(cursor.lastEventId)) return false
      fruitless = cursor.lastEventId === before ? fruitless + 1 : 0
      if (fruitless >= MAX_RECONNECTS) return false
      await sleep(cursor.retry ?? DEFAULT_RETRY_MS, signal)
      response = await this.#fetch('GET', { ...SSE_ACCEPT, 'Last-Event-ID': cursor.lastEventId, ...this.#headers() }, signal)
      await expectStream(response, this.#max)
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
    return this.#fetch('POST', { ...JSON_HEADERS, ...this.#headers(message) }, signal, JSON.stringify(message))
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
