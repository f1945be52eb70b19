import { describe, expect, it, vi } from 'vitest'
import type { InputRequest } from '../src/index'
import { answerRound, type RoundDeps } from './input-round'

const dialog = {} as HTMLDialogElement
const signal = new AbortController().signal

function deps(overrides: Partial<RoundDeps> = {}): RoundDeps {
  return {
    dialog,
    serverName: 'srv',
    roots: () => [{ uri: 'file:///a', name: 'A' }],
    elicit: vi.fn(async (_d, _s, requests: Record<string, InputRequest>) => Object.fromEntries(Object.keys(requests).map((k) => [k, { action: 'accept', content: { k } }]))),
    sample: vi.fn(async () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: 'hi' }, model: 'm', stopReason: 'endTurn' as const })),
    ...overrides,
  }
}

describe('answerRound', () => {
  it('answers each kind its own way and keys every answer as the server did', async () => {
    const d = deps()
    const answers = await answerRound(
      d,
      {
        a: { method: 'elicitation/create', params: { message: 'x', requestedSchema: { type: 'object', properties: {} } } },
        b: { method: 'elicitation/create', params: { mode: 'url', message: 'y', url: 'https://e.test' } },
        c: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } },
        d: { method: 'roots/list' },
      } as Record<string, InputRequest>,
      signal,
    )
    expect(answers).toEqual({
      a: { action: 'accept', content: { k: 'a' } },
      b: { action: 'accept', content: { k: 'b' } },
      c: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm', stopReason: 'endTurn' },
      d: { roots: [{ uri: 'file:///a', name: 'A' }] },
    })
    // Both elicitations go to one dialog, as one form.
    expect(d.elicit).toHaveBeenCalledTimes(1)
    expect(Object.keys((d.elicit as ReturnType<typeof vi.fn>).mock.calls[0]![2] as object)).toEqual(['a', 'b'])
    expect(d.sample).toHaveBeenCalledWith(dialog, 'srv', { messages: [], maxTokens: 5 }, signal)
  })

  it('reads the roots list when the server asks, not when the page started', async () => {
    let roots = [{ uri: 'file:///old' }]
    const d = deps({ roots: () => roots })
    roots = [{ uri: 'file:///new' }]
    expect(await answerRound(d, { r: { method: 'roots/list' } } as Record<string, InputRequest>, signal)).toEqual({ r: { roots: [{ uri: 'file:///new' }] } })
  })

  it('refuses a method it never declared, before showing anything', async () => {
    const d = deps()
    await expect(
      answerRound(d, { a: { method: 'elicitation/create', params: {} }, z: { method: 'tools/call', params: {} } } as unknown as Record<string, InputRequest>, signal),
    ).rejects.toThrow('The demo cannot answer tools/call')
    expect(d.elicit).not.toHaveBeenCalled()
  })

  it('fails the round when the user declines a sampling request', async () => {
    const d = deps({ sample: vi.fn(async () => Promise.reject(new Error('declined'))) })
    await expect(answerRound(d, { c: { method: 'sampling/createMessage', params: {} } } as unknown as Record<string, InputRequest>, signal)).rejects.toThrow('declined')
  })
})
