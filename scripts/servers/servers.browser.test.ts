// In Chromium, from the test page's origin: every request below is cross-origin, so CORS is really enforced
// (a missing allow or expose header fails the fetch or hides the header).
import { describe, expect, inject, it } from 'vitest'
import { legacySession, modernCall, within } from './test-helpers.ts'

const servers = inject('servers')

function endpointEvent(url: string) {
  const source = new EventSource(url)
  const endpoint = new Promise<string>((resolve, reject) => {
    source.addEventListener('endpoint', (event) => resolve((event as MessageEvent<string>).data))
    source.addEventListener('error', () => reject(new Error(`EventSource on ${url} failed`)))
  })
  return within(endpoint, 5000, `endpoint event from ${url}`).finally(() => source.close())
}

describe('cross-origin from Chromium', () => {
  it('the page really is on another origin', () => {
    expect(new URL(servers.modern.url).origin).not.toBe(location.origin)
  })

  it('modern: server/discover and a tools/call with Mcp-Method, Mcp-Name and Mcp-Param-Region', async () => {
    const discover = await modernCall(servers.modern.url, 'server/discover')
    expect(discover.final.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('nanomcp-modern')
    const call = await modernCall(
      servers.modern.url,
      'tools/call',
      { name: 'regional_echo', arguments: { region: 'eu-west', text: 'from the browser' } },
      { headers: { 'Mcp-Param-Region': 'eu-west' } },
    )
    expect(call.final.result.content[0].text).toBe('[eu-west] from the browser')
  })

  for (const kind of ['legacy', 'everything'] as const) {
    it(`${kind}: initialize exposes Mcp-Session-Id, and the session serves tools/list`, async () => {
      const session = await legacySession(servers[kind].url)
      expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/)
      const { final } = await session.call('tools/list')
      expect(final.result.tools.length).toBeGreaterThan(0)
    })
  }

  for (const kind of ['sse', 'everythingSse'] as const) {
    it(`${kind}: the browser's EventSource gets the endpoint event`, async () => {
      expect(await endpointEvent(servers[kind].url)).toMatch(/\/messages?\?sessionId=/)
    })
  }

  it('controls answer cross-origin too', async () => {
    const response = await fetch(`${servers.modern.control}/control/stats`)
    expect(await response.json()).toMatchObject({ requests: expect.any(Number), byMethod: expect.any(Object) })
  })
})
