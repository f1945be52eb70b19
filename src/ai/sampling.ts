// A server's `sampling/createMessage` answered by the app's own AI SDK model: the handler goes into the
// client's onInputRequest, so it serves 2026-07-28 input rounds and, with `legacySampling`, older servers'
// requests alike. The user approves each request unless the app says otherwise: a server must not spend the
// user's tokens, or steer their model, unseen.
import type { InputRequest, InputRequestHandler } from '../client/types'
import type { LanguageModel } from 'ai'
import type { SamplingOptions } from './types'
import { SamplingError } from './sampling-error'

/**
 * An onInputRequest handler that answers `sampling/createMessage` with `model` (messages, system prompt, max
 * tokens, temperature, stop sequences, images in; `model` and `stopReason` out) and hands the round's other
 * requests to `fallback`. Older servers need the client's `legacySampling: true` as well.
 */
export function aiSampling(model: LanguageModel, options: SamplingOptions = {}): InputRequestHandler {
  return async (requests, context) => {
    const answers: Record<string, unknown> = {}
    const others: Record<string, InputRequest> = {}
    for (const [key, request] of Object.entries(requests)) {
      if (request.method === 'sampling/createMessage') answers[key] = await (await import('./sample')).sample(model, request.params, options, context.signal)
      else if (options.fallback) others[key] = request
      // Without a fallback: elicitations can be declined in the protocol; anything else (roots, unknown
      // methods) fails as unanswered.
      else if (request.method === 'elicitation/create') answers[key] = { action: 'decline' }
      else throw new SamplingError('unanswered', `No fallback for ${request.method}`, { detail: request })
    }
    return Object.keys(others).length ? { ...answers, ...(await options.fallback!(others, context)) } : answers
  }
}
