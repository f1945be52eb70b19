import { describe, expect, it, vi } from 'vitest'
import { announceRoots, parseRoot, RootError } from './roots'

describe('parseRoot', () => {
  it('keeps a file:// URI in its normal form, with a trimmed name when one is given', () => {
    expect(parseRoot('  file:///home/ada/my project ', '  Project ')).toEqual({ uri: 'file:///home/ada/my%20project', name: 'Project' })
    expect(parseRoot('file:///tmp', '   ')).toEqual({ uri: 'file:///tmp' })
  })

  it('refuses anything that is not a file:// URI, saying what a root is', () => {
    expect(() => parseRoot('https://example.com/x')).toThrow(RootError)
    expect(() => parseRoot('https://example.com/x')).toThrow(/file:\/\/ URIs, not “https:”/)
    expect(() => parseRoot('javascript:alert(1)')).toThrow(/not “javascript:”/)
    expect(() => parseRoot('not a uri')).toThrow(/is not a URI/)
    expect(() => parseRoot('')).toThrow(RootError)
  })
})

describe('announceRoots', () => {
  const client = (era: string | undefined, fail = false) => ({ era, transport: { send: vi.fn(() => (fail ? Promise.reject(new Error('gone')) : Promise.resolve())) } })

  it('tells an older server that was offered roots, and only that one', () => {
    const legacy = client('legacy')
    announceRoots(legacy, true)
    expect(legacy.transport.send).toHaveBeenCalledWith({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })
    const notOffered = client('legacy')
    announceRoots(notOffered, false)
    const modern = client('modern')
    announceRoots(modern, true)
    expect(notOffered.transport.send).not.toHaveBeenCalled()
    expect(modern.transport.send).not.toHaveBeenCalled()
  })

  it('swallows a failed send: the server asks again with its next roots/list', async () => {
    const legacy = client('legacy', true)
    expect(() => announceRoots(legacy, true)).not.toThrow()
    await expect(legacy.transport.send.mock.results[0]!.value).rejects.toThrow('gone')
  })
})
