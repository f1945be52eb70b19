// legacyElicitation, legacySampling and legacyRoots: opt-ins, off by default, that let an older server's session
// ask the client for input (form or URL elicitation, a sampled message, its roots).
import { afterEach, describe, expect, it } from 'vitest'
import { Client, forgetEras } from './client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { initialized, ok, scriptedServer, type ScriptedServer, type Seen } from '../testing/scripted-server'
import { Arrivals } from '../testing/wait'
import type { ClientOptions } from './types'
import type { ServerNotification } from '../schemas/types'
import { LEGACY_VERSIONS } from '../version'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  forgetEras()
})

const sse = (...messages: unknown[]) => messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join('')
const SAMPLE = { jsonrpc: '2.0', id: 's1', method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 } }
const ROOTS = { jsonrpc: '2.0', id: 'r1', method: 'roots/list' }

const FORM = { jsonrpc: '2.0', id: 'f1', method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' }, lang: { type: 'string', default: 'en' } } } } }
const URL_ASK = { jsonrpc: '2.0', id: 'u1', method: 'elicitation/create', params: { mode: 'url', message: 'Approve access', url: 'https://example.com/consent?step=1', elicitationId: 'el-7' } }
const COMPLETE = { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: 'el-7' } }

/**
 * A legacy server whose GET stream carries `pushed`; returns the client and what arrived. With `only`, the modern
 * probe gets -32022 listing that one revision, so the handshake offers it.
 */
async function start(pushed: unknown[], options: ClientOptions, only?: string) {
  const arrived = new Arrivals<Seen>()
  server = await scriptedServer((seen) => {
    arrived.push(seen)
    if (seen.method === 'GET') return { sse: sse(...pushed) }
    if (seen.body?.method === 'initialize') return initialized(seen)
    if (!seen.body?.method) return { status: 202 }
    if (!seen.headers['mcp-session-id'] && only) {
      return { status: 400, body: { jsonrpc: '2.0', id: seen.body.id, error: { code: -32022, message: 'Unsupported', data: { supported: [only], requested: '2026-07-28' } } } }
    }
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
    expect(init.body.params.capabilities).toEqual({ elicitation: { form: { applyDefaults: true }, url: {} } })
    expect(refusals.map((s) => s.body.error.code)).toEqual([-32601, -32601])
    expect(called).toBe(false)
    await client.close()
  })
})

describe('legacyElicitation (opt-in): form and URL mode', () => {
  const declaredFor = async (offer: string | undefined, options: ClientOptions) => {
    const { client } = await start([], options, offer)
    await client.request('tools/list')
    const init = server!.seen.find((s) => s.body?.method === 'initialize')!
    await client.close()
    await server!.close()
    server = undefined
    forgetEras()
    return [init.body.params.protocolVersion, init.body.params.capabilities]
  }

  it('declares URL mode beside form (applyDefaults) when the handshake offers 2025-11-25, form only on older revisions', async () => {
    const declared = []
    for (const offer of LEGACY_VERSIONS) declared.push(await declaredFor(offer, { legacyElicitation: true, onInputRequest: () => ({}) }))
    const form = { form: { applyDefaults: true } }
    expect(declared).toEqual([
      ['2025-11-25', { elicitation: { ...form, url: {} } }],
      ['2025-06-18', { elicitation: form }],
      ['2025-03-26', { elicitation: form }],
      ['2024-11-05', { elicitation: form }],
    ])
  })

  it('off (the default), or without onInputRequest, declares no elicitation on any revision', async () => {
    for (const options of [{ onInputRequest: () => ({}) }, { legacyElicitation: true }] satisfies ClientOptions[]) {
      expect(await declaredFor(undefined, options)).toEqual(['2025-11-25', {}])
      expect(await declaredFor('2025-06-18', options)).toEqual(['2025-06-18', {}])
    }
  })

  it('a URL-mode elicitation/create reaches onInputRequest as the URL kind, the answer goes back without content, and elicitation/complete reaches onNotification', async () => {
    const seenUrls: string[] = []
    const notified: ServerNotification[] = []
    const { client, arrived } = await start([URL_ASK, COMPLETE], {
      legacyElicitation: true,
      onNotification: (n) => notified.push(n),
      onInputRequest: (requests) => {
        const request = requests.u1!
        // Typed: narrowing on method and mode gives the URL params (url, elicitationId) with no cast.
        if (request.method === 'elicitation/create' && request.params.mode === 'url') seenUrls.push(`${request.params.elicitationId}=${request.params.url}`)
        return { u1: { action: 'accept' } }
      },
    })
    await client.request('tools/list')
    const answer = await arrived.find((s) => s.body?.id === 'u1' && !s.body.method)
    expect(seenUrls).toEqual(['el-7=https://example.com/consent?step=1'])
    // Spec (2025-11-25 ElicitResult): content is omitted for out-of-band (URL) answers.
    expect(answer.body).toEqual({ jsonrpc: '2.0', id: 'u1', result: { action: 'accept' } })
    await expect.poll(() => notified.map((n) => n.method)).toContain('notifications/elicitation/complete')
    expect(notified.find((n) => n.method === 'notifications/elicitation/complete')?.params).toEqual({ elicitationId: 'el-7' })
    await client.close()
  })

  it('a form elicitation/create on the same session is still answered, with schema defaults filled in', async () => {
    const { client, arrived } = await start([FORM, URL_ASK], {
      legacyElicitation: true,
      onInputRequest: (requests) => {
        const [key, request] = Object.entries(requests)[0]!
        const url = request.method === 'elicitation/create' && request.params.mode === 'url'
        return { [key]: url ? { action: 'decline' } : { action: 'accept', content: { name: 'Ada' } } }
      },
    })
    await client.request('tools/list')
    const form = await arrived.find((s) => s.body?.id === 'f1' && !s.body.method)
    const url = await arrived.find((s) => s.body?.id === 'u1' && !s.body.method)
    expect(form.body.result).toEqual({ action: 'accept', content: { name: 'Ada', lang: 'en' } })
    expect(url.body.result).toEqual({ action: 'decline' })
    await client.close()
  })
})
