// Public types of nanomcp/ai. Types only.
import type { LanguageModel, ToolSet } from 'ai'
import type { Client } from '../client/client'
import type { InputRequest, InputRequestHandler, Progress } from '../client/types'
import type { Mcp } from '../stores/types'
import type { Tool } from '../schemas/types'
import type { AiToolError } from './ai-tool-error'
import type { PinChange, ToolPins } from './pin-tools'

/** Where the tools come from: a Client, or a `createMcp()` store (whose `$tools` list it reads). */
export type McpSource = Client | Mcp

export interface AiToolsOptions {
  /** Put before every provider name, to keep tools of several servers apart (e.g. `'github_'`). */
  prefix?: string
  /** Which model-visible tools to hand over. Default: all. */
  filter?: (tool: Tool) => boolean
  /**
   * Which calls need the user's approval before they run: `true` (every call), `false` (none), or a predicate
   * over the tool and the model's arguments. Default: tools whose annotations say `destructiveHint: true`
   * (and not `readOnlyHint: true`). Asked through the AI SDK's `toolApproval` (pass `mcpApproval`); a call that
   * needs approval and has no approving response in the conversation fails with AiToolError 'approval-required'.
   */
  approve?: boolean | ((tool: Tool, input: Record<string, unknown>) => boolean | Promise<boolean>)
  /** Progress the server reports while a call runs. */
  onProgress?: (progress: Progress, call: { tool: string; toolCallId: string }) => void
  /** Withhold tools whose definition changed since it was approved (see `pinTools()`). */
  pinTools?: ToolPins
  /** A tool left out: its input schema is no object schema, or its name has no character a provider accepts. */
  onSkip?: (error: AiToolError) => void
  /** ms for each tool call; the client's default otherwise. */
  timeout?: number
}

export interface AiToolsState {
  tools: ToolSet
  /** True while the server's list (or the fingerprints of a new one) is being read. */
  loading: boolean
  error: Error | undefined
  /** Tools left out (bad input schema, unusable name), each with its typed error. */
  skipped: readonly AiToolError[]
  /** Tools withheld by `pinTools` because their definition changed. */
  withheld: readonly PinChange[]
}

export interface SamplingOptions {
  /** Used when the server's request has no system prompt of its own; otherwise put before it. */
  systemPrompt?: string
  /** Upper bound on the tokens of a reply, whatever the server asks for. */
  maxTokens?: number
  /**
   * Asks the user about one request (show them `params`): true lets the model answer. `true` answers every
   * request without asking. Default: none, and every request is declined (SamplingError 'declined').
   */
  approve?: true | ((params: Extract<InputRequest, { method: 'sampling/createMessage' }>['params'], context: { signal: AbortSignal }) => boolean | Promise<boolean>)
  /** Answers the round's other input requests (elicitation, roots); without it they are declined. */
  fallback?: InputRequestHandler
  /** Picks the model from the server's `modelPreferences` (hints, priorities); default: the model given. */
  chooseModel?: (preferences: Record<string, unknown> | undefined) => LanguageModel
}
