import { McpError } from './mcp-error'

/**
 * Thrown when a 2026-07-28 server answers `input_required` and the client has no `onInputRequest` handler,
 * or when the rounds exceed `maxInputRounds`. Carries the server's `inputRequests` (key → `{ method, params }`)
 * so the app can show them, and the round count.
 */
export class InputRequiredError extends McpError {
  override readonly name = 'InputRequiredError'
  readonly inputRequests: Record<string, { method: string; params?: unknown }>
  readonly rounds: number

  constructor(message: string, inputRequests: Record<string, { method: string; params?: unknown }>, rounds: number) {
    super(message)
    this.inputRequests = inputRequests
    this.rounds = rounds
  }
}
