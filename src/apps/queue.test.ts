import { describe, expect, it } from 'vitest'
import { MessageQueue } from './queue'

function setup() {
  const sent: [string, Record<string, unknown>][] = []
  const queue = new MessageQueue((method, params) => sent.push([method, params]))
  const methods = () => sent.map(([m]) => m.replace('ui/notifications/', ''))
  return { queue, sent, methods }
}

describe('MessageQueue', () => {
  it('sends nothing before initialized, then partial, input, result in order', () => {
    const { queue, sent, methods } = setup()
    queue.partial({ a: 1 })
    queue.partial({ a: 12 })
    queue.input({ a: 123 })
    queue.result({ content: [] })
    queue.context({ theme: 'dark' })
    expect(sent).toEqual([])
    queue.ready()
    // The complete input supersedes partials that were never sent.
    expect(methods()).toEqual(['host-context-changed', 'tool-input', 'tool-result'])
    expect(sent[1]![1]).toEqual({ arguments: { a: 123 } })
  })

  it('keeps only the latest partial before initialized, and sends each later partial', () => {
    const { queue, sent, methods } = setup()
    queue.partial({ a: 1 })
    queue.partial({ a: 2 })
    queue.ready()
    queue.partial({ a: 3 })
    expect(methods()).toEqual(['tool-input-partial', 'tool-input-partial'])
    expect(sent.map(([, p]) => p)).toEqual([{ arguments: { a: 2 } }, { arguments: { a: 3 } }])
  })

  it('drops a partial after the input, a second input, and a second result or cancel', () => {
    const { queue, sent, methods } = setup()
    queue.ready()
    queue.input({ a: 1 })
    queue.partial({ a: 2 })
    queue.input({ a: 3 })
    queue.result({ content: [{ type: 'text', text: 'one' }] })
    queue.result({ content: [{ type: 'text', text: 'two' }] })
    queue.cancel('late')
    expect(methods()).toEqual(['tool-input', 'tool-result'])
    expect(sent[0]![1]).toEqual({ arguments: { a: 1 } })
    expect(sent[1]![1]).toEqual({ content: [{ type: 'text', text: 'one' }] })
  })

  it('a result without an input sends the last partial as the input first', () => {
    const { queue, sent, methods } = setup()
    queue.ready()
    queue.partial({ q: 'os' })
    queue.result({ content: [] })
    expect(methods()).toEqual(['tool-input-partial', 'tool-input', 'tool-result'])
    expect(sent[1]![1]).toEqual({ arguments: { q: 'os' } })
  })

  it('a cancel without any input sends an empty input, then tool-cancelled with its reason', () => {
    const { queue, sent, methods } = setup()
    queue.cancel('the call failed')
    queue.ready()
    expect(methods()).toEqual(['tool-input', 'tool-cancelled'])
    expect(sent[0]![1]).toEqual({ arguments: {} })
    expect(sent[1]![1]).toEqual({ reason: 'the call failed' })
  })

  it('merges context changes until they can be sent, and sends later ones at once', () => {
    const { queue, sent } = setup()
    queue.context({ theme: 'dark' })
    queue.context({ locale: 'nb-NO' })
    queue.ready()
    queue.context({ displayMode: 'fullscreen' })
    expect(sent).toEqual([
      ['ui/notifications/host-context-changed', { theme: 'dark', locale: 'nb-NO' }],
      ['ui/notifications/host-context-changed', { displayMode: 'fullscreen' }],
    ])
  })

  it('after reset (the app initialized again) it holds, then sends input and result once more', () => {
    const { queue, methods } = setup()
    queue.ready()
    queue.input({ a: 1 })
    queue.result({ content: [] })
    queue.reset()
    queue.context({ theme: 'dark' })
    expect(methods()).toEqual(['tool-input', 'tool-result'])
    queue.ready()
    expect(methods()).toEqual(['tool-input', 'tool-result', 'host-context-changed', 'tool-input', 'tool-result'])
  })
})
