// Wire types shared by the transports and the client, and the transports' options. Types only: no runtime code
// lives here.
import type { EventSourceConstructor } from './event-source'
import type { Limit } from './duration'
import type { ProxyOption } from './proxy-url'

export type { EventSourceConstructor, EventSourceLike } from './event-source'
export type { ProxyOption } from './proxy-url'

export type JsonRpcId = string | number

export interface JsonRpcErrorObject {
  code: number
  message: string
  data?: unknown
}

export interface JsonRpcRequest {
  jsonrpc: '2.0'
  id: JsonRpcId
  method: string
  params?: Record<string, unknown>
}

export interface JsonRpcNotification {
  jsonrpc: '2.0'
  method: string
  params?: Record<string, unknown>
}

export interface JsonRpcResponse {
  jsonrpc: '2.0'
  id: JsonRpcId | null
  result?: Record<string, unknown>
  error?: JsonRpcErrorObject
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse

/** Per-message options a transport accepts. */
export interface SendOptions {
  /** Aborting closes this request's stream (on 2026-07-28 that is the cancellation) and rejects with AbortError. */
  signal?: AbortSignal
  /**
   * Messages that arrive on this request's own stream before its final response: progress, logs, list_changed
   * from older servers, and server-to-client requests (legacy). Called in arrival order.
   */
  onMessage?: (message: JsonRpcRequest | JsonRpcNotification) => void
}

/** A long-lived server stream not tied to one request: the legacy GET SSE stream or the HTTP+SSE EventSource. */
export interface ServerStream {
  /** Settles when the stream ends for good: resolves when closed by `close()` or by the server, rejects on error. */
  readonly closed: Promise<void>
  close(): void
}

/**
 * What the client needs from a transport. A transport carries JSON-RPC messages and reports what the server
 * said; it decides nothing about eras. Rejections are HttpError, NetworkError, ProtocolError or AbortError.
 */
export interface Transport {
  /** A stable key for the server (its URL), used to remember the era per server. */
  readonly url: string
  /** `Mcp-Session-Id` issued by a legacy server's initialize response; cleared when the session ends. */
  readonly sessionId: string | undefined
  /**
   * True when the session lives on one server stream that carries every answer (HTTP+SSE, 2024-11-05): the session
   * ends with that stream, and requests cannot describe themselves. False for Streamable HTTP, where each POST has
   * its own answer.
   */
  readonly sessionStream: boolean

  /** Sends a request and resolves with its response (a result or a JSON-RPC error object). */
  request(message: JsonRpcRequest, options?: SendOptions): Promise<JsonRpcResponse>
  /** Sends a notification, or a response to a server-initiated request. Resolves once the server accepted it. */
  send(message: JsonRpcNotification | JsonRpcResponse, options?: { signal?: AbortSignal }): Promise<void>
  /**
   * Opens the server's own stream (legacy): GET SSE for Streamable HTTP, the EventSource for HTTP+SSE.
   * Messages on it that answer no pending request go to `onMessage`. Resolves once the stream is open;
   * resolves with `undefined` when the server does not offer one (HTTP 405). `signal` bounds the opening only
   * (for HTTP+SSE that includes the wait for the `endpoint` event): an abort rejects with AbortError carrying
   * its reason; once open, the stream lives until `close()`.
   */
  openStream(
    onMessage: (message: JsonRpcRequest | JsonRpcNotification) => void,
    options?: { signal?: AbortSignal },
  ): Promise<ServerStream | undefined>
  /** Forgets the session id (after a 404) so the next initialize starts a new session. */
  resetSession(): void
  /**
   * Streamable HTTP only: an HTTP+SSE transport for the same URL and options, for the 2024-11-05 fallback
   * when the first POST is refused with 400/404/405. Asynchronous so bundlers can split it into its own chunk.
   */
  legacySse?(): Promise<Transport>
  /**
   * Ends the session (DELETE on Streamable HTTP when a session exists), closes every stream, rejects pending work.
   * `signal` bounds the goodbye to the server (default 5 s); closing itself never waits on the server.
   */
  close(options?: { signal?: AbortSignal }): Promise<void>
}

/** What a transport asks of an authorization client (nanomcp's oauth() or an app's own). */
export interface AuthProvider {
  /** Headers for one HTTP request (Authorization, DPoP proof). Called for every request: POST, GET streams, DELETE. */
  headers(request: { url: string; method: string }): Promise<Record<string, string>> | Record<string, string>
  /** Sees every response from the MCP server (e.g. to pick up a DPoP-Nonce). Optional. */
  response?(response: Response, request: { url: string; method: string }): void
  /**
   * Called with a 401 or 403. Resolves true when new credentials are ready and the request should be sent once
   * more; false to fail with HttpError as today. Rejections (e.g. an OAuthError) reject the request as they are.
   */
  unauthorized(response: Response, request: { url: string; method: string }): Promise<boolean>
  /**
   * Optional: each transport built with this provider introduces itself once, at construction. The provider
   * learns the server's URL (so a sign-in can start before any request) and how to close the streams opened with
   * credentials it withdraws (sign-out).
   */
  attach?(transport: AuthAttachment): void
}

/** What a transport tells its auth provider about itself (see AuthProvider.attach). */
export interface AuthAttachment {
  /** The server's URL. */
  readonly url: string
  /** Closes every stream and request in flight (they carry the old credentials); the transport stays usable. */
  dropStreams(): void
}

/** Options both HTTP transports accept; `legacySse()` hands the same object on. */
export interface HttpTransportOptions {
  /** Replaces the global fetch (tests, proxies, auth middleware). */
  fetch?: typeof fetch
  /**
   * Routes every request (and the HTTP+SSE stream) through a proxy, for servers that allow no CORS: a URL prefix
   * the target URL is appended to percent-encoded (what nanomcp/proxy reads), or a function from target URL to
   * the URL to fetch. The server's URL stays the one origin checks, sessions and OAuth use. A proxy URL that is
   * not http(s) fails the request with a ProxyError, as do an unreachable proxy and the proxy's own refusals.
   */
  proxy?: ProxyOption
  /** Sent on every request; a function is called per request (e.g. for a fresh access token). */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>)
  /**
   * Authorization: asked for headers before every request, shown every response, and told of a 401/403 (a
   * request is resent at most once per `unauthorized()` that resolves true). With `auth` or `headers` set, the
   * HTTP+SSE stream is read with fetch instead of EventSource, which cannot send headers.
   */
  auth?: AuthProvider
  /** Largest JSON body, and largest single SSE event, accepted from the server. Default 16 MiB. */
  maxBodyBytes?: number
  /** The EventSource for HTTP+SSE; default `globalThis.EventSource` (Node 20 has none: inject one). */
  EventSource?: EventSourceConstructor
  /** Extra fetch options such as `credentials` or `mode` (`redirect` is always 'manual': see RedirectError). */
  requestInit?: Omit<RequestInit, 'body' | 'headers' | 'method' | 'signal' | 'redirect'>
  /**
   * Where the transport's diagnostics go (dropped malformed messages, answers nobody waits for, handlers that
   * threw, tools dropped for invalid x-mcp-header). The library never writes to the console.
   */
  debug?: (message: string, detail?: unknown) => void
  /**
   * HTTP+SSE: the longest wait (ms) for the server's `endpoint` event after opening the stream; past it every wait
   * fails with ProtocolError('no-endpoint'). A caller's shorter `signal` or `timeout` ends its own wait first.
   * `false` or `Infinity`: no limit but the callers'. Default 10 000; from 0 to 2^31-1, else a RangeError from the
   * constructor. Streamable HTTP hands it on to the HTTP+SSE transport it falls back to.
   */
  endpointTimeout?: Limit
}

export type StreamableHttpOptions = HttpTransportOptions

export type SseTransportOptions = HttpTransportOptions
