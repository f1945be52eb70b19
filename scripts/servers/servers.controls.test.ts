// The servers' test controls (scoped catalogue changes, stats, dropped streams and sessions) and startServers' lifecycle and faults.
import { spawn } from 'node:child_process'
import http from 'node:http'
import { describe, expect, it } from 'vitest'
import { scopes, servers, SSE_INIT, textOf, toolNames } from './node-test-setup.ts'
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

const fresh = scopes('controls')

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

    // Bounded by within() rather than a wall-clock assertion, which two shared cores would make flaky.
    await within(stop(), 3000, 'stop()')
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
