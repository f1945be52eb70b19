import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Client, forgetEras } from './client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { AbortError } from '../errors/abort-error'
import { InputRequiredError } from '../errors/input-required-error'
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { PACKAGE_VERSION, VERSION } from '../version'
import { initialized, ok, scriptedServer, type Reply, type ScriptedServer, type Seen } from '../testing/scripted-server'
import type { ServerNotification } from './types'
import { Arrivals } from '../testing/wait'
import pkg from '../../package.json' with { type: 'json' }

let server: ScriptedServer | undefined
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
beforeAll(() => void process.on('unhandledRejection', onUnhandled))
afterAll(() => {
  process.off('unhandledRejection', onUnhandled)
})
afterEach(async () => {
  await server?.close()
  server = undefined
  forgetEras()
  // Every promise a test left behind has settled and been handled (reported after a turn of the event loop).
  await new Promise((resolve) => setImmediate(resolve))
  expect(unhandled).toEqual([])
})

const complete = (seen: Seen, result: Record<string, unknown>) => ok(seen, { resultType: 'complete', ...result })
const sse = (...messages: unknown[]) => messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join('')
/** Everything the server saw in this test, as it arrives. */
let arrived = new Arrivals<Seen>()
const start = async (answer: (seen: Seen, index: number) => Reply | Promise<Reply>, options = {}) => {
  arrived = new Arrivals<Seen>()
  server = await scriptedServer((seen, index) => {
    arrived.push(seen)
    return answer(seen, index)
  })
  return new Client(new StreamableHttpTransport(server.url), options)
}

describe('the contract', () => {
  it('meta is exactly the three keys', async () => {
    const client = await start(() => ({ status: 500 }), { clientInfo: { name: 'app', version: '2.0.0' }, capabilities: { roots: {} } })
    expect(client.meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': VERSION,
      'io.modelcontextprotocol/clientInfo': { name: 'app', version: '2.0.0' },
      'io.modelcontextprotocol/clientCapabilities': { roots: {} },
    })
  })

  it('reports its package version by default', () => {
    expect(PACKAGE_VERSION).toBe(pkg.version)
  })

  it('always sends params, with progressToken and logLevel only when asked', async () => {
    const client = await start((seen) =>
      seen.body.method === 'tools/call'
        ? {
            sse: sse(
              { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: seen.body.params._meta.progressToken, progress: 1, total: 2 } },
              { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } },
              { jsonrpc: '2.0', id: seen.body.id, result: { resultType: 'complete', content: [] } },
            ),
          }
        : complete(seen, { tools: [] }),
    )
    await client.request('tools/list')
    expect(server!.seen[0]!.body.params).toEqual({ _meta: client.meta })
    const progress: unknown[] = []
    const logs: unknown[] = []
    await client.request('tools/call', { name: 'slow' }, { onProgress: (p) => progress.push(p), logLevel: 'info', onLog: (l) => logs.push(l) })
    const meta = server!.seen[1]!.body.params._meta
    expect(meta.progressToken).toEqual(expect.any(String))
    expect(meta['io.modelcontextprotocol/logLevel']).toBe('info')
    expect(progress).toEqual([{ progress: 1, total: 2, message: undefined }])
    expect(logs).toEqual([{ level: 'info', data: 'hi' }])
  })

  it('a missing resultType on a modern connection means complete', async () => {
    const client = await start((seen, i) => (i === 0 ? complete(seen, { tools: [] }) : ok(seen, { content: [{ type: 'text', text: 'x' }] })))
    await client.request('tools/list')
    expect((await client.request('tools/call', { name: 'a' })).content).toHaveLength(1)
  })
})

describe('deferred notifications from older servers', () => {
  it('reach onNotification after the request settled, in order, and the handler can await requests', async () => {
    const events: string[] = []
    let client!: Client
    const legacyAnswer = (seen: Seen): Reply => {
      if (!seen.headers['mcp-session-id'] && seen.body.method !== 'initialize') return { status: 400 }
      if (seen.body.method === 'initialize') return initialized(seen)
      if (seen.body.method === 'notifications/initialized') return { status: 202 }
      if (seen.body.method === 'tools/call') {
        return {
          sse: sse(
            { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
            { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' },
            { jsonrpc: '2.0', id: seen.body.id, result: { content: [] } },
          ),
        }
      }
      return ok(seen, { tools: [] })
    }
    let refetched!: () => void
    const done = new Promise<void>((resolve) => (refetched = resolve))
    client = await start(legacyAnswer, {
      async onNotification(n: ServerNotification) {
        events.push(`notified ${n.method}`)
        if (n.method === 'notifications/tools/list_changed') {
          await client.request('tools/list')
          events.push('refetched')
          refetched()
        }
      },
    })
    await client.request('tools/call', { name: 'a' }).then(() => events.push('settled'))
    await done
    expect(events).toEqual(['settled', 'notified notifications/tools/list_changed', 'notified notifications/prompts/list_changed', 'refetched'])
  })

  it('answers a server ping and refuses other server requests with -32601', async () => {
    const client = await start((seen) => {
      if (!seen.body) return { status: 405 }
      if (seen.body.method === 'initialize') return initialized(seen)
      if (!seen.body.method) return { status: 202 } // our answers
      if (!seen.headers['mcp-session-id']) return { status: 400 }
      if (seen.body.method === 'notifications/initialized') return { status: 202 }
      return {
        sse: sse(
          { jsonrpc: '2.0', id: 'p1', method: 'ping' },
          { jsonrpc: '2.0', id: 's1', method: 'sampling/createMessage', params: {} },
          { jsonrpc: '2.0', id: seen.body.id, result: { tools: [] } },
        ),
      }
    })
    await client.request('tools/list')
    await arrived.find((s) => s.body?.id === 's1' && !s.body.method)
    await arrived.find((s) => s.body?.id === 'p1' && !s.body.method)
    const answers = server!.seen.filter((s) => s.body && !s.body.method).map((s) => s.body)
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 'p1', result: {} },
      { jsonrpc: '2.0', id: 's1', error: { code: -32601, message: 'Method not found: sampling/createMessage' } },
    ])
  })
})

describe('legacyElicitation (opt-in)', () => {
  it('declares form elicitation with applyDefaults (and URL mode on 2025-11-25), opens the GET stream and answers elicitation/create there', async () => {
    const client = await start(
      (seen) => {
        if (seen.method === 'GET') {
          const params = { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' }, lang: { type: 'string', default: 'en' } } } }
          return { sse: sse({ jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params }) }
        }
        if (seen.body?.method === 'initialize') return initialized(seen)
        if (!seen.body?.method) return { status: 202 }
        if (!seen.headers['mcp-session-id']) return { status: 400 }
        if (seen.body.method === 'notifications/initialized') return { status: 202 }
        return ok(seen, { tools: [] })
      },
      { legacyElicitation: true, onInputRequest: () => ({ e1: { action: 'accept', content: { name: 'Ada' } } }) },
    )
    await client.request('tools/list')
    await arrived.find((s) => s.body?.id === 'e1' && !s.body.method)
    const init = server!.seen.find((s) => s.body?.method === 'initialize')!
    expect(init.body.params.capabilities).toEqual({ elicitation: { form: { applyDefaults: true }, url: {} } })
    const answer = server!.seen.find((s) => s.body?.id === 'e1')
    expect(answer?.body).toEqual({ jsonrpc: '2.0', id: 'e1', result: { action: 'accept', content: { name: 'Ada', lang: 'en' } } })
  })
})

describe('input_required rounds', () => {
  const mrtr = (seen: Seen): Reply => {
    const p = seen.body.params
    if (seen.body.method !== 'tools/call') return complete(seen, { tools: [] })
    if (!p.inputResponses) {
      return ok(seen, {
        resultType: 'input_required',
        inputRequests: { who: { method: 'elicitation/create', params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' }, lang: { type: 'string', default: 'en' } } } } } },
        requestState: ' opaque "state" \u00e9 ',
      })
    }
    return complete(seen, { content: [{ type: 'text', text: `Hello ${p.inputResponses.who.content.name} (${p.inputResponses.who.content.lang})` }] })
  }

  it('answers through onInputRequest, retrying with a new id, inputResponses and requestState echoed byte for byte', async () => {
    const asked: unknown[] = []
    const client = await start(mrtr, {
      onInputRequest: (requests: Record<string, unknown>) => {
        asked.push(requests)
        return { who: { action: 'accept', content: { name: 'Ada' } } }
      },
    })
    const result = await client.request('tools/call', { name: 'ask', arguments: { x: 1 } })
    expect(result.content).toEqual([{ type: 'text', text: 'Hello Ada (en)' }])
    const [first, retry] = server!.seen.map((s) => s.body)
    expect(retry.id).not.toBe(first.id)
    expect(retry.params.requestState).toBe(' opaque "state" \u00e9 ')
    expect(retry.params.arguments).toEqual({ x: 1 })
    expect(first.params._meta['io.modelcontextprotocol/clientCapabilities'].elicitation).toBeDefined()
    expect(asked).toHaveLength(1)
  })

  it('without a handler fails with InputRequiredError carrying the requests, and declares no capability', async () => {
    const client = await start(mrtr)
    const failure = (await client.request('tools/call', { name: 'ask' }).catch((e: unknown) => e)) as InputRequiredError
    expect(failure).toBeInstanceOf(InputRequiredError)
    expect(Object.keys(failure.inputRequests)).toEqual(['who'])
    expect(server!.seen[0]!.body.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({})
  })

  it('a round limit ends loops', async () => {
    const client = await start((seen) => ok(seen, { resultType: 'input_required', requestState: 'again' }), { onInputRequest: () => ({}), maxInputRounds: 3 })
    await expect(client.request('tools/call', { name: 'loop' })).rejects.toBeInstanceOf(InputRequiredError)
    expect(server!.seen).toHaveLength(4)
    expect(server!.seen[1]!.body.params.requestState).toBe('again')
    expect(server!.seen[1]!.body.params.inputResponses).toBeUndefined()
  })

  it('input_required on a method that may not ask is a protocol error', async () => {
    const client = await start((seen) => ok(seen, { resultType: 'input_required', requestState: 'x' }), { onInputRequest: () => ({}) })
    await expect(client.request('tools/list')).rejects.toBeInstanceOf(ProtocolError)
  })
})

describe('tasks extension', () => {
  it('polls tasks/get honouring pollIntervalMs and resolves with the result', async () => {
    let polls = 0
    const client = await start(
      (seen) => {
        const m = seen.body.method
        if (m === 'tools/call') return ok(seen, { resultType: 'task', taskId: 't1', status: 'working', pollIntervalMs: 20, createdAt: '', lastUpdatedAt: '', ttlMs: null })
        if (m === 'tasks/get') {
          polls++
          return complete(seen, polls < 3 ? { taskId: 't1', status: 'working' } : { taskId: 't1', status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } })
        }
        return complete(seen, {})
      },
      { tasks: true },
    )
    const result = await client.request('tools/call', { name: 'long' })
    expect(result.content).toEqual([{ type: 'text', text: 'done' }])
    expect(polls).toBe(3)
    expect(server!.seen[0]!.body.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} })
    expect(server!.seen[1]!.headers['mcp-name']).toBe('t1')
  })

  it('a failed task rejects with its error; aborting sends tasks/cancel', async () => {
    const client = await start(
      (seen) => {
        const m = seen.body.method
        if (m === 'tools/call') return ok(seen, { resultType: 'task', taskId: seen.body.params.name, status: 'working', pollIntervalMs: 10 })
        if (m === 'tasks/get' && seen.body.params.taskId === 'bad') return complete(seen, { taskId: 'bad', status: 'failed', error: { code: -32000, message: 'boom' } })
        if (m === 'tasks/get') return complete(seen, { taskId: 'slow', status: 'working' })
        return complete(seen, {})
      },
      { tasks: true },
    )
    const failure = (await client.request('tools/call', { name: 'bad' }).catch((e: unknown) => e)) as RpcError
    expect(failure).toBeInstanceOf(RpcError)
    expect(failure.message).toContain('boom')
    const controller = new AbortController()
    const slow = client.request('tools/call', { name: 'slow' }, { signal: controller.signal })
    await arrived.find((s) => s.body?.method === 'tasks/get' && s.body.params.taskId === 'slow')
    controller.abort()
    await expect(slow).rejects.toBeInstanceOf(AbortError)
    // Tasks outlive streams: only tasks/cancel stops the work, and it names the task.
    expect((await arrived.find((s) => s.body?.method === 'tasks/cancel')).body.params).toEqual({ taskId: 'slow', _meta: client.meta })
  })
})

describe('bad input', () => {
  const garbage: [string, (seen: Seen) => Reply, new (...a: never[]) => Error][] = [
    ['a body that is not JSON', () => ({ body: undefined, sse: undefined, headers: { 'content-type': 'application/json' }, status: 200 }), ProtocolError],
    ['a result of the wrong shape', (seen) => complete(seen, { tools: 'nope' }), ProtocolError],
    ['an error object without a code', (seen) => ({ body: { jsonrpc: '2.0', id: seen.body.id, error: { message: 'x' } } }), ProtocolError],
    ['neither result nor error', (seen) => ({ body: { jsonrpc: '2.0', id: seen.body.id } }), ProtocolError],
    ['an unknown resultType', (seen) => ok(seen, { resultType: 'weird', tools: [] }), ProtocolError],
  ]
  for (const [name, answer, type] of garbage) {
    it(`${name}: a typed error for that request, and the client stays usable`, async () => {
      let broken = true
      const client = await start((seen, i) => (i === 0 ? complete(seen, { tools: [] }) : broken ? answer(seen) : complete(seen, { tools: [] })))
      await client.request('tools/list')
      await expect(client.request('tools/list')).rejects.toBeInstanceOf(type)
      broken = false
      await expect(client.request('tools/list')).resolves.toEqual(expect.objectContaining({ tools: [] }))
    })
  }

  it('the wrong id or two answers to one id do not confuse the client', async () => {
    const client = await start((seen, i) =>
      i === 0
        ? complete(seen, { tools: [] })
        : {
            sse: sse(
              { jsonrpc: '2.0', id: 9999, result: { resultType: 'complete', tools: [{ name: 'wrong' }] } },
              { jsonrpc: '2.0', id: seen.body.id, result: { resultType: 'complete', tools: [] } },
              { jsonrpc: '2.0', id: seen.body.id, result: { resultType: 'complete', tools: [{ name: 'twice' }] } },
            ),
          },
    )
    await client.request('tools/list')
    await expect(client.request('tools/list')).resolves.toEqual(expect.objectContaining({ tools: [] }))
  })

  it('close() settles every pending request', async () => {
    const client = await start(() => new Promise<Reply>(() => undefined))
    const pending = [client.request('tools/list'), client.request('prompts/list')]
    await arrived.nth(0)
    await client.close()
    for (const p of pending) await expect(p).rejects.toBeInstanceOf(AbortError)
    await expect(client.request('tools/list')).rejects.toBeInstanceOf(AbortError)
  })
})
