import { describe, expect, it } from 'vitest'
import { parseBearerChallenge } from './challenge'

describe('parseBearerChallenge', () => {
  it('reads resource_metadata, scope and error, quoted or not', () => {
    expect(parseBearerChallenge('Bearer error="invalid_token", scope="a b", resource_metadata="http://x/.well-known/oauth-protected-resource/mcp"')).toEqual({
      error: 'invalid_token',
      scope: 'a b',
      resource_metadata: 'http://x/.well-known/oauth-protected-resource/mcp',
    })
    expect(parseBearerChallenge('bearer error=insufficient_scope')).toEqual({ error: 'insufficient_scope', scope: undefined, resource_metadata: undefined })
  })

  it('finds the Bearer challenge among others and unescapes quoted pairs', () => {
    expect(parseBearerChallenge('Basic realm="x", Bearer scope="say \\"hi\\""').scope).toBe('say "hi"')
  })

  it('gives nothing for a missing header or another scheme', () => {
    expect(parseBearerChallenge(null)).toEqual({})
    expect(parseBearerChallenge('Basic realm="x"')).toEqual({})
  })
})
