// A mounted app hears `notifications/tools/list_changed` when the server announces a change, whether the host
// passed a bare Client (mountApp opens its own listen()) or a createMcp() store (its atoms follow the change), in
// both eras, through the real sandbox page on another origin. The server is the embedded one with its control
// endpoint; only the app's ui:// resource is answered by the test, since that server has none.
import { afterEach, describe, expect, inject, it, vi } from 'vitest'
import { scoped } from '../../scripts/servers/scoped'
import { Client } from '../client/client'
import { createMcp } from '../stores/create-mcp'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { mountApp } from './mount-app'
import { APP_URI, appResource, rawAppHtml, SANDBOX } from '../testing/raw-app'
import type { AppView } from './types'
import type { Tool } from '../schemas/types'

const tool = { name: 'show', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: APP_URI } } } as Tool

/** Answers the app's resources/read itself and passes everything else to the real client. */
function withResource(client: Client): Client {
  const real = client.request.bind(client) as (method: string, params?: Record<string, unknown>, options?: object) => Promise<Record<string, unknown>>
  Object.assign(client, {
    request: (method: string, params?: Record<string, unknown>, options?: object) =>
      method === 'resources/read' ? Promise.resolve(appResource(rawAppHtml())) : real(method, params, options),
  })
  return client
}

let cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.allSettled(cleanup.splice(0).map((fn) => fn()))
  document.body.replaceChildren()
})

describe.each(['modern', 'legacy'] as const)('list_changed reaches a mounted app (%s server)', (era) => {
  it.each(['client', 'store'] as const)('through a %s', async (kind) => {
    const server = scoped(inject('servers')[era], `apps-lists-${kind}-${era}-${Date.now().toString(36)}`)
    let mcp: Client | ReturnType<typeof createMcp>
    if (kind === 'client') {
      const client = withResource(new Client(new StreamableHttpTransport(server.url)))
      cleanup.push(() => client.close())
      mcp = client
    } else {
      const store = createMcp(server.url)
      withResource(store.client)
      cleanup.push(() => store.close())
      mcp = store
    }
    const logs: { method?: string; answer?: { hostCapabilities: Record<string, unknown> } }[] = []
    const view: AppView = mountApp(document.body.appendChild(document.createElement('div')), { mcp, tool, sandbox: SANDBOX, onLog: (log) => void logs.push(log.data as never) })
    cleanup.unshift(() => view.close())
    await vi.waitFor(() => expect(view.$state.get().status).toBe('ready'), { timeout: 15_000 })
    // The initialize answer told the app that the tool list can change.
    expect(logs[0]?.answer?.hostCapabilities.serverTools).toEqual({ listChanged: true })

    // The subscription may still be opening when the app is ready: a change made before it stands is not
    // heard, so the test adds tools until one is (a host that does not forward never passes).
    const heard = () => logs.filter((l) => l.method === 'notifications/tools/list_changed').length
    for (let attempt = 0; attempt < 10 && !heard(); attempt++) {
      await fetch(`${server.control}/control/add-tool`, { method: 'POST' })
      await vi.waitFor(() => expect(heard()).toBeGreaterThan(0), { timeout: 1000 }).catch(() => undefined)
    }
    expect(heard()).toBeGreaterThan(0)
    await fetch(`${server.control}/control/reset`, { method: 'POST' })
  })
})
