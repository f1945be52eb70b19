import { describe, expect, it } from 'vitest'
import type { InitialSettings } from './connection'
import type { EmbeddedServer } from './servers'
import { chooseStart } from './start-server'

const list: EmbeddedServer[] = [
  { kind: 'modern', label: 'Modern · 2026-07-28', url: 'http://127.0.0.1:5180/mcp', transport: 'http' },
  { kind: 'sse', label: 'Legacy · HTTP+SSE', url: 'http://127.0.0.1:5182/sse', transport: 'sse' },
]
const initial = (over: Partial<InitialSettings>): InitialSettings => ({
  url: '',
  transport: 'auto',
  timeout: 0,
  legacyElicitation: true,
  logLevel: '',
  server: '',
  shared: false,
  entry: undefined,
  fromLink: false,
  malformed: false,
  urlOnly: false,
  ...over,
})

describe('chooseStart', () => {
  it('finds a remembered entry at its new address after a restart', () => {
    const choice = chooseStart(list, initial({ url: 'http://127.0.0.1:40925/sse', entry: 'sse' }))
    expect(choice).toEqual({ url: 'http://127.0.0.1:5182/sse', transport: 'sse', entry: 'sse' })
  })

  it('a link naming an entry opens that entry, whatever port the link carries', () => {
    const choice = chooseStart(list, initial({ fromLink: true, url: 'http://127.0.0.1:1/mcp', entry: 'modern' }))
    expect(choice.url).toBe('http://127.0.0.1:5180/mcp')
    expect(choice.note).toBeUndefined()
  })

  it('a stale entry falls back to the first server with a line saying so', () => {
    const choice = chooseStart(list, initial({ url: 'http://127.0.0.1:1/mcp', entry: 'gone' }))
    expect(choice.entry).toBe('modern')
    expect(choice.note).toBe('The remembered server “gone” is not in this page\'s list; starting on Modern · 2026-07-28 instead.')
  })

  it('unreadable settings fall back with a line saying so', () => {
    const choice = chooseStart(list, initial({ malformed: true }))
    expect(choice.entry).toBe('modern')
    expect(choice.note).toContain('could not be read')
  })

  it('an old URL-only memory of a vanished loopback port falls back; a typed remote URL stays', () => {
    expect(chooseStart(list, initial({ url: 'http://127.0.0.1:40925/mcp', urlOnly: true })).note).toContain('http://127.0.0.1:40925/mcp')
    expect(chooseStart(list, initial({ url: 'https://example.com/mcp', urlOnly: true }))).toEqual({ url: 'https://example.com/mcp', transport: 'auto', entry: '' })
    expect(chooseStart(list, initial({ url: 'http://127.0.0.1:3000/mcp', entry: '' })).entry).toBe('')
  })

  it('without a list (the hosted page) keeps the URL as it is', () => {
    expect(chooseStart([], initial({ url: 'https://example.com/mcp', entry: 'modern' })).url).toBe('https://example.com/mcp')
  })
})
