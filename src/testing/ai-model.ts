// The AI SDK's own mock model (ai/test), scripted turn by turn: each doGenerate answers with the next step's
// tool calls or text. What the model was shown is read back from its recorded calls.
import { MockLanguageModelV4 } from 'ai/test'

type Step = { calls: { name: string; input: Record<string, unknown> }[] } | { text: string }

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } }

export function scriptedModel(steps: Step[], modelId = 'mock-model'): MockLanguageModelV4 {
  let turn = 0
  return new MockLanguageModelV4({
    modelId,
    doGenerate: async () => {
      const step = steps[Math.min(turn++, steps.length - 1)]!
      if ('text' in step) return { content: [{ type: 'text', text: step.text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }
      return {
        content: step.calls.map((call, i) => ({ type: 'tool-call' as const, toolCallId: `call-${turn}-${i}`, toolName: call.name, input: JSON.stringify(call.input) })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      }
    },
  })
}

/** The tool-result parts the model was shown in its `n`th call (from 0). */
export function toolResultsSeen(model: MockLanguageModelV4, n: number): { toolName: string; output: any }[] {
  const prompt = model.doGenerateCalls[n]?.prompt ?? []
  return prompt.flatMap((message) => (message.role === 'tool' ? (message.content as any[]).filter((part) => part.type === 'tool-result') : []))
}
