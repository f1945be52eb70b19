// The Client's contract on the wire (meta, params, resultType, version), older servers' deferred notifications and server requests, and bad answers.
import { describe, expect, it } from 'vitest'
import type { Client } from './client'
import { AbortError } from '../errors/abort-error'
import { ProtocolError } from '../errors/protocol-error'
import { PACKAGE_VERSION, VERSION } from '../version'
import { initialized, ok, type Reply, type Seen } from '../testing/scripted-server'
import { complete, scriptedClients, sse } from '../testing/scripted-client'
import type { ServerNotification } from './types'
import pkg from '../../package.json' with { type: 'json' }

const kit = scriptedClients({ unhandled: true })
const { start } = kit

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
    expect(kit.server.seen[0]!.body.params).toEqual({ _meta: client.meta })
    const progress: unknown[] = []
    const logs: unknown[] = []
    await client.request('tools/call', { name: 'slow' }, { onProgress: (p) => progress.push(p), logLevel: 'info', onLog: (l) => logs.push(l) })
    const meta = kit.server.seen[1]!.body.params._meta
    expect(meta.progressToken).toEqual(expect.any(String))
    expect(meta['io.modelcontextprotocol/logLevel']).toBe('info')
    expect(progress).toEqual([{ progress: 1, total: 2, message: undefined }])
    expect(logs).toEqual([{ level: 'info', data: 'hi' }])
  })

  it('onLog and onProgress get checked notifications only: a malformed one is dropped with a debug line', async () => {
    const debug: string[] = []
    const client = await start(
      (seen) => ({
        sse: sse(
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: seen.body.params._meta.progressToken, progress: '50%' } },
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: seen.body.params._meta.progressToken, progress: 1 } },
          { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'loud', data: 'x' } },
          { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'no level' } },
          { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'y', extra: 1 } },
          { jsonrpc: '2.0', id: seen.body.id, result: { resultType: 'complete', content: [] } },
        ),
      }),
      { debug: (message) => debug.push(message) },
    )
    const logs: unknown[] = []
    const progress: unknown[] = []
    await client.request('tools/call', { name: 'x' }, { logLevel: 'info', onLog: (l) => logs.push(l), onProgress: (p) => progress.push(p) })
    expect(logs).toEqual([{ level: 'error', data: 'y', extra: 1 }])
    expect(progress).toEqual([{ progress: 1, total: undefined, message: undefined }])
    await expect.poll(() => debug.filter((text) => text.startsWith('dropped a malformed notifications/progress'))).toEqual([
      'dropped a malformed notifications/progress: notification.params.progress: expected number, got string',
    ])
    // A level missing reads the same as one out of the list.
    const line = 'dropped a malformed notifications/message: notification.params.level: expected "debug" or "info" or "notice" or "warning" or "error" or "critical" or "alert" or "emergency"'
    await expect.poll(() => debug.filter((text) => text.startsWith('dropped a malformed notifications/message'))).toEqual([line, line])
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
    await kit.arrived.find((s) => s.body?.id === 's1' && !s.body.method)
    await kit.arrived.find((s) => s.body?.id === 'p1' && !s.body.method)
    const answers = kit.server.seen.filter((s) => s.body && !s.body.method).map((s) => s.body)
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 'p1', result: {} },
      { jsonrpc: '2.0', id: 's1', error: { code: -32601, message: 'Method not found: sampling/createMessage' } },
    ])
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
    await kit.arrived.nth(0)
    await client.close()
    for (const p of pending) await expect(p).rejects.toBeInstanceOf(AbortError)
    await expect(client.request('tools/list')).rejects.toBeInstanceOf(AbortError)
  })
})
