// What a server asks the user for: a 2026-07-28 `input_required` round, the input requests of a task, and an older
// server's elicitation, sampling and roots requests. Checked here and handed to the app's onInputRequest. Only
// servers that ask for input need this file and the schemas it checks with, so the client loads it on demand
// (modern.ts, tasks.ts, validate.ts): the wait for it is hidden in a wait for the user.
import type { ClientOptions, InputRequest, InputRequestHandler } from './types'
import { InputRequiredError } from '../errors/input-required-error'
import { ProtocolError } from '../errors/protocol-error'
import { parseWith } from '../schemas/explain'
import { InputRequestSchema, InputRequiredResultSchema } from '../schemas/requests'
import { abortable } from '../transport/http'
import { withDefaults } from './apply-defaults'

type Result = Record<string, unknown>

/** Asks the app's handler for one round's answers, with schema defaults filled into accepted forms. */
export async function answer(options: ClientOptions, requests: Record<string, InputRequest>, context: Parameters<InputRequestHandler>[1]): Promise<Result> {
  return withDefaults(requests, await abortable(Promise.resolve(options.onInputRequest!(requests, context)), context.signal))
}

/**
 * The params of the request's next round after an `input_required` result (round `round`, from 1): the user's
 * answers and the server's `requestState`. InputRequiredError when no handler can answer or the rounds run out.
 */
export async function nextRound(options: ClientOptions, method: string, params: Result, result: Result, round: number, signal: AbortSignal): Promise<Result> {
  const parsed = parseWith(InputRequiredResultSchema, result, 'input_required result')
  const requests = parsed.inputRequests ?? {}
  if (Object.values(requests).some((r) => typeof r?.method !== 'string')) throw new ProtocolError('invalid-result', 'Malformed inputRequests', requests)
  if (!options.onInputRequest) throw new InputRequiredError(`${method} needs input and the client has no onInputRequest handler`, requests, round)
  if (round > (options.maxInputRounds ?? 10)) throw new InputRequiredError(`${method} still needs input after ${round - 1} rounds`, requests, round)
  const next: Result = { ...params }
  if (Object.keys(requests).length) next.inputResponses = await answer(options, requests, { method, params, round, signal })
  // Echoed byte for byte: requestState is the server's, never ours to parse.
  if (parsed.requestState !== undefined) next.requestState = result.requestState
  return next
}

/** A legacy server's request for input, typed; a ProtocolError naming the path when it is malformed. */
export function inputRequest(request: { method: string; params?: unknown }): InputRequest {
  return parseWith(InputRequestSchema, request, `${request.method} request`)
}
