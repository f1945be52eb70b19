import { describe, expect, it } from 'vitest'
import { parseRoot, RootError } from './roots'

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
