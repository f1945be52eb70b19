// The handshake era's code (legacy/) is a chunk loaded on demand: when it loads, and what a request or a
// subscription sees when it cannot. The load is played by a stand-in for load-legacy.ts that counts loads and can
// fail (as a browser's import() does when the chunk cannot be fetched) or wait; an in-memory server
// (FakeTransport) plays each era. Waits are events or fake timers.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Client } from './client'
import { AbortError } from '../errors/abort-error'
import { NetworkError } from '../errors/network-error'
import { TimeoutError } from '../errors/timeout-error'
import { FakeTransport } from '../testing/fake-transport'
import { expectQuiet } from '../testing/quiet'
import { Arrivals, when } from '../testing/wait'
import { VERSION } from '../version'
import type { EraStore, SubscriptionState } from './types'

expectQuiet()

const chunk = await vi.hoisted(async () => new (await import('../testing/chunk-stand-in')).ChunkStandIn())

vi.mock('./load-legacy', () => ({
  loadLegacy: () => chunk.load(() => vi.importActual('./legacy')),
}))

beforeEach(() => chunk.reset())

const caps = { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } }
const tools = { 'tools/list': () => ({ tools: [] }) }
const remembered = (era: 'modern' | 'legacy'): EraStore => ({
  get: () => ({ era, protocolVersion: era === 'modern' ? VERSION : '2025-11-25' }),
  set: () => undefined,
})
const gate = () => chunk.hold()

describe('when the legacy code loads', () => {
  it('a server remembered as 2026-07-28 never loads it, for requests or subscriptions', async () => {
    const client = new Client(new FakeTransport('modern', caps, tools), { eraStore: remembered('modern') })
    await expect(client.request('tools/list')).resolves.toMatchObject({ tools: [] })
    const sub = client.listen({ toolsListChanged: true })
    await when(sub.$state, (s) => s.status === 'acknowledged')
    await sub.close()
    await client.close()
    expect(chunk.loads).toBe(0)
  })

  it("a probe of unknown era starts loading it before the server answers, so an older server's fallback finds it loading", async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    let probe = true
    // The server answers the probe only once the load has started: a load started by the fallback would never come,
    // and the request would end by its timeout instead.
    fake.hold = async () => {
      if (!probe) return
      probe = false
      await chunk.started.nth(0)
    }
    const client = new Client(fake)
    await expect(client.request('tools/list', {}, { timeout: 10_000 })).resolves.toEqual({ tools: [] })
    expect(client.era).toBe('legacy')
    // One load, shared by the probe and the fallback that needed it.
    expect(chunk.loads).toBe(1)
    await client.close()
  })

  it('a server remembered as older loads it at the first request, which goes straight to the handshake', async () => {
    const fake = new FakeTransport('legacy', caps, tools)
    const client = new Client(fake, { eraStore: remembered('legacy') })
    await expect(client.request('tools/list')).resolves.toEqual({ tools: [] })
    expect(fake.requests.map((r) => r.method)).toEqual(['initialize', 'tools/list'])
    expect(chunk.loads).toBe(1)
    await client.close()
  })
})

describe('a chunk that cannot load', () => {
  it('fails the request that needed it with a NetworkError carrying the cause, decides nothing, and the next request loads it again', async () => {
    chunk.failing = Infinity
    const client = new Client(new FakeTransport('legacy', caps, tools))
    const failure = (await client.request('tools/list').catch((e: unknown) => e)) as NetworkError
    expect(failure).toBeInstanceOf(NetworkError)
    expect(failure.message).toMatch(/loaded on demand/)
    expect(failure.cause).toBeDefined()
    expect(client.era).toBeUndefined()
    chunk.failing = 0
    await expect(client.request('tools/list')).resolves.toEqual({ tools: [] })
    expect(client.era).toBe('legacy')
    await client.close()
  })

  it('with the era remembered as older: nothing reaches the server, and the next request succeeds', async () => {
    chunk.failing = 1
    const fake = new FakeTransport('legacy', caps, tools)
    const client = new Client(fake, { eraStore: remembered('legacy') })
    await expect(client.request('tools/list')).rejects.toBeInstanceOf(NetworkError)
    expect(fake.requests).toEqual([])
    await expect(client.request('tools/list')).resolves.toEqual({ tools: [] })
    expect(chunk.loads).toBe(2)
    await client.close()
  })

  it('a subscription whose set-up cannot load it says so while opening, reconnects, and is acknowledged once it loads', async () => {
    chunk.failing = 1
    const client = new Client(new FakeTransport('legacy', caps, tools), { eraStore: remembered('legacy'), listenBackoff: { baseMs: 1, maxMs: 1 } })
    const sub = client.listen({ toolsListChanged: true })
    const seen = new Arrivals<SubscriptionState>()
    sub.$state.listen((state) => seen.push(state))
    const opening = await seen.find((s) => s.status === 'opening' && s.attempt === 1)
    expect(opening).toMatchObject({ error: expect.any(NetworkError) })
    await seen.find((s) => s.status === 'acknowledged')
    await sub.close()
    await client.close()
  })
})

describe("waiting for the code is bounded by the request's own limits", () => {
  it('its signal aborts the wait, as an AbortError carrying the reason; the code that arrives later serves the next request', async () => {
    const open = gate()
    const client = new Client(new FakeTransport('legacy', caps, tools), { eraStore: remembered('legacy'), timeout: 3_600_000 })
    const controller = new AbortController()
    const pending = client.request('tools/list', {}, { signal: controller.signal })
    await chunk.started.nth(0)
    controller.abort('user left')
    const failure = (await pending.catch((e: unknown) => e)) as AbortError
    expect(failure).toBeInstanceOf(AbortError)
    expect(failure.reason).toBe('user left')
    open()
    await expect(client.request('tools/list')).resolves.toEqual({ tools: [] })
    expect(chunk.loads).toBe(1)
    await client.close()
  })

  it('its timeout ends the wait, as a TimeoutError naming that limit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const open = gate()
    const client = new Client(new FakeTransport('legacy', caps, tools), { eraStore: remembered('legacy'), timeout: 3_600_000 })
    const pending = client.request('tools/list', {}, { timeout: 300 }).catch((e: unknown) => e)
    await chunk.started.nth(0)
    await vi.advanceTimersByTimeAsync(299)
    expect(await Promise.race([pending, 'still waiting'])).toBe('still waiting')
    await vi.advanceTimersByTimeAsync(1)
    expect(await pending).toMatchObject({ name: 'TimeoutError', method: 'tools/list', timeout: 300 })
    expect(await pending).toBeInstanceOf(TimeoutError)
    open()
    await client.close()
  })

  it('closing the client ends the wait with an AbortError, and the code that arrives afterwards is left unused', async () => {
    const open = gate()
    const fake = new FakeTransport('legacy', caps, tools)
    const client = new Client(fake, { eraStore: remembered('legacy') })
    const pending = client.request('tools/list').catch((e: unknown) => e)
    await chunk.started.nth(0)
    await client.close()
    expect(await pending).toBeInstanceOf(AbortError)
    open()
    await chunk.last
    expect(fake.requests).toEqual([])
  })
})
