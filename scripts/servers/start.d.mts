import type { ServerEntry, ServerKind } from './types.ts'

export declare const SERVER_KINDS: readonly ServerKind[]

export interface StartServersOptions<K extends ServerKind = ServerKind> {
  /** Which servers to start (default: all). */
  only?: readonly K[]
  /** Fixed ports for our own servers (faults: its main listener); 0 or absent = ephemeral. A busy port rejects. */
  ports?: Partial<Record<'modern' | 'legacy' | 'sse' | 'faults', number>>
  /** How long a child process (server-everything) may take to answer, in ms (default 20000). */
  timeoutMs?: number
}

export interface StartedServers<K extends ServerKind> {
  servers: Record<K, ServerEntry>
  /** Stops every server (kills child processes, ends open streams). Safe to call more than once. */
  stop(): Promise<void>
}

export declare function startServers<K extends ServerKind = ServerKind>(
  options?: StartServersOptions<K>,
): Promise<StartedServers<K>>
