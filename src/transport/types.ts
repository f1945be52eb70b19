// Wire types shared by the transports and the client. Types only: no runtime code lives here.

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
  /**
   * The revision the client settled on after a handshake; the transport then sends it as `MCP-Protocol-Version`
   * on every request (2025-06-18 and later). Undefined on 2026-07-28, where each body names its own revision.
   */
  protocolVersion: string | undefined
  /** `Mcp-Session-Id` issued by a legacy server's initialize response; cleared when the session ends. */
  readonly sessionId: string | undefined
  /** Whether this transport is HTTP+SSE (2024-11-05), which has no modern era. */
  readonly kind: 'streamable-http' | 'sse'

  /** Sends a request and resolves with its response (a result or a JSON-RPC error object). */
  request(message: JsonRpcRequest, options?: SendOptions): Promise<JsonRpcResponse>
  /** Sends a notification, or a response to a server-initiated request. Resolves once the server accepted it. */
  send(message: JsonRpcNotification | JsonRpcResponse, options?: { signal?: AbortSignal }): Promise<void>
  /**
   * Opens the server's own stream (legacy): GET SSE for Streamable HTTP, the EventSource for HTTP+SSE.
   * Messages on it that answer no pending request go to `onMessage`. Resolves once the stream is open;
   * resolves with `undefined` when the server does not offer one (HTTP 405).
   */
  openStream(onMessage: (message: JsonRpcRequest | JsonRpcNotification) => void): Promise<ServerStream | undefined>
  /** Forgets the session id (after a 404) so the next initialize starts a new session. */
  resetSession(): void
  /**
   * Streamable HTTP only: an HTTP+SSE transport for the same URL and options, for the 2024-11-05 fallback
   * when the first POST is refused with 400/404/405. Asynchronous so bundlers can split it into its own chunk.
   */
  legacySse?(): Promise<Transport>
  /** Ends the session (DELETE on Streamable HTTP when a session exists), closes every stream, rejects pending work. */
  close(): Promise<void>
}
