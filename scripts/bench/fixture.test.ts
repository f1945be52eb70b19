import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildPages } from './fixture-pages.mjs'
import { startFixture } from './fixture-server.mjs'

let fixture: { url: string; close(): Promise<void> }
beforeAll(async () => {
  fixture = await startFixture({ pages: buildPages(250, 100) })
})
afterAll(() => fixture.close())

const post = (body: unknown) =>
  fetch(fixture.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  })

describe('bench fixture server', () => {
  it('answers server/discover as a 2026-07-28 server', async () => {
    const reply = await (await post({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: {} })).json()
    expect(reply).toMatchObject({ id: 'd', result: { resultType: 'complete', supportedVersions: ['2026-07-28'] } })
  })

  it('serves every tool exactly once across its pages, then stops', async () => {
    const names: string[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const reply = await (await post({ jsonrpc: '2.0', id: pages, method: 'tools/list', params: cursor ? { cursor } : {} })).json()
      expect(reply.result.resultType).toBe('complete')
      names.push(...reply.result.tools.map((t: { name: string }) => t.name))
      cursor = reply.result.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(new Set(names).size).toBe(250)
    expect(names.at(-1)).toBe('tool_00250')
  })

  it('rejects a cursor it never issued', async () => {
    const reply = await (await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'page-99' } })).json()
    expect(reply.error.code).toBe(-32602)
  })

  it('streams count progress notifications with the request token, then a result that counts the bytes', async () => {
    const res = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'flood', arguments: { count: 1200 }, _meta: { progressToken: 'tok' } } })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const body = await res.text()
    const messages = body.split('\n\n').filter(Boolean).map((event) => JSON.parse(event.replace(/^data: /, '')))
    const progress = messages.filter((m) => m.method === 'notifications/progress')
    expect(progress).toHaveLength(1200)
    expect(progress.map((m) => m.params.progress)).toEqual(Array.from({ length: 1200 }, (_, i) => i + 1))
    expect(progress.every((m) => m.params.progressToken === 'tok')).toBe(true)
    const last = messages.at(-1)
    expect(last.id).toBe(7)
    // The reported count covers the notifications; the result event itself comes on top.
    const resultBytes = Buffer.byteLength(`data: ${JSON.stringify(last)}\n\n`)
    expect(last.result.structuredContent.bytes + resultBytes).toBe(Buffer.byteLength(body))
  })

  it('refuses a flood without a progress token instead of streaming into the void', async () => {
    const reply = await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'flood', arguments: { count: 5 } } })).json()
    expect(reply.error.code).toBe(-32602)
  })

  it('answers methods it does not serve with 404 and -32601, as a modern server does', async () => {
    const res = await post({ jsonrpc: '2.0', id: 3, method: 'initialize', params: {} })
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe(-32601)
  })
})
