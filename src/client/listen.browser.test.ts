// listen() in a real browser, cross-origin, against the real modern server.
import { afterEach, describe, expect, inject, it } from 'vitest'
import { scoped } from '../../scripts/servers/scoped'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { Client } from './client'
import type { ServerNotification } from './types'

const servers = inject('servers')
const post = (url: string) => fetch(url, { method: 'POST' }).then((r) => r.json())
const until = async (check: () => boolean, ms = 8000) => {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

afterEach(() => {
  delete (navigator as { onLine?: boolean }).onLine
})

describe('listen() in a browser', () => {
  it('hears a change, and after a dropped stream waits for the browser to be online before reconnecting', async () => {
    const server = scoped(servers.modern, 'browser-listen-online')
    const client = new Client(new StreamableHttpTransport(server.url), { listenBackoff: { baseMs: 10, maxMs: 20 } })
    const seen: string[] = []
    const sub = client.listen({ toolsListChanged: true }, (n: ServerNotification) => seen.push(n.method))
    await until(() => sub.$state.get().status === 'acknowledged')
    await post(`${server.control}/control/add-tool`)
    await until(() => seen.length === 1)

    // The page goes offline (as far as it can tell), then the stream drops.
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false })
    await post(`${server.control}/control/close-listens?mode=drop`)
    await until(() => sub.$state.get().status === 'opening')
    await post(`${server.control}/control/stats/reset`)
    await new Promise((r) => setTimeout(r, 300))
    const whileOffline = (await fetch(`${server.control}/control/stats`).then((r) => r.json())).byMethod['subscriptions/listen'] ?? 0
    expect(whileOffline).toBe(0)
    expect(sub.$state.get().status).toBe('opening')

    delete (navigator as { onLine?: boolean }).onLine
    window.dispatchEvent(new Event('online'))
    await until(() => sub.$state.get().status === 'acknowledged')
    await post(`${server.control}/control/add-tool`)
    await until(() => seen.length === 2)
    await sub.close()
    expect(sub.$state.get()).toMatchObject({ status: 'closed', reason: 'client' })
    await client.close()
  })
})
