// Options that set a limit: a value setTimeout cannot honour (above 2^31-1 ms, negative, NaN) is a RangeError naming
// the option where it was written, never an instant TimeoutError; `false` and `Infinity` mean no limit; and
// `endpointTimeout` takes effect through a Client, on the fallback from Streamable HTTP to HTTP+SSE too.
import { EventSource } from 'eventsource'
import { afterEach, describe, expect, it } from 'vitest'
import { ProtocolError } from '../errors/protocol-error'
import { complete, scriptedClients } from '../testing/scripted-client'
import { openSse, startTestServer, type TestServer } from '../testing/test-server'
import { SseTransport } from '../transport/sse'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { Client, forgetEras } from './client'

const kit = scriptedClients({ unhandled: true })
const tools = (seen: Parameters<Parameters<typeof kit.start>[0]>[0]) => complete(seen, { tools: [] })
const bad = [2 ** 31, -1, Number.NaN, 1e12]

describe('a limit setTimeout cannot honour', () => {
  it.each(bad)("is a RangeError naming the option from the constructors (%s)", (value) => {
    const transport = new StreamableHttpTransport('http://127.0.0.1:1/mcp')
    expect(() => new Client(transport, { timeout: value })).toThrow(new RangeError(`timeout must be a number of ms from 0 to 2147483647, or Infinity or false for no limit (got ${value})`))
    expect(() => new Client(transport, { listenAckTimeout: value })).toThrow(/^listenAckTimeout must be/)
    expect(() => new StreamableHttpTransport('http://127.0.0.1:1/mcp', { endpointTimeout: value })).toThrow(/^endpointTimeout must be/)
    expect(() => new SseTransport('http://127.0.0.1:1/sse', { endpointTimeout: value })).toThrow(/^endpointTimeout must be/)
  })

  it.each(bad)('rejects a request or connect() with a RangeError before anything is sent (%s)', async (value) => {
    const client = await kit.start(tools)
    await expect(client.request('tools/list', {}, { timeout: value })).rejects.toThrow(RangeError)
    await expect(client.connect({ timeout: value })).rejects.toThrow(/^timeout must be/)
    expect(kit.arrived.all).toEqual([])
  })

  it('false and Infinity mean no limit, for the client and for one request', async () => {
    const client = await kit.start(tools, { timeout: false, listenAckTimeout: Infinity })
    await expect(client.request('tools/list', {}, { timeout: Infinity })).resolves.toMatchObject({ tools: [] })
    await expect(client.request('tools/list', {}, { timeout: false })).resolves.toMatchObject({ tools: [] })
    await expect(client.listTools()).resolves.toEqual([])
  })
})

describe('endpointTimeout through a Client', () => {
  let server: TestServer | undefined
  afterEach(async () => {
    await server?.close()
    forgetEras()
  })

  /** An HTTP+SSE server that refuses Streamable HTTP's POST and never announces its endpoint. */
  const silent = async () =>
    (server = await startTestServer((request, res) => {
      if (request.method === 'GET') return openSse(res, {}, ': no endpoint yet\n\n')
      res.writeHead(405).end()
    }))

  it('ends the fallback from Streamable HTTP with ProtocolError no-endpoint, well within the request timeout', async () => {
    const { url } = await silent()
    const client = new Client(new StreamableHttpTransport(url, { EventSource, endpointTimeout: 100 }), { timeout: 60_000 })
    const error = await client.request('tools/list').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect(error).toMatchObject({ reason: 'no-endpoint', message: expect.stringMatching(/no endpoint event within 100 ms$/) })
    await client.close()
  })

  it('ends a request on an SseTransport, though every request of a Client brings a signal', async () => {
    const { origin } = await silent()
    const client = new Client(new SseTransport(`${origin}/sse`, { EventSource, endpointTimeout: 100 }), { timeout: 60_000 })
    await expect(client.request('tools/list')).rejects.toMatchObject({ name: 'ProtocolError', reason: 'no-endpoint' })
    await client.close()
  })
})
