import { afterEach, describe, expect, it } from 'vitest'
import { askSampling, HUMAN_MODEL, SamplingDeclinedError } from './sampling'

const REQUEST = {
  systemPrompt: 'Be <em>brief</em>',
  messages: [
    { role: 'user', content: { type: 'text', text: 'Say <script>window.__x=1</script> hi' } },
    { role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
  ],
  maxTokens: 10,
  temperature: 0.2,
}

let dialog: HTMLDialogElement
afterEach(() => dialog?.remove())
function open(params: unknown = REQUEST, signal = new AbortController().signal) {
  dialog = document.createElement('dialog')
  document.body.append(dialog)
  return askSampling(dialog, 'srv <b>x</b>', params, signal)
}
const button = (name: string) => [...dialog.querySelectorAll('button')].find((b) => b.textContent === name)!

describe('askSampling', () => {
  it('shows the request as text and resolves with the reply the user wrote', async () => {
    const answer = open()
    expect(dialog.open).toBe(true)
    expect(dialog.textContent).toContain('Say <script>window.__x=1</script> hi')
    expect(dialog.textContent).toContain('srv <b>x</b>')
    expect(dialog.textContent).toContain('Be <em>brief</em>')
    expect(dialog.textContent).toContain('"mimeType": "image/png"')
    expect(dialog.textContent).toContain('at most 10 tokens · temperature 0.2')
    expect(dialog.querySelectorAll('script, b, em')).toHaveLength(0)
    dialog.querySelector('textarea')!.value = 'hello'
    button('Approve and send').click()
    await expect(answer).resolves.toEqual({ role: 'assistant', content: { type: 'text', text: 'hello' }, model: HUMAN_MODEL, stopReason: 'endTurn' })
    expect(dialog.open).toBe(false)
  })

  it('does not approve an empty reply, and sends the model name the user typed', async () => {
    const answer = open({ messages: 'garbage' })
    button('Approve and send').click()
    expect(dialog.open).toBe(true)
    dialog.querySelector('textarea')!.value = 'ok'
    dialog.querySelector<HTMLInputElement>('#sampling-model')!.value = '  my-model '
    button('Approve and send').click()
    await expect(answer).resolves.toMatchObject({ model: 'my-model', content: { text: 'ok' } })
  })

  it('rejects with SamplingDeclinedError when the user declines or presses Escape', async () => {
    const declined = open()
    button('Decline').click()
    await expect(declined).rejects.toBeInstanceOf(SamplingDeclinedError)
    dialog.remove()
    const escaped = open()
    dialog.dispatchEvent(new Event('cancel', { cancelable: true }))
    await expect(escaped).rejects.toBeInstanceOf(SamplingDeclinedError)
    expect(dialog.open).toBe(false)
  })

  it('closes and rejects with the reason when the request is abandoned', async () => {
    const controller = new AbortController()
    const answer = open(REQUEST, controller.signal)
    controller.abort(new Error('timed out'))
    await expect(answer).rejects.toThrow('timed out')
    expect(dialog.open).toBe(false)
  })
})
