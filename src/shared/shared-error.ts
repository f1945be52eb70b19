import { McpError } from '../errors/mcp-error'

export type SharedErrorReason = 'not-cloneable' | 'host-lost' | 'worker-failed' | 'closed'

/**
 * Thrown by the shared mode (`nanomcp/shared`) in the one tab concerned, never in the others:
 * - `not-cloneable`: the call's arguments cannot cross to the worker (a function, a DOM node: DataCloneError);
 * - `host-lost`: the worker (or leader tab) running the client went away while this call was in flight; the
 *   atoms reconnect by themselves, the call is not re-sent because it may already have run on the server;
 * - `worker-failed`: the SharedWorker could not start (CSP `worker-src`, a file:// page, a 404 script); set on
 *   `$shared.error` while the tab falls back to a leader tab or its own client, never thrown at a call;
 * - `closed`: the shared client was closed in this tab.
 * `cause` carries the underlying error (the DataCloneError, the worker's error event) when there is one.
 */
export class SharedError extends McpError {
  override readonly name = 'SharedError'
  readonly reason: SharedErrorReason

  constructor(reason: SharedErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.reason = reason
  }
}
