// What `client.request()` accepts and resolves with, per method. Types only: params are sent, not checked at
// run time (the server checks them); results are checked with the schemas of methods.ts.
import type * as z from 'zod/mini'
import type { resultSchemas } from './methods'
import type { LoggingLevel } from './types'

type Meta = { _meta?: Record<string, unknown> }
export type PaginatedParams = Meta & { cursor?: string }
export type CallToolParams = Meta & { name: string; arguments?: Record<string, unknown> }
/** Prompt arguments are strings in every revision. */
export type GetPromptParams = Meta & { name: string; arguments?: Record<string, string> }
export type ReadResourceParams = Meta & { uri: string }
export type CompleteParams = Meta & {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }
  argument: { name: string; value: string }
  /** 2025-06-18+: values of arguments already filled in. */
  context?: { arguments?: Record<string, string> }
}
export type TaskParams = Meta & { taskId: string }

/** Spec methods an app may send with `client.request()`, their params, and (via methods.ts) their results. */
export interface MethodParams {
  'server/discover': Meta
  ping: Meta
  'tools/list': PaginatedParams
  'tools/call': CallToolParams
  'prompts/list': PaginatedParams
  'prompts/get': GetPromptParams
  'resources/list': PaginatedParams
  'resources/templates/list': PaginatedParams
  'resources/read': ReadResourceParams
  'resources/subscribe': ReadResourceParams
  'resources/unsubscribe': ReadResourceParams
  'completion/complete': CompleteParams
  'logging/setLevel': Meta & { level: LoggingLevel }
  'tasks/get': TaskParams
  'tasks/update': TaskParams & { inputResponses: Record<string, unknown> }
  'tasks/cancel': TaskParams
}

/** A spec method name; anything else goes through the extension overload (see `ExtensionMethod`). */
export type Method = keyof MethodParams
export type ParamsOf<M extends Method> = MethodParams[M]
export type ResultOf<M extends Method> = z.infer<(typeof resultSchemas)[M]>

/**
 * A method outside the spec (a vendor or extension method), marked as such so a typo in a spec method
 * still fails to compile: `client.request(extensionMethod('acme/search'), { q })` resolves with an
 * unchecked `Record<string, unknown>`.
 */
export type ExtensionMethod = string & { readonly __extensionMethod: true }

/** Marks a method name as an extension method (no run-time effect). */
export const extensionMethod = (name: string): ExtensionMethod => name as ExtensionMethod
