// Fault family: SSE as servers really write it — every line ending (LF, CRLF, CR, mixed), any chunking down to
// single bytes through multi-byte characters, comments and ids between events — through the transports
// themselves (property-based), not only the decoder.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { result } from '../../testing/test-server'
import { legacy, modern, progress } from '../../testing/transport-fixtures'
import { SseTransport } from '../sse'
import { StreamableHttpTransport } from '../streamable-http'
import type { JsonRpcMessage } from '../types'

const ending = fc.constantFrom('\n', '\r\n', '\r')
const cuts = fc.array(fc.nat(), { maxLength: 16 })
const label = fc.string({ unit: 'grapheme', maxLength: 6 })

/** `messages` as SSE events, each line ended by the next ending of `endings`, with a comment and an id each. */
function wire(messages: unknown[], endings: string[], event?: string): string {
  let i = 0
  const end = () => endings[i++ % endings.length]!
  let out = `: hello${end()}${end()}`
  messages.forEach((message, n) => {
    // A blank line right after a CR must not be ended by a lone LF (that would read as one CRLF).
    const lines = [`: c${n}`, ...(event ? [`event: ${event}`] : []), `id: ${n}`, `data: ${JSON.stringify(message)}`, '']
    for (const line of lines) {
      let e = end()
      if (line === '' && out.endsWith('\r') && e === '\n') e = '\r\n'
      out += line + e
    }
  })
  return out
}

/** A body that delivers `text` as UTF-8 bytes cut at `at`. */
function body(text: string, at: number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  const points = [...new Set(at.map((p) => p % (bytes.length + 1))), bytes.length].sort((a, b) => a - b)
  return new ReadableStream({
    start(controller) {
      let from = 0
      for (const point of points) {
        if (point > from) controller.enqueue(bytes.slice(from, point))
        from = point
      }
      controller.close()
    },
  })
}

const sse = (stream: ReadableStream<Uint8Array>) => new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } })

describe.each([
  ['2026-07-28', modern],
  ['legacy era', legacy],
] as const)('Streamable HTTP (%s): a response stream in any line ending and chunking', (_era, build) => {
  it('delivers every notification in order, then resolves with the result', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(label, { maxLength: 5 }), fc.array(ending, { minLength: 1, maxLength: 4 }), cuts, async (labels, endings, at) => {
        const notes = labels.map((text, n) => ({ ...progress(n), params: { progressToken: 't', progress: n, message: text } }))
        const messages: JsonRpcMessage[] = [...notes, result(1, { done: true }) as JsonRpcMessage]
        const transport = new StreamableHttpTransport('http://127.0.0.1:1/mcp', { fetch: async () => sse(body(wire(messages, endings), at)) })
        const seen: unknown[] = []
        await expect(transport.request(build(1, 'tools/call'), { onMessage: (m) => seen.push(m) })).resolves.toEqual(result(1, { done: true }))
        expect(seen).toEqual(notes)
      }),
      { numRuns: 150 },
    )
  })
})

describe('HTTP+SSE (stream read with fetch): the session stream in any line ending and chunking', () => {
  it('finds the endpoint and delivers every message in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(label, { maxLength: 4 }), fc.array(ending, { minLength: 1, maxLength: 4 }), cuts, async (labels, endings, at) => {
        const notes = labels.map((text) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: text } }))
        let stream!: ReadableStreamDefaultController<Uint8Array>
        const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
          if (init?.method === 'POST') {
            // Answer on the stream, in the same line endings and chunking as everything else.
            const reader = body(wire([...notes, result(1)], endings, 'message'), at).getReader()
            for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) stream.enqueue(chunk.value)
            return new Response(null, { status: 202 })
          }
          return sse(
            new ReadableStream({
              start(controller) {
                stream = controller
                const reader = body(`event: endpoint${endings[0]}data: /messages?sessionId=s1${endings[0]}${endings[0]}`, at).getReader()
                void (async () => {
                  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) controller.enqueue(chunk.value)
                })()
              },
            }),
          )
        }
        const transport = new SseTransport('http://127.0.0.1:1/sse', { fetch })
        const seen: unknown[] = []
        await transport.openStream((m) => seen.push(m))
        await expect(transport.request(legacy(1, 'tools/list'))).resolves.toEqual(result(1))
        expect(seen).toEqual(notes)
        await transport.close()
      }),
      { numRuns: 100 },
    )
  })
})
