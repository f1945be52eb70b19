// A server's `sampling/createMessage` answered by the app's own AI SDK model: the handler goes into the
// client's onInputRequest, so it serves 2026-07-28 input rounds and, with `legacySampling`, older servers'
// requests alike. The user approves each request unless the app says otherwise: a server must not spend the
// user's tokens, or steer their model, unseen.
import { generateText, type FinishReason, type LanguageModel, type ModelMessage } from 'ai'
import type { InputRequest, InputRequestHandler } from '../client/types'
import type { SamplingOptions } from './types'
import { SamplingError } from './sampling-error'

type Params = Extract<InputRequest, { method: 'sampling/createMessage' }>['params']

const STOP: Partial<Record<FinishReason, string>> = { stop: 'endTurn', length: 'maxTokens', 'content-filter': 'contentFilter' }

function message({ role, content }: Params['messages'][number]): ModelMessage {
  const parts = (Array.isArray(content) ? content : [content]).map((block) => {
    if (block.type === 'text') return { type: 'text' as const, text: block.text }
    // As file parts in both roles: assistant messages take no image parts, and the SDK sends both kinds alike.
    if (block.type === 'image' || block.type === 'audio') return { type: 'file' as const, data: block.data, mediaType: block.mimeType }
    throw new SamplingError('unsupported-content', `Sampling content ${String(block.type)} is not supported`, { detail: block })
  })
  return { role, content: parts } as ModelMessage
}

async function sample(model: LanguageModel, params: Params, options: SamplingOptions, signal: AbortSignal): Promise<Record<string, unknown>> {
  if (!params.messages?.length) throw new SamplingError('no-messages', 'Sampling request without messages')
  const messages = params.messages.map(message)
  const { approve } = options
  if (!(approve === true || (approve && (await approve(params, { signal }))))) throw new SamplingError('declined', 'Sampling request declined')
  const system = [options.systemPrompt, params.systemPrompt].filter(Boolean).join('\n\n') || undefined
  let result: Awaited<ReturnType<typeof generateText>>
  try {
    result = await generateText({
      model: options.chooseModel?.(params.modelPreferences) ?? model,
      system,
      messages,
      maxOutputTokens: Math.min(params.maxTokens, options.maxTokens ?? Infinity),
      temperature: params.temperature,
      stopSequences: params.stopSequences,
      abortSignal: signal,
    })
  } catch (cause) {
    throw new SamplingError('model-failed', `Model failed: ${String(cause)}`, { cause })
  }
  return { role: 'assistant', content: { type: 'text', text: result.text }, model: result.response.modelId, stopReason: STOP[result.finishReason] ?? result.finishReason }
}

/** Elicitations can be declined in the protocol; anything else (roots, unknown methods) fails as unanswered. */
function decline(request: InputRequest): Record<string, unknown> {
  if (request.method === 'elicitation/create') return { action: 'decline' }
  throw new SamplingError('unanswered', `No fallback for ${request.method}`, { detail: request })
}

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
      if (request.method === 'sampling/createMessage') answers[key] = await sample(model, request.params, options, context.signal)
      else others[key] = request
    }
    if (Object.keys(others).length) {
      if (options.fallback) Object.assign(answers, await options.fallback(others, context))
      else for (const [key, request] of Object.entries(others)) answers[key] = decline(request)
    }
    return answers
  }
}
