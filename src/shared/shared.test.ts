// The shared mode in Node, against the embedded modern server: Node has neither SharedWorker nor Web Locks, so
// createSharedMcp runs its per-tab host (the documented last resort) behind the same port protocol, and the
// host itself can be driven by hand through MessageChannels to show two tabs sharing one client.
import { afterEach, describe, expect, inject, it, vi } from 'vitest'
import { scoped } from '../../scripts/servers/scoped.ts'
import { AbortError } from '../errors/abort-error'
import { createHost } from './host'
import type { ShareKey, TabMessage } from './protocol'
import { SharedError } from './shared-error'
import { createSharedMcp } from './tab'
import { tabPort } from '../testing/tab-port'
import type { SharedMcp } from './types'

const { modern } = inject('servers')
const opened: { close(): unknown }[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((x) => x.close()))
})

const stats = async (control: string) => ((await (await fetch(`${control}/control/stats`)).json()) as { byMethod: Record<string, number> }).byMethod

function open(name: string, options: Parameters<typeof createSharedMcp>[1] = {}): { mcp: SharedMcp; control: string } {
  const server = scoped(modern, name)
  const mcp = createSharedMcp(server.url, options)
  opened.push(mcp)
  return { mcp, control: server.control! }
}

// Generous: two cores shared by many test runs; waitFor polls, it never sleeps a fixed time.
const WAIT = { timeout: 15_000 }

const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text

describe('createSharedMcp where nothing can be shared (Node)', () => {
  it('falls back to a client of its own and mirrors its atoms', async () => {
    const { mcp } = open('shared-local-atoms')
    const stop = mcp.$tools.listen(() => {})
    await vi.waitFor(() => expect(mcp.$tools.get().items.map((t) => t.name)).toContain('echo'), WAIT)
    expect(mcp.$shared.get().mode).toBe('local')
    expect(mcp.$status.get().status).toBe('ready')
    expect(mcp.$server.get()?.serverInfo?.name).toBe('nanomcp-modern')
    stop()
  })

  it('runs helpers with progress, and rejects an aborted call with AbortError', async () => {
    const { mcp } = open('shared-local-calls')
    expect(text(await mcp.callTool('echo', { text: 'hi' }))).toBe('hi')
    const progress: number[] = []
    await mcp.callTool('slow_count', { steps: 3, delayMs: 1 }, { onProgress: (p) => progress.push(p.progress) })
    expect(progress).toEqual([1, 2, 3])
    const controller = new AbortController()
    const call = mcp.callTool('slow_count', { steps: 100, delayMs: 100 }, { signal: controller.signal })
    controller.abort('enough')
    await expect(call).rejects.toBeInstanceOf(AbortError)
  })

  it('answers input requests with the handler of the tab that made the call', async () => {
    const { mcp } = open('shared-local-input', { onInputRequest: () => ({ name: { action: 'accept', content: { name: 'Ada' } } }) })
    expect(text(await mcp.callTool('ask_name'))).toBe('Hello, Ada')
  })

  it('rejects arguments that cannot be cloned with SharedError, and keeps working', async () => {
    const { mcp } = open('shared-local-clone')
    const failure = await mcp.callTool('echo', { text: () => 'no' }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(SharedError)
    expect((failure as SharedError).reason).toBe('not-cloneable')
    expect(text(await mcp.callTool('echo', { text: 'still' }))).toBe('still')
  })

  it('passes server errors through as their own class', async () => {
    const { mcp } = open('shared-local-errors')
    await expect(mcp.readResource('nanomcp://notes/none-such-note-x/y')).rejects.toMatchObject({ name: expect.stringMatching(/Error$/) })
  })

  it('sends the static headers it was given on every request', async () => {
    const sent: (string | null)[] = []
    const real = globalThis.fetch
    // In Node the per-tab host runs in this process, so the global fetch it calls is the one the test watches.
    globalThis.fetch = (input, init) => {
      sent.push(new Headers(init?.headers).get('authorization'))
      return real(input, init)
    }
    try {
      const { mcp } = open('shared-local-headers', { headers: { Authorization: 'Bearer static-token' } })
      expect(text(await mcp.callTool('echo', { text: 'with headers' }))).toBe('with headers')
    } finally {
      globalThis.fetch = real
    }
    expect(sent.length).toBeGreaterThan(0)
    expect(new Set(sent)).toEqual(new Set(['Bearer static-token']))
  })

  it('settles calls with SharedError("worker-failed") when no allowed mode can run', async () => {
    const { mcp } = open('shared-none', { modes: ['worker'] })
    await expect(mcp.callTool('echo', { text: 'x' })).rejects.toMatchObject({ name: 'SharedError', reason: 'worker-failed' })
    expect(mcp.$shared.get().mode).toBe('closed')
    expect(mcp.$status.get().status).toBe('error')
  })

  it('rejects calls after close with SharedError("closed")', async () => {
    const { mcp } = open('shared-local-close')
    await mcp.close()
    expect(mcp.$status.get().status).toBe('closed')
    await expect(mcp.callTool('echo', { text: 'x' })).rejects.toMatchObject({ name: 'SharedError', reason: 'closed' })
  })
})


describe('the host', () => {
  it('serves two tabs with one client: each list loads once, one listen stream', async () => {
    const server = scoped(modern, 'shared-host-two')
    const host = createHost('test')
    const key: ShareKey = { url: server.url, options: {}, input: false }
    const hello = (tab: string): TabMessage => ({ t: 'hello', tab, key, watching: ['$tools', '$prompts'], resources: [], notifications: false, trace: false })
    const a = tabPort(host, opened)
    const b = tabPort(host, opened)
    a.send(hello('a'))
    b.send(hello('b'))
    for (const tab of [a, b]) await vi.waitFor(() => expect(tab.atom('$tools')?.value.items.length).toBeGreaterThan(0), WAIT)
    for (const tab of [a, b]) await vi.waitFor(() => expect(tab.atom('$prompts')?.value.items.length).toBeGreaterThan(0), WAIT)
    await vi.waitFor(async () => expect((await stats(server.control!))['subscriptions/listen']).toBe(1), WAIT)
    const counts = await stats(server.control!)
    expect(counts['tools/list']).toBe(1)
    expect(counts['prompts/list']).toBe(1)

    // Tab a leaves; tab b still hears a change.
    a.send({ t: 'bye' })
    const before = b.atom('$tools')!.value.items.length
    await fetch(`${server.control}/control/add-tool`, { method: 'POST' })
    await vi.waitFor(() => expect(b.atom('$tools')!.value.items.length).toBe(before + 1), WAIT)
    b.send({ t: 'bye' })
    // The last tab gone, its client is closed: a tab that comes later gets a new one, which listens anew.
    const c = tabPort(host, opened)
    c.send(hello('c'))
    await vi.waitFor(async () => expect((await stats(server.control!))['subscriptions/listen']).toBe(2), WAIT)
    c.send({ t: 'bye' })
  })

  it('keeps the client of a tab that says hello twice (a leader announced itself meanwhile)', async () => {
    const server = scoped(modern, 'shared-host-twice')
    const host = createHost('test-twice')
    const key: ShareKey = { url: server.url, options: {}, input: false }
    const hello: TabMessage = { t: 'hello', tab: 'only', key, watching: ['$tools'], resources: [], notifications: false, trace: false }
    const a = tabPort(host, opened)
    a.send(hello)
    await vi.waitFor(() => expect(a.atom('$tools')?.value.items.length).toBeGreaterThan(0), WAIT)
    a.send(hello)
    const readies = () => a.received.flatMap((m, i) => (m.t === 'ready' ? [i] : []))
    await vi.waitFor(() => expect(readies()).toHaveLength(2), WAIT)
    await vi.waitFor(() => expect(a.received.length).toBeGreaterThan(readies()[1]! + 1), WAIT)
    // The answer to the second hello shows the list already loaded: the same client, not a new empty one.
    const snapshot = a.received.slice(readies()[1]).find((m) => m.t === 'atom' && m.name === '$tools') as { value: { items: unknown[] } }
    expect(snapshot.value.items.length).toBeGreaterThan(0)
    expect((await stats(server.control!))['tools/list']).toBe(1)
    a.send({ t: 'bye' })
  })
})
