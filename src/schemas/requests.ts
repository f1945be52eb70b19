// What a server asks of the client: a 2026-07-28 `input_required` result and its entries, and the same
// payloads as JSON-RPC requests on the legacy revisions (plus their `ping`). Only a server that asks for input
// needs these, so the client loads them on demand with client/input-requests.ts, not in its core bundle.
import * as z from 'zod/mini'
import { AudioContentSchema, ContentBlockSchema, ImageContentSchema, TextContentSchema } from './content'
import { ToolSchema } from './entities'
import { id, int, jsonObject, must, optObject, optStr, result, RoleSchema, str, tagged } from './base'

/** Form mode (the default when `mode` is absent): a flat object schema of primitive fields. */
export const ElicitFormParamsSchema = z.looseObject({
  mode: z.optional(z.literal('form')),
  message: str,
  requestedSchema: z.looseObject({ type: z.literal('object'), properties: jsonObject, required: z.optional(z.array(str)) }),
  _meta: optObject,
})
/** URL mode (2025-11-25+): `elicitationId` exists only on 2025-11-25. */
export const ElicitUrlParamsSchema = z.looseObject({ mode: z.literal('url'), message: str, url: str, elicitationId: optStr, _meta: optObject })

/** Sampling-only blocks (2025-11-25+): a model's tool call and the result handed back to it. */
export const ToolUseContentSchema = z.looseObject({ type: z.literal('tool_use'), id: str, name: str, input: jsonObject, _meta: optObject })
export const ToolResultContentSchema = z.looseObject({
  type: z.literal('tool_result'),
  toolUseId: str,
  content: z.array(ContentBlockSchema),
  structuredContent: z.optional(z.unknown()),
  isError: z.optional(z.boolean()),
  _meta: optObject,
})

const SamplingBlockSchema = z.union([TextContentSchema, ImageContentSchema, AudioContentSchema, ToolUseContentSchema, ToolResultContentSchema])
export const SamplingMessageSchema = z.looseObject({ role: RoleSchema, content: z.union([SamplingBlockSchema, z.array(SamplingBlockSchema)]), _meta: optObject })

export const CreateMessageParamsSchema = z.looseObject({
  messages: z.array(SamplingMessageSchema),
  maxTokens: int,
  systemPrompt: optStr,
  includeContext: z.optional(z.literal(['none', 'thisServer', 'allServers'])),
  temperature: z.optional(z.number()),
  stopSequences: z.optional(z.array(str)),
  modelPreferences: optObject,
  metadata: optObject,
  tools: z.optional(z.array(ToolSchema)),
  toolChoice: z.optional(z.looseObject({ mode: z.optional(z.literal(['auto', 'required', 'none'])) })),
  _meta: optObject,
})

const request = { jsonrpc: z.optional(z.literal('2.0')), id: z.optional(id) }
const elicit = { method: z.literal('elicitation/create'), params: z.union([ElicitFormParamsSchema, ElicitUrlParamsSchema]) }
const sample = { method: z.literal('sampling/createMessage'), params: CreateMessageParamsSchema }
const roots = { method: z.literal('roots/list'), params: optObject }

export const ElicitRequestSchema = z.looseObject(elicit)
export const CreateMessageRequestSchema = z.looseObject(sample)
export const ListRootsRequestSchema = z.looseObject(roots)

const INPUT_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list']

/**
 * One entry of an `input_required` round (2026-07-28; no `jsonrpc`, no `id`). A method this library does
 * not know is kept as sent: the app's handler decides what to answer.
 */
export const InputRequestSchema = tagged('method', [ElicitRequestSchema, CreateMessageRequestSchema, ListRootsRequestSchema], INPUT_METHODS)
/** Key (chosen by the server) → request; the answers go back under the same keys. */
export const InputRequestsSchema = z.catchall(z.object({}), InputRequestSchema)

/**
 * A request from a server on a handshake revision (2024-11-05 … 2025-11-25): the same payloads with a
 * JSON-RPC id, plus `ping` (and 2025-11-25's client-side task methods, which nanomcp never declares).
 */
export const ServerRequestSchema = tagged(
  'method',
  [z.looseObject({ ...request, ...elicit }), z.looseObject({ ...request, ...sample }), z.looseObject({ ...request, ...roots }), z.looseObject({ ...request, method: z.literal('ping'), params: optObject })],
  [...INPUT_METHODS, 'ping'],
)

/**
 * 2026-07-28: the server needs input before it can answer (`tools/call`, `prompts/get`, `resources/read` only).
 * At least one of `inputRequests` and `requestState` is present; `requestState` is opaque and echoed as is.
 */
export const InputRequiredResultSchema = z
  .looseObject({ _meta: result._meta, resultType: z.literal('input_required'), inputRequests: z.optional(InputRequestsSchema), requestState: optStr })
  .check(must((r: { inputRequests?: unknown; requestState?: string }) => r.inputRequests !== undefined || r.requestState !== undefined, '"inputRequests" or "requestState"'))
