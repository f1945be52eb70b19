// Answers one `sampling/createMessage` with an AI SDK model. Loaded on demand by aiSampling's handler: servers
// ask for sampling rarely, and the wait for this chunk hides in the wait for the model.
import { generateText, type FinishReason, type LanguageModel, type ModelMessage } from 'ai'
import type { InputRequest } from '../client/types'
import type { SamplingOptions } from './types'
import { SamplingError } from './sampling-error'

type Params = Extract<InputRequest, { method: 'sampling/createMessage' }>['params']

const STOP: Partial<Record<FinishReason, string>> = { stop: 'endTurn', length: 'maxTokens' }

function message({ role, content }: Params['messages'][number]): ModelMessage {
  const parts = (Array.isArray(content) ? content : [content]).map((block) => {
    if (block.type === 'text') return { type: 'text' as const, text: block.text }
    // As file parts in both roles: assistant messages take no image parts, and the SDK sends both kinds alike.
    if (block.type === 'image' || block.type === 'audio') return { type: 'file' as const, data: block.data, mediaType: block.mimeType }
    throw new SamplingError('unsupported-content', `Sampling content ${String(block.type)} is not supported`, { detail: block })
  })
  return { role, content: parts } as ModelMessage
}

export async function sample(model: LanguageModel, params: Params, options: SamplingOptions, signal: AbortSignal): Promise<Record<string, unknown>> {
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

