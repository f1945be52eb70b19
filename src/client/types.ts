// Public types of the client layer. Types only.
import type { ReadableAtom } from 'nanostores'
import type { JsonRpcNotification, JsonRpcRequest } from '../transport/types'

export type Era = 'modern' | 'legacy'

// The message types come from the zod schemas (src/schemas): one source for the run-time checks and the types.
import type { Implementation, InputRequest, ServerCapabilities, ServerNotification } from '../schemas/types'
import type { Limit } from '../transport/duration'
export type { Implementation, InputRequest, ServerNotification } from '../schemas/types'

/**
 * Answers every input request of one round (key → response object, e.g. `{ action: 'accept', content }`).
 * Receives the whole round so a UI can show it as one form; may be async (waiting for the user).
 */
export type InputRequestHandler = (
  requests: Record<string, InputRequest>,
  context: { method: string; params: Record<string, unknown>; round: number; signal: AbortSignal },
) => Promise<Record<string, unknown>> | Record<string, unknown>

/** Remembers each server's era across page loads. `get`/`set` may be sync or async. */
export interface EraStore {
  get(url: string): EraRecord | undefined | Promise<EraRecord | undefined>
  set(url: string, record: EraRecord | undefined): void | Promise<void>
}

export interface EraRecord {
  era: Era
  /** The revision used last time (for legacy: the one offered first in the handshake). */
  protocolVersion: string
  /** Legacy only: the server turned out to be HTTP+SSE (2024-11-05) rather than Streamable HTTP. */
  sse?: boolean
}

/** What the client learnt about the server: from `server/discover` (modern) or `initialize` (legacy). */
export interface ServerDescription {
  era: Era
  protocolVersion: string
  serverInfo?: Implementation
  /** Checked against the schema: known capabilities are objects with typed flags; unknown ones are kept. */
  capabilities: ServerCapabilities
  instructions?: string
  supportedVersions?: string[]
}

export interface ClientOptions {
  /** Default `{ name: 'nanomcp', version: PACKAGE_VERSION }`. */
  clientInfo?: Implementation
  /** Client capabilities sent with every 2026-07-28 request. Default `{}`. */
  capabilities?: Record<string, unknown>
  /** Server notifications that are not request-scoped (list changes, resource updates, logs on legacy sessions). */
  onNotification?: (notification: ServerNotification) => void
  /**
   * Answers `input_required` rounds (2026-07-28) and tasks' input requests. Older servers are offered none of these
   * capabilities unless the app opts in (`legacyElicitation`, `legacySampling`, `legacyRoots`).
   */
  onInputRequest?: InputRequestHandler
  /** Upper bound on `input_required` rounds for one request. Default 10. */
  maxInputRounds?: number
  /**
   * Default timeout of every request in ms, from 0 to 2^31-1; `false` or `Infinity` for none. Default 60 000. It
   * also bounds what the client sends after a caller gave up (tasks/cancel, resources/unsubscribe) and the opening
   * of a legacy session's stream in the background. Another value is a RangeError from the constructor.
   */
  timeout?: Limit
  /** Persists the era per server URL, so a reloaded page skips the failed modern attempt. */
  eraStore?: EraStore
  /** Declare the tasks extension (`io.modelcontextprotocol/tasks`) and poll tasks to completion. Default false. */
  tasks?: boolean
  /** Debug log for ignored oddities (unknown subscription ids, late acknowledgements). Default: none. */
  debug?: (message: string, detail?: unknown) => void
  /** Observes every message in and out, for transcripts (the demo's protocol view). */
  onTrace?: (event: TraceEvent) => void
  /**
   * Opt-in, off by default: on older servers, declare form elicitation (with `applyDefaults`) in the handshake,
   * plus URL mode when the handshake offers 2025-11-25 (the revision that has it), and answer their
   * `elicitation/create` requests through `onInputRequest` (a URL-mode accept goes back without `content`);
   * `notifications/elicitation/complete` reaches `onNotification`. A 2025-11-25 request refused with `-32042`
   * (URL elicitation required) hands the URL elicitations listed in its `data` to `onInputRequest` as one round and
   * is sent once more if every one was accepted; otherwise (or after a second `-32042`) its RpcError stands. Needs
   * `onInputRequest`. Off, an older server is never offered a capability that lets it call the client back.
   */
  legacyElicitation?: boolean
  /** Opt-in like `legacyElicitation`: declare `sampling` and answer older servers' `sampling/createMessage` through `onInputRequest`. */
  legacySampling?: boolean
  /**
   * Opt-in like `legacyElicitation`: declare `roots` (with `listChanged`) and answer older servers' `roots/list`
   * through `onInputRequest`. When the roots change, send `notifications/roots/list_changed` on the session
   * (`client.transport.send`).
   */
  legacyRoots?: boolean
  /** How long a subscription waits for its acknowledgement (ms; `false` or `Infinity` for no limit). Default 10 000. */
  listenAckTimeout?: Limit
  /** Reconnect backoff of subscriptions: first delay and cap (ms). Default 500 and 30 000. */
  listenBackoff?: { baseMs?: number; maxMs?: number }
}

export interface TraceEvent {
  direction: 'out' | 'in'
  era: Era | undefined
  message: JsonRpcRequest | JsonRpcNotification | { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: unknown }
  /** For responses: ms since the matching request left. */
  elapsed?: number
  at: number
}

export interface Progress {
  progress: number
  total?: number
  message?: string
}

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'

export interface RequestOptions {
  /** Bounds everything the request waits on (the probe, a handshake, a new session); aborting rejects with AbortError. */
  signal?: AbortSignal
  /**
   * ms, from 0 to 2^31-1; overrides the client's default. Bounds everything the request waits on, as `signal`
   * does; a TimeoutError names this limit. `false` or `Infinity` means none; another value rejects with RangeError.
   */
  timeout?: Limit
  onProgress?: (progress: Progress) => void
  /** Asks a 2026-07-28 server for `notifications/message` of this level and above on this request. */
  logLevel?: LogLevel
  onLog?: (params: { level: LogLevel; logger?: string; data: unknown }) => void
  /**
   * Older servers only: receives the notifications (list changes, resource updates, logs) the server sent on
   * this request's stream, instead of the client's `onNotification`; still in arrival order, after the request
   * settled.
   */
  onNotification?: (notification: ServerNotification) => void
  /**
   * List methods (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`): an item that breaks
   * the spec leaves the page and is handed here with the reason (spec: invalid tools are dropped from what
   * tools/list surfaces). Without it, such an item fails the request with ProtocolError('invalid-result').
   */
  onInvalidItem?: (item: unknown, reason: string) => void
}

export interface ListenFilter {
  toolsListChanged?: boolean
  promptsListChanged?: boolean
  resourcesListChanged?: boolean
  resourceSubscriptions?: string[]
  /** Tasks extension: status pushes for these task ids (2026-07-28 only, never acknowledged on older servers). */
  taskIds?: string[]
}

export type SubscriptionState =
  /** `error`: why the last attempt failed (a TimeoutError when no acknowledgement came), when one did. */
  | { status: 'opening'; attempt: number; error?: Error }
  | { status: 'acknowledged'; notifications: ListenFilter }
  | { status: 'closed'; reason: 'client' | 'server' | 'error'; error?: Error; message?: string }

export interface Subscription {
  readonly $state: ReadableAtom<SubscriptionState>
  /** Ends the subscription; resolves once its stream is closed (and legacy unsubscribes were sent). */
  close(): Promise<void>
}
