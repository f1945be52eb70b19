import { afterEach, describe, expect, it } from 'vitest'
import { initialSettings, saveSettings, shareLink } from './connection'

const KEY = 'nanomcp-demo:connection'
afterEach(() => localStorage.removeItem(KEY))

describe('remembered settings', () => {
  it('round-trips what the page saves, the picker entry and the shared choice included', () => {
    saveSettings({ url: 'http://127.0.0.1:5180/mcp', transport: 'http', timeout: 5, legacyElicitation: false, logLevel: '', server: 'modern', shared: true })
    const settings = initialSettings('')
    expect(settings).toMatchObject({ url: 'http://127.0.0.1:5180/mcp', transport: 'http', timeout: 5, legacyElicitation: false, entry: 'modern', shared: true, malformed: false, fromLink: false })
  })

  it('declares the legacy capabilities by default, even where an older visit stored the old default (off)', () => {
    localStorage.setItem(KEY, JSON.stringify({ url: 'https://example.com/mcp', transport: 'auto', timeout: 0, legacyElicitation: false, logLevel: '' }))
    expect(initialSettings('').legacyElicitation).toBe(true)
    expect(initialSettings('').malformed).toBe(false)
    expect(initialSettings('').urlOnly).toBe(true)
  })

  it('marks unreadable JSON and fields of the wrong type as malformed', () => {
    localStorage.setItem(KEY, '{"url": ')
    expect(initialSettings('').malformed).toBe(true)
    localStorage.setItem(KEY, JSON.stringify({ url: 'https://example.com/mcp', shared: 'yes' }))
    expect(initialSettings('').malformed).toBe(true)
    localStorage.setItem(KEY, '[1, 2]')
    expect(initialSettings('').malformed).toBe(true)
  })

  it('a link wins over the memory: its URL, entry and shared flag', () => {
    saveSettings({ url: 'https://remembered.example/mcp', transport: 'sse', timeout: 0, legacyElicitation: true, logLevel: '', server: '', shared: false })
    const settings = initialSettings('?url=https%3A%2F%2Flinked.example%2Fmcp&server=modern&shared=1')
    expect(settings).toMatchObject({ url: 'https://linked.example/mcp', transport: 'auto', entry: 'modern', shared: true, fromLink: true })
  })
})

describe('shareLink', () => {
  it('carries the picker entry and the shared choice, and drops them when unset', () => {
    const link = new URL(shareLink('http://127.0.0.1:5180/mcp', 'http', 'https://demo.example/?server=old&shared=1#x', { server: 'modern', shared: true }))
    expect(Object.fromEntries(link.searchParams)).toEqual({ url: 'http://127.0.0.1:5180/mcp', transport: 'http', server: 'modern', shared: '1' })
    expect(link.hash).toBe('')
    const plain = new URL(shareLink('https://example.com/mcp', 'auto', link.href))
    expect(Object.fromEntries(plain.searchParams)).toEqual({ url: 'https://example.com/mcp' })
  })
})
