// The URL-mode side of the elicitation dialog: the address is text until the user consents, its domain is named,
// a punycode domain is flagged, and only a web address is ever opened.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { InputRequest } from '../src/index'
import { askUser } from './elicitation'

let dialog: HTMLDialogElement
afterEach(() => {
  dialog?.remove()
  vi.restoreAllMocks()
})

const urlAsk = (url: string, extra: Record<string, unknown> = {}): Record<string, InputRequest> => ({
  u1: { method: 'elicitation/create', params: { mode: 'url', message: 'Approve <b>access</b>', url, ...extra } } as InputRequest,
})
function open(requests: Record<string, InputRequest>) {
  dialog = document.createElement('dialog')
  document.body.append(dialog)
  return askUser(dialog, 'srv', requests, new AbortController().signal)
}
const button = (name: string) => [...dialog.querySelectorAll('button')].find((b) => b.textContent === name)!
const note = () => dialog.querySelector('[data-testid="url-note"]')?.textContent

describe('askUser: URL-mode elicitation', () => {
  it('shows the full URL and its domain as text, opens nothing before consent, then opens it in a new tab and answers accept', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null)
    // A 2025-11-25 request carries an elicitationId: it changes nothing on screen or in the answer.
    const answer = open(urlAsk('https://Example.com/consent?step=1', { elicitationId: 'el-1' }))
    expect(dialog.querySelector('code.url')?.textContent).toBe('https://Example.com/consent?step=1')
    expect(dialog.querySelector('[data-testid="url-domain"]')?.textContent).toBe('Domain: example.com')
    expect(dialog.querySelectorAll('a, b')).toHaveLength(0)
    expect(note()).toBeUndefined()
    expect(opened).not.toHaveBeenCalled()
    button('Accept').click()
    await expect(answer).resolves.toEqual({ u1: { action: 'accept' } })
    expect(opened).toHaveBeenCalledExactlyOnceWith('https://Example.com/consent?step=1', '_blank', 'noopener,noreferrer')
  })

  it('flags an internationalized (punycode) domain', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null)
    const answer = open(urlAsk('https://аpple.com/login'))
    expect(dialog.querySelector('[data-testid="url-domain"]')?.textContent).toBe('Domain: xn--pple-43d.com')
    expect(note()).toMatch(/punycode/)
    button('Decline').click()
    await expect(answer).resolves.toEqual({ u1: { action: 'decline' } })
  })

  it('a javascript: or malformed address is said to open nothing, and accepting opens nothing', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null)
    for (const url of ['javascript:alert(1)', 'https://', 'not a url']) {
      const answer = open(urlAsk(url))
      expect(note()).toMatch(/not a web address/)
      button('Accept').click()
      await expect(answer).resolves.toEqual({ u1: { action: 'accept' } })
      dialog.remove()
    }
    expect(opened).not.toHaveBeenCalled()
  })
})
