// aiSampling answers real servers' sampling/createMessage with the AI SDK's mock model: the modern embedded
// server asks within an input_required round, the legacy one pushes a JSON-RPC request (legacySampling).
import { MockLanguageModelV4 } from 'ai/test'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { Client, forgetEras } from '../client/client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { scoped } from '../../scripts/servers/scoped.ts'
import { scriptedModel } from '../testing/ai-model'
import { aiSampling } from './sampling'
import { SamplingError } from './sampling-error'
import type { SamplingOptions } from './types'

const servers = inject('servers')
const closing: Client[] = []
afterEach(async () => {
  await Promise.all(closing.splice(0).map((c) => c.close()))
  forgetEras()
})

function connect(kind: 'modern' | 'legacy', model: MockLanguageModelV4, options: SamplingOptions) {
  const client = new Client(new StreamableHttpTransport(scoped(servers[kind], `input-kinds-ai-${kind}`).url), {
    onInputRequest: aiSampling(model, options),
    legacySampling: true,
  })
  closing.push(client)
  return client
}
const said = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text

describe.each(['modern', 'legacy'] as const)('aiSampling on the %s server', (kind) => {
  it('answers with the model: messages, system prompt and max tokens in; model name out', async () => {
    const model = scriptedModel([{ text: 'Packets drift like leaves' }], 'mock-poet')
    const client = connect(kind, model, { approve: true })
    const result = await client.callTool({ name: 'ask_llm', arguments: {} })
    expect(said(result)).toBe('The model (mock-poet) said: Packets drift like leaves')
    const call = model.doGenerateCalls[0]!
    expect(call.maxOutputTokens).toBe(64)
    expect(call.prompt[0]).toEqual({ role: 'system', content: 'You are a poet.' })
    // The server's prompt (input-kinds.mjs), markup and all, as text.
    expect(JSON.stringify(call.prompt[1])).toContain('Write a haiku about <b>protocols</b>')
  })

  it('asks the user first; a refusal reaches no model and fails only that call', async () => {
    const model = scriptedModel([{ text: 'never' }])
    const asked: unknown[] = []
    const client = connect(kind, model, { approve: (params) => (asked.push(params), false) })
    const outcome = await client.callTool({ name: 'ask_llm', arguments: {} }).then(said, (error: Error) => error.message)
    expect(outcome).toMatch(/declined/)
    expect(asked).toHaveLength(1)
    expect(model.doGenerateCalls).toHaveLength(0)
    expect(said(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toContain('still here')
  })

  it('a model that throws fails that request only', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error('quota exceeded')
      },
    })
    const client = connect(kind, model, { approve: true })
    const outcome = await client.callTool({ name: 'ask_llm', arguments: {} }).then(said, (error: Error) => error.message)
    expect(outcome).toMatch(/quota exceeded/)
    expect(said(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toContain('after')
  })
})

describe('aiSampling, the handler alone', () => {
  const context = { method: 'tools/call', params: {}, round: 1, signal: new AbortController().signal }
  const request = (params: Record<string, unknown>) => ({ s: { method: 'sampling/createMessage', params: { maxTokens: 100, ...params } } }) as unknown as Parameters<ReturnType<typeof aiSampling>>[0]

  it('passes images in, temperature and stop sequences; maps the stop reason; modelPreferences go to the chooser', async () => {
    const chosen = scriptedModel([{ text: 'a red dot' }], 'chosen-model')
    const preferences: unknown[] = []
    const handler = aiSampling(scriptedModel([{ text: 'wrong model' }]), { approve: true, maxTokens: 50, systemPrompt: 'Be brief.', chooseModel: (p) => (preferences.push(p), chosen) })
    const answers = await handler(
      request({
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] }],
        systemPrompt: 'You see images.',
        temperature: 0.2,
        stopSequences: ['END'],
        modelPreferences: { hints: [{ name: 'claude' }] },
      }),
      context,
    )
    expect(answers.s).toEqual({ role: 'assistant', content: { type: 'text', text: 'a red dot' }, model: 'chosen-model', stopReason: 'endTurn' })
    expect(preferences).toEqual([{ hints: [{ name: 'claude' }] }])
    const call = chosen.doGenerateCalls[0]!
    expect(call).toMatchObject({ maxOutputTokens: 50, temperature: 0.2, stopSequences: ['END'] })
    expect(call.prompt[0]).toEqual({ role: 'system', content: 'Be brief.\n\nYou see images.' })
    const image = (call.prompt[1]!.content as any[]).find((part) => part.type === 'file')
    expect(image).toMatchObject({ mediaType: 'image/png' })
  })

  it.each([
    ['no messages', { messages: [] }, 'no-messages'],
    ['tool_use content', { messages: [{ role: 'assistant', content: { type: 'tool_use', id: '1', name: 'x', input: {} } }] }, 'unsupported-content'],
  ])('refuses a request with %s with a typed error', async (_name, params, reason) => {
    const model = scriptedModel([{ text: 'never' }])
    const error = await Promise.resolve(aiSampling(model, { approve: true })(request(params), context)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SamplingError)
    expect((error as SamplingError).reason).toBe(reason as string)
    expect(model.doGenerateCalls).toHaveLength(0)
  })

  it('hands the round’s other requests to fallback, else declines elicitations and fails on roots', async () => {
    const elicit = { e: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } } } as Parameters<ReturnType<typeof aiSampling>>[0]
    const model = scriptedModel([{ text: 'hi' }])
    const seen: string[] = []
    const withFallback = aiSampling(model, { approve: true, fallback: (requests) => (seen.push(...Object.keys(requests)), { e: { action: 'accept', content: {} } }) })
    expect(await withFallback({ ...request({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }), ...elicit }, context)).toMatchObject({
      s: { model: 'mock-model' },
      e: { action: 'accept' },
    })
    expect(seen).toEqual(['e'])
    expect(await aiSampling(model)(elicit, context)).toEqual({ e: { action: 'decline' } })
    const roots = await Promise.resolve(aiSampling(model)({ r: { method: 'roots/list', params: {} } } as never, context)).catch((e: unknown) => e)
    expect((roots as SamplingError).reason).toBe('unanswered')
  })
})
