// Fault family: values bound for headers that a header cannot carry — CR/LF and other control characters in
// tool names, arguments, URIs and event ids, and in the app's own headers. Nothing is smuggled into another
// header line; server-derived values travel Base64-encoded or not at all; an app's bad value is its TypeError.
import { describe, expect, it } from 'vitest'
import { faultKit, failure, settle } from '../../testing/fault-kit'
import { endSse, event, openSse, result, sendJson } from '../../testing/test-server'
import { echo, legacy, modern, progress } from '../../testing/transport-fixtures'
import { StreamableHttpTransport } from '../streamable-http'

const serve = faultKit()
const decode = (value: string | string[] | undefined) => {
  const match = /^=\?base64\?(.*)\?=$/.exec(String(value))
  return match ? new TextDecoder().decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0))) : value
}
const tools = [{ name: 'evil\r\nX-Injected: 1', inputSchema: { type: 'object', properties: { q: { type: 'string', 'x-mcp-header': 'Q' } } } }]

describe('CR/LF in values bound for headers', () => {
  it('a tool name and an argument with CR/LF travel Base64-encoded; no header is injected', async () => {
    const { url, requests } = await serve((request, res) =>
      sendJson(res, result(request.json.id, request.json.method === 'tools/list' ? { tools } : {})),
    )
    const transport = new StreamableHttpTransport(url)
    await transport.request(modern(1, 'tools/list'))
    await transport.request(modern(2, 'tools/call', { name: tools[0]!.name, arguments: { q: 'a\r\nX-Also: 2\0' } }))
    const { headers } = requests[1]!
    expect(headers['x-injected']).toBeUndefined()
    expect(headers['x-also']).toBeUndefined()
    expect(decode(headers['mcp-name'])).toBe(tools[0]!.name)
    expect(decode(headers['mcp-param-q'])).toBe('a\r\nX-Also: 2\0')
  })

  it('a resource URI with CR/LF in Mcp-Name is encoded too', async () => {
    const { url, requests } = await serve((request, res) => echo(request, res, undefined as never))
    await new StreamableHttpTransport(url).request(modern(1, 'resources/read', { uri: 'file:///a\nb' }))
    expect(decode(requests[0]!.headers['mcp-name'])).toBe('file:///a\nb')
  })

  it('an event id with a control character is never sent back as Last-Event-ID: the stream is not resumed', async () => {
    const { url, requests } = await serve((request, res) => (request.method === 'GET' ? openSse(res) : endSse(res, `id: a\x01b\n${event(progress(1))}`)))
    const error = await failure(new StreamableHttpTransport(url).request(legacy(1, 'x')))
    expect(error).toMatchObject({ name: 'ProtocolError', reason: 'stream-ended' })
    expect(requests.filter((r) => r.method === 'GET')).toHaveLength(0)
  })

  it('an app header with CR/LF is the app\'s TypeError, sent nowhere; the next request works', async () => {
    const { url, requests } = await serve((request, res) => echo(request, res, undefined as never))
    let bad = true
    const transport = new StreamableHttpTransport(url, { headers: () => ({ 'X-App': bad ? 'a\r\nX-Injected: 1' : 'ok' }) })
    const error = await failure(transport.request(modern(1, 'x')))
    expect(error).toBeInstanceOf(TypeError)
    expect((error as Error).message).toMatch(/invalid header value/)
    expect(requests).toHaveLength(0)
    bad = false
    expect((await settle(transport.request(modern(2, 'y')))).value).toEqual(result(2, { method: 'y' }))
  })

  it('an auth provider header with CR/LF is rejected the same way, before any byte is sent', async () => {
    const { url, requests } = await serve((request, res) => echo(request, res, undefined as never))
    const auth = { headers: () => ({ Authorization: 'Bearer a\nb' }), unauthorized: async () => false }
    expect(await failure(new StreamableHttpTransport(url, { auth }).request(modern(1, 'x')))).toBeInstanceOf(TypeError)
    expect(requests).toHaveLength(0)
  })
})
