// The client's part of the fault matrix: subscriptions against servers that refuse, throttle, restart, never
// open a stream or never acknowledge; notification floods; server requests nobody invited; hostile keys. An
// in-memory server (FakeTransport) plays each fault on demand; waits are events or fake timers, never sleeps.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Client, forgetEras } from './client'
import { HttpError } from '../errors/http-error'
import { NetworkError } from '../errors/network-error'
import { RpcError } from '../errors/rpc-error'
import { TimeoutError } from '../errors/timeout-error'
import { FakeTransport } from '../testing/fake-transport'
import { Arrivals, when } from '../testing/wait'
import type { JsonRpcNotification } from '../transport/types'
import type { ServerNotification, Subscription, SubscriptionState } from './types'

const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
// The library never writes to the console, whatever the server does: every case here is watched for it.
const consoleCalls: string[] = []
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled)
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void consoleCalls.push(`${level}: ${args.map(String).join(' ')}`))
  }
})
afterAll(() => {
  process.off('unhandledRejection', onUnhandled)
  vi.restoreAllMocks()
})
afterEach(async () => {
  vi.useRealTimers()
  forgetEras()
  await new Promise((resolve) => setImmediate(resolve))
  expect(unhandled.map(String)).toEqual([])
  expect(consoleCalls.splice(0)).toEqual([])
})

const caps = { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } }
const tools = { 'tools/list': () => ({ tools: [] }) }
const states = (sub: Subscription) => {
  const seen = new Arrivals<SubscriptionState>()
  seen.push(sub.$state.get())
  sub.$state.listen((state) => seen.push(state))
  return seen
}
type Opening = Extract<SubscriptionState, { status: 'opening' }>
type Closed = Extract<SubscriptionState, { status: 'closed' }>

describe('a 2026-07-28 subscription', () => {
  it('429 with Retry-After: waits as long as the server asks (not less), then reconnects and is acknowledged', async () => {
    vi.useFakeTimers()
    const fake = new FakeTransport('modern', caps)
    let listens = 0
    fake.hold = (m) => {
      if (m.method === 'subscriptions/listen' && listens++ === 0) throw new HttpError(429, new Headers({ 'retry-after': '30' }), '')
    }
    const client = new Client(fake, { listenBackoff: { baseMs: 10, maxMs: 100 } })
    const sub = client.listen({ toolsListChanged: true })
    const seen = states(sub)
    const opening = (await seen.find((s) => s.status === 'opening' && s.attempt === 1)) as Opening
    expect(opening.error).toMatchObject({ name: 'HttpError', status: 429 })
    await vi.advanceTimersByTimeAsync(29_000)
    expect(fake.count('subscriptions/listen')).toBe(1)
    await vi.advanceTimersByTimeAsync(1_000)
    await seen.find((s) => s.status === 'acknowledged')
    expect(fake.count('subscriptions/listen')).toBe(2)
    await sub.close()
    await client.close()
  })

  for (const [name, fault] of [
    ['503 without Retry-After', () => new HttpError(503, new Headers(), 'busy')],
    ['408', () => new HttpError(408, new Headers(), '')],
    ['a network error', () => 'down'],
  ] as const) {
    it(`${name}: reconnects with backoff and is acknowledged`, async () => {
      const fake = new FakeTransport('modern', caps)
      let listens = 0
      fake.hold = (m) => {
        if (m.method !== 'subscriptions/listen' || listens++ > 0) return
        const error = fault()
        throw error === 'down' ? new NetworkError(fake.url, new TypeError('fetch failed'), false) : error
      }
      const client = new Client(fake, { listenBackoff: { baseMs: 1, maxMs: 1 } })
      const sub = client.listen({ toolsListChanged: true })
      const seen = states(sub)
      expect(((await seen.find((s) => s.status === 'opening' && s.attempt === 1)) as Opening).error).toBeDefined()
      await seen.find((s) => s.status === 'acknowledged')
      await sub.close()
      await client.close()
    })
  }

  for (const [name, fault, type] of [
    ['403', () => new HttpError(403, new Headers(), 'forbidden'), HttpError],
    ['400', () => new HttpError(400, new Headers(), 'bad'), HttpError],
  ] as const) {
    it(`${name} is a definitive refusal: closed, with the reason in $state, no reconnect`, async () => {
      const fake = new FakeTransport('modern', caps)
      fake.hold = (m) => {
        if (m.method === 'subscriptions/listen') throw fault()
      }
      const client = new Client(fake)
      const sub = client.listen({ toolsListChanged: true })
      const closed = (await when(sub.$state, (s) => s.status === 'closed')) as Closed
      expect(closed).toMatchObject({ reason: 'error', message: expect.stringContaining(name) })
      expect(closed.error).toBeInstanceOf(type)
      expect(fake.count('subscriptions/listen')).toBe(1)
      await client.close()
    })
  }

  it('a JSON-RPC error to subscriptions/listen closes it with that error', async () => {
    const fake = new FakeTransport('modern', caps)
    const serve = fake.request.bind(fake)
    fake.request = (message, options) =>
      message.method === 'subscriptions/listen'
        ? Promise.resolve({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'no such filter' } })
        : serve(message, options)
    const client = new Client(fake)
    const sub = client.listen({ toolsListChanged: true })
    const closed = (await when(sub.$state, (s) => s.status === 'closed')) as Closed
    expect(closed.error).toBeInstanceOf(RpcError)
    expect(closed.message).toContain('no such filter')
    await client.close()
  })
})

describe('a legacy subscription', () => {
  it('a session stream that never opens: the opening times out (TimeoutError in $state), then it reconnects', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    let opens = 0
    fake.streamFault = () => (opens++ === 0 ? 'hang' : undefined)
    const client = new Client(fake, { listenAckTimeout: 200, listenBackoff: { baseMs: 1, maxMs: 1 } })
    const sub = client.listen({ toolsListChanged: true })
    const seen = states(sub)
    const opening = (await seen.find((s) => s.status === 'opening' && s.attempt === 1)) as Opening
    expect(opening.error).toBeInstanceOf(TimeoutError)
    expect(opening.error!.message).toContain('200 ms')
    await seen.find((s) => s.status === 'acknowledged')
    await sub.close()
    await client.close()
  })

  it('a ping that is never answered (no acknowledgement): TimeoutError, then a reconnect', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    let pings = 0
    fake.hold = (m) => (m.method === 'ping' && pings++ === 0 ? new Promise<void>(() => undefined) : undefined)
    const client = new Client(fake, { listenAckTimeout: 200, listenBackoff: { baseMs: 1, maxMs: 1 } })
    const sub = client.listen({ toolsListChanged: true })
    const seen = states(sub)
    expect(((await seen.find((s) => s.status === 'opening' && s.attempt === 1)) as Opening).error).toBeInstanceOf(TimeoutError)
    await seen.find((s) => s.status === 'acknowledged')
    expect(pings).toBeGreaterThanOrEqual(2)
    await sub.close()
    await client.close()
  })

  it('a session replaced during set-up: every resource is subscribed again on the new session before the acknowledgement', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const log: string[] = []
    let expired = false
    fake.hold = (m) => {
      if (m.method === 'resources/subscribe' || m.method === 'ping') log.push(`${m.method} ${String(m.params?.uri ?? '')} on ${fake.sessionId}`)
      // The server restarts just as the second resource is subscribed.
      if (m.method === 'resources/subscribe' && m.params?.uri === 'file:///b' && !expired) {
        expired = true
        fake.expire()
      }
    }
    const client = new Client(fake, { listenBackoff: { baseMs: 1, maxMs: 1 } })
    const sub = client.listen({ resourceSubscriptions: ['file:///a', 'file:///b'] })
    await when(sub.$state, (s) => s.status === 'acknowledged')
    const onSession2 = log.filter((line) => line.endsWith('session-2'))
    expect(onSession2).toEqual(expect.arrayContaining(['resources/subscribe file:///a on session-2', 'resources/subscribe file:///b on session-2']))
    expect(log.at(-1)).toBe('ping  on session-2')
    fake.notify('notifications/resources/updated', { uri: 'file:///a' })
    await sub.close()
    await client.close()
  })

  it('a server restart later: the stream ends, the subscription sets up on a new session and hears changes again', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const client = new Client(fake, { listenBackoff: { baseMs: 1, maxMs: 1 } })
    const heard = new Arrivals<ServerNotification>()
    const sub = client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] }, (n) => heard.push(n))
    const seen = states(sub)
    await seen.find((s) => s.status === 'acknowledged')
    fake.expire()
    await seen.find((s) => s.status === 'opening')
    await seen.find((s) => s.status === 'acknowledged' && seen.all.filter((x) => x.status === 'acknowledged').length === 2)
    expect(fake.sessionId).toBe('session-2')
    const subscribes = fake.requests.filter((r) => r.method === 'resources/subscribe')
    expect(subscribes).toHaveLength(2)
    fake.notify('notifications/tools/list_changed')
    expect((await heard.nth(0)).method).toBe('notifications/tools/list_changed')
    await sub.close()
    await client.close()
  })
})

describe('notification floods', () => {
  it('100,000 notifications on one legacy request stream: at most 1000 held (under 1 MB), the oldest dropped with a debug line', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const debug: string[] = []
    const delivered = new Arrivals<ServerNotification>()
    const client = new Client(fake, { debug: (m) => debug.push(m), onNotification: (n) => delivered.push(n) })
    for (let i = 0; i < 100_000; i++) {
      fake.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: `file:///${i}` } })
      fake.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    }
    await client.request('tools/list')
    const last = await delivered.find((n) => n.params?.uri === 'file:///99999')
    expect(delivered.all).toHaveLength(1000)
    expect(JSON.stringify(delivered.all).length).toBeLessThan(1_000_000)
    // The newest updates are kept, in order, and the 100,000 identical list_changed are one (the latest).
    const updates = delivered.all.filter((n) => n.method === 'notifications/resources/updated')
    expect(updates.at(-1)).toBe(last)
    expect(updates.map((n) => Number(String(n.params?.uri).slice(8)))).toEqual(updates.map((_, i) => 99_999 - updates.length + 1 + i))
    expect(delivered.all.filter((n) => n.method === 'notifications/tools/list_changed')).toHaveLength(1)
    expect(debug.filter((m) => m.includes('dropping the oldest'))).toHaveLength(1)
    expect(debug.some((m) => /dropped \d+ notification/.test(m))).toBe(true)
    await client.close()
  })

  it('identical list_changed coalesce into one delivery', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const delivered = new Arrivals<ServerNotification>()
    const client = new Client(fake, { onNotification: (n) => delivered.push(n) })
    for (let i = 0; i < 100_000; i++) fake.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    fake.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' })
    await client.request('tools/list')
    await delivered.nth(1)
    expect(delivered.all.map((n) => n.method)).toEqual(['notifications/tools/list_changed', 'notifications/prompts/list_changed'])
    await client.close()
  })
})

describe('server requests the client never invited', () => {
  it('legacy: sampling, roots and elicitation (not opted in) are refused with -32601, and the request still resolves', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const client = new Client(fake)
    const uninvited = ['sampling/createMessage', 'roots/list', 'elicitation/create']
    for (const [i, method] of uninvited.entries()) fake.onNextRequest.push({ jsonrpc: '2.0', id: `s${i}`, method, params: {} } as JsonRpcNotification)
    await expect(client.request('tools/list')).resolves.toEqual({ tools: [] })
    await vi.waitFor(() => expect(fake.sent.filter((m) => 'id' in m)).toHaveLength(3))
    for (const answer of fake.sent.filter((m) => 'id' in m)) expect(answer).toMatchObject({ error: { code: -32601 } })
    await client.close()
  })

  it('2026-07-28: a server request on a request stream is ignored with a debug line; the request resolves', async () => {
    const fake = new FakeTransport('modern', caps, tools)
    const debug: string[] = []
    const client = new Client(fake, { debug: (m) => debug.push(m) })
    fake.onNextRequest.push({ jsonrpc: '2.0', id: 'x', method: 'sampling/createMessage', params: {} } as JsonRpcNotification)
    await expect(client.request('tools/list')).resolves.toMatchObject({ tools: [] })
    expect(debug).toContain('ignored on a request stream')
    expect(fake.sent).toEqual([])
    await client.close()
  })
})

describe('__proto__ and constructor keys from the server', () => {
  it('stay plain data in results and notifications: nothing is polluted, nothing lost', async () => {
    const hostile = JSON.parse('{"tools":[{"name":"__proto__","inputSchema":{"type":"object"}}],"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')
    const fake = new FakeTransport('legacy', caps, { 'tools/list': () => hostile })
    const delivered = new Arrivals<ServerNotification>()
    const client = new Client(fake, { onNotification: (n) => delivered.push(n) })
    fake.onNextRequest.push(JSON.parse('{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a","__proto__":{"polluted":true}}}'))
    const result = await client.request('tools/list')
    expect(Object.hasOwn(result, '__proto__')).toBe(true)
    expect((result.tools as { name: string }[])[0]!.name).toBe('__proto__')
    const note = await delivered.nth(0)
    expect(Object.hasOwn(note.params!, '__proto__')).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined()
    await client.close()
  })
})

describe('diagnostics', () => {
  it('handlers that throw (onNotification, a subscription handler) are reported through debug, never the console', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const debug = new Arrivals<string>()
    const client = new Client(fake, {
      debug: (m) => debug.push(m),
      onNotification: () => {
        throw new Error('app bug')
      },
    })
    fake.onNextRequest.push({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' })
    await client.request('tools/list')
    await debug.find((m) => m === 'onNotification threw')
    const sub = client.listen({ toolsListChanged: true }, () => {
      throw new Error('handler bug')
    })
    await when(sub.$state, (s) => s.status === 'acknowledged')
    fake.notify('notifications/tools/list_changed')
    await debug.find((m) => m === 'a subscription handler threw')
    await sub.close()
    await client.close()
  })
})
