// Fault family: ids — wrong, duplicate, missing, null — and messages the client never invited. An answer
// settles only the request it names (on 2026-07-28, only the one its POST carried); the rest is a debug line.
import { describe, expect, it, vi } from 'vitest'
import { ProtocolError } from '../../errors/protocol-error'
import { failure, faultKit, settle } from '../../testing/fault-kit'
import { fakeSse } from '../../testing/fake-sse'
import { endSse, event, result, sendJson, until, type Handler } from '../../testing/test-server'
import { echo, legacy, modern } from '../../testing/transport-fixtures'
import { SseTransport } from '../sse'
import { StreamableHttpTransport } from '../streamable-http'

const serve = faultKit()

const once = (fault: Handler): Handler => {
  let done = false
  return (request, res, req) => (done ? echo(request, res, req) : ((done = true), fault(request, res, req)))
}

describe.each([
  ['2026-07-28', modern],
  ['legacy era', legacy],
] as const)('Streamable HTTP (%s): ids', (_era, build) => {
  it.each(([
    ['a wrong id in JSON', ((_r, res) => sendJson(res, result(999))) as Handler, 'content-type', /holds no response with its id/],
    ['a wrong id on SSE', ((_r, res) => endSse(res, event(result(999)))) as Handler, 'stream-ended', /ended before its response/],
    ['a missing id', ((_r, res) => sendJson(res, { jsonrpc: '2.0', result: {} })) as Handler, 'not-json-rpc', /not a JSON-RPC/],
    ['an id of the wrong type', ((_r, res) => sendJson(res, { jsonrpc: '2.0', id: { n: 1 }, result: {} })) as Handler, 'not-json-rpc', /not a JSON-RPC/],
    ['the id as a string instead of a number', ((r, res) => sendJson(res, result(String(r.json.id)))) as Handler, 'content-type', /holds no response/],
    [
      'an id-null error (the server could not read the request)',
      ((_r, res) => sendJson(res, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })) as Handler,
      'content-type',
      /holds no response/,
    ],
    // The reason goes second so the title reads it; a function would print its source there.
  ] as [string, Handler, string, RegExp][]).map(([name, fault, reason, message]) => [name, reason, fault, message] as const))('%s → ProtocolError %s with a debug line; the transport works on', async (_name, reason, fault, message) => {
    const debug = vi.fn()
    const { url } = await serve(once(fault))
    const transport = new StreamableHttpTransport(url, { debug })
    const error = await failure(transport.request(build(1, 'tools/call')))
    expect(error).toBeInstanceOf(ProtocolError)
    expect(error).toMatchObject({ reason, message: expect.stringMatching(message) })
    if (reason !== 'not-json-rpc') expect(debug).toHaveBeenCalledWith(expect.stringMatching(/no pending request/), expect.anything())
    expect((await settle(transport.request(build(2, 'tools/list')))).value).toEqual(result(2, { method: 'tools/list' }))
  })

  it('a duplicate answer: the first settles the request, the second changes nothing', async () => {
    const debug = vi.fn()
    const { url } = await serve((r, res) => endSse(res, event(result(r.json.id, { n: 1 })) + event(result(r.json.id, { n: 2 }))))
    const answer = await settle(new StreamableHttpTransport(url, { debug }).request(build(1, 'x')))
    expect(answer.value).toEqual(result(1, { n: 1 }))
  })

  it('a duplicate id in flight is refused before anything is sent', async () => {
    const { url, requests } = await serve((request, res) => void setImmediate(() => echo(request, res, undefined as never)))
    const transport = new StreamableHttpTransport(url)
    const first = transport.request(build(1, 'x'))
    expect(await failure(transport.request(build(1, 'x')))).toMatchObject({ name: 'ProtocolError', reason: 'duplicate-id' })
    await settle(first)
    expect(requests).toHaveLength(1)
  })
})

describe('Streamable HTTP: answers for other requests', () => {
  it('2026-07-28: an answer for another in-flight request on my stream is dropped; that request still gets its own', async () => {
    const debug = vi.fn()
    let parked: import('node:http').ServerResponse | undefined
    const { url } = await serve((request, res) => {
      if (request.json.id === 1) return void (parked = res)
      endSse(res, event(result(1, { stolen: true })) + event(result(2)))
    })
    const transport = new StreamableHttpTransport(url, { debug })
    const one = transport.request(modern(1, 'a'))
    await until(() => parked !== undefined)
    expect((await settle(transport.request(modern(2, 'b')))).value).toEqual(result(2))
    expect(debug).toHaveBeenCalledWith(expect.stringMatching(/another request/), result(1, { stolen: true }))
    sendJson(parked!, result(1, { own: true }))
    expect((await settle(one)).value).toEqual(result(1, { own: true }))
  })

  it('legacy era: a server request nobody invited goes to the request\'s onMessage, never settles anything', async () => {
    const { url } = await serve((r, res) => endSse(res, event({ jsonrpc: '2.0', id: 'srv-1', method: 'sampling/createMessage', params: {} }) + event(result(r.json.id))))
    const seen: unknown[] = []
    const answer = await settle(new StreamableHttpTransport(url).request(legacy(1, 'x'), { onMessage: (m) => seen.push(m) }))
    expect(answer.value).toEqual(result(1))
    expect(seen).toEqual([{ jsonrpc: '2.0', id: 'srv-1', method: 'sampling/createMessage', params: {} }])
  })
})

describe('HTTP+SSE: ids on the session stream', () => {
  it('wrong, duplicate and null ids are debug lines; the right one settles the request', async () => {
    const debug = vi.fn()
    const { server } = await fakeSse({
      answer: (post, res, stream) => {
        res.writeHead(202).end()
        stream.write(event(result(999)) + event({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }))
        stream.write(event(result(post.json.id, { n: 1 })) + event(result(post.json.id, { n: 2 })))
      },
    })
    const transport = new SseTransport(`${server.origin}/sse`, { debug })
    expect((await settle(transport.request(legacy(1, 'x')))).value).toEqual(result(1, { n: 1 }))
    await until(() => debug.mock.calls.length === 3)
    expect(debug.mock.calls.every(([message]) => /no pending request/.test(message))).toBe(true)
    await transport.close()
    await server.close()
  })
})
