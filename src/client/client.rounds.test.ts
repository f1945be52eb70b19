// Input the server asks the Client for (legacy elicitation, input_required rounds) and tasks it polls to the end.
import { describe, expect, it } from 'vitest'
import { AbortError } from '../errors/abort-error'
import { InputRequiredError } from '../errors/input-required-error'
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { initialized, ok, type Reply, type Seen } from '../testing/scripted-server'
import { complete, scriptedClients, sse } from '../testing/scripted-client'

const kit = scriptedClients({ unhandled: true })
const { start } = kit

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
    await kit.arrived.find((s) => s.body?.id === 'e1' && !s.body.method)
    const init = kit.server.seen.find((s) => s.body?.method === 'initialize')!
    expect(init.body.params.capabilities).toEqual({ elicitation: { form: { applyDefaults: true }, url: {} } })
    const answer = kit.server.seen.find((s) => s.body?.id === 'e1')
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
    const [first, retry] = kit.server.seen.map((s) => s.body)
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
    expect(kit.server.seen[0]!.body.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({})
  })

  it('a round limit ends loops', async () => {
    const client = await start((seen) => ok(seen, { resultType: 'input_required', requestState: 'again' }), { onInputRequest: () => ({}), maxInputRounds: 3 })
    await expect(client.request('tools/call', { name: 'loop' })).rejects.toBeInstanceOf(InputRequiredError)
    expect(kit.server.seen).toHaveLength(4)
    expect(kit.server.seen[1]!.body.params.requestState).toBe('again')
    expect(kit.server.seen[1]!.body.params.inputResponses).toBeUndefined()
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
    expect(kit.server.seen[0]!.body.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} })
    expect(kit.server.seen[1]!.headers['mcp-name']).toBe('t1')
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
    await kit.arrived.find((s) => s.body?.method === 'tasks/get' && s.body.params.taskId === 'slow')
    controller.abort()
    await expect(slow).rejects.toBeInstanceOf(AbortError)
    // Tasks outlive streams: only tasks/cancel stops the work, and it names the task.
    expect((await kit.arrived.find((s) => s.body?.method === 'tasks/cancel')).body.params).toEqual({ taskId: 'slow', _meta: client.meta })
  })
})
