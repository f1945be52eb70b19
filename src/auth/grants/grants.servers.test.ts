// Client credentials against the project's embedded parts: the real authorization server (oidc-provider) in
// front of the embedded modern and legacy MCP servers, whose protected front checks the JWTs it issues.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../client/client'
import { StreamableHttpTransport } from '../../transport/streamable-http'
import { clientCredentials } from './grants'
// @ts-expect-error plain ESM test servers without types
import { startModern } from '../../../scripts/servers/modern.mjs'
// @ts-expect-error plain ESM test servers without types
import { startLegacy } from '../../../scripts/servers/legacy.mjs'
// @ts-expect-error plain ESM test servers without types
import { startOAuthStack } from '../../../scripts/servers/oauth/start.mjs'

interface Stack {
  url: string
  issuer: string
  as: { stats: Record<string, number> }
  close(): Promise<void>
}

const upstreams: { url: string; close(): Promise<void> }[] = []
const stacks: Record<'modern' | 'legacy', Stack> = {} as never

beforeAll(async () => {
  const [modern, legacy] = await Promise.all([startModern(), startLegacy()])
  upstreams.push(modern, legacy)
  stacks.modern = await startOAuthStack({ upstream: modern.url })
  stacks.legacy = await startOAuthStack({ upstream: legacy.url })
})
afterAll(async () => {
  await Promise.all(Object.values(stacks).map((s) => s?.close()))
  await Promise.all(upstreams.map((u) => u.close()))
})

/** A confidential machine client, registered the way an operator would (dynamic registration, client_secret_basic). */
async function registerAgent(issuer: string): Promise<{ client_id: string; client_secret: string }> {
  const response = await fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'nightly report agent', grant_types: ['client_credentials'], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'client_secret_basic' }),
  })
  expect(response.status).toBe(201)
  return response.json()
}

describe.each(['modern', 'legacy'] as const)('client credentials against the protected embedded %s server', (kind) => {
  it('gets a token on the first 401, lists the real tools with it, and reuses it', async () => {
    const stack = stacks[kind]
    const agent = await registerAgent(stack.issuer)
    const tokensBefore = stack.as.stats.token ?? 0
    const client = new Client(new StreamableHttpTransport(stack.url, { auth: clientCredentials({ clientId: agent.client_id, clientSecret: agent.client_secret }) }))
    const { tools } = await client.request('tools/list')
    expect(tools.length).toBeGreaterThan(0)
    await client.request('tools/list')
    expect(client.era).toBe(kind)
    expect((stack.as.stats.token ?? 0) - tokensBefore).toBe(1)
    await client.close()
  })

  it('a wrong secret ends in an OAuthError carrying the AS error', async () => {
    const stack = stacks[kind]
    const agent = await registerAgent(stack.issuer)
    const client = new Client(new StreamableHttpTransport(stack.url, { auth: clientCredentials({ clientId: agent.client_id, clientSecret: 'not-the-secret' }) }))
    await expect(client.request('tools/list')).rejects.toMatchObject({ name: 'OAuthError', code: 'token', detail: 'invalid_client' })
    await client.close()
  })
})
