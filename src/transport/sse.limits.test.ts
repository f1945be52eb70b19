// HTTP+SSE: the caller's signal bounds the endpoint wait and the answer; progress reaches its own request;
// a 202 with an empty body is an acceptance whatever it claims to be.
import { EventSource } from 'eventsource'
import { afterEach, describe, expect, it } from 'vitest'
import { AbortError } from '../errors/abort-error'
import { ProtocolError } from '../errors/protocol-error'
import { fakeSse, type FakeSse } from '../testing/fake-sse'
import { event, result, until } from '../testing/test-server'
import { progress } from '../testing/transport-fixtures'
import { SseTransport } from './sse'
import type { JsonRpcRequest, SseTransportOptions } from './types'

const request = (id: number, method = 'tools/list', params?: Record<string, unknown>): JsonRpcRequest => ({ jsonrpc: '2.0', id, method, params })

const open: { fake: FakeSse; transport: SseTransport }[] = []
afterEach(async () => {
  for (const { fake, transport } of open.splice(0)) {
    await transport.close()
    await fake.server.close()
  }
})

async function setup(options: Parameters<typeof fakeSse>[0] = {}, transportOptions: SseTransportOptions = {}) {
  const fake = await fakeSse(options)
  const transport = new SseTransport(`${fake.server.origin}/sse`, { EventSource, ...transportOptions })
  open.push({ fake, transport })
  return { ...fake, transport }
}

describe.each([
  ['EventSource', {}],
  ['fetch', { headers: { 'X-App': '1' } }],
] as const)('HTTP+SSE limits (stream read with %s)', (_kind, streamOptions) => {
  it('openStream honours its signal while the endpoint does not come, with the caller\'s reason', async () => {
    const { transport, server } = await setup({ endpoint: () => undefined }, { ...streamOptions, endpointTimeout: 60_000 })
    const controller = new AbortController()
    const opening = transport.openStream(() => undefined, { signal: controller.signal })
    await until(() => server.requests.length === 1)
    controller.abort(new Error('caller gave up'))
    await expect(opening).rejects.toMatchObject({ name: 'AbortError', reason: new Error('caller gave up') })
    // Nobody waits any more: the half-open stream is closed, not left behind.
    await until(() => server.closedConnections === 1)
  })

  it('endpointTimeout ends the wait of a caller with a longer signal too (a Client always brings one)', async () => {
    const { transport } = await setup({ endpoint: () => undefined }, { ...streamOptions, endpointTimeout: 50 })
    const controller = new AbortController()
    const error = await transport.request(request(1), { signal: controller.signal }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ProtocolError', reason: 'no-endpoint', message: expect.stringMatching(/no endpoint event within 50 ms/) })
  })

  it('endpointTimeout false waits for the endpoint as long as the caller does', async () => {
    const { transport, streams } = await setup({ endpoint: () => undefined }, { ...streamOptions, endpointTimeout: false })
    const answer = transport.request(request(1))
    await until(() => streams.length === 1)
    await new Promise((resolve) => setTimeout(resolve, 20))
    streams[0]!.write('event: endpoint\ndata: /messages?sessionId=s1\n\n')
    await expect(answer).resolves.toEqual(result(1, { session: '/messages?sessionId=s1' }))
  })

  it('without a caller limit, endpointTimeout ends the wait with ProtocolError no-endpoint, not a TimeoutError', async () => {
    const { transport } = await setup({ endpoint: () => undefined }, { ...streamOptions, endpointTimeout: 50 })
    const error = await transport.request(request(1)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect(error).toMatchObject({ reason: 'no-endpoint', message: expect.stringMatching(/no endpoint event within 50 ms/) })
  })

  it('the signal bounds the wait for the answer on the stream too, and the session goes on', async () => {
    let silent = true
    const { transport } = await setup(
      { answer: (post, res, stream) => (res.writeHead(202).end(), silent || stream.write(event(result(post.json.id)))) },
      streamOptions,
    )
    const controller = new AbortController()
    const waiting = transport.request(request(1), { signal: controller.signal })
    await until(() => transport.sessionId === 's1')
    controller.abort('enough')
    await expect(waiting).rejects.toEqual(new AbortError('enough'))
    silent = false
    await expect(transport.request(request(2))).resolves.toEqual(result(2))
  })

  it('progress for a request reaches that request\'s onMessage only; other notifications go to the stream', async () => {
    const { transport } = await setup(
      {
        answer: (post, res, stream) => {
          res.writeHead(202).end()
          if (post.json.id === undefined) return
          const token = post.json.params?._meta?.progressToken
          stream.write(event(progress(1, token)) + event(progress(1, 'someone-else')) + event(result(post.json.id)))
        },
      },
      streamOptions,
    )
    const onStream: unknown[] = []
    await transport.openStream((message) => onStream.push(message))
    const mine: unknown[] = []
    await transport.request(request(1, 'tools/call', { _meta: { progressToken: 7 } }), { onMessage: (m) => mine.push(m) })
    expect(mine).toEqual([progress(1, 7)])
    expect(onStream).toEqual([progress(1, 'someone-else')])
  })

  it.each([
    ['application/json', ''],
    ['text/html', ''],
    ['text/plain', 'Accepted'],
    [undefined, ''],
  ])('a 202 (Content-Type %s, body %j) is an acceptance', async (type, body) => {
    const { transport } = await setup(
      {
        answer: (post, res, stream) => {
          res.writeHead(202, type ? { 'Content-Type': type } : {}).end(body)
          if (post.json.id !== undefined) stream.write(event(result(post.json.id)))
        },
      },
      { ...streamOptions, debug: (message) => expect.unreachable(message) },
    )
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).resolves.toBeUndefined()
    await expect(transport.request(request(1))).resolves.toEqual(result(1))
  })
})
