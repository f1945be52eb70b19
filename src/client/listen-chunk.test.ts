// listen()'s machine (subscription.ts) is a chunk loaded on demand: what a subscription is before it arrives, and
// what it does when it cannot load. The load is played by a stand-in for load-subscription.ts that counts loads and
// can fail (as a browser's import() does when the chunk cannot be fetched) or wait; an in-memory server
// (FakeTransport) plays the server. Waits are events or fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Client } from './client'
import { NetworkError } from '../errors/network-error'
import { TimeoutError } from '../errors/timeout-error'
import { FakeTransport } from '../testing/fake-transport'
import { expectQuiet } from '../testing/quiet'
import { closeOpened, open, record, until } from '../testing/stores-kit'
import { Arrivals, when } from '../testing/wait'
import type { Subscription, SubscriptionState } from './types'
import type { ListenHost } from './listen'
import { atom } from 'nanostores'

expectQuiet()

const chunk = await vi.hoisted(async () => new (await import('../testing/chunk-stand-in')).ChunkStandIn(true))

vi.mock('./load-subscription', () => ({
  loadSubscription: () => chunk.load(() => vi.importActual('./subscription')),
}))

beforeEach(() => chunk.reset())
afterEach(closeOpened)

const caps = { tools: { listChanged: true } }
const gate = () => chunk.hold()
const states = (sub: Subscription) => {
  const seen = new Arrivals<SubscriptionState>()
  sub.$state.listen((state) => seen.push(state))
  return seen
}

describe('before the subscription code has arrived', () => {
  it('listen() returns the subscription with its initial state at once, starts the load, and sends nothing yet', async () => {
    const open = gate()
    const fake = new FakeTransport('modern', caps)
    const client = new Client(fake)
    const sub = client.listen({ toolsListChanged: true })
    expect(sub.$state.get()).toEqual({ status: 'opening', attempt: 0 })
    // Started inside listen(), not after a connect: the two run side by side.
    expect(chunk.loads).toBe(1)
    await Promise.resolve()
    expect(fake.requests).toEqual([])
    const seen = states(sub)
    open()
    await seen.find((s) => s.status === 'acknowledged')
    expect(fake.count('subscriptions/listen')).toBe(1)
    await sub.close()
    await client.close()
  })

  it('close() ends it at once as closed by the client, and the code that arrives afterwards sends nothing', async () => {
    const open = gate()
    const fake = new FakeTransport('modern', caps)
    const client = new Client(fake)
    const sub = client.listen({ toolsListChanged: true })
    await sub.close()
    expect(sub.$state.get()).toEqual({ status: 'closed', reason: 'client' })
    open()
    await chunk.last
    await client.request('tools/list').catch(() => undefined)
    expect(fake.count('subscriptions/listen')).toBe(0)
    expect(fake.count('server/discover')).toBe(0)
    expect(chunk.loads).toBe(1)
    await client.close()
  })

  it('a machine started after close() (closed between the load and the start) ends at once and sends nothing', async () => {
    const { subscribe } = await vi.importActual<typeof import('./subscription')>('./subscription')
    const sent: string[] = []
    const host: ListenHost = {
      // A server that would keep the attempt waiting for good: only the attempt's own abort ends it.
      connect: (signal) => (signal.aborted ? Promise.reject(signal.reason) : new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))),
      era: () => 'modern',
      closed: () => false,
      listenModern: () => (sent.push('subscriptions/listen'), { id: 1, response: new Promise(() => undefined) }),
      listenLegacy: () => new Promise(() => undefined),
    }
    const stop = new AbortController()
    stop.abort('subscription closed')
    const $state = atom<SubscriptionState>({ status: 'opening', attempt: 0 })
    // Without the check, the attempt would wait for listenAckTimeout (a minute here) before it noticed.
    await subscribe({ host, filter: { toolsListChanged: true }, handler: () => undefined, options: { listenAckTimeout: 60_000 }, $state, stop: stop.signal }, 0)
    expect($state.get()).toEqual({ status: 'closed', reason: 'client' })
    expect(sent).toEqual([])
  })
})

describe("createMcp's subscription", () => {
  it('starts loading the code before the server has answered its connect, so the load adds no wait after it', async () => {
    const fake = new FakeTransport('modern', caps, { 'tools/list': () => ({ tools: [] }) })
    let loadsWhenAnswered: number | undefined
    // A server that takes a few turns of the event loop to answer, as any over a network does.
    fake.hold = async (m) => {
      if (m.method !== 'server/discover') return
      await until(() => chunk.loads > 0, 'the load', 20).catch(() => undefined)
      loadsWhenAnswered ??= chunk.loads
    }
    const mcp = open(fake)
    const tools = record(mcp.$tools)
    await when(mcp.$subscription, (s) => s?.status === 'acknowledged')
    expect(loadsWhenAnswered).toBe(1)
    tools.off()
  })
})

describe('a subscription code that cannot load', () => {
  it('is weathered like a dropped stream: opening with a NetworkError carrying the cause, then loaded again and acknowledged', async () => {
    chunk.failing = 1
    const fake = new FakeTransport('modern', caps)
    const client = new Client(fake, { listenBackoff: { baseMs: 1, maxMs: 1 } })
    const sub = client.listen({ toolsListChanged: true })
    const seen = states(sub)
    const opening = (await seen.find((s) => s.status === 'opening' && s.attempt === 1)) as Extract<SubscriptionState, { status: 'opening' }>
    expect(opening.error).toBeInstanceOf(NetworkError)
    expect(opening.error?.message).toMatch(/subscription code \(loaded on demand\)/)
    expect(opening.error?.cause).toBeInstanceOf(TypeError)
    // Nothing reached the server for the attempt whose code did not arrive.
    expect(fake.requests).toEqual([])
    await seen.find((s) => s.status === 'acknowledged')
    expect(chunk.loads).toBe(2)
    expect(fake.count('subscriptions/listen')).toBe(1)
    await sub.close()
    await client.close()
  })

  it('is loaded again only after the backoff, and the attempts count on once it has loaded', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    chunk.failing = 2
    const fake = new FakeTransport('modern', caps)
    let listens = 0
    // The first subscriptions/listen fails too: its attempt number follows the two failed loads.
    fake.hold = (m) => {
      if (m.method === 'subscriptions/listen' && listens++ === 0) throw new NetworkError(fake.url, new TypeError('fetch failed'), false)
    }
    // The jitter at its top: the nth delay is then exactly base * 2^(n-1).
    vi.spyOn(Math, 'random').mockReturnValue(1)
    const client = new Client(fake, { listenBackoff: { baseMs: 1000, maxMs: 60_000 } })
    const sub = client.listen({ toolsListChanged: true })
    const seen = states(sub)
    await seen.find((s) => s.status === 'opening' && s.attempt === 1)
    await vi.advanceTimersByTimeAsync(999)
    expect(chunk.loads).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    await seen.find((s) => s.status === 'opening' && s.attempt === 2)
    expect(chunk.loads).toBe(2)
    await vi.advanceTimersByTimeAsync(1999)
    expect(chunk.loads).toBe(2)
    await vi.advanceTimersByTimeAsync(1)
    const third = (await seen.find((s) => s.status === 'opening' && s.attempt === 3)) as Extract<SubscriptionState, { status: 'opening' }>
    expect(chunk.loads).toBe(3)
    expect(third.error).toMatchObject({ name: 'NetworkError', url: fake.url })
    await vi.advanceTimersByTimeAsync(3999)
    expect(fake.count('subscriptions/listen')).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    await seen.find((s) => s.status === 'acknowledged')
    expect(fake.count('subscriptions/listen')).toBe(2)
    await sub.close()
    await client.close()
  })

  it('that never arrives ends the attempt at listenAckTimeout with a TimeoutError, and the code that arrives later is used', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const open = gate()
    const client = new Client(new FakeTransport('modern', caps), { listenAckTimeout: 300, listenBackoff: { baseMs: 1, maxMs: 1 } })
    const sub = client.listen({ toolsListChanged: true })
    const seen = states(sub)
    await vi.advanceTimersByTimeAsync(299)
    expect(sub.$state.get()).toEqual({ status: 'opening', attempt: 0 })
    await vi.advanceTimersByTimeAsync(1)
    const opening = (await seen.find((s) => s.status === 'opening' && s.attempt === 1)) as Extract<SubscriptionState, { status: 'opening' }>
    expect(opening.error).toBeInstanceOf(TimeoutError)
    expect(opening.error).toMatchObject({ timeout: 300 })
    open()
    await vi.advanceTimersByTimeAsync(1)
    await seen.find((s) => s.status === 'acknowledged')
    await sub.close()
    await client.close()
  })

  it('on a closed client ends the subscription with the error instead of trying again', async () => {
    chunk.failing = Infinity
    const open = gate()
    const client = new Client(new FakeTransport('modern', caps))
    const sub = client.listen({ toolsListChanged: true })
    await client.close()
    open()
    await chunk.last?.catch(() => undefined)
    const closed = await new Promise<SubscriptionState>((resolve) => {
      const check = (s: SubscriptionState) => s.status === 'closed' && resolve(s)
      check(sub.$state.get())
      sub.$state.listen(check)
    })
    expect(closed).toMatchObject({ status: 'closed', reason: 'error', error: expect.any(NetworkError) })
    expect(chunk.loads).toBe(1)
  })
})
