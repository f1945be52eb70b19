// The handshake era's stream code (legacy/: the GET session stream, requests a 202 parks on it, resumption) is a
// chunk loaded on demand: when it loads, and what an operation sees when it cannot. The load is played by a
// stand-in for load-legacy.ts that counts loads and can fail (as a browser's import() does when the chunk cannot be
// fetched) or wait for a gate; a scripted HTTP server plays each era.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { AbortError } from '../errors/abort-error'
import { NetworkError } from '../errors/network-error'
import { failure, faultKit } from '../testing/fault-kit'
import { endSse, event, openSse, result, sendJson } from '../testing/test-server'
import { echo, legacy, modern, progress } from '../testing/transport-fixtures'
import { StreamableHttpTransport } from './streamable-http'

const chunk = await vi.hoisted(async () => new (await import('../testing/chunk-stand-in')).ChunkStandIn())

vi.mock('./load-legacy', () => ({
  loadLegacyStreams: () => chunk.load(() => vi.importActual('./legacy')),
}))

beforeEach(() => chunk.reset())

const serve = faultKit()
const gate = () => chunk.hold()

describe('when the handshake era\'s stream code loads', () => {
  it('a 2026-07-28 exchange never loads it: JSON, SSE, a stream cut short with event ids, a 202', async () => {
    const { url } = await serve((request, res) => {
      const { id, method } = request.json
      if (method === 'json') return sendJson(res, result(id, { resultType: 'complete' }))
      if (method === 'sse') return endSse(res, event(progress(1), '1'), event(result(id, { resultType: 'complete' }), '2'))
      if (method === 'cut') return endSse(res, 'id: 1\nretry: 5\ndata: \n\n')
      res.writeHead(202).end()
    })
    const transport = new StreamableHttpTransport(url)
    await expect(transport.request(modern(1, 'json'))).resolves.toMatchObject({ id: 1 })
    await expect(transport.request(modern(2, 'sse'), { onMessage: () => undefined })).resolves.toMatchObject({ id: 2 })
    await expect(transport.request(modern(3, 'cut'))).rejects.toMatchObject({ streamClosed: true })
    await expect(transport.request(modern(4, 'accepted'))).rejects.toThrow(/202 Accepted/)
    await transport.close()
    expect(chunk.loads).toBe(0)
  })

  it('the first handshake-era request starts loading it, once, and its answer does not wait for it', async () => {
    gate()
    const { url } = await serve(echo)
    const transport = new StreamableHttpTransport(url)
    // The chunk never arrives in this test: answers that came anyway prove nothing waited for it.
    await expect(transport.request(legacy(1, 'initialize'))).resolves.toEqual(result(1, { method: 'initialize' }))
    await expect(transport.request(legacy(2, 'tools/list'))).resolves.toEqual(result(2, { method: 'tools/list' }))
    expect(chunk.loads).toBe(1)
  })

  it('a GET stream asked for while the code loads still reaches the server before requests sent after it', async () => {
    const open = gate()
    const { url, requests } = await serve((request, res) => (request.method === 'GET' ? openSse(res) : sendJson(res, result(request.json.id, {}))))
    const transport = new StreamableHttpTransport(url)
    const stream = transport.openStream(() => undefined)
    const call = transport.request(legacy(1, 'tools/call'))
    await chunk.started.nth(1)
    open()
    await call
    await stream
    // Servers may tell a session stream from a resumption by what came first (the conformance suite's sse-retry does).
    expect(requests.map((r) => r.method)).toEqual(['GET', 'POST'])
    await transport.close()
  })

  it('a GET whose code never arrives holds the session\'s later requests for two seconds at most', async () => {
    gate()
    const { url, requests } = await serve((request, res) => sendJson(res, result(request.json.id, {})))
    const transport = new StreamableHttpTransport(url)
    const stream = transport.openStream(() => undefined, { signal: AbortSignal.timeout(60_000) })
    stream.catch(() => undefined)
    const started = Date.now()
    await expect(transport.request(legacy(1, 'tools/call'))).resolves.toEqual(result(1, {}))
    // The cap is 2 s; the bound leaves room for a busy machine (the stream's own limit is 60 s).
    expect(Date.now() - started).toBeLessThan(5000)
    expect(requests.map((r) => r.method)).toEqual(['POST'])
    await transport.close()
  })
})

describe('when the chunk cannot be fetched', () => {
  it('openStream fails with a NetworkError that names it, sends no GET, and the next openStream loads it again', async () => {
    const { url, requests } = await serve((_request, res) => openSse(res))
    const transport = new StreamableHttpTransport(url)
    chunk.offline = true
    const error = await failure(transport.openStream(() => undefined))
    expect(error).toBeInstanceOf(NetworkError)
    expect((error as NetworkError).message).toMatch(/servers before 2026-07-28 \(loaded on demand\)/)
    expect((error as NetworkError).cause).toBeInstanceOf(TypeError)
    expect(requests).toHaveLength(0)
    chunk.offline = false
    const stream = await transport.openStream(() => undefined)
    expect(stream).toBeDefined()
    expect(requests.map((r) => r.method)).toEqual(['GET'])
    await transport.close()
    await expect(stream!.closed).resolves.toBeUndefined()
  })

  it('a stream that needs resuming fails only its own request, with a NetworkError; other requests go on', async () => {
    const { url, requests } = await serve((request, res) => {
      if (request.json.method === 'cut') return endSse(res, 'id: 1\nretry: 5\ndata: \n\n')
      echo(request, res, undefined as never)
    })
    const transport = new StreamableHttpTransport(url)
    chunk.offline = true
    await expect(failure(transport.request(legacy(1, 'cut')))).resolves.toBeInstanceOf(NetworkError)
    await expect(transport.request(legacy(2, 'tools/list'))).resolves.toEqual(result(2, { method: 'tools/list' }))
    expect(requests.map((r) => r.method)).toEqual(['POST', 'POST'])
  })
})

describe('while the chunk is slow to arrive', () => {
  it("openStream's signal ends the wait with the caller's reason, and no GET is sent", async () => {
    gate()
    const { url, requests } = await serve((_request, res) => openSse(res))
    const controller = new AbortController()
    const opening = new StreamableHttpTransport(url).openStream(() => undefined, { signal: controller.signal })
    controller.abort('the caller gave up')
    const error = await failure(opening)
    expect(error).toBeInstanceOf(AbortError)
    expect(error).toMatchObject({ reason: 'the caller gave up' })
    expect(requests).toHaveLength(0)
  })

  it('close() ends the wait with AbortError, and the stream is not opened once the code arrives', async () => {
    const open = gate()
    const { url, requests } = await serve((_request, res) => openSse(res))
    const transport = new StreamableHttpTransport(url)
    const opening = transport.openStream(() => undefined)
    await transport.close()
    open()
    await expect(failure(opening)).resolves.toMatchObject({ name: 'AbortError', reason: 'transport closed' })
    expect(requests).toHaveLength(0)
  })

  it('a request whose stream awaits resumption ends by its signal while the code loads', async () => {
    gate()
    const { url, requests } = await serve((_request, res) => endSse(res, 'id: 1\nretry: 5\ndata: \n\n'))
    const controller = new AbortController()
    const pending = new StreamableHttpTransport(url).request(legacy(1, 'cut'), { signal: controller.signal })
    // The first load is the request's own prefetch; the second, the resumption's need once the stream was cut.
    await chunk.started.nth(1)
    controller.abort('the caller gave up')
    await expect(failure(pending)).resolves.toMatchObject({ name: 'AbortError', reason: 'the caller gave up' })
    expect(requests).toHaveLength(1)
  })

})
