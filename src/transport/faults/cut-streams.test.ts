// Fault family: streams and connections cut short — mid-event, before the result, by a reset — on 2026-07-28,
// legacy-era Streamable HTTP and HTTP+SSE. Each ends in a typed error that says so, and the next request works.
import { describe, expect, it } from 'vitest'
import { NetworkError } from '../../errors/network-error'
import { ProtocolError } from '../../errors/protocol-error'
import { failure, faultKit, settle } from '../../testing/fault-kit'
import { fakeSse } from '../../testing/fake-sse'
import { event, openSse, result, type Handler } from '../../testing/test-server'
import { echo, legacy, modern, progress } from '../../testing/transport-fixtures'
import { SseTransport } from '../sse'
import { StreamableHttpTransport } from '../streamable-http'

const serve = faultKit()

/** Serves `fault` to the first request, then answers normally. */
const once = (fault: Handler): Handler => {
  let done = false
  return (request, res, req) => (done ? echo(request, res, req) : ((done = true), fault(request, res, req)))
}

const half = JSON.stringify(result(1)).slice(0, 10)

describe.each([
  ['2026-07-28', modern],
  ['legacy era', legacy],
] as const)('Streamable HTTP (%s)', (_era, build) => {
  const cases: [string, Handler, new (...args: never[]) => Error, RegExp][] = [
    ['a stream that ends mid-event', (_r, res) => void (openSse(res, {}, event(progress(1)), `data: ${half}`), res.end()), ProtocolError, /ended before its response/],
    ['a stream cut (reset) mid-event', (_r, res) => void (openSse(res, {}, `data: ${half}`), setImmediate(() => res.destroy())), NetworkError, /Could not reach/],
    ['a stream that ends before the result', (_r, res) => void (openSse(res, {}, event(progress(1))), res.end()), ProtocolError, /ended before its response/],
    ['a JSON body cut short', (_r, res) => void (res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' }), res.write(half), setImmediate(() => res.destroy())), NetworkError, /Could not reach/],
    ['a connection reset before any response', (_r, _res, req) => void req.socket.destroy(), NetworkError, /Could not reach/],
  ]

  it.each(cases)('%s: typed error, and the transport works on', async (_name, fault, type, message) => {
    const { url } = await serve(once(fault))
    const transport = new StreamableHttpTransport(url)
    const error = await failure(transport.request(build(1, 'tools/call')))
    expect(error).toBeInstanceOf(type)
    expect((error as Error).message).toMatch(message)
    if (error instanceof ProtocolError) expect(error).toMatchObject({ reason: 'stream-ended', streamClosed: true })
    expect((await settle(transport.request(build(2, 'tools/list')))).value).toEqual(result(2, { method: 'tools/list' }))
  })
})

describe('Streamable HTTP: the session (GET) stream cut', () => {
  it('a GET stream reset mid-event rejects `closed` with NetworkError; a new stream opens afterwards', async () => {
    let cut = true
    const { url } = await serve((_r, res) => {
      openSse(res, {}, `data: ${half}`)
      if (cut) setImmediate(() => res.destroy())
      cut = false
    })
    const transport = new StreamableHttpTransport(url)
    const stream = await transport.openStream(() => undefined)
    expect(await failure(stream!.closed)).toBeInstanceOf(NetworkError)
    const again = await transport.openStream(() => undefined)
    again!.close()
    expect((await settle(again!.closed)).error).toBeUndefined()
  })
})

describe('HTTP+SSE: the session stream cut', () => {
  it.each([
    ['ends mid-event', (stream: import('node:http').ServerResponse) => (stream.write(`data: ${half}`), stream.end())],
    ['is reset mid-event', (stream: import('node:http').ServerResponse) => (stream.write(`data: ${half}`), setImmediate(() => stream.destroy()))],
  ])('when it %s, the pending request fails with stream-ended and the next one opens a new session', async (_name, cut) => {
    let first = true
    const { server } = await fakeSse({
      answer: (post, res, stream) => {
        res.writeHead(202).end()
        if (first) return void ((first = false), cut(stream))
        stream.write(event(result(post.json.id)))
      },
    })
    const transport = new SseTransport(`${server.origin}/sse`)
    const error = await failure(transport.request(legacy(1, 'tools/list')))
    expect(error).toBeInstanceOf(ProtocolError)
    expect(error).toMatchObject({ reason: 'stream-ended', message: expect.stringMatching(/session has ended/) })
    expect((await settle(transport.request(legacy(2, 'tools/list')))).value).toEqual(result(2))
    expect(transport.sessionId).toBe('s2')
    await transport.close()
    await server.close()
  })
})

describe('HTTP+SSE: a stream that ends before its endpoint event', () => {
  it('fails the request with ProtocolError stream-ended that says so (read with fetch)', async () => {
    const { server } = await fakeSse({ get: (_r, res) => (openSse(res, {}, ': nothing to see\n\n'), res.end(), true) })
    const transport = new SseTransport(`${server.origin}/sse`)
    const error = await failure(transport.request(legacy(1, 'initialize')))
    expect(error).toMatchObject({ name: 'ProtocolError', reason: 'stream-ended', message: expect.stringMatching(/before its endpoint event/) })
    await server.close()
  })
})
