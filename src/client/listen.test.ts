// listen() on 2026-07-28 against fake servers for what real ones will not do on demand.
import { createServer, type ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { Client, forgetEras } from './client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { TimeoutError } from '../errors/timeout-error'
import type { ServerNotification, SubscriptionState } from './types'
import { wanted } from './listen'

type Listen = { id: unknown; filter: Record<string, unknown>; res: ServerResponse }
let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
  forgetEras()
})

/** A modern server whose listen streams the test drives by hand. */
async function fakeServer() {
  const listens: Listen[] = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => (raw += c))
    req.on('end', () => {
      const body = JSON.parse(raw)
      if (body.method === 'subscriptions/listen') {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write(': open\n\n')
        listens.push({ id: body.id, filter: body.params.notifications, res })
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
  return { url, listens, send, ack }
}

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 5))
  }
}
const status = (s: { $state: { get(): SubscriptionState } }) => s.$state.get().status

describe('listen() on 2026-07-28', () => {
  it('returns at once, is acknowledged with the honoured filter, and delivers only the types asked for', async () => {
    const fake = await fakeServer()
    const client = new Client(new StreamableHttpTransport(fake.url))
    const seen: ServerNotification[] = []
    const sub = client.listen({ toolsListChanged: true, promptsListChanged: true }, (n) => seen.push(n))
    expect(status(sub)).toBe('opening')
    await until(() => fake.listens.length === 1)
    fake.ack(fake.listens[0]!, { toolsListChanged: true })
    await until(() => status(sub) === 'acknowledged')
    expect(sub.$state.get()).toEqual({ status: 'acknowledged', notifications: { toolsListChanged: true } })
    fake.send(fake.listens[0]!, 'notifications/resources/list_changed', {})
    fake.send(fake.listens[0]!, 'notifications/tools/list_changed', {})
    await until(() => seen.length === 1)
    expect(seen[0]!.method).toBe('notifications/tools/list_changed')
    await sub.close()
    expect(sub.$state.get()).toEqual({ status: 'closed', reason: 'client' })
    await client.close()
  })

  it('checks the subscription id with its JSON type and demultiplexes concurrent subscriptions', async () => {
    const fake = await fakeServer()
    const debug: string[] = []
    const client = new Client(new StreamableHttpTransport(fake.url), { debug: (m) => debug.push(m) })
    const a: string[] = []
    const b: string[] = []
    const subA = client.listen({ toolsListChanged: true }, (n) => a.push(n.method))
    const subB = client.listen({ toolsListChanged: true }, (n) => b.push(n.method))
    await until(() => fake.listens.length === 2)
    for (const l of fake.listens) fake.ack(l)
    await until(() => status(subA) === 'acknowledged' && status(subB) === 'acknowledged')
    const [first, second] = fake.listens
    expect(typeof first!.id).toBe('number')
    // The same number as a string is another id, and an unknown id is ignored: neither reaches a handler.
    fake.send(first!, 'notifications/tools/list_changed', {}, String(first!.id))
    fake.send(first!, 'notifications/tools/list_changed', {}, 'nope')
    fake.send(second!, 'notifications/tools/list_changed', {})
    await until(() => a.length + b.length === 1)
    await new Promise((r) => setTimeout(r, 30))
    // Exactly one subscription heard it: the one whose stream and id it came with.
    expect(a.length + b.length).toBe(1)
    expect(debug.filter((m) => m.includes('another subscription'))).toHaveLength(2)
    await Promise.all([subA.close(), subB.close()])
    await client.close()
  })

  it('an acknowledgement that never arrives ends in an error state and blocks nothing', async () => {
    const fake = await fakeServer()
    const client = new Client(new StreamableHttpTransport(fake.url), { listenAckTimeout: 100 })
    const sub = client.listen({ toolsListChanged: true })
    await until(() => fake.listens.length === 1)
    // Other requests go on meanwhile.
    await expect(client.request('server/discover')).resolves.toMatchObject({ supportedVersions: ['2026-07-28'] })
    await until(() => status(sub) === 'closed')
    const state = sub.$state.get() as Extract<SubscriptionState, { status: 'closed' }>
    expect(state.reason).toBe('error')
    expect(state.error).toBeInstanceOf(TimeoutError)
    await sub.close()
    await client.close()
  })

  it('a stream that drops without a result is reopened with backoff, going back to opening meanwhile', async () => {
    const fake = await fakeServer()
    const client = new Client(new StreamableHttpTransport(fake.url), { listenBackoff: { baseMs: 10, maxMs: 40 } })
    const states: string[] = []
    const sub = client.listen({ toolsListChanged: true })
    sub.$state.listen((s) => states.push(s.status))
    await until(() => fake.listens.length === 1)
    fake.ack(fake.listens[0]!)
    await until(() => status(sub) === 'acknowledged')
    fake.listens[0]!.res.end()
    await until(() => fake.listens.length === 2)
    fake.ack(fake.listens[1]!)
    await until(() => status(sub) === 'acknowledged' && states.length >= 3)
    expect(states).toEqual(['acknowledged', 'opening', 'acknowledged'])
    expect(fake.listens[1]!.id).not.toEqual(fake.listens[0]!.id)
    await sub.close()
    await client.close()
  })

  it('a listen result means the server ended it', async () => {
    const fake = await fakeServer()
    const client = new Client(new StreamableHttpTransport(fake.url))
    const sub = client.listen({ toolsListChanged: true })
    await until(() => fake.listens.length === 1)
    const listen = fake.listens[0]!
    fake.ack(listen)
    await until(() => status(sub) === 'acknowledged')
    listen.res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: listen.id, result: { resultType: 'complete' } })}\n\n`)
    await until(() => status(sub) === 'closed')
    expect(sub.$state.get()).toMatchObject({ status: 'closed', reason: 'server' })
    expect(fake.listens).toHaveLength(1)
    await client.close()
  })

  it('malformed notifications and a late second acknowledgement are ignored without a crash', async () => {
    const fake = await fakeServer()
    const client = new Client(new StreamableHttpTransport(fake.url))
    const seen: string[] = []
    const sub = client.listen({ toolsListChanged: true, taskIds: ['t1'] }, (n) => seen.push(n.method))
    await until(() => fake.listens.length === 1)
    const listen = fake.listens[0]!
    fake.ack(listen)
    await until(() => status(sub) === 'acknowledged')
    listen.res.write('data: {"jsonrpc":"2.0","method":\n\n')
    listen.res.write('data: {"not":"json-rpc"}\n\n')
    fake.ack(listen, { promptsListChanged: true })
    fake.send(listen, 'notifications/tasks', { taskId: 't2', status: 'working' })
    fake.send(listen, 'notifications/tasks', { taskId: 't1', status: 'completed' })
    fake.send(listen, 'notifications/tools/list_changed', {})
    await until(() => seen.length === 2, 1000).catch(() => undefined)
    // The stream may end on garbage (a protocol error); either way the state is sane and nothing threw.
    expect(['acknowledged', 'opening']).toContain(status(sub))
    if (seen.length) expect(seen).toEqual(['notifications/tasks', 'notifications/tools/list_changed'])
    await sub.close()
    await client.close()
  })
})

describe('wanted()', () => {
  it('matches resource updates for subscribed URIs and their sub-resources only', () => {
    const filter = { resourceSubscriptions: ['file:///dir', 'mem://x'] }
    const updated = (uri: string) => ({ jsonrpc: '2.0' as const, method: 'notifications/resources/updated', params: { uri } })
    expect(wanted(updated('file:///dir'), filter)).toBe(true)
    expect(wanted(updated('file:///dir/a.txt'), filter)).toBe(true)
    expect(wanted(updated('file:///directory'), filter)).toBe(false)
    expect(wanted(updated('mem://y'), filter)).toBe(false)
    expect(wanted({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, filter)).toBe(false)
  })
})
