import { McpError } from '../errors/mcp-error'

/** Why a server's `sampling/createMessage` got no message from the app's model. */
export type SamplingErrorReason =
  /** The request has no messages. */
  | 'no-messages'
  /** A message holds content the model bridge cannot pass on (tool use, tool results, an unknown type); `detail` is the block. */
  | 'unsupported-content'
  /** The user (the `approve` callback) said no, or the app gave no `approve` at all. */
  | 'declined'
  /** The model threw; `cause` is what it threw. */
  | 'model-failed'
  /** An input request other than sampling, and no `fallback` to answer it; `detail` is the request. */
  | 'unanswered'

/**
 * Thrown by the handler `aiSampling()` returns, for one request: the client turns it into an error answer to
 * the server (older servers: a JSON-RPC error; 2026-07-28: the call that needed the input fails with it).
 * Carries a machine-readable `reason` and what was at fault (`detail`); a failing model is the `cause`.
 */
export class SamplingError extends McpError {
  override readonly name = 'SamplingError'
  declare readonly reason: SamplingErrorReason
  declare readonly detail: unknown

  constructor(reason: SamplingErrorReason, message: string, options?: { cause?: unknown; detail?: unknown }) {
    super(message, options)
    this.reason = reason
    this.detail = options?.detail
  }
}
