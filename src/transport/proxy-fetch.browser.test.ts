// In Chromium: a transport whose `fetch` forwards elsewhere (here to the same server under another origin, as a
// proxying fetch would) answers with that other URL. That is no redirect: the answer is used, and a 401 reaches the
// auth provider instead of a RedirectError.
import { describe, expect, inject, it } from 'vitest'
import { RedirectError } from '../errors/redirect-error'
import { StreamableHttpTransport } from './streamable-http'
import type { JsonRpcRequest } from './types'

const servers = inject('servers')
const initialize: JsonRpcRequest = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'proxy-fetch-browser-test', version: '0' } },
}
/** Sends what was meant for 127.0.0.1 to localhost: another origin, the same server. */
const forwarding = (seen: string[]): typeof fetch => (input, init) => {
  const url = String(input).replace('//127.0.0.1:', '//localhost:')
  seen.push(url)
  return fetch(url, init)
}

describe('a fetch that forwards (Chromium)', () => {
  it('its answer, from the URL it forwarded to, is used', async () => {
    const seen: string[] = []
    const transport = new StreamableHttpTransport(servers.legacy.url, { fetch: forwarding(seen) })
    const answer = await transport.request(initialize)
    expect(answer.result).toHaveProperty('protocolVersion')
    expect(seen[0]).toContain('//localhost:')
    await transport.close()
  })

  it('a 401 through it goes to the auth provider, not to a RedirectError', async () => {
    const seen: string[] = []
    let challenged = 0
    const auth = { headers: () => ({}), unauthorized: async (response: Response) => (challenged += response.status === 401 ? 1 : 0, false) }
    const transport = new StreamableHttpTransport(servers.protected!.url, { fetch: forwarding(seen), auth })
    const error = await transport.request(initialize).catch((e: unknown) => e)
    expect(error).not.toBeInstanceOf(RedirectError)
    expect(error).toMatchObject({ name: 'HttpError', status: 401 })
    expect(challenged).toBe(1)
  })
})
