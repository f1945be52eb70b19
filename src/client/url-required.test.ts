// 2025-11-25's URLElicitationRequiredError (-32042) against a scripted legacy server: the listed URL elicitations
// go to onInputRequest, and only when the user accepted every one is the request sent once more.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ClientOptions, InputRequestHandler } from './types'
import { AbortError } from '../errors/abort-error'
import { RpcError } from '../errors/rpc-error'
import { TimeoutError } from '../errors/timeout-error'
import { initialized, ok, type Reply, type Seen } from '../testing/scripted-server'
import { scriptedClients } from '../testing/scripted-client'
import { Arrivals } from '../testing/wait'

const kit = scriptedClients({ unhandled: true })
afterEach(() => void vi.useRealTimers())

// Markup and a look-alike host: server strings the client passes on as data, untouched.
const LINK = { mode: 'url', elicitationId: 'link-1', url: 'https://example.com/link?next=<b>', message: 'Link <b>your</b> account' }
const RESULT = { content: [{ type: 'text', text: 'linked' }] }

/** A JSON-RPC -32042 answer to the request seen. */
const required = (seen: Seen, data: unknown): Reply => ({
  body: { jsonrpc: '2.0', id: seen.body.id, error: { code: -32042, message: 'This request requires more information.', data } },
})
/** -32042 asking for LINK. */
const link = (seen: Seen) => required(seen, { elicitations: [LINK] })

/** A 2025-11-25 server (or `version`) whose nth tools/call (from 1) is answered by `call`. */
const legacyServer = (call: (seen: Seen, n: number) => Reply | Promise<Reply>, version?: string) => {
  let calls = 0
  return (seen: Seen): Reply | Promise<Reply> => {
    if (seen.method === 'DELETE') return { status: 200 }
    // No GET stream: this server pushes nothing.
    if (seen.method === 'GET') return { status: 405 }
    if (seen.body?.method === 'initialize') return initialized(seen, version)
    // The modern probe (no session yet) is refused, which makes the client fall back to the handshake.
    if (!seen.headers['mcp-session-id']) return { status: 400 }
    if (seen.body?.method === 'notifications/initialized') return { status: 202 }
    if (seen.body?.method === 'tools/call') return call(seen, ++calls)
    return ok(seen, {})
  }
}

/** The bodies of the tools/call requests the server saw. */
const calls = () => kit.server.seen.filter((s) => s.body?.method === 'tools/call' && s.headers['mcp-session-id']).map((s) => s.body)

/** A handler that records every round and answers each request with `action`. */
function user(action: string | ((key: string) => string)) {
  const rounds: Parameters<InputRequestHandler>[] = []
  const handler: InputRequestHandler = (requests, context) => {
    rounds.push([requests, context])
    return Object.fromEntries(Object.keys(requests).map((key) => [key, { action: typeof action === 'string' ? action : action(key) }]))
  }
  return { rounds, handler }
}

const optedIn = (handler: InputRequestHandler, more: ClientOptions = {}): ClientOptions => ({ legacyElicitation: true, onInputRequest: handler, ...more })

describe('-32042 on a 2025-11-25 session, URL elicitation declared', () => {
  it('hands the listed elicitations to onInputRequest as one round; once all are accepted, the request is sent once more and resolves', async () => {
    const second = { ...LINK, elicitationId: 'link-2', url: 'https://xn--exmple-cua.com/' }
    const { rounds, handler } = user('accept')
    const client = await kit.start(
      legacyServer((seen, n) => (n === 1 ? required(seen, { elicitations: [LINK, second] }) : ok(seen, RESULT))),
      optedIn(handler),
    )
    const result = await client.request('tools/call', { name: 'link', arguments: { a: 1 } })
    expect(result.content).toEqual(RESULT.content)
    expect(rounds).toHaveLength(1)
    const [requests, context] = rounds[0]!
    expect(requests).toEqual({ 0: { method: 'elicitation/create', params: LINK }, 1: { method: 'elicitation/create', params: second } })
    expect(context).toMatchObject({ method: 'tools/call', params: { name: 'link', arguments: { a: 1 } }, round: 1 })
    const [first, retry] = calls()
    expect(calls()).toHaveLength(2)
    expect(retry.id).not.toBe(first.id)
    expect(retry.params).toEqual(first.params)
    const init = kit.server.seen.find((s) => s.body?.method === 'initialize')!
    expect(init.body.params.capabilities.elicitation).toEqual({ form: { applyDefaults: true }, url: {} })
  })

  for (const answer of ['decline', 'cancel']) {
    it(`a ${answer} rejects the request with the server's RpcError and its data, and nothing is sent again`, async () => {
      const { rounds, handler } = user(answer)
      const client = await kit.start(legacyServer((seen) => link(seen)), optedIn(handler))
      const failure = (await client.request('tools/call', { name: 'link' }).catch((e: unknown) => e)) as RpcError
      expect(failure).toBeInstanceOf(RpcError)
      expect(failure.code).toBe(-32042)
      expect(failure.data).toEqual({ elicitations: [LINK] })
      expect(rounds).toHaveLength(1)
      expect(calls()).toHaveLength(1)
    })
  }

  const partial: [string, InputRequestHandler][] = [
    ['one of several declined', user((key) => (key === '0' ? 'accept' : 'decline')).handler],
    ['one of several left unanswered', () => ({ 0: { action: 'accept' } })],
  ]
  for (const [name, handler] of partial) {
    it(`${name} is enough to give up: the RpcError, nothing sent again`, async () => {
      const elicitations = [LINK, { ...LINK, elicitationId: 'link-2' }]
      const client = await kit.start(legacyServer((seen) => required(seen, { elicitations })), optedIn(handler))
      await expect(client.request('tools/call', { name: 'link' })).rejects.toMatchObject({ name: 'RpcError', code: -32042 })
      expect(calls()).toHaveLength(1)
    })
  }

  it('a second -32042 after the retry reaches the caller: one retry per request, one round shown', async () => {
    const { rounds, handler } = user('accept')
    const client = await kit.start(
      legacyServer((seen, n) => required(seen, { elicitations: [{ ...LINK, elicitationId: `link-${n}` }] })),
      optedIn(handler),
    )
    const failure = (await client.request('tools/call', { name: 'link' }).catch((e: unknown) => e)) as RpcError
    expect(failure).toBeInstanceOf(RpcError)
    expect(failure.data).toEqual({ elicitations: [{ ...LINK, elicitationId: 'link-2' }] })
    expect(rounds).toHaveLength(1)
    expect(calls()).toHaveLength(2)
    // The limit is per request: the next one may be elicited and retried again.
    await expect(client.request('tools/call', { name: 'link' })).rejects.toBeInstanceOf(RpcError)
    expect(rounds).toHaveLength(2)
    expect(calls()).toHaveLength(4)
  })

  it('what the handler throws reaches the caller, and nothing is sent again', async () => {
    const client = await kit.start(legacyServer((seen) => link(seen)), optedIn(() => Promise.reject(new Error('the dialog broke'))))
    await expect(client.request('tools/call', { name: 'link' })).rejects.toThrow('the dialog broke')
    expect(calls()).toHaveLength(1)
  })
})

describe('-32042 left to the caller as the RpcError it is, nothing shown', () => {
  it('when the app did not opt in to legacy elicitation (URL mode was never declared)', async () => {
    const { rounds, handler } = user('accept')
    const client = await kit.start(legacyServer((seen) => link(seen)), { onInputRequest: handler })
    const failure = (await client.request('tools/call', { name: 'link' }).catch((e: unknown) => e)) as RpcError
    expect(failure).toBeInstanceOf(RpcError)
    expect(failure).toMatchObject({ code: -32042, data: { elicitations: [LINK] } })
    expect(rounds).toEqual([])
    expect(calls()).toHaveLength(1)
  })

  it('when the session is 2025-06-18, where -32042 is no URL elicitation', async () => {
    const { rounds, handler } = user('accept')
    const client = await kit.start(legacyServer((seen) => link(seen), '2025-06-18'), optedIn(handler))
    await expect(client.request('tools/call', { name: 'link' })).rejects.toMatchObject({ name: 'RpcError', code: -32042 })
    expect(client.protocolVersion).toBe('2025-06-18')
    expect(rounds).toEqual([])
  })

  const malformed: [string, unknown][] = [
    ['no data', undefined],
    ['data that is not an object', 'elicitations'],
    ['elicitations that are not a list', { elicitations: LINK }],
    ['an empty list', { elicitations: [] }],
    ['a form-mode elicitation', { elicitations: [{ ...LINK, mode: 'form', requestedSchema: { type: 'object', properties: {} } }] }],
    ['an elicitation without elicitationId', { elicitations: [{ mode: 'url', url: LINK.url, message: LINK.message }] }],
    ['a url that is not a string', { elicitations: [{ ...LINK, url: 42 }] }],
    ['one good item beside a null', { elicitations: [LINK, null] }],
  ]
  for (const [name, data] of malformed) {
    it(`when data.elicitations is malformed: ${name}`, async () => {
      const { rounds, handler } = user('accept')
      const debug = vi.fn()
      const client = await kit.start(legacyServer((seen) => required(seen, data)), optedIn(handler, { debug }))
      const failure = (await client.request('tools/call', { name: 'link' }).catch((e: unknown) => e)) as RpcError
      expect(failure).toBeInstanceOf(RpcError)
      expect(failure.code).toBe(-32042)
      expect(failure.data).toEqual(data)
      expect(rounds).toEqual([])
      expect(calls()).toHaveLength(1)
      expect(debug).toHaveBeenCalledWith(expect.stringContaining('-32042'), data)
    })
  }
})

describe("the request's own limits bound the elicitation and the retry", () => {
  /** A user who never answers; `asked` settles when the round is shown, with its signal. */
  const absent = () => {
    const asked = new Arrivals<AbortSignal>()
    const handler: InputRequestHandler = (_requests, { signal }) => (asked.push(signal), new Promise(() => undefined))
    return { asked, handler }
  }

  it("the request's timeout fires while the user is asked, as a TimeoutError, and the handler's signal aborts", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { asked, handler } = absent()
    const client = await kit.start(legacyServer((seen) => link(seen)), optedIn(handler, { timeout: 3_600_000 }))
    const pending = client.request('tools/call', { name: 'link' }, { timeout: 300 }).catch((e: unknown) => e)
    const signal = await asked.nth(0)
    await vi.advanceTimersByTimeAsync(300)
    expect(await pending).toMatchObject({ name: 'TimeoutError', method: 'tools/call', timeout: 300 })
    expect(signal.aborted).toBe(true)
    expect(calls()).toHaveLength(1)
    await client.close()
  })

  it("the request's timeout also bounds the retry", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const retried = new Arrivals<Seen>()
    const client = await kit.start(
      legacyServer((seen, n) => (n === 1 ? link(seen) : (retried.push(seen), new Promise<Reply>(() => undefined)))),
      optedIn(() => ({ 0: { action: 'accept' } }), { timeout: 3_600_000 }),
    )
    const pending = client.request('tools/call', { name: 'link' }, { timeout: 300 }).catch((e: unknown) => e)
    await retried.nth(0)
    await vi.advanceTimersByTimeAsync(300)
    expect(await pending).toBeInstanceOf(TimeoutError)
    await client.close()
  })

  it("the request's signal aborts the wait for the user, as an AbortError carrying the reason", async () => {
    const { asked, handler } = absent()
    const client = await kit.start(legacyServer((seen) => link(seen)), optedIn(handler))
    const controller = new AbortController()
    const pending = client.request('tools/call', { name: 'link' }, { signal: controller.signal }).catch((e: unknown) => e)
    await asked.nth(0)
    controller.abort('user left')
    expect(await pending).toMatchObject({ name: 'AbortError', reason: 'user left' })
    expect(await pending).toBeInstanceOf(AbortError)
    expect(calls()).toHaveLength(1)
  })
})
