// The client's part of the fault matrix, subscriptions: servers that refuse, throttle, restart, never open a stream
// or never acknowledge. An in-memory server (FakeTransport) plays each fault on demand; waits are events or fake
// timers, never sleeps.
import { describe, expect, it, vi } from 'vitest'
import { Client } from './client'
import { HttpError } from '../errors/http-error'
import { NetworkError } from '../errors/network-error'
import { RpcError } from '../errors/rpc-error'
import { TimeoutError } from '../errors/timeout-error'
import { FakeTransport } from '../testing/fake-transport'
import { expectQuiet } from '../testing/quiet'
import { Arrivals, when } from '../testing/wait'
import type { ServerNotification, Subscription, SubscriptionState } from './types'

expectQuiet()

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
