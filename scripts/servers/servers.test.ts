import { spawn } from 'node:child_process'
import http from 'node:http'
import { inflateSync } from 'node:zlib'
import { describe, expect, inject, it } from 'vitest'
import { scoped } from './scoped.ts'
import { startServers } from './start.mjs'
import {
  control,
  legacySession,
  modernCall,
  modernRequest,
  sseEvents,
  sseSession,
  stats,
  within,
} from './test-helpers.ts'

const servers = inject('servers')
let scopeCount = 0
// Every test that changes a server works in its own scope, so tests running in parallel never see its changes.
const fresh = (kind: 'modern' | 'legacy' | 'sse') => scoped(servers[kind], `node-${process.pid}-${++scopeCount}`)

const SSE_INIT = {
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '0' } },
}
const toolNames = (result: any): string[] => result.tools.map((tool: { name: string }) => tool.name)
const textOf = (result: any): string => result.content[0].text

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

describe('controls', () => {
  it('add-tool shows up in tools/list; remove-tool and reset undo it; stats count requests', async () => {
    const server = fresh('modern')
    expect(await stats(server.control!)).toEqual({ requests: 0, preflights: 0, byMethod: {} })

    const added = await control(server.control!, 'add-tool')
    expect(added).toEqual({ status: 200, body: { name: 'extra_1', extraTools: ['extra_1'] } })
    expect(toolNames((await modernCall(server.url, 'tools/list')).final.result)).toContain('extra_1')
    const called = await modernCall(server.url, 'tools/call', { name: 'extra_1', arguments: {} })
    expect(textOf(called.final.result)).toBe('extra_1 was called')

    expect((await control(server.control!, 'remove-tool?name=echo')).body.name).toBe('echo')
    expect((await control(server.control!, 'remove-tool?name=nope')).status).toBe(404)
    const listed = toolNames((await modernCall(server.url, 'tools/list')).final.result)
    expect(listed).not.toContain('echo')
    expect(await stats(server.control!)).toEqual({ requests: 3, preflights: 0, byMethod: { 'tools/list': 2, 'tools/call': 1 } })

    expect((await control(server.control!, 'reset')).body).toEqual({ toolsChanged: true, readmeChanged: false })
    expect(toolNames((await modernCall(server.url, 'tools/list')).final.result)).toEqual(
      toolNames((await modernCall(servers.modern.url, 'tools/list')).final.result),
    )
    expect((await control(server.control!, 'stats/reset')).body.requests).toBe(0)
    // The default scope was not touched by any of this.
    expect(toolNames((await modernCall(servers.modern.url, 'tools/list')).final.result)).not.toContain('extra_1')
  })

  it('unknown controls and wrong verbs get clear errors', async () => {
    const server = fresh('legacy')
    expect((await control(server.control!, 'explode')).status).toBe(404)
    expect((await control(server.control!, 'add-tool', { method: 'GET' })).status).toBe(405)
    expect((await control(server.control!, 'close-listens')).body.error).toMatch(/only on the modern server/)
  })

  it('modern: a listen stream gets list_changed and resources/updated; close-listens ends it gracefully or drops it', async () => {
    const server = fresh('modern')
    const open = async () => {
      const { id, response } = await modernRequest(server.url, 'subscriptions/listen', {
        notifications: { toolsListChanged: true, resourceSubscriptions: ['nanomcp://notes/readme'] },
      })
      const events = sseEvents(response)
      const ack = await events.nextMessage()
      expect(ack?.method).toBe('notifications/subscriptions/acknowledged')
      return { id, events }
    }
    const listen = await open()
    await control(server.control!, 'add-tool')
    expect(await listen.events.nextMessage()).toMatchObject({
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': listen.id } },
    })
    // A tool call that changes something announces it on the listen stream too.
    await modernCall(server.url, 'tools/call', { name: 'touch', arguments: {} })
    expect(await listen.events.nextMessage()).toMatchObject({
      method: 'notifications/resources/updated',
      params: { uri: 'nanomcp://notes/readme' },
    })

    expect((await control(server.control!, 'close-listens')).body).toEqual({ closed: 1 })
    expect(await listen.events.nextMessage()).toMatchObject({ id: listen.id, result: { resultType: 'complete' } })
    expect(await listen.events.nextMessage()).toBeUndefined()

    const second = await open()
    expect((await control(server.control!, 'close-listens?mode=drop')).body).toEqual({ closed: 1 })
    expect(await second.events.nextMessage()).toBeUndefined()
    // The server still serves after swapping its handler.
    expect((await modernCall(server.url, 'tools/list')).status).toBe(200)
  })

  it('legacy: the GET stream gets list_changed; a subscribed session gets resources/updated; drop-sessions → 404', async () => {
    const server = fresh('legacy')
    const session = await legacySession(server.url)
    const stream = await session.openStream()
    await control(server.control!, 'add-tool')
    expect(await stream.nextMessage()).toMatchObject({ method: 'notifications/tools/list_changed' })
    expect(toolNames((await session.call('tools/list')).final.result)).toContain('extra_1')

    expect((await session.call('resources/subscribe', { uri: 'nanomcp://notes/readme' })).final.result).toEqual({})
    expect((await control(server.control!, 'touch')).body).toEqual({ uri: 'nanomcp://notes/readme', revision: 1 })
    expect(await stream.nextMessage()).toMatchObject({
      method: 'notifications/resources/updated',
      params: { uri: 'nanomcp://notes/readme' },
    })
    const read = await session.call('resources/read', { uri: 'nanomcp://notes/readme' })
    expect(read.final.result.contents[0].text).toMatch(/revision 1/)

    // grow from this session: the announcement rides that request's own stream, before its result.
    const grown = await session.call('tools/call', { name: 'grow', arguments: {} })
    expect(grown.notifications.map((n) => n.method)).toEqual(['notifications/tools/list_changed'])
    expect(textOf(grown.final.result)).toBe('added extra_2')

    expect((await control(server.control!, 'drop-sessions')).body).toEqual({ dropped: 1 })
    expect(await stream.nextMessage()).toBeUndefined()
    expect((await session.call('tools/list')).status).toBe(404)
    expect(await stats(server.control!)).toMatchObject({ byMethod: { initialize: 1, GET: 1, 'tools/call': 1 } })
  })

  it('legacy: close-streams ends the GET stream; it resumes with Last-Event-ID and replays what was missed', async () => {
    const server = fresh('legacy')
    const session = await legacySession(server.url)
    const response = await fetch(server.url, { headers: { ...session.headers(), Accept: 'text/event-stream' } })
    const stream = sseEvents(response)
    await control(server.control!, 'add-tool')
    const seen = await stream.next()
    expect(seen?.id).toBeTruthy()
    expect((await control(server.control!, 'close-streams')).body).toEqual({ closed: 1 })
    expect(await stream.next()).toBeUndefined()
    await control(server.control!, 'add-tool')
    const resumed = await fetch(server.url, {
      headers: { ...session.headers(), Accept: 'text/event-stream', 'Last-Event-ID': seen!.id! },
    })
    expect(resumed.status).toBe(200)
    const replayed = sseEvents(resumed)
    expect(await replayed.nextMessage()).toMatchObject({ method: 'notifications/tools/list_changed' })
    await replayed.cancel()
  })

  it('sse: the session stream gets list_changed; drop-sessions ends it and the old endpoint gets 404', async () => {
    const server = fresh('sse')
    const session = await sseSession(server.url)
    expect(new URL(session.endpoint).pathname).toBe(new URL(server.url).pathname.replace(/sse$/, 'messages'))
    await session.post(SSE_INIT)
    await session.events.nextMessage()
    await session.post({ method: 'notifications/initialized' })
    await control(server.control!, 'add-tool')
    expect(await session.events.nextMessage()).toMatchObject({ method: 'notifications/tools/list_changed' })
    expect((await control(server.control!, 'drop-sessions')).body).toEqual({ dropped: 1 })
    expect(await session.events.nextMessage()).toBeUndefined()
    expect((await session.post({ id: 2, method: 'tools/list' })).status).toBe(404)
    expect(await stats(server.control!)).toEqual({
      requests: 4,
      preflights: 0,
      byMethod: { GET: 1, initialize: 1, 'notifications/initialized': 1, 'tools/list': 1 },
    })
  })
})

describe('startServers', () => {
  it('stop() ends open streams cleanly, quickly, and frees the ports', async () => {
    const { servers: own, stop } = await startServers({ only: ['modern', 'legacy', 'sse'] })
    const { response } = await modernRequest(own.modern.url, 'subscriptions/listen', { notifications: { toolsListChanged: true } })
    const listen = sseEvents(response)
    expect((await listen.nextMessage())?.method).toBe('notifications/subscriptions/acknowledged')
    const stream = await (await legacySession(own.legacy.url)).openStream()
    const sse = await sseSession(own.sse.url)

    const started = Date.now()
    await within(stop(), 3000, 'stop()')
    expect(Date.now() - started).toBeLessThan(1000)
    expect(await listen.nextMessage()).toMatchObject({ result: { resultType: 'complete' } })
    expect(await listen.nextMessage()).toBeUndefined()
    expect(await stream.nextMessage()).toBeUndefined()
    expect(await sse.events.nextMessage()).toBeUndefined()
    for (const server of Object.values(own)) await expect(fetch(server.url)).rejects.toThrow()
  })
})

describe('startServers faults', () => {
  it('a busy port rejects with an error naming the server, after stopping the others', async () => {
    const blocker = http.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const attempt = startServers({ only: ['modern', 'legacy'], ports: { legacy: port } })
      await expect(attempt).rejects.toThrow(`legacy: legacy server (nanomcp-legacy) could not listen on 127.0.0.1:${port}: port ${port} is busy`)
    } finally {
      blocker.close()
    }
  })

  it('a child that does not answer in time is killed and named', async () => {
    const attempt = startServers({ only: ['everything'], timeoutMs: 1 })
    await expect(attempt).rejects.toThrow(/everything: server-everything \(streamableHttp\) did not start: no answer within/)
  })

  it('unknown kinds are refused', async () => {
    await expect(startServers({ only: ['nope' as 'modern'] })).rejects.toThrow(/unknown server kind\(s\) nope/)
  })

  it('serve.mjs: a busy index port → a clear message and exit code 1', async () => {
    const blocker = http.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const child = spawn(process.execPath, ['scripts/servers/serve.mjs'], {
        env: { ...process.env, SERVERS_INDEX_PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (chunk) => (stderr += chunk))
      const code = await within(new Promise((resolve) => child.once('exit', resolve)), 10_000, 'serve.mjs exit')
      expect(code).toBe(1)
      expect(stderr).toContain(`the servers index could not listen on 127.0.0.1:${port}: port ${port} is busy`)
    } finally {
      blocker.close()
    }
  })
})
