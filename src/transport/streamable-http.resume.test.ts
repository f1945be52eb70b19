// Streamable HTTP: resumption of a legacy-era SSE stream with GET + Last-Event-ID.
import { describe, expect, it } from 'vitest'
import { ProtocolError } from '../errors/protocol-error'
import { endSse, event, openSse, result, until } from '../testing/test-server'
import { legacy, modern, progress, scriptedServers } from '../testing/transport-fixtures'
import { StreamableHttpTransport } from './streamable-http'

const serve = scriptedServers()

describe('resumption (2025-11-25 SSE polling)', () => {
  it('waits exactly the retry the server asked for, then resumes with GET and Last-Event-ID', async () => {
    let postClosedAt = 0
    const { url, requests } = await serve((request, res) => {
      if (request.method === 'POST') {
        openSse(res, { 'Mcp-Session-Id': 's' }, 'id: ev-1\nretry: 400\ndata: \n\n', event(progress(1), 'ev-2'))
        setTimeout(() => {
          postClosedAt = performance.now()
          res.end()
        }, 30)
        return
      }
      openSse(res, {}, event(progress(2), 'ev-3'), event(result(request.headers['last-event-id'] === 'ev-2' ? 1 : -1, { resumed: true }), 'ev-4'))
    })
    const transport = new StreamableHttpTransport(url)
    transport.protocolVersion = '2025-11-25'
    const seen: unknown[] = []
    const response = await transport.request(legacy(1, 'tools/call'), { onMessage: (m) => seen.push(m) })
    expect(response).toEqual(result(1, { resumed: true }))
    expect(seen).toEqual([progress(1), progress(2)])
    const get = requests[1]!
    expect(get.method).toBe('GET')
    expect(get.headers['last-event-id']).toBe('ev-2')
    expect(get.headers['mcp-session-id']).toBe('s')
    expect(get.headers['mcp-protocol-version']).toBe('2025-11-25')
    expect(get.headers.accept).toBe('text/event-stream')
    expect(get.at - postClosedAt).toBeGreaterThanOrEqual(395)
    expect(get.at - postClosedAt).toBeLessThan(1000)
  })

  it('waits 1000 ms when the server gave no retry', async () => {
    let closedAt = 0
    const { url, requests } = await serve((request, res) => {
      if (request.method === 'POST') {
        openSse(res, {}, 'id: a\ndata: \n\n')
        setTimeout(() => ((closedAt = performance.now()), res.end()), 10)
        return
      }
      openSse(res, {}, event(result(1)))
    })
    await new StreamableHttpTransport(url).request(legacy(1, 'x'))
    expect(requests[1]!.at - closedAt).toBeGreaterThanOrEqual(995)
  })

  it('keeps polling while reconnections bring events, and gives up after 5 that bring none', async () => {
    let gets = 0
    const { url } = await serve((request, res) => {
      if (request.method === 'POST') return endSse(res, 'id: 0\nretry: 5\ndata: \n\n')
      gets++
      // Three polls with a fresh priming id each, then the same id over and over.
      openSse(res, {}, `id: ${Math.min(gets, 3)}\nretry: 5\ndata: \n\n`)
      res.end()
    })
    const error = await new StreamableHttpTransport(url).request(legacy(1, 'x')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect(error).toMatchObject({ streamClosed: true })
    expect(gets).toBe(3 + 5)
  })

  it('resumes the GET stream too and delivers what it replays', async () => {
    let gets = 0
    const { url, requests } = await serve((request, res) => {
      gets++
      if (gets === 1) return endSse(res, 'retry: 20\n\n', event(progress(1), 'g1'))
      openSse(res, {}, event(progress(2), 'g2'))
    })
    const seen: unknown[] = []
    const stream = await new StreamableHttpTransport(url).openStream((m) => seen.push(m))
    await until(() => seen.length === 2)
    expect(requests[1]!.headers['last-event-id']).toBe('g1')
    stream!.close()
    await expect(stream!.closed).resolves.toBeUndefined()
  })

  it('a resumption GET that fails rejects the request with its HttpError', async () => {
    const { url } = await serve((request, res) => {
      if (request.method === 'POST') return endSse(res, 'id: 1\nretry: 5\ndata: \n\n')
      res.writeHead(405).end()
    })
    await expect(new StreamableHttpTransport(url).request(legacy(1, 'x'))).rejects.toMatchObject({ status: 405 })
  })

  it('never resumes a 2026-07-28 stream: it ends with streamClosed', async () => {
    const { url, requests } = await serve((_request, res) => endSse(res, 'id: 1\ndata: \n\n', event(progress(1), '2')))
    const error = await new StreamableHttpTransport(url).request(modern(1, 'tools/call', { name: 'x' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect(error).toMatchObject({ streamClosed: true, message: expect.stringMatching(/ended before its response/) })
    expect(requests).toHaveLength(1)
  })

  it('a legacy-era stream that ends without any event id rejects with streamClosed', async () => {
    const { url, requests } = await serve((_request, res) => endSse(res, event(progress(1))))
    await expect(new StreamableHttpTransport(url).request(legacy(1, 'x'))).rejects.toMatchObject({ streamClosed: true })
    expect(requests).toHaveLength(1)
  })
})

