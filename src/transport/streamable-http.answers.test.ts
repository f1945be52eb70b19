// Streamable HTTP: how answers arrive (202, JSON, SSE) and are routed, including SSE split at every byte.
import { describe, expect, it, vi } from 'vitest'
import { event, openSse, result, sendJson, until } from '../testing/test-server'
import { legacy, modern, progress, scriptedServers } from '../testing/transport-fixtures'
import { StreamableHttpTransport } from './streamable-http'
import type { JsonRpcNotification } from './types'

const serve = scriptedServers()

describe('202, JSON and SSE answers', () => {
  it('send() resolves on 202 and rejects a non-2xx with HttpError', async () => {
    let status = 202
    const { url } = await serve((_request, res) => void res.writeHead(status).end(status === 202 ? '' : 'nope'))
    const transport = new StreamableHttpTransport(url)
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).resolves.toBeUndefined()
    await expect(transport.send({ jsonrpc: '2.0', id: 5, result: {} })).resolves.toBeUndefined()
    status = 400
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ status: 400, body: 'nope' })
  })

  it('a 202 to a request is a ProtocolError on 2026-07-28 and, without a GET stream, on older revisions', async () => {
    const { url } = await serve((_request, res) => void res.writeHead(202).end())
    const transport = new StreamableHttpTransport(url)
    await expect(transport.request(modern(1, 'tools/list'))).rejects.toThrow(/202 Accepted, which carries no response/)
    await expect(transport.request(legacy(2, 'tools/list'))).rejects.toThrow(/none is open/)
  })

  it('a 202 to a legacy-era request is answered on the GET stream', async () => {
    let get: import('node:http').ServerResponse | undefined
    const { url } = await serve((request, res) => {
      if (request.method === 'GET') return void ((get = res), openSse(res))
      res.writeHead(202).end()
      setTimeout(() => get!.write(event(result(request.json.id, { via: 'get' }))), 20)
    })
    const transport = new StreamableHttpTransport(url)
    const seen: unknown[] = []
    await transport.openStream((m) => seen.push(m))
    await expect(transport.request(legacy(7, 'tools/list'))).resolves.toEqual(result(7, { via: 'get' }))
    expect(seen).toEqual([])
    await transport.close()
  })

  it('progress for a request parked by a 202 reaches that request on the GET stream; other progress stays there', async () => {
    let get: import('node:http').ServerResponse | undefined
    const { url } = await serve((request, res) => {
      if (request.method === 'GET') return void ((get = res), openSse(res))
      res.writeHead(202).end()
      get!.write(event(progress(1, 'mine')) + event(progress(1, 'other')) + event(result(request.json.id)))
    })
    const transport = new StreamableHttpTransport(url)
    const onStream: unknown[] = []
    await transport.openStream((m) => onStream.push(m))
    const mine: unknown[] = []
    await transport.request(legacy(7, 'tools/call', { _meta: { progressToken: 'mine' } }), { onMessage: (m) => mine.push(m) })
    expect(mine).toEqual([progress(1, 'mine')])
    expect(onStream).toEqual([progress(1, 'other')])
    await transport.close()
  })

  it('accepts a JSON-RPC batch array as a JSON answer', async () => {
    const { url } = await serve((request, res) => sendJson(res, [progress(1), result(request.json.id, { ok: true })]))
    const seen: unknown[] = []
    const response = await new StreamableHttpTransport(url).request(legacy(3, 'x'), { onMessage: (m) => seen.push(m) })
    expect(response.result).toEqual({ ok: true })
    expect(seen).toEqual([progress(1)])
  })

  it('delivers SSE notifications and server requests in order, ignores comments, then resolves', async () => {
    const serverRequest = { jsonrpc: '2.0', id: 'srv-1', method: 'ping' }
    const { url } = await serve((request, res) => {
      openSse(res, {}, ': keep-alive\n\n', event(progress(1)), ':another comment\n', event(serverRequest), event(progress(2)))
      setTimeout(() => res.end(event(result(request.json.id, { done: true }))), 20)
    })
    const seen: unknown[] = []
    const response = await new StreamableHttpTransport(url).request(legacy(1, 'tools/call'), { onMessage: (m) => seen.push(m) })
    expect(response).toEqual(result(1, { done: true }))
    expect(seen).toEqual([progress(1), serverRequest, progress(2)])
  })

  it('reads batch arrays in SSE data', async () => {
    const { url } = await serve((request, res) => {
      openSse(res, {}, `data: ${JSON.stringify([progress(1), progress(2)])}\n\n`)
      res.end(`data: ${JSON.stringify([progress(3), result(request.json.id, { n: 3 })])}\n\n`)
    })
    const seen: unknown[] = []
    const response = await new StreamableHttpTransport(url).request(legacy(9, 'x'), { onMessage: (m) => seen.push(m) })
    expect(response.result).toEqual({ n: 3 })
    expect(seen).toEqual([progress(1), progress(2), progress(3)])
  })

  it('reads multi-line data, CRLF line ends, event: message, and skips other event types and priming events', async () => {
    const { url } = await serve((request, res) => {
      openSse(res, {}, 'id: p\nretry: 10\ndata: \n\n', 'event: other\ndata: {"not":"json-rpc"}\n\n')
      const json = JSON.stringify(progress(1), null, 1).split('\n')
      res.write(json.map((line) => `data: ${line}\r\n`).join('') + '\r\n')
      res.end(`event: message\ndata: ${JSON.stringify(result(request.json.id))}\n\n`)
    })
    const seen: unknown[] = []
    await new StreamableHttpTransport(url).request(legacy(1, 'x'), { onMessage: (m) => seen.push(m) })
    expect(seen).toEqual([progress(1)])
  })

  it('stops reading once the final response arrived, even if the server keeps the stream open', async () => {
    const server = await serve((request, res) => openSse(res, {}, event(result(request.json.id))))
    const transport = new StreamableHttpTransport(server.url)
    await expect(transport.request(modern(1, 'tools/list'))).resolves.toEqual(result(1))
    await until(() => server.closedConnections === 1)
  })

  it('legacy: resolves another pending request from a response on this stream, and ignores unknown ids', async () => {
    const debug = vi.fn()
    let first: import('node:http').ServerResponse | undefined
    const { url } = await serve((request, res) => {
      if (request.json.id === 1) return void ((first = res), openSse(res))
      openSse(res, {}, event(result(999)), event(result(1, { for: 'one' })))
      res.end(event(result(2, { for: 'two' })))
    })
    const transport = new StreamableHttpTransport(url, { debug })
    const one = transport.request(legacy(1, 'a'))
    await until(() => first !== undefined)
    await expect(transport.request(legacy(2, 'b'))).resolves.toEqual(result(2, { for: 'two' }))
    await expect(one).resolves.toEqual(result(1, { for: 'one' }))
    expect(debug).toHaveBeenCalledWith(expect.stringMatching(/no pending request/), result(999))
  })

  it('keeps JSON-RPC ids 1 and "1" apart', async () => {
    const { url } = await serve((request, res) =>
      sendJson(res, request.json.id === 1 ? [result('1', { s: true }), result(1, { n: true })] : result('1', { s: true })),
    )
    const transport = new StreamableHttpTransport(url)
    await expect(transport.request(legacy(1, 'x'))).resolves.toEqual(result(1, { n: true }))
  })

  it('isolates a throwing message handler, and tells debug', async () => {
    const debug = vi.fn()
    const { url } = await serve((request, res) => {
      openSse(res, {}, event(progress(1)))
      res.end(event(result(request.json.id)))
    })
    const response = await new StreamableHttpTransport(url, { debug }).request(legacy(1, 'x'), {
      onMessage: () => {
        throw new Error('app bug')
      },
    })
    expect(response).toEqual(result(1))
    expect(debug).toHaveBeenCalledExactlyOnceWith('a message handler threw', new Error('app bug'))
  })
})

describe('an SSE body split at every byte boundary', () => {
  // A recorded response with multi-byte UTF-8, CRLF, a comment, an id, retry, a multi-line event and a batch.
  const recorded =
    ': keep-alive\r\n\r\n' +
    'id: 1\nretry: 500\ndata: \n\n' +
    `data: ${JSON.stringify({ ...progress(1), params: { progressToken: 't', progress: 1, message: 'Grüße 世界 🚀' } })}\n\n` +
    `data: [${JSON.stringify(progress(2))},\ndata: ${JSON.stringify(progress(3))}]\r\n\r\n` +
    `id: 2\ndata: ${JSON.stringify(result(1, { text: 'fin ✓' }))}\n\n`
  const bytes = new TextEncoder().encode(recorded)

  const respond = (chunks: Uint8Array[]) =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk)
          controller.close()
        },
      }),
      { headers: { 'Content-Type': 'text/event-stream' } },
    )

  async function run(chunks: Uint8Array[]) {
    const seen: JsonRpcNotification[] = []
    const transport = new StreamableHttpTransport('http://127.0.0.1:1/mcp', { fetch: async () => respond(chunks) })
    const response = await transport.request(legacy(1, 'x'), { onMessage: (m) => seen.push(m as JsonRpcNotification) })
    return { response, seen }
  }

  it('gives the same messages for every split into two chunks', async () => {
    const whole = await run([bytes])
    expect(whole.response.result).toEqual({ text: 'fin ✓' })
    expect(whole.seen.map((m) => m.params!.progress)).toEqual([1, 2, 3])
    expect(whole.seen[0]!.params!.message).toBe('Grüße 世界 🚀')
    for (let offset = 1; offset < bytes.length; offset++) {
      const split = await run([bytes.subarray(0, offset), bytes.subarray(offset)])
      expect(split, `split at byte ${offset}`).toEqual(whole)
    }
  })

  it('gives the same messages one byte at a time', async () => {
    const whole = await run([bytes])
    expect(await run(Array.from(bytes, (byte) => Uint8Array.of(byte)))).toEqual(whole)
  })

  it('gives the same messages from a real server writing one byte per packet', async () => {
    const { url } = await serve(async (_request, res) => {
      openSse(res)
      for (const byte of bytes) {
        res.write(Uint8Array.of(byte))
        await new Promise((resolve) => setImmediate(resolve))
      }
      res.end()
    })
    const seen: JsonRpcNotification[] = []
    const response = await new StreamableHttpTransport(url).request(legacy(1, 'x'), { onMessage: (m) => seen.push(m as JsonRpcNotification) })
    expect({ response, seen }).toEqual(await run([bytes]))
  })
})


describe('2026-07-28: a POST answers only the request it carried', () => {
  it('drops an answer bearing another in-flight id from a JSON body or an SSE stream, with a debug line', async () => {
    const debug = vi.fn()
    let parked: import('node:http').ServerResponse | undefined
    const { url } = await serve((request, res) => {
      if (request.json.id === 1) return void ((parked = res), openSse(res))
      if (request.json.id === 2) return sendJson(res, [result(1, { stolen: true }), result(2)])
      openSse(res, {}, event(result(1, { stolen: true })))
      res.end(event(result(3)))
    })
    const transport = new StreamableHttpTransport(url, { debug })
    const one = transport.request(modern(1, 'a'))
    await until(() => parked !== undefined)
    await expect(transport.request(modern(2, 'b'))).resolves.toEqual(result(2))
    await expect(transport.request(modern(3, 'c'))).resolves.toEqual(result(3))
    expect(debug).toHaveBeenCalledTimes(2)
    expect(debug).toHaveBeenCalledWith(expect.stringMatching(/another request/), result(1, { stolen: true }))
    // Request 1 is still waiting for its own stream, which answers it.
    parked!.end(event(result(1, { own: true })))
    await expect(one).resolves.toEqual(result(1, { own: true }))
  })
})
