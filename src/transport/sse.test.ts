import { EventSource } from 'eventsource'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AbortError } from '../errors/abort-error'
import { HttpError } from '../errors/http-error'
import { NetworkError } from '../errors/network-error'
import { ProtocolError } from '../errors/protocol-error'
import { SseTransport } from './sse'
import { event, result, sendJson, startTestServer, until, type TestServer } from '../testing/test-server'
import type { JsonRpcRequest } from './types'
import { fakeSse as startFakeSse, type FakeSse } from '../testing/fake-sse'

const request = (id: number, method = 'tools/list'): JsonRpcRequest => ({ jsonrpc: '2.0', id, method })
const notification = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }

let server: TestServer | undefined
let transport: SseTransport | undefined
afterEach(async () => {
  await transport?.close()
  await server?.close()
  server = transport = undefined
  vi.restoreAllMocks()
})

async function fakeSse(options: Parameters<typeof startFakeSse>[0] = {}): Promise<FakeSse> {
  const fake = await startFakeSse(options)
  server = fake.server
  return fake
}

const sse = (url: string, options: ConstructorParameters<typeof SseTransport>[1] = {}) =>
  (transport = new SseTransport(url, { EventSource, ...options }))

describe('SseTransport', () => {
  it('opens the stream lazily, POSTs to the announced endpoint, and resolves answers from the stream by id', async () => {
    const { server, posts } = await fakeSse()
    const t = sse(`${server.origin}/sse`)
    expect(t.sessionStream).toBe(true)
    expect(server.requests).toHaveLength(0)
    const [a, b] = await Promise.all([t.request(request(1)), t.request(request(2, 'prompts/list'))])
    expect(a).toEqual(result(1, { session: '/messages?sessionId=s1' }))
    expect(b.id).toBe(2)
    expect(t.sessionId).toBe('s1')
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(1)
    expect(posts.map((p) => p.json)).toEqual([request(1), request(2, 'prompts/list')])
    expect(posts[0]!.headers['content-type']).toBe('application/json')
  })

  it('resolves a relative endpoint against the SSE URL and keeps the app headers on POSTs', async () => {
    const { server, posts } = await fakeSse({ endpoint: () => 'messages?sessionId=s1' })
    const t = sse(`${server.origin}/base/sse`, { headers: { Authorization: 'Bearer x' } })
    await t.request(request(1))
    expect(posts[0]!.url).toBe('/base/messages?sessionId=s1')
    expect(posts[0]!.headers.authorization).toBe('Bearer x')
  })

  it('delivers other messages to openStream handlers; closing a view keeps the session', async () => {
    const { server, streams } = await fakeSse()
    const t = sse(`${server.origin}/sse`)
    const seen: unknown[] = []
    const view = await t.openStream((m) => seen.push(m))
    streams[0]!.write(`data: ${JSON.stringify(notification)}\n\n`)
    streams[0]!.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'srv', method: 'ping' })}\n\n`)
    await until(() => seen.length === 2)
    expect(seen).toEqual([notification, { jsonrpc: '2.0', id: 'srv', method: 'ping' }])
    view.close()
    await expect(view.closed).resolves.toBeUndefined()
    await expect(t.request(request(1))).resolves.toMatchObject({ id: 1 })
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(1)
  })

  it('drops messages nobody listens for, ignores unknown ids and malformed messages, and keeps serving', async () => {
    const debug = vi.fn()
    const { server, streams } = await fakeSse()
    const t = sse(`${server.origin}/sse`, { debug })
    await t.request(request(1))
    streams[0]!.write(event(notification) + event(result(42)) + 'event: message\ndata: {oops\n\n')
    await until(() => debug.mock.calls.length === 3)
    expect(debug.mock.calls.map(([message]) => message)).toEqual([
      'no handler for notifications/tools/list_changed',
      'ignoring a response to no pending request',
      'ignoring a malformed SSE message',
    ])
    await expect(t.request(request(2))).resolves.toMatchObject({ id: 2 })
  })

  it('accepts an answer in the POST body', async () => {
    const { server } = await fakeSse({ answer: (post, res) => sendJson(res, result(post.json.id, { inline: true })) })
    await expect(sse(`${server.origin}/sse`).request(request(1))).resolves.toEqual(result(1, { inline: true }))
  })

  it('send() POSTs a notification and resolves on 202', async () => {
    const { server, posts } = await fakeSse()
    await sse(`${server.origin}/sse`).send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    expect(posts[0]!.json).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' })
  })

  it('a refused POST is an HttpError', async () => {
    const { server } = await fakeSse({ answer: (_post, res) => sendJson(res, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }, 404) })
    const error = await sse(`${server.origin}/sse`).request(request(1)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status: 404, rpcError: { code: -32001 } })
  })

  it('refuses an endpoint on another origin', async () => {
    const { server, posts } = await fakeSse({ endpoint: () => 'http://127.0.0.2:9/messages?sessionId=x' })
    const error = await sse(`${server.origin}/sse`).request(request(1)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect((error as Error).message).toMatch(/another origin/)
    expect(posts).toHaveLength(0)
    await until(() => server.closedConnections === 1)
  })

  it('gives up waiting for the endpoint event after endpointTimeout', async () => {
    const { server } = await fakeSse({ endpoint: () => undefined })
    const started = Date.now()
    const error = await sse(`${server.origin}/sse`, { endpointTimeout: 150 }).request(request(1)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect((error as Error).message).toMatch(/no endpoint event within 150 ms/)
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
  })

  it('a server that closes the stream ends the session: pending requests fail, the next one starts a new session', async () => {
    const { server, streams } = await fakeSse({ answer: (_post, res) => void res.writeHead(202).end() })
    const t = sse(`${server.origin}/sse`)
    const view = await t.openStream(() => undefined)
    const pending = t.request(request(1))
    await until(() => server.requests.length === 2)
    streams[0]!.end()
    const error = await pending.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect(error).toMatchObject({ streamClosed: true, message: expect.stringMatching(/session has ended/) })
    await expect(view.closed).rejects.toMatchObject({ streamClosed: true })
    expect(t.sessionId).toBeUndefined()
    void t.request(request(2)).catch(() => undefined)
    await until(() => t.sessionId === 's2')
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(2)
  })

  it('a refused connection is a NetworkError', async () => {
    const probe = await startTestServer(() => undefined)
    await probe.close()
    const error = await sse(`${probe.origin}/sse`).request(request(1)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ possibleCors: false })
  })

  it('a GET that is not an event stream fails before any endpoint', async () => {
    server = await startTestServer((_r, res) => void res.writeHead(405).end())
    await expect(sse(server.url).request(request(1))).rejects.toBeInstanceOf(NetworkError)
  })

  it('abort rejects with AbortError while waiting for the answer', async () => {
    const { server } = await fakeSse({ answer: (_post, res) => void res.writeHead(202).end() })
    const controller = new AbortController()
    const pending = sse(`${server.origin}/sse`).request(request(1), { signal: controller.signal })
    await until(() => server.requests.length === 2)
    controller.abort('stop')
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', reason: 'stop' })
  })

  it('abort while waiting for the endpoint rejects at once', async () => {
    const { server } = await fakeSse({ endpoint: () => undefined })
    const controller = new AbortController()
    const pending = sse(`${server.origin}/sse`).request(request(1), { signal: controller.signal })
    setTimeout(() => controller.abort(), 30)
    await expect(pending).rejects.toBeInstanceOf(AbortError)
  })

  it('close() closes the EventSource, rejects pending with AbortError and resolves views', async () => {
    const { server } = await fakeSse({ answer: (_post, res) => void res.writeHead(202).end() })
    const t = sse(`${server.origin}/sse`)
    const view = await t.openStream(() => undefined)
    const pending = t.request(request(1))
    await until(() => server.requests.length === 2)
    await t.close()
    await expect(pending).rejects.toBeInstanceOf(AbortError)
    await expect(view.closed).resolves.toBeUndefined()
    await until(() => server.closedConnections >= 2)
  })

  it('without any EventSource (Node 20) it reads the stream with fetch', async () => {
    const { server, posts } = await fakeSse()
    transport = new SseTransport(`${server.origin}/sse`)
    await expect(transport.request(request(1))).resolves.toEqual(result(1, { session: '/messages?sessionId=s1' }))
    expect(server.requests[0]!.headers.accept).toBe('text/event-stream')
    expect(posts).toHaveLength(1)
  })
})
