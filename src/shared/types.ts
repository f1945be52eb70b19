// Public types of the shared mode. Types only.
import type { ReadableAtom } from 'nanostores'
import type { RequestOptions } from '../client/types'
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

export interface SharedMcpOptions extends Omit<McpOptions, 'eraStore'> {
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
  /** Present (and mirrored) when the shared createMcp has an authorization state. */
  readonly $auth: ReadableAtom<unknown>
  readonly $shared: ReadableAtom<SharedState>
  /** Any request, run by the shared client. */
  request(method: string, params?: Record<string, unknown>, options?: SharedRequestOptions): Promise<Record<string, unknown>>
  refresh(kind: ListKind): Promise<void>
}
