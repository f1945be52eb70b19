// The fault matrix's Chromium subset: what only a browser decides (redirects fetched 'manual' come back opaque,
// CORS, the native EventSource). The `faults` server (scripts/servers/faults.mjs) has a second origin that
// records whatever reaches it, so "nothing went there" is checked, not assumed.
import { beforeEach, describe, expect, inject, it } from 'vitest'
import { NetworkError } from '../../errors/network-error'
import { ProtocolError } from '../../errors/protocol-error'
import { RedirectError } from '../../errors/redirect-error'
import { SseTransport } from '../sse'
import { StreamableHttpTransport } from '../streamable-http'
import type { JsonRpcRequest } from '../types'

const faults = inject('servers').faults
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
const call: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { secret: 'x' }, _meta: meta } }
const seen = async () => (await (await fetch(`${faults.control}/seen`)).json()) as { method: string; path: string }[]

beforeEach(async () => {
  await fetch(`${faults.control}/seen/reset`, { method: 'POST' })
})

describe('redirects in Chromium', () => {
  it.each([307, 308, 302])('a %i to another origin is refused as a hidden redirect; nothing reaches the other origin', async (status) => {
    const transport = new StreamableHttpTransport(`${faults.url}/redirect-cross?status=${status}`, {
      headers: { 'X-App-Secret': 's3cret' },
      auth: { headers: () => ({ Authorization: 'Bearer t0ken' }), unauthorized: async () => false },
    })
    const error = await transport.request(call).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RedirectError)
    expect(error).toMatchObject({ name: 'RedirectError', refusal: 'hidden', location: undefined })
    expect(String(error)).toMatch(/^RedirectError: Refused a redirect from .*redirect-cross/)
    expect(await seen()).toEqual([])
    expect(transport.sessionId).toBeUndefined()
  })

  it('even a same-origin redirect is refused in a browser (its target is hidden), and the transport works on', async () => {
    const transport = new StreamableHttpTransport(`${faults.url}/redirect-same`)
    await expect(transport.request(call)).rejects.toMatchObject({ name: 'RedirectError', refusal: 'hidden' })
    const direct = new StreamableHttpTransport(`${faults.url}/echo`)
    await expect(direct.request(call)).resolves.toMatchObject({ result: { echoed: true } })
  })

  it('HTTP+SSE read with fetch (headers set): a redirected stream is refused the same way', async () => {
    const transport = new SseTransport(`${faults.url}/redirect-cross`, { headers: { 'X-App': '1' } })
    await expect(transport.request({ jsonrpc: '2.0', id: 1, method: 'initialize' })).rejects.toMatchObject({ name: 'RedirectError', refusal: 'hidden' })
    expect(await seen()).toEqual([])
    await transport.close()
  })
})

describe('HTTP+SSE endpoint on another origin in Chromium', () => {
  it.each([
    ['the native EventSource', {}],
    ['fetch', { headers: { 'X-App': '1' } }],
  ])('with %s: refused before any POST, with a ProtocolError naming it', async (_kind, options) => {
    const transport = new SseTransport(`${faults.url}/sse-cross-endpoint`, options)
    const error = await transport.request({ jsonrpc: '2.0', id: 1, method: 'initialize' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect((error as Error).message).toContain(`Refusing endpoint ${faults.control}/messages`)
    expect(await seen()).toEqual([])
    await transport.close()
  })
})

describe('CORS in Chromium', () => {
  it('a refused preflight is a NetworkError that names the headers to allow, and reaches no other origin', async () => {
    const error = await new StreamableHttpTransport(`${faults.url}/no-cors`).request(call).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ possibleCors: true, message: expect.stringContaining('Mcp-Session-Id') })
  })
})
