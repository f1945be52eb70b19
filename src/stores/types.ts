// Public types of the stores layer. Types only.
import type { ReadableAtom } from 'nanostores'
import type { Client } from '../client/client'
import type { ClientOptions, Era, Implementation, RequestOptions, SubscriptionState } from '../client/types'
import type { AuthProvider, Transport } from '../transport/types'
import type { AuthState, OAuthClient } from '../auth/types'
import type { CallToolResult, CompleteResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, ServerCapabilities, Tool } from '../schemas/types'

export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates'

export interface ListState<T> {
  items: readonly T[]
  loading: boolean
  error: Error | undefined
  /** True when the items are older than the server's `ttlMs` or a change was announced and a refresh is due. */
  stale: boolean
  /** `Date.now()` of the last successful load, 0 before the first. */
  updatedAt: number
  /** Items the server sent that failed validation and were left out (reported, not fatal). */
  invalid?: readonly { item: unknown; reason: string }[]
}

export type Status =
  | { status: 'idle' }
  | { status: 'connecting' }
  | { status: 'ready' }
  | { status: 'error'; error: Error }
  | { status: 'closed' }

export interface ServerState {
  era: Era
  protocolVersion: string
  serverInfo?: Implementation
  capabilities: ServerCapabilities
  instructions?: string
}

// The items of the list atoms are the schemas' types: what the client checked is what the atoms hold.
export type { Prompt, Resource, ResourceTemplate, Tool } from '../schemas/types'

export interface McpOptions extends ClientOptions {
  /** Largest number of pages one list may take before it fails loudly. Default 1000. */
  maxPages?: number
  /** Overrides the server's `ttlMs` for every list (ms). */
  ttlMs?: number
  /** Which cache scope this app runs under; `private` entries are never shared across createMcp instances. Default 'private'. */
  cacheScope?: 'public' | 'private'
  /** Opens `listen()` by itself while list atoms are watched. Default true. */
  autoListen?: boolean
  /**
   * Authorization for the transport createMcp builds from a URL (Streamable HTTP and its HTTP+SSE fallback):
   * `oauth({...})`, or any AuthProvider. With an OAuth client, `$auth`, `signIn()` and `signOut()` follow it.
   * Ignored when `target` is a Transport (give that transport its own `auth`), except for `$auth` and signIn.
   */
  auth?: AuthProvider | OAuthClient
}

export interface Mcp {
  readonly client: Client
  readonly $status: ReadableAtom<Status>
  readonly $server: ReadableAtom<ServerState | undefined>
  readonly $tools: ReadableAtom<ListState<Tool>>
  readonly $prompts: ReadableAtom<ListState<Prompt>>
  readonly $resources: ReadableAtom<ListState<Resource>>
  readonly $resourceTemplates: ReadableAtom<ListState<ResourceTemplate>>
  readonly $subscription: ReadableAtom<SubscriptionState | undefined>
  /** The OAuth client's sign-in state; `{ status: 'none' }` for good without one. */
  readonly $auth: ReadableAtom<AuthState>
  /**
   * Starts the OAuth sign-in (call it from a click: popup mode opens its window synchronously). When it
   * completes, what failed for want of it (the connection, lists in error, the subscription) loads again.
   * Rejects with OAuthError `not_configured` when the `auth` option is no OAuth client.
   */
  signIn(): Promise<void>
  /** Forgets the OAuth tokens (revoking them where the AS can); OAuthError `not_configured` without a client. */
  signOut(): Promise<void>
  connect(): Promise<ServerState>
  /** client.callTool(): the result is checked against the tool's outputSchema (OutputSchemaError). */
  callTool(name: string, args?: Record<string, unknown>, options?: RequestOptions): Promise<CallToolResult>
  getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): Promise<GetPromptResult>
  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult>
  /** Subscribes to one resource's updates (adds its URI to the listen filter); returns an unsubscribe function. */
  watchResource(uri: string, onUpdate: () => void): () => void
  complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options?: RequestOptions,
  ): Promise<CompleteResult['completion']>
  refresh(kind: ListKind): Promise<void>
  close(): Promise<void>
}

export type CreateMcp = (target: string | Transport, options?: McpOptions) => Mcp
