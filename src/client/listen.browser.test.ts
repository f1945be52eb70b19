// listen() in a real browser, cross-origin, against the real modern server.
import { afterEach, describe, expect, inject, it } from 'vitest'
import { scoped } from '../../scripts/servers/scoped'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { Client } from './client'
import type { ServerNotification } from './types'
import { Arrivals, when } from '../testing/wait'

const servers = inject('servers')
const post = (url: string) => fetch(url, { method: 'POST' }).then((r) => r.json())
afterEach(() => {
  delete (navigator as { onLine?: boolean }).onLine
})

describe('listen() in a browser', () => {
  it('hears a change, and after a dropped stream waits for the browser to be online before reconnecting', async () => {
    const server = scoped(servers.modern, 'browser-listen-online')
    let offline!: () => void
    const waiting = new Promise<void>((resolve) => (offline = resolve))
    const debug = (message: string) => void (message.startsWith('offline') && offline())
    const client = new Client(new StreamableHttpTransport(server.url), { listenBackoff: { baseMs: 10, maxMs: 20 }, debug })
    const seen = new Arrivals<string>()
    const sub = client.listen({ toolsListChanged: true }, (n: ServerNotification) => seen.push(n.method))
    await when(sub.$state, (s) => s.status === 'acknowledged')
    await post(`${server.control}/control/add-tool`)
    await seen.nth(0)

    // The page goes offline (as far as it can tell), then the stream drops.
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false })
    await post(`${server.control}/control/close-listens?mode=drop`)
    await post(`${server.control}/control/stats/reset`)
    // The subscription says it waits for the online event: nothing was sent since the drop, nothing will be.
    await waiting
    const whileOffline = (await fetch(`${server.control}/control/stats`).then((r) => r.json())).byMethod['subscriptions/listen'] ?? 0
    expect(whileOffline).toBe(0)
    expect(sub.$state.get().status).toBe('opening')

    delete (navigator as { onLine?: boolean }).onLine
    window.dispatchEvent(new Event('online'))
    await when(sub.$state, (s) => s.status === 'acknowledged')
    await post(`${server.control}/control/add-tool`)
    await seen.nth(1)
    await sub.close()
    expect(sub.$state.get()).toMatchObject({ status: 'closed', reason: 'client' })
    await client.close()
  })
})
