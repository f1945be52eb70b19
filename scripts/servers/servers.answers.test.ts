// What each embedded server answers: its era's handshake, CORS, and the shared catalogue of tools, prompts and resources.
import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { servers, SSE_INIT, textOf, toolNames } from './node-test-setup.ts'
import {
  legacySession,
  modernCall,
  modernRequest,
  sseEvents,
  sseSession,
} from './test-helpers.ts'

describe('each server answers', () => {
  it('modern: server/discover with the 2026-07-28 headers', async () => {
    const { status, final } = await modernCall(servers.modern.url, 'server/discover')
    expect(status).toBe(200)
    expect(final.result.supportedVersions).toContain('2026-07-28')
    expect(final.result.resultType).toBe('complete')
    expect(final.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('nanomcp-modern')
    expect(final.result.capabilities).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true } })
  })

  it('modern: also answers the legacy handshake, without a session', async () => {
    const session = await legacySession(servers.modern.url).catch((error: Error) => error)
    // The SDK's stateless legacy leg answers initialize but issues no session id.
    expect(session).toBeInstanceOf(Error)
    expect(String(session)).toContain('no Mcp-Session-Id (HTTP 200)')
  })

  it('legacy: initialize gives a session; an unknown session id gets 404 with a JSON-RPC body', async () => {
    const session = await legacySession(servers.legacy.url)
    expect(session.initResult.result.serverInfo.name).toBe('nanomcp-legacy')
    expect(session.initResult.result.protocolVersion).toBe('2025-11-25')
    const { final } = await session.call('tools/list')
    expect(toolNames(final.result)).toContain('echo')

    const unknown = await fetch(servers.legacy.url, {
      method: 'POST',
      headers: { ...session.headers(), 'Mcp-Session-Id': 'no-such-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } })

    const deleted = await fetch(servers.legacy.url, { method: 'DELETE', headers: session.headers() })
    expect(deleted.status).toBe(200)
    expect((await session.call('tools/list')).status).toBe(404)
  })

  it('legacy: a modern request gets the legacy signal (400, not initialized)', async () => {
    const { response } = await modernRequest(servers.legacy.url, 'tools/list')
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: -32000 } })
  })

  it('sse: GET /sse announces the endpoint and answers on the stream', async () => {
    const session = await sseSession(servers.sse.url)
    try {
      expect(session.endpoint).toMatch(/\/messages\?sessionId=/)
      expect((await session.post(SSE_INIT)).status).toBe(202)
      const init = await session.events.nextMessage()
      expect(init).toMatchObject({ id: 1, result: { protocolVersion: '2024-11-05', serverInfo: { name: 'nanomcp-sse' } } })
    } finally {
      session.close()
    }
  })

  it('everything (streamableHttp): initialize gives a session', async () => {
    const session = await legacySession(servers.everything.url)
    expect(session.initResult.result.serverInfo.name).toMatch(/everything/i)
    expect(servers.everything.control).toBeUndefined()
  })

  it('everythingSse: GET /sse announces the endpoint', async () => {
    const session = await sseSession(servers.everythingSse.url)
    session.close()
    expect(session.endpoint).toMatch(/\/message\?sessionId=/)
  })

  it('answers CORS preflights for every MCP header and exposes the session id', async () => {
    for (const server of [servers.modern, servers.legacy, servers.sse]) {
      const asked = 'content-type,mcp-protocol-version,mcp-method,mcp-name,mcp-param-region,mcp-session-id,last-event-id,authorization'
      const res = await fetch(server.url, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://example.test',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': asked,
        },
      })
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-headers')).toBe(asked)
      expect(res.headers.get('access-control-expose-headers')).toMatch(/Mcp-Session-Id.*WWW-Authenticate.*MCP-Protocol-Version/)
    }
  })
})

describe('the catalogue', () => {
  it('lists the same tools, prompt and resources on every one of our servers', async () => {
    const modern = await modernCall(servers.modern.url, 'tools/list')
    const legacy = await legacySession(servers.legacy.url)
    const legacyTools = await legacy.call('tools/list')
    const expected = ['echo', 'add', 'regional_echo', 'slow_count', 'ask_name', 'markup_tool', 'grow', 'touch']
    expect(toolNames(modern.final.result)).toEqual(expected)
    expect(toolNames(legacyTools.final.result)).toEqual(expected)
    const prompts = (await legacy.call('prompts/list')).final.result.prompts
    expect(prompts).toEqual([
      expect.objectContaining({
        name: 'greet',
        arguments: [
          expect.objectContaining({ name: 'name', required: true }),
          expect.objectContaining({ name: 'style', required: false }),
        ],
      }),
    ])
    const templates = (await modernCall(servers.modern.url, 'resources/templates/list')).final.result
    expect(templates.resourceTemplates[0].uriTemplate).toBe('nanomcp://notes/{id}')
  })

  it('regional_echo declares x-mcp-header, and the modern server checks Mcp-Param-Region', async () => {
    const { final } = await modernCall(servers.modern.url, 'tools/list')
    const tool = final.result.tools.find((t: { name: string }) => t.name === 'regional_echo')
    expect(tool.inputSchema.properties.region['x-mcp-header']).toBe('Region')
    const args = { name: 'regional_echo', arguments: { region: 'eu-west', text: 'hi' } }
    const ok = await modernCall(servers.modern.url, 'tools/call', args, { headers: { 'Mcp-Param-Region': 'eu-west' } })
    expect(textOf(ok.final.result)).toBe('[eu-west] hi')
    const missing = await modernCall(servers.modern.url, 'tools/call', args)
    expect(missing.status).toBe(400)
    expect(missing.final.error.code).toBe(-32020)
  })

  it('add returns text and structuredContent', async () => {
    const { final } = await modernCall(servers.modern.url, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } })
    expect(final.result).toMatchObject({ content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } })
  })

  it('slow_count reports progress for each step on the request stream', async () => {
    const { final, notifications } = await modernCall(
      servers.modern.url,
      'tools/call',
      { name: 'slow_count', arguments: { steps: 3, delayMs: 5 } },
      { meta: { progressToken: 'count-1' } },
    )
    expect(notifications.map((n) => [n.method, n.params.progressToken, n.params.progress, n.params.total])).toEqual([
      ['notifications/progress', 'count-1', 1, 3],
      ['notifications/progress', 'count-1', 2, 3],
      ['notifications/progress', 'count-1', 3, 3],
    ])
    expect(textOf(final.result)).toBe('counted to 3')
  })

  it('ask_name on 2026-07-28: input_required, then Hello after the retry (state echoed)', async () => {
    const url = servers.modern.url
    const capabilities = { elicitation: {} }
    const first = await modernCall(url, 'tools/call', { name: 'ask_name', arguments: {} }, { capabilities })
    expect(first.final.result.resultType).toBe('input_required')
    const request = first.final.result.inputRequests.name
    expect(request.method).toBe('elicitation/create')
    expect(request.params.requestedSchema.properties.name.type).toBe('string')
    const requestState = first.final.result.requestState
    expect(typeof requestState).toBe('string')

    const retry = (inputResponses: object, state = requestState) =>
      modernCall(url, 'tools/call', { name: 'ask_name', arguments: {}, inputResponses, requestState: state }, { capabilities })
    expect(textOf((await retry({ name: { action: 'accept', content: { name: 'Ada' } } })).final.result)).toBe('Hello, Ada')
    expect(textOf((await retry({ name: { action: 'decline' } })).final.result)).toMatch(/declined/)
    expect(textOf((await retry({ name: { action: 'cancel' } })).final.result)).toMatch(/cancelled/)
    const tampered = await retry({ name: { action: 'accept', content: { name: 'Ada' } } }, `${requestState}x`)
    expect(tampered.final.result.isError).toBe(true)
  })

  it('ask_name without the elicitation capability: -32021 on modern, an explained isError on legacy', async () => {
    const modern = await modernCall(servers.modern.url, 'tools/call', { name: 'ask_name', arguments: {} })
    expect(modern.status).toBe(400)
    expect(modern.final.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } })
    const legacy = await legacySession(servers.legacy.url)
    const { final } = await legacy.call('tools/call', { name: 'ask_name', arguments: {} })
    expect(final.result.isError).toBe(true)
    expect(textOf(final.result)).toMatch(/elicitation.*unavailable/)
  })

  it('ask_name on a legacy session that declared elicitation pushes elicitation/create and greets', async () => {
    const session = await legacySession(servers.legacy.url, { elicitation: {} })
    const response = await fetch(servers.legacy.url, {
      method: 'POST',
      headers: session.headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: 'ask-1', method: 'tools/call', params: { name: 'ask_name', arguments: {} } }),
    })
    const events = sseEvents(response)
    const request = await events.nextMessage()
    expect(request).toMatchObject({ method: 'elicitation/create', params: { requestedSchema: { properties: { name: {} } } } })
    const answered = await fetch(servers.legacy.url, {
      method: 'POST',
      headers: session.headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: request!.id, result: { action: 'accept', content: { name: 'Grace' } } }),
    })
    expect(answered.status).toBe(202)
    expect(await events.nextMessage()).toMatchObject({ id: 'ask-1', result: { content: [{ text: 'Hello, Grace' }] } })
  })

  it('markup_tool carries markup in its title and description as plain data', async () => {
    const { final } = await modernCall(servers.modern.url, 'tools/list')
    const tool = final.result.tools.find((t: { name: string }) => t.name === 'markup_tool')
    for (const text of [tool.title, tool.description]) {
      expect(text).toContain('<img src=x onerror="window.__xss=1">')
      expect(text).toContain('<script>window.__xss=2</script>')
    }
  })

  it('pixel.png is a real 1×1 PNG and greet completes its style argument', async () => {
    const read = await modernCall(servers.modern.url, 'resources/read', { uri: 'nanomcp://files/pixel.png' })
    const bytes = Buffer.from(read.final.result.contents[0].blob, 'base64')
    expect(bytes.subarray(1, 4).toString()).toBe('PNG')
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1, 1])
    const idat = bytes.indexOf('IDAT')
    expect(inflateSync(bytes.subarray(idat + 4, idat + 4 + bytes.readUInt32BE(idat - 4))).length).toBe(5)

    const completion = await modernCall(servers.modern.url, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'style', value: 'p' },
    })
    expect(completion.final.result.completion.values).toEqual(['pirate'])
    const greet = { name: 'greet', arguments: { name: 'Ada', style: 'formal' } }
    const prompt = await modernCall(servers.modern.url, 'prompts/get', greet)
    expect(prompt.final.result.messages[0].content.text).toBe('Greet Ada in a formal style.')

    const legacy = await legacySession(servers.legacy.url)
    const legacyCompletion = await legacy.call('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'style', value: 'c' },
    })
    expect(legacyCompletion.final.result.completion.values).toEqual(['casual'])
  })
})
