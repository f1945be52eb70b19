// Messages between a tab and the host that runs the shared client (a SharedWorker or the leader tab). Types only.
import type { InputRequest, LogLevel } from '../client/types'
import type { WireError } from './wire-error'
import type { Limit } from '../transport/duration'

/** The mirrored atoms; `$auth` only when the host's createMcp has one. */
export const ATOMS = ['$status', '$server', '$tools', '$prompts', '$resources', '$resourceTemplates', '$subscription', '$auth'] as const
export type AtomName = (typeof ATOMS)[number]

/** The helpers a tab may run on the host, with how many positional arguments each takes before its options. */
export const OPS = { request: 2, callTool: 2, getPrompt: 2, readResource: 1, complete: 3, connect: 0, refresh: 1, signIn: 0, signOut: 0 } as const
export type Op = keyof typeof OPS

/** What makes two tabs' clients the same one: the URL and every option that can be cloned. */
export interface ShareKey {
  url: string
  options: Record<string, unknown>
  /** The tab answers input requests, so the client declares elicitation, sampling and roots. */
  input: boolean
}

export interface CallOptions {
  timeout?: Limit
  logLevel?: LogLevel
  progress: boolean
  log: boolean
}

export type TabMessage =
  | {
      t: 'hello'
      tab: string
      key: ShareKey
      /** Web Lock the tab holds for its life: granted to the host when the tab is gone. */
      lock?: string
      watching: AtomName[]
      resources: [wid: number, uri: string][]
      notifications: boolean
      trace: boolean
    }
  | { t: 'watch'; atom: AtomName; on: boolean }
  | { t: 'call'; id: number; op: Op; args: unknown[]; options: CallOptions }
  | { t: 'abort'; id: number; reason: string }
  | { t: 'answer'; iid: number; ok: true; value: Record<string, unknown> }
  | { t: 'answer'; iid: number; ok: false; error: WireError }
  | { t: 'watch-resource'; wid: number; uri: string }
  | { t: 'unwatch-resource'; wid: number }
  | { t: 'bye' }
  /** Sent every few seconds where Web Locks are missing, so the host can tell a live tab from a closed one. */
  | { t: 'ping' }

export type HostMessage =
  | { t: 'ready'; lock: string }
  | { t: 'atom'; name: AtomName; value: unknown }
  | { t: 'result'; id: number; ok: true; value: unknown }
  | { t: 'result'; id: number; ok: false; error: WireError }
  | { t: 'progress'; id: number; value: unknown }
  | { t: 'log'; id: number; value: unknown }
  | { t: 'input'; iid: number; id: number; requests: Record<string, InputRequest>; method: string; params: Record<string, unknown>; round: number }
  | { t: 'input-abort'; iid: number }
  /**
   * The worker's OAuth sign-in needs the browser step (a SharedWorker cannot open a window): the tab whose
   * signIn() this is sends its popup to `url` and answers with the callback URL (`answer`, value `{ url }`).
   */
  | { t: 'authorize'; iid: number; url: string }
  | { t: 'notification'; value: unknown }
  | { t: 'trace'; value: unknown }
  | { t: 'updated'; wid: number }

/** A MessagePort, a virtual port over a BroadcastChannel, or one end of a MessageChannel. */
export interface Port<In, Out> {
  /** Throws DataCloneError synchronously when `message` cannot be cloned. */
  post(message: Out): void
  onMessage(handler: (message: In) => void): void
  close(): void
}
