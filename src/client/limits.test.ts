// The caller's `timeout` and `signal` bound every stage a request waits on, against scripted servers that
// never answer at that stage. The client default is set to an hour: a request that settles at all settled
// by its own limit. Stages are reached by events (the server saw the request) and limits made due with fake
// timers, never by sleeping.
import { EventSource } from 'eventsource'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Client, forgetEras } from './client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { AbortError } from '../errors/abort-error'
import { TimeoutError } from '../errors/timeout-error'
import { VERSION } from '../version'
import { initialized, ok, scriptedServer, type Reply, type ScriptedServer, type Seen } from '../testing/scripted-server'
import { Arrivals } from '../testing/wait'

const HOUR = 3_600_000
let server: ScriptedServer | undefined
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
beforeAll(() => void process.on('unhandledRejection', onUnhandled))
afterAll(() => void process.off('unhandledRejection', onUnhandled))
afterEach(async () => {
  vi.useRealTimers()
  await server?.close()
  server = undefined
  forgetEras()
  // Rejections nobody handled are reported after a turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve))
  expect(unhandled.map(String)).toEqual([])
})

const never = () => new Promise<Reply>(() => undefined)
const tools = { tools: [] }
/** What the server saw, as `method` (or GET/DELETE), for waiting until a stage is reached. */
const stage = (seen: Seen) => seen.body?.method ?? seen.method

interface Stage {
  name: string
  /** The server: answers until the stage, then never again. */
  answer: (seen: Seen, sessions: { n: number }) => Reply | Promise<Reply>
  /** What the server sees when the request has reached the stage. */
  reached: string
  /** Requests the client makes first, answered, so the stage comes on the next one. */
  warmUp?: number
}

const legacyUntil = (hang: (seen: Seen) => boolean) => (seen: Seen, sessions: { n: number }): Reply | Promise<Reply> => {
  if (hang(seen)) return never()
  if (seen.method === 'DELETE') return { status: 200 }
  if (seen.body?.method === 'initialize') return { ...initialized(seen), headers: { 'mcp-session-id': `s${++sessions.n}` } }
  if (!seen.headers['mcp-session-id']) return { status: 400 }
  if (seen.body?.method === 'notifications/initialized') return { status: 202 }
  return ok(seen, tools)
}

const stages: Stage[] = [
  { name: 'the modern probe', answer: () => never(), reached: 'tools/list' },
  {
    name: 'the server/discover that settles an ambiguous probe',
    answer: (seen) => (seen.body.method === 'server/discover' ? never() : ok(seen, tools)),
    reached: 'server/discover',
    warmUp: 1,
  },
  { name: 'initialize', answer: legacyUntil((seen) => seen.body?.method === 'initialize'), reached: 'initialize' },
  { name: 'notifications/initialized', answer: legacyUntil((seen) => seen.body?.method === 'notifications/initialized'), reached: 'notifications/initialized' },
  {
    name: 'a new session after a 404',
    answer: (seen, sessions) => {
      if (sessions.n === 1 && seen.headers['mcp-session-id'] === 's1' && seen.body?.method === 'tools/list' && seen.body.id > 3) {
        return { status: 404, body: { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } } }
      }
      return legacyUntil((s) => s.body?.method === 'initialize' && sessions.n === 1)(seen, sessions)
    },
    reached: 'initialize',
    warmUp: 1,
  },
  {
    name: 'the HTTP+SSE endpoint event',
    answer: (seen) => (seen.method === 'GET' ? never() : { status: 404 }),
    reached: 'GET',
  },
  { name: 'the answer itself', answer: legacyUntil((seen) => seen.body?.method === 'tools/list' && seen.body.id > 3), reached: 'tools/list', warmUp: 1 },
]

async function setUp(at: Stage) {
  const sessions = { n: 0 }
  const arrivals = new Arrivals<string>()
  server = await scriptedServer((seen) => {
    arrivals.push(stage(seen))
    return at.answer(seen, sessions)
  })
  // No endpointTimeout: the HTTP+SSE server's own deadline is options.test.ts's; here only the request's limits count.
  const client = new Client(new StreamableHttpTransport(server.url, { EventSource, endpointTimeout: false }), { timeout: HOUR })
  for (let i = 0; i < (at.warmUp ?? 0); i++) await client.request('tools/list')
  // Where the stage is the nth time a method is seen, wait for that one, not an earlier one.
  const before = arrivals.all.filter((m) => m === at.reached).length
  let n = 0
  const reached = arrivals.find((m) => m === at.reached && ++n > before)
  return { client, reached }
}

describe("the request's own limits bound every stage it waits on", () => {
  for (const at of stages) {
    it(`${at.name}: the request's timeout fires, as a TimeoutError naming that limit`, async () => {
      // Only the clock the limits run on is fake: the stage is reached over real HTTP, then the limit is made due.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      const { client, reached } = await setUp(at)
      const pending = client.request('tools/list', {}, { timeout: 300 }).catch((e: unknown) => e)
      await reached
      await vi.advanceTimersByTimeAsync(299)
      expect(await Promise.race([pending, 'still waiting'])).toBe('still waiting')
      await vi.advanceTimersByTimeAsync(1)
      const failure = await pending
      expect(failure).toBeInstanceOf(TimeoutError)
      expect(failure).toMatchObject({ method: 'tools/list', timeout: 300 })
      await client.close()
    })

    it(`${at.name}: with no limit of its own, the client's default bounds it`, async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      const { client, reached } = await setUp(at)
      const pending = client.request('tools/list').catch((e: unknown) => e)
      await reached
      await vi.advanceTimersByTimeAsync(HOUR)
      expect(await pending).toMatchObject({ name: 'TimeoutError', method: 'tools/list', timeout: HOUR })
      await client.close()
    })

    it(`${at.name}: the request's signal aborts it, as an AbortError carrying the reason`, async () => {
      const { client, reached } = await setUp(at)
      const controller = new AbortController()
      const pending = client.request('tools/list', {}, { signal: controller.signal })
      await reached
      controller.abort('user left')
      const failure = (await pending.catch((e: unknown) => e)) as AbortError
      expect(failure).toBeInstanceOf(AbortError)
      expect(failure.reason).toBe('user left')
      await client.close()
    })
  }
})

describe('after a limit fired, the same client recovers', () => {
  it('an ambiguous probe whose server/discover timed out is asked again, not taken for legacy', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let answering = false
    const discovers = new Arrivals<Seen>()
    server = await scriptedServer((seen) => {
      if (seen.body.method === 'server/discover') discovers.push(seen)
      if (seen.body.method !== 'server/discover') return ok(seen, answering ? { ...tools, resultType: 'complete' } : tools)
      return answering ? ok(seen, { resultType: 'complete', supportedVersions: [VERSION], capabilities: {} }) : never()
    })
    const client = new Client(new StreamableHttpTransport(server.url), { timeout: HOUR })
    await client.request('tools/list')
    const cut = client.request('tools/list', {}, { timeout: 200 }).catch((e: unknown) => e)
    await discovers.nth(0)
    await vi.advanceTimersByTimeAsync(200)
    expect(await cut).toBeInstanceOf(TimeoutError)
    expect(client.era).toBeUndefined()
    answering = true
    await client.request('tools/list')
    expect(client.era).toBe('modern')
    expect(server.methods()).toEqual(['tools/list', 'server/discover', 'server/discover', 'tools/list'])
    await client.close()
  })

  it('a handshake cut short by one request is run again by the next', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let hang = true
    const sessions = { n: 0 }
    const arrivals = new Arrivals<string>()
    server = await scriptedServer((seen) => {
      arrivals.push(stage(seen))
      return legacyUntil((s) => hang && s.body?.method === 'initialize')(seen, sessions)
    })
    const client = new Client(new StreamableHttpTransport(server.url), { timeout: HOUR })
    const cut = client.request('tools/list', {}, { timeout: 200 }).catch((e: unknown) => e)
    await arrivals.find((m) => m === 'initialize')
    await vi.advanceTimersByTimeAsync(200)
    expect(await cut).toBeInstanceOf(TimeoutError)
    hang = false
    await expect(client.request('tools/list')).resolves.toEqual(tools)
    expect(client.era).toBe('legacy')
    await client.close()
  })
})

describe('connect() shared by concurrent callers', () => {
  it("bounds each caller by its own limits: a short timeout fires while a longer wait goes on, then aborts", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const arrivals = new Arrivals<string>()
    server = await scriptedServer((seen) => {
      arrivals.push(stage(seen))
      return never()
    })
    const client = new Client(new StreamableHttpTransport(server.url), { timeout: HOUR })
    const controller = new AbortController()
    const patient = client.connect({ signal: controller.signal })
    const hasty = client.connect({ timeout: 200 }).catch((e: unknown) => e)
    await arrivals.nth(0)
    await vi.advanceTimersByTimeAsync(200)
    expect(await hasty).toMatchObject({ name: 'TimeoutError', method: 'connect', timeout: 200 })
    // One discovery for both callers, still waiting for the patient one.
    expect(arrivals.all).toEqual(['server/discover'])
    controller.abort('enough')
    await expect(patient).rejects.toMatchObject({ name: 'AbortError', reason: 'enough' })
    await client.close()
  })
})
