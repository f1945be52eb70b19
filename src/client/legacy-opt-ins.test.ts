// legacySampling and legacyRoots: opt-ins like legacyElicitation, off by default, that let an older server's
// session ask the client for a sampled message or its roots.
import { afterEach, describe, expect, it } from 'vitest'
import { Client, forgetEras } from './client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { initialized, ok, scriptedServer, type ScriptedServer, type Seen } from '../testing/scripted-server'
import { Arrivals } from '../testing/wait'
import type { ClientOptions } from './types'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  forgetEras()
})

const sse = (...messages: unknown[]) => messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join('')
const SAMPLE = { jsonrpc: '2.0', id: 's1', method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 } }
const ROOTS = { jsonrpc: '2.0', id: 'r1', method: 'roots/list' }

/** A legacy server whose GET stream carries `pushed`; returns the client and what arrived. */
async function start(pushed: unknown[], options: ClientOptions) {
  const arrived = new Arrivals<Seen>()
  server = await scriptedServer((seen) => {
    arrived.push(seen)
    if (seen.method === 'GET') return { sse: sse(...pushed) }
    if (seen.body?.method === 'initialize') return initialized(seen)
    if (!seen.body?.method) return { status: 202 }
    if (!seen.headers['mcp-session-id']) return { status: 400 }
    if (seen.body.method === 'notifications/initialized') return { status: 202 }
    return ok(seen, { tools: [] })
  })
  return { client: new Client(new StreamableHttpTransport(server.url), options), arrived }
}

describe('legacySampling and legacyRoots (opt-in)', () => {
  it('declare sampling and roots (listChanged) in the handshake and answer both requests through onInputRequest', async () => {
    const asked: string[] = []
    const { client, arrived } = await start([SAMPLE, ROOTS], {
      legacySampling: true,
      legacyRoots: true,
      onInputRequest: (requests) => {
        const [key, request] = Object.entries(requests)[0]!
        asked.push(request.method)
        return { [key]: request.method === 'roots/list' ? { roots: [{ uri: 'file:///a' }] } : { role: 'assistant', content: { type: 'text', text: 'Yo' }, model: 'me' } }
      },
    })
    await client.request('tools/list')
    await arrived.find((s) => s.body?.id === 's1' && !s.body.method)
    await arrived.find((s) => s.body?.id === 'r1' && !s.body.method)
    const init = server!.seen.find((s) => s.body?.method === 'initialize')!
    expect(init.body.params.capabilities).toEqual({ sampling: {}, roots: { listChanged: true } })
    expect(server!.seen.find((s) => s.body?.id === 's1')?.body.result).toEqual({ role: 'assistant', content: { type: 'text', text: 'Yo' }, model: 'me' })
    expect(server!.seen.find((s) => s.body?.id === 'r1')?.body.result).toEqual({ roots: [{ uri: 'file:///a' }] })
    expect(asked.sort()).toEqual(['roots/list', 'sampling/createMessage'])
    await client.close()
  })

  it('a refusal by the app (the user declined) is a JSON-RPC error with its message', async () => {
    const { client, arrived } = await start([SAMPLE], { legacySampling: true, onInputRequest: () => Promise.reject(new Error('You declined')) })
    await client.request('tools/list')
    const answer = await arrived.find((s) => s.body?.id === 's1' && !s.body.method)
    expect(answer.body.error).toEqual({ code: -32603, message: 'You declined' })
    await client.close()
  })

  it('off by default: nothing is declared and both requests are refused as unknown methods', async () => {
    let called = false
    const { client, arrived } = await start([SAMPLE, ROOTS], {
      legacyElicitation: true,
      onInputRequest: () => ((called = true), {}),
    })
    await client.request('tools/list')
    const refusals = await Promise.all(['s1', 'r1'].map((id) => arrived.find((s) => s.body?.id === id && !s.body.method)))
    const init = server!.seen.find((s) => s.body?.method === 'initialize')!
    expect(init.body.params.capabilities).toEqual({ elicitation: { form: { applyDefaults: true } } })
    expect(refusals.map((s) => s.body.error.code)).toEqual([-32601, -32601])
    expect(called).toBe(false)
    await client.close()
  })
})
