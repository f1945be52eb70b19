// In a real page (Chromium), the machine grants refuse to hold credentials unless the app opts in.
import { describe, expect, it } from 'vitest'
import { OAuthError } from '../../errors/oauth-error'
import { clientCredentials, enterpriseManaged, jwtBearer } from './grants'

describe('machine grants in a web page', () => {
  it('refuse to start, saying why and how to opt in', () => {
    let error: unknown
    try {
      clientCredentials({ clientId: 'a', clientSecret: 'b' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(OAuthError)
    expect(error).toMatchObject({ code: 'refused_in_browser' })
    expect((error as Error).message).toMatch(/allowInBrowser: true/)
    expect(() => jwtBearer({ clientId: 'w', assertion: () => 'x' })).toThrow(OAuthError)
    expect(() => enterpriseManaged({ clientId: 'a', clientSecret: 'b', idp: { issuer: 'https://idp.example', clientId: 'c' }, idToken: () => 'x' })).toThrow(OAuthError)
  })

  it('start when the app opts in, holding no token until the server asks for one', async () => {
    const auth = clientCredentials({ clientId: 'a', clientSecret: 'b', allowInBrowser: true })
    expect(await auth.headers({ url: 'https://mcp.example/mcp', method: 'POST' })).toEqual({})
  })
})
