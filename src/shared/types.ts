// Public types of the shared mode. Types only.
import type { ReadableAtom } from 'nanostores'
import type { RequestOptions } from '../client/types'
import type { AuthState, OAuthOptions } from '../auth/types'
import type { ListKind, Mcp, McpOptions } from '../stores/types'

/**
 * Where this tab's client runs: `worker` (a SharedWorker, one for the origin), `leader` (this tab runs it for
 * every tab), `follower` (another tab runs it), `local` (this tab alone: the last resort).
 */
export type SharedMode = 'connecting' | 'worker' | 'leader' | 'follower' | 'local' | 'closed'

export interface SharedState {
  mode: SharedMode
  /** Why a better mode was not available (a SharedError with reason `worker-failed`), if one was tried. */
  error?: Error
}

/**
 * OAuth for the shared client: the worker runs oauth() with these options and holds the tokens, once for every
 * tab; the tab whose signIn() it is does the browser step (its popup, or `authorize` in Node and tests). Tokens
 * live in the worker's memory (no `storage`: a worker has neither sessionStorage nor localStorage). `mode`
 * 'redirect' is not available here: the page that would come back is not the worker.
 */
export type SharedOAuthOptions = Omit<OAuthOptions, 'storage' | 'fetch' | 'debug' | 'mode'>

export interface SharedMcpOptions extends Omit<McpOptions, 'eraStore' | 'auth'> {
  /** OAuth sign-in for the shared client (an `auth` object of functions could not reach the worker). */
  oauth?: SharedOAuthOptions
  /**
   * Which ways to share to try, in order. Default `['worker', 'leader', 'local']`; `['local']` is a plain
   * per-tab client behind the same API.
   */
  modes?: readonly ('worker' | 'leader' | 'local')[]
  /** Builds the SharedWorker (e.g. from a URL the page's CSP allows). Default: the bundled worker. */
  worker?: () => SharedWorker
  /** How long a worker may take to answer before the tab falls back (ms). Default 5000. */
  workerTimeout?: number
  /**
   * Sent on every request by the shared client (e.g. a static `Authorization`). Plain strings only: a function
   * could not reach the worker. Tabs with different headers get different clients.
   */
  headers?: Record<string, string>
  /** Web Locks and BroadcastChannel names are prefixed with this (separate apps on one origin). Default 'nanomcp'. */
  namespace?: string
}

export type SharedRequestOptions = Pick<RequestOptions, 'signal' | 'timeout' | 'onProgress' | 'logLevel' | 'onLog'>

/** What createMcp gives, minus the Client (it lives in the worker), plus where the client runs. */
export interface SharedMcp extends Omit<Mcp, 'client'> {
  /** The worker's OAuth state, mirrored; `{ status: 'none' }` without the `oauth` option. */
  readonly $auth: ReadableAtom<AuthState>
  readonly $shared: ReadableAtom<SharedState>
  /** Any request, run by the shared client. */
  request(method: string, params?: Record<string, unknown>, options?: SharedRequestOptions): Promise<Record<string, unknown>>
  refresh(kind: ListKind): Promise<void>
}
