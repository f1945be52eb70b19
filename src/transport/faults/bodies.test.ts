// Fault family: what a body holds — malformed JSON, HTML pages, invalid UTF-8, result and error together,
// batches, huge bodies and gzip bombs, `__proto__`/`constructor` keys. Typed errors that say what was wrong,
// within the size limit whatever the body claims, and the transport works on.
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { ProtocolError } from '../../errors/protocol-error'
import { failure, faultKit, settle } from '../../testing/fault-kit'
import { fakeSse } from '../../testing/fake-sse'
import { endSse, event, result, sendJson, type Handler } from '../../testing/test-server'
import { echo, legacy, modern } from '../../testing/transport-fixtures'
import { SseTransport } from '../sse'
import { StreamableHttpTransport } from '../streamable-http'

const serve = faultKit()
const LIMIT = 64 * 1024

const once = (fault: Handler): Handler => {
  let done = false
  return (request, res, req) => (done ? echo(request, res, req) : ((done = true), fault(request, res, req)))
}
const raw = (type: string, body: string | Buffer, headers: Record<string, string> = {}): Handler => (_r, res) =>
  void res.writeHead(200, { 'Content-Type': type, ...headers }).end(body)

describe.each([
  ['2026-07-28', modern],
  ['legacy era', legacy],
] as const)('Streamable HTTP (%s): bad bodies', (_era, build) => {
  const cases: [string, Handler, string, RegExp][] = [
    ['malformed JSON', raw('application/json', '{"jsonrpc":"2.0","id":1,'), 'malformed-json', /malformed JSON/],
    ['an HTML page with 200', raw('text/html', '<!doctype html><h1>Sign in</h1>'), 'content-type', /got "text\/html"/],
    ['result and error together', (r, res) => sendJson(res, { jsonrpc: '2.0', id: r.json.id, result: {}, error: { code: 1, message: 'x' } }), 'not-json-rpc', /not a JSON-RPC/],
    ['a batch with no answer for the request', (_r, res) => sendJson(res, [result(77), result(78)]), 'content-type', /holds no response with its id/],
    ['a body over the limit, declared', (r, res) => sendJson(res, result(r.json.id, { pad: 'x'.repeat(LIMIT) })), 'too-large', /exceeds the limit/],
    [
      'a body over the limit, chunked without a length',
      (r, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        for (let i = 0; i < 8; i++) res.write(i ? 'x'.repeat(LIMIT / 4) : `{"jsonrpc":"2.0","id":${r.json.id},"result":{"pad":"`)
        res.end('"}}')
      },
      'too-large',
      /exceeds the limit/,
    ],
    ['a gzip bomb (64 MiB of zeros in a small body)', raw('application/json', gzipSync(Buffer.alloc(64 * 1024 * 1024, 48)), { 'Content-Encoding': 'gzip' }), 'too-large', /exceeds the limit/],
    ['an SSE event over the limit', (r, res) => endSse(res, event(result(r.json.id, { pad: 'x'.repeat(LIMIT) }))), 'too-large', /SSE event exceeds/],
    ['SSE data that is an HTML page', (_r, res) => endSse(res, 'data: <html>\n\n'), 'malformed-json', /malformed JSON/],
  ]

  // The reason goes second so the title reads it; a function would print its source there.
  it.each(cases.map(([name, fault, reason, message]) => [name, reason, fault, message] as const))(
    '%s → ProtocolError %s, then the next request works',
    async (_name, reason, fault, message) => {
      const { url } = await serve(once(fault))
      const transport = new StreamableHttpTransport(url, { maxBodyBytes: LIMIT })
      const error = await failure(transport.request(build(1, 'tools/call')))
      expect(error).toBeInstanceOf(ProtocolError)
      expect(error).toMatchObject({ reason, message: expect.stringMatching(message) })
      expect((await settle(transport.request(build(2, 'tools/list')))).value).toEqual(result(2, { method: 'tools/list' }))
    },
  )

  it('invalid UTF-8 is read as U+FFFD, as fetch text() would, and the answer still arrives', async () => {
    const head = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"text":"a')
    const { url } = await serve(raw('application/json', Buffer.concat([head, Buffer.from([0xff, 0xfe]), Buffer.from('"}}')])))
    const answer = await settle(new StreamableHttpTransport(url).request(build(1, 'x')))
    expect(answer.value).toEqual(result(1, { text: 'a\ufffd\ufffd' }))
  })

  // A chunked body's bytes are decoded once, at its end: a character split between two chunks is read whole.
  it('a chunked answer whose characters straddle its chunks arrives whole', async () => {
    const bytes = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"text":"${'é€😀'.repeat(3)}"}}`)
    const { url } = await serve(async (_r, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      // Cuts inside é, € and 😀, each written apart so that each arrives as its own chunk.
      for (const [from, to] of [[0, 43], [43, 46], [46, 49], [49, 52], [52, bytes.length]]) {
        res.write(bytes.subarray(from, to))
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      res.end()
    })
    const answer = await settle(new StreamableHttpTransport(url).request(build(1, 'x')))
    expect(answer.value).toEqual(result(1, { text: 'é€😀'.repeat(3) }))
  })

  it('an error body over the limit, chunked, reaches the HttpError cut at the limit', async () => {
    const { url } = await serve((_r, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' })
      for (let i = 0; i < 4; i++) res.write('y'.repeat(LIMIT / 2))
      res.end()
    })
    const error = await failure(new StreamableHttpTransport(url, { maxBodyBytes: LIMIT }).request(build(1, 'x')))
    expect(error).toMatchObject({ name: 'HttpError', status: 500, body: 'y'.repeat(LIMIT) })
  })

  it('__proto__ and constructor keys stay plain data: nothing is polluted', async () => {
    const { url } = await serve(raw('application/json', '{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}'))
    const answer = await settle(new StreamableHttpTransport(url).request(build(1, 'x')))
    expect(Object.hasOwn(answer.value!.result!, '__proto__')).toBe(true)
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(answer.value!.result)).toBe(Object.prototype)
  })
})

describe('Streamable HTTP (legacy era): batches', () => {
  it('a batch answers several pending requests at once, in any order', async () => {
    let first: import('node:http').ServerResponse | undefined
    const { url } = await serve((request, res) => {
      if (request.json.id === 1) return void (first = res)
      sendJson(res, [result(2, { n: 2 }), result(1, { n: 1 })])
    })
    const transport = new StreamableHttpTransport(url)
    // Request 1 is pending from here on, whether or not its POST has reached the server.
    const one = transport.request(legacy(1, 'a'))
    const two = transport.request(legacy(2, 'b'))
    expect((await settle(two)).value).toEqual(result(2, { n: 2 }))
    expect((await settle(one)).value).toEqual(result(1, { n: 1 }))
    first?.end()
  })
})

describe('HTTP+SSE: bad bodies on the session stream', () => {
  it('malformed JSON, an HTML line and result-with-error are dropped with debug lines; the session serves on', async () => {
    const debug: string[] = []
    const { server } = await fakeSse({
      answer: (post, res, stream) => {
        res.writeHead(202).end()
        stream.write('data: {oops\n\n' + 'data: <html>\n\n')
        stream.write(event({ jsonrpc: '2.0', id: post.json.id, result: {}, error: { code: 1, message: 'both' } }))
        stream.write(event(result(post.json.id)))
      },
    })
    const transport = new SseTransport(`${server.origin}/sse`, { debug: (message) => debug.push(message) })
    expect((await settle(transport.request(legacy(1, 'tools/list')))).value).toEqual(result(1))
    expect(debug).toEqual(['ignoring a malformed SSE message', 'ignoring a malformed SSE message', 'ignoring a malformed SSE message'])
    await transport.close()
    await server.close()
  })

  it('an SSE event over the limit ends the session with ProtocolError too-large', async () => {
    const { server } = await fakeSse({
      answer: (_post, res, stream) => (res.writeHead(202).end(), stream.write(`data: ${'x'.repeat(LIMIT * 2)}\n\n`)),
    })
    const transport = new SseTransport(`${server.origin}/sse`, { maxBodyBytes: LIMIT })
    expect(await failure(transport.request(legacy(1, 'tools/list')))).toMatchObject({ name: 'ProtocolError', reason: 'too-large' })
    await transport.close()
    await server.close()
  })
})
