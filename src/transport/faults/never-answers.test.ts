// Fault family: servers that never answer, at each stage a transport waits on — the POST, the request's SSE
// stream, opening the GET stream, the HTTP+SSE endpoint and its answer. The caller's signal ends every wait
// with AbortError carrying its reason (the client turns its own timeout into that signal); close() ends what
// has no signal. The connection is let go, and the transport works on.
import { describe, expect, it } from 'vitest'
import { AbortError } from '../../errors/abort-error'
import { failure, faultKit, settle } from '../../testing/fault-kit'
import { fakeSse } from '../../testing/fake-sse'
import { openSse, result, until, type Handler } from '../../testing/test-server'
import { echo, legacy, modern } from '../../testing/transport-fixtures'
import { SseTransport } from '../sse'
import { StreamableHttpTransport } from '../streamable-http'

const serve = faultKit()
const reason = new Error('the caller gave up')

/** Hangs the first request of `method` (GET/POST) the way `hang` does; answers everything else. */
const hangFirst = (method: string, hang: Handler): Handler => {
  let hung = false
  return (request, res, req) => {
    if (!hung && request.method === method) return void ((hung = true), hang(request, res, req))
    if (request.method === 'GET') return openSse(res)
    echo(request, res, req)
  }
}
const silent: Handler = () => undefined
const openButSilent: Handler = (_r, res) => openSse(res)

describe.each([
  ['2026-07-28', modern],
  ['legacy era', legacy],
] as const)('Streamable HTTP (%s): a request that never gets its answer', (_era, build) => {
  it.each([
    ['no response at all', silent],
    ['an SSE stream that stays silent', openButSilent],
  ])('%s: the signal ends it with AbortError(reason) and lets the connection go', async (_name, hang) => {
    const server = await serve(hangFirst('POST', hang))
    const transport = new StreamableHttpTransport(server.url)
    const controller = new AbortController()
    const pending = transport.request(build(1, 'tools/call'), { signal: controller.signal })
    await until(() => server.requests.length === 1)
    controller.abort(reason)
    const error = await failure(pending)
    expect(error).toBeInstanceOf(AbortError)
    expect(error).toMatchObject({ reason })
    await until(() => server.closedConnections >= 1)
    expect((await settle(transport.request(build(2, 'tools/list')))).value).toEqual(result(2, { method: 'tools/list' }))
  })

  it('without a signal, close() ends the wait with AbortError', async () => {
    const server = await serve(hangFirst('POST', silent))
    const transport = new StreamableHttpTransport(server.url)
    const pending = transport.request(build(1, 'tools/call'))
    await until(() => server.requests.length === 1)
    await transport.close()
    expect(await failure(pending)).toMatchObject({ name: 'AbortError', reason: 'transport closed' })
  })
})

describe('Streamable HTTP: a GET stream that never opens', () => {
  it('openStream honours its signal while the server sends no headers, then a new stream opens', async () => {
    const server = await serve(hangFirst('GET', silent))
    const transport = new StreamableHttpTransport(server.url)
    const controller = new AbortController()
    const opening = transport.openStream(() => undefined, { signal: controller.signal })
    await until(() => server.requests.length === 1)
    controller.abort(reason)
    expect(await failure(opening)).toMatchObject({ name: 'AbortError', reason })
    const stream = await settle(transport.openStream(() => undefined))
    expect(stream.value).toBeDefined()
    stream.value!.close()
  })

  it('the signal bounds only the opening: aborting it later leaves an open stream alone', async () => {
    const server = await serve((_r, res) => openSse(res))
    const transport = new StreamableHttpTransport(server.url)
    const controller = new AbortController()
    const stream = await transport.openStream(() => undefined, { signal: controller.signal })
    controller.abort(reason)
    let ended = false
    void stream!.closed.then(() => (ended = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(ended).toBe(false)
    stream!.close()
    expect((await settle(stream!.closed)).error).toBeUndefined()
  })

  it('an already aborted signal sends no GET at all', async () => {
    const server = await serve((_r, res) => openSse(res))
    const controller = new AbortController()
    controller.abort(reason)
    expect(await failure(new StreamableHttpTransport(server.url).openStream(() => undefined, { signal: controller.signal }))).toMatchObject({ reason })
    expect(server.requests).toHaveLength(0)
  })
})

describe('HTTP+SSE: no endpoint, and no answer', () => {
  it('a server that never announces the endpoint: request and openStream end with their signals', async () => {
    const { server } = await fakeSse({ endpoint: () => undefined })
    const transport = new SseTransport(`${server.origin}/sse`, { endpointTimeout: 60_000 })
    const controller = new AbortController()
    const requested = transport.request(legacy(1, 'initialize'), { signal: controller.signal })
    const opened = transport.openStream(() => undefined, { signal: controller.signal })
    await until(() => server.requests.length === 1)
    controller.abort(reason)
    expect(await failure(requested)).toMatchObject({ name: 'AbortError', reason })
    expect(await failure(opened)).toMatchObject({ name: 'AbortError', reason })
    await until(() => server.closedConnections === 1)
    await server.close()
  })

  it('a POST the server never answers: the signal ends it, and the session serves the next request', async () => {
    let hung = false
    const { server, streams } = await fakeSse({
      answer: (post, res, stream) => {
        if (!hung) return void (hung = true)
        res.writeHead(202).end()
        stream.write(`data: ${JSON.stringify(result(post.json.id))}\n\n`)
      },
    })
    const transport = new SseTransport(`${server.origin}/sse`)
    const controller = new AbortController()
    const pending = transport.request(legacy(1, 'tools/call'), { signal: controller.signal })
    await until(() => server.requests.length === 2)
    controller.abort(reason)
    expect(await failure(pending)).toMatchObject({ name: 'AbortError', reason })
    expect((await settle(transport.request(legacy(2, 'tools/list')))).value).toEqual(result(2))
    expect(streams).toHaveLength(1)
    await transport.close()
    await server.close()
  })
})
