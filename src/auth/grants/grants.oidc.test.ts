// The machine grants against a real authorization server (oidc-provider) and a protected endpoint that verifies
// its JWT access tokens, through the real Client and StreamableHttpTransport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../client/client'
import { OAuthError } from '../../errors/oauth-error'
import { startGrantStack, type GrantStack } from '../../testing/grants-stack'
import { StreamableHttpTransport } from '../../transport/streamable-http'
import type { AuthProvider } from '../../transport/types'
import { clientCredentials, jwtBearer } from './grants'

let stack: GrantStack
beforeAll(async () => {
  stack = await startGrantStack()
})
afterAll(() => stack.close())

const connect = (auth: AuthProvider) => new Client(new StreamableHttpTransport(stack.mcpUrl, { auth }))
const listTools = async (client: Client) => ((await client.request('tools/list')) as { tools: { name: string }[] }).tools.map((t) => t.name)

describe('machine grants against oidc-provider', () => {
  it('client credentials with client_secret_basic: one token, reused for the next requests', async () => {
    const before = stack.tokenRequests.length
    const client = connect(clientCredentials({ clientId: 'agent', clientSecret: 'agent-secret' }))
    expect(await listTools(client)).toEqual(['whoami'])
    expect(await listTools(client)).toEqual(['whoami'])
    expect(stack.tokenRequests.slice(before)).toEqual(['client_credentials'])
    await client.close()
  })

  it('client credentials with private_key_jwt from a JWK', async () => {
    const client = connect(clientCredentials({ clientId: 'agent-jwt', privateKey: stack.agentJwk as JsonWebKey }))
    expect(await listTools(client)).toEqual(['whoami'])
    await client.close()
  })

  it('a wrong secret is an OAuthError with the AS error, after exactly one token request', async () => {
    const before = stack.tokenRequests.length
    const client = connect(clientCredentials({ clientId: 'agent', clientSecret: 'wrong' }))
    const error = await listTools(client).catch((e) => e)
    expect(error).toBeInstanceOf(OAuthError)
    expect(error).toMatchObject({ code: 'token', detail: 'invalid_client' })
    expect(stack.tokenRequests.length).toBe(before)
    await client.close()
  })

  it('the JWT bearer grant trades a workload assertion addressed to the AS for a token', async () => {
    const contexts: unknown[] = []
    const auth = jwtBearer({
      clientId: 'workload',
      assertion: (context) => {
        contexts.push(context)
        return stack.workloadJwt()
      },
    })
    const client = connect(auth)
    expect(await listTools(client)).toEqual(['whoami'])
    expect(contexts).toEqual([{ issuer: stack.issuer, tokenEndpoint: `${stack.issuer}/token`, resource: stack.mcpUrl }])
    await client.close()
  })

  it('an expired assertion is refused by the AS as invalid_grant, with its description', async () => {
    const client = connect(jwtBearer({ clientId: 'workload', assertion: () => stack.workloadJwt({ expiresIn: '-60s' }) }))
    const error = await listTools(client).catch((e) => e)
    expect(error).toMatchObject({ name: 'OAuthError', code: 'token', detail: 'invalid_grant' })
    expect(error.error_description).toBe('grant request is invalid')
    await client.close()
  })

  it('a token the server stops accepting is replaced once, then the request goes through', async () => {
    const before = stack.tokenRequests.length
    const client = connect(clientCredentials({ clientId: 'agent', clientSecret: 'agent-secret' }))
    await listTools(client)
    stack.revokeNext(1)
    expect(await listTools(client)).toEqual(['whoami'])
    expect(stack.tokenRequests.length - before).toBe(2)
    await client.close()
  })
})
