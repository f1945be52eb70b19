// Test helper: a Transport that plays an MCP server in memory, modern (2026-07-28) or legacy (2025-11-25),
// so the stores' tests run the real Client. Records every request; `notify()` pushes change notifications on
// the listen streams (modern) or the session stream (legacy).
import { AbortError } from '../errors/abort-error'
import { HttpError } from '../errors/http-error'
import { NetworkError } from '../errors/network-error'
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, SendOptions, ServerStream, Transport } from '../transport/types'
import { abortable } from '../transport/http'
import { Arrivals } from './wait'

type Result = Record<string, unknown>
export type Handler = (params: Result, request: JsonRpcRequest) => Result | Promise<Result>

interface Listen {
  id: JsonRpcRequest['id']
  notifications: Result
  onMessage: NonNullable<SendOptions['onMessage']>
  end(error?: Error): void
}

const SUB = 'io.modelcontextprotocol/subscriptionId'
let port = 0

export class FakeTransport implements Transport {
  readonly sessionStream = false
  sessionId: string | undefined
  readonly requests: JsonRpcRequest[] = []
  readonly sent: (JsonRpcNotification | JsonRpcResponse)[] = []
  readonly listens = new Set<Listen>()
  stream: ((message: JsonRpcNotification) => void) | undefined
  /** Notifications the next request's own stream carries before its response (legacy servers do this). */
  readonly onNextRequest: JsonRpcNotification[] = []
  /** Notifications every request's own stream carries before its response (a gateway that starts a server per request). */
  alongside: ((message: JsonRpcRequest) => JsonRpcNotification[]) | undefined
  closed = false
  /** While set, every request fails as if the server were unreachable. */
  down = false
  /** Every request, as it arrives (await `requested.find(...)` instead of polling). */
  readonly requested = new Arrivals<JsonRpcRequest>()
  /** Runs before the server answers a request: it may throw (that is the answer) or never settle (no answer). */
  hold: ((message: JsonRpcRequest) => Promise<void> | void) | undefined
  /** Whether the nth (from 0) subscriptions/listen is acknowledged. Default: every one. */
  acknowledges: (n: number) => boolean = () => true
  /** How session streams open: 'hang' never opens (until the opener's signal aborts), an Error fails. */
  streamFault: (() => 'hang' | Error | undefined) | undefined
  /** The session the server knows (legacy); `expire()` forgets it, as a restarted server does. */
  live: string | undefined
  #sessions = 0
  #listens = 0
  #streamEnd: (() => void) | undefined

  constructor(
    readonly era: 'modern' | 'legacy',
    readonly capabilities: Result,
    readonly handlers: Record<string, Handler> = {},
    readonly url = `http://127.0.0.1:${++port}/mcp`,
  ) {}

  /** Requests seen for one method. */
  count(method: string): number {
    return this.requests.filter((r) => r.method === method).length
  }

  /** The server forgets the session (legacy): its stream ends, and the next request that carries it gets a 404. */
  expire(): void {
    this.live = undefined
    this.#streamEnd?.()
  }

  notify(method: string, params: Result = {}): void {
    if (this.era === 'legacy') return this.stream?.({ jsonrpc: '2.0', method, params })
    for (const listen of this.listens) listen.onMessage({ jsonrpc: '2.0', method, params: { ...params, _meta: { [SUB]: listen.id } } })
  }

  async request(message: JsonRpcRequest, options: SendOptions = {}): Promise<JsonRpcResponse> {
    if (this.closed) throw new AbortError('transport closed')
    this.requests.push(message)
    this.requested.push(message)
    if (this.down) throw new NetworkError(this.url, new TypeError('fetch failed'), false)
    if (this.hold) await abortable(Promise.resolve(this.hold(message)), options.signal)
    const reply = (result: Result): JsonRpcResponse => ({ jsonrpc: '2.0', id: message.id, result })
    const params = message.params ?? {}
    if (this.era === 'legacy') {
      if (message.method === 'initialize') {
        this.sessionId = this.live = `session-${++this.#sessions}`
        return reply({ protocolVersion: '2025-11-25', capabilities: this.capabilities, serverInfo: { name: 'fake-legacy', version: '1' } })
      }
      if (this.sessionId && this.sessionId !== this.live) {
        this.sessionId = undefined
        throw new HttpError(404, new Headers(), '', undefined, true)
      }
      if (!this.sessionId) {
        const error = { code: -32000, message: 'Bad Request: Server not initialized' }
        throw new HttpError(400, new Headers(), JSON.stringify({ jsonrpc: '2.0', id: null, error }), error)
      }
      if (message.method === 'ping' || message.method === 'resources/subscribe' || message.method === 'resources/unsubscribe') return reply({})
    } else {
      if (message.method === 'server/discover') {
        return reply({
          resultType: 'complete',
          supportedVersions: ['2026-07-28'],
          capabilities: this.capabilities,
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fake-modern', version: '1' } },
          ttlMs: 0,
          cacheScope: 'public',
        })
      }
      if (message.method === 'subscriptions/listen') return this.#listen(message, options)
    }
    for (const note of this.onNextRequest.splice(0)) options.onMessage?.(note)
    for (const note of this.alongside?.(message) ?? []) options.onMessage?.(note)
    const handler = this.handlers[message.method]
    if (!handler) return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } }
    try {
      const result = await handler(params, message)
      return reply(this.era === 'modern' ? { resultType: 'complete', ...result } : result)
    } catch (error) {
      const e = error as { code?: number; message: string }
      if (typeof e.code !== 'number') throw error
      return { jsonrpc: '2.0', id: message.id, error: { code: e.code, message: e.message } }
    }
  }

  #listen(message: JsonRpcRequest, options: SendOptions): Promise<JsonRpcResponse> {
    const asked = ((message.params ?? {}).notifications ?? {}) as Result
    return new Promise((resolve, reject) => {
      const listen: Listen = {
        id: message.id,
        notifications: asked,
        onMessage: options.onMessage ?? (() => undefined),
        end: (error) => {
          this.listens.delete(listen)
          if (error) reject(error)
          else resolve({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', _meta: { [SUB]: message.id } } })
        },
      }
      this.listens.add(listen)
      options.signal?.addEventListener('abort', () => listen.end(new AbortError(options.signal?.reason)), { once: true })
      if (!this.acknowledges(this.#listens++)) return
      queueMicrotask(() =>
        listen.onMessage({
          jsonrpc: '2.0',
          method: 'notifications/subscriptions/acknowledged',
          params: { notifications: asked, _meta: { [SUB]: message.id } },
        }),
      )
    })
  }

  async send(message: JsonRpcNotification | JsonRpcResponse): Promise<void> {
    this.sent.push(message)
  }

  async openStream(onMessage: (message: JsonRpcRequest | JsonRpcNotification) => void, options: { signal?: AbortSignal } = {}): Promise<ServerStream | undefined> {
    const fault = this.streamFault?.()
    if (fault === 'hang') await abortable(new Promise<never>(() => undefined), options.signal)
    if (fault) throw fault
    if (this.sessionId && this.sessionId !== this.live) {
      this.sessionId = undefined
      throw new HttpError(404, new Headers(), '', undefined, true)
    }
    this.stream = onMessage
    let end = () => undefined as void
    const closed = new Promise<void>((resolve) => (end = resolve))
    this.#streamEnd = () => {
      if (this.stream === onMessage) this.stream = undefined
      end()
    }
    return {
      closed,
      close: () => {
        if (this.stream === onMessage) this.stream = undefined
        end()
      },
    }
  }

  resetSession(): void {
    this.sessionId = undefined
  }

  async close(): Promise<void> {
    this.closed = true
    for (const listen of this.listens) listen.end(new AbortError('transport closed'))
    this.stream = undefined
  }
}

/** A list handler serving `items` in pages of `size`, with numeric cursors and the given cache fields. */
export function pages(field: string, items: () => unknown[], size: number, cache: Result = { ttlMs: 60_000, cacheScope: 'private' }): Handler {
  return (params) => {
    const start = params.cursor === undefined ? 0 : Number(params.cursor)
    const all = items()
    const next = start + size
    return { [field]: all.slice(start, next), ...(next < all.length ? { nextCursor: String(next) } : {}), ...cache }
  }
}
