// listen() on 2026-07-28 against fake servers for what real ones will not do on demand. No sleeps: the tests
// wait on events (a listen arriving, a state reached).
import { createServer, type ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { Client, forgetEras } from './client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { TimeoutError } from '../errors/timeout-error'
import type { ServerNotification, SubscriptionState } from './types'
import { covers } from './covers'
import { wanted } from './subscription'
import { Arrivals, when } from '../testing/wait'

type Listen = { id: unknown; filter: Record<string, unknown>; res: ServerResponse }
let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
  forgetEras()
})

/** A modern server whose listen streams the test drives by hand. */
async function fakeServer() {
  const listens = new Arrivals<Listen>()
  const state = { autoAck: false }
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => (raw += c))
    req.on('end', () => {
      const body = JSON.parse(raw)
      if (body.method === 'subscriptions/listen') {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write(': open\n\n')
        const listen = { id: body.id, filter: body.params.notifications, res }
        listens.push(listen)
        if (state.autoAck) ack(listen)
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } } } }))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  close = () =>
    new Promise((r) => {
      server.closeAllConnections()
      server.close(() => r())
    })
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`
  const send = (listen: Listen, method: string, params: Record<string, unknown>, subscriptionId: unknown = listen.id) =>
    listen.res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: { 'io.modelcontextprotocol/subscriptionId': subscriptionId } } })}\n\n`)
  const ack = (listen: Listen, notifications = listen.filter) => send(listen, 'notifications/subscriptions/acknowledged', { notifications })
  return { url, listens, send, ack, state }
}

const status = (s: { $state: { get(): SubscriptionState } }) => s.$state.get().status
const reached = (s: { $state: Parameters<typeof when<SubscriptionState>>[0] }, wantedStatus: SubscriptionState['status']) =>
  when(s.$state, (state) => state.status === wantedStatus)

describe('listen() on 2026-07-28', () => {
  it('returns at once, is acknowledged with the honoured filter, and delivers only the types asked for', async () => {
    const fake = await fakeServer()
    const client = new Client(new StreamableHttpTransport(fake.url))
    const seen = new Arrivals<ServerNotification>()
    const sub = client.listen({ toolsListChanged: true, promptsListChanged: true }, (n) => seen.push(n))
    expect(status(sub)).toBe('opening')
    const listen = await fake.listens.nth(0)
    fake.ack(listen, { toolsListChanged: true })
    await reached(sub, 'acknowledged')
    expect(sub.$state.get()).toEqual({ status: 'acknowledged', notifications: { toolsListChanged: true } })
    fake.send(listen, 'notifications/resources/list_changed', {})
    fake.send(listen, 'notifications/tools/list_changed', {})
    fake.send(listen, 'notifications/prompts/list_changed', {})
    // Both types were asked for, so the last one arriving proves the first (unasked) one was dropped.
    expect((await seen.nth(1)).method).toBe('notifications/prompts/list_changed')
    expect(seen.all.map((n) => n.method)).toEqual(['notifications/tools/list_changed', 'notifications/prompts/list_changed'])
    await sub.close()
    expect(sub.$state.get()).toEqual({ status: 'closed', reason: 'client' })
    await client.close()
  })

  it('checks the subscription id with its JSON type and demultiplexes concurrent subscriptions', async () => {
    const fake = await fakeServer()
    const debug = new Arrivals<string>()
    const client = new Client(new StreamableHttpTransport(fake.url), { debug: (m) => debug.push(m) })
    const a = new Arrivals<string>()
    const b: string[] = []
    const subA = client.listen({ toolsListChanged: true }, (n) => a.push(n.method))
    const subB = client.listen({ toolsListChanged: true }, (n) => b.push(n.method))
    const [first, second] = await Promise.all([fake.listens.nth(0), fake.listens.nth(1)])
    fake.ack(first!)
    fake.ack(second!)
    await Promise.all([reached(subA, 'acknowledged'), reached(subB, 'acknowledged')])
    expect(typeof first!.id).toBe('number')
    // The same number as a string is another id, and an unknown id is ignored: neither reaches a handler.
    fake.send(first!, 'notifications/tools/list_changed', {}, String(first!.id))
    fake.send(first!, 'notifications/tools/list_changed', {}, 'nope')
    fake.send(first!, 'notifications/tools/list_changed', {})
    // The stream is read in order: once the third has arrived, the first two were judged.
    await a.nth(0)
    // Exactly one subscription heard it, once: the one whose stream and id it came with.
    expect(a.all).toEqual(['notifications/tools/list_changed'])
    expect(b).toEqual([])
    expect(debug.all.filter((m) => m.includes('another subscription'))).toHaveLength(2)
    await Promise.all([subA.close(), subB.close()])
    await client.close()
  })

  it('an acknowledgement that never arrives is a TimeoutError, then a reconnect; other requests go on meanwhile', async () => {
    const fake = await fakeServer()
    const client = new Client(new StreamableHttpTransport(fake.url), { listenAckTimeout: 100, listenBackoff: { baseMs: 1, maxMs: 1 } })
    const states = new Arrivals<SubscriptionState>()
    const sub = client.listen({ toolsListChanged: true })
    sub.$state.listen((s) => states.push(s))
    await fake.listens.nth(0)
    // From now on the server acknowledges: only the first listen goes unanswered.
    fake.state.autoAck = true
    await expect(client.request('server/discover')).resolves.toMatchObject({ supportedVersions: ['2026-07-28'] })
    const retrying = (await states.find((s) => s.status === 'opening')) as Extract<SubscriptionState, { status: 'opening' }>
    expect(retrying.attempt).toBe(1)
    expect(retrying.error).toBeInstanceOf(TimeoutError)
    expect(retrying.error!.message).toContain('100 ms')
    await states.find((s) => s.status === 'acknowledged')
    expect(fake.listens.all[1]!.id).not.toEqual(fake.listens.all[0]!.id)
    await sub.close()
    await client.close()
  })

  it('a stream that drops without a result is reopened with backoff, going back to opening meanwhile', async () => {
    const fake = await fakeServer()
    const client = new Client(new StreamableHttpTransport(fake.url), { listenBackoff: { baseMs: 10, maxMs: 40 } })
    const states: string[] = []
    const sub = client.listen({ toolsListChanged: true })
    sub.$state.listen((s) => states.push(s.status))
    fake.ack(await fake.listens.nth(0))
    await reached(sub, 'acknowledged')
    fake.listens.all[0]!.res.end()
    fake.ack(await fake.listens.nth(1))
    await when(sub.$state, (s) => s.status === 'acknowledged' && states.length >= 3)
    expect(states).toEqual(['acknowledged', 'opening', 'acknowledged'])
    expect(fake.listens.all[1]!.id).not.toEqual(fake.listens.all[0]!.id)
    await sub.close()
    await client.close()
  })

  it('a listen result means the server ended it', async () => {
    const fake = await fakeServer()
    const client = new Client(new StreamableHttpTransport(fake.url))
    const sub = client.listen({ toolsListChanged: true })
    const listen = await fake.listens.nth(0)
    fake.ack(listen)
    await reached(sub, 'acknowledged')
    listen.res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: listen.id, result: { resultType: 'complete' } })}\n\n`)
    await reached(sub, 'closed')
    expect(sub.$state.get()).toMatchObject({ status: 'closed', reason: 'server' })
    expect(fake.listens.all).toHaveLength(1)
    await client.close()
  })

  it('a malformed message ends that stream (it cannot be trusted further) and the subscription reconnects', async () => {
    const fake = await fakeServer()
    const client = new Client(new StreamableHttpTransport(fake.url), { listenBackoff: { baseMs: 1, maxMs: 1 } })
    const seen = new Arrivals<string>()
    const sub = client.listen({ toolsListChanged: true, taskIds: ['t1'] }, (n) => seen.push(n.method))
    const first = await fake.listens.nth(0)
    fake.ack(first)
    await reached(sub, 'acknowledged')
    // A late second acknowledgement and a task the filter did not name are ignored; then garbage arrives.
    fake.ack(first, { promptsListChanged: true })
    fake.send(first, 'notifications/tasks', { taskId: 't2', status: 'working' })
    fake.send(first, 'notifications/tasks', { taskId: 't1', status: 'completed' })
    first.res.write('data: {"jsonrpc":"2.0","method":\n\n')
    fake.send(first, 'notifications/tools/list_changed', {})
    const reopening = await when(sub.$state, (s) => s.status === 'opening')
    expect((reopening as { error?: Error }).error).toMatchObject({ name: 'ProtocolError', reason: 'malformed-json' })
    const second = await fake.listens.nth(1)
    fake.ack(second)
    await reached(sub, 'acknowledged')
    fake.send(second, 'notifications/tools/list_changed', {})
    await seen.nth(1)
    // What came after the garbage on the old stream was never delivered; the new stream delivers again.
    expect(seen.all).toEqual(['notifications/tasks', 'notifications/tools/list_changed'])
    await sub.close()
    await client.close()
  })
})

describe('wanted() and covers()', () => {
  it('matches resource updates for subscribed URIs and their sub-resources only', () => {
    const filter = { resourceSubscriptions: ['file:///dir', 'mem://x'] }
    const updated = (uri: string) => ({ jsonrpc: '2.0' as const, method: 'notifications/resources/updated', params: { uri } })
    expect(wanted(updated('file:///dir'), filter)).toBe(true)
    expect(wanted(updated('file:///dir/a.txt'), filter)).toBe(true)
    expect(wanted(updated('file:///directory'), filter)).toBe(false)
    expect(wanted(updated('mem://y'), filter)).toBe(false)
    expect(wanted({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, filter)).toBe(false)
    expect(covers('file:///dir/', 'file:///dir/a')).toBe(true)
    expect(covers('file:///dir', 'file:///dir')).toBe(true)
    expect(covers('file:///dir', 'file:///dirt')).toBe(false)
  })
})
