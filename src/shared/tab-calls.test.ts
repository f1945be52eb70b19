// A tab's calls while no host answers: queued messages, the guard that catches a host that never came, and a
// late `sent` for a call its caller already gave up on.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { atom } from 'nanostores'
import type { TabMessage } from './protocol'
import { SharedError } from './shared-error'
import { createCalls } from './tab-calls'
import type { Connection } from './tab-connection'

function queueingConnection(): Connection & { queue: TabMessage[] } {
  const connection = {
    $shared: atom({ mode: 'connecting' }) as Connection['$shared'],
    closed: false,
    queue: [] as TabMessage[],
    send: (message: TabMessage) => void connection.queue.push(message),
    unqueue: (drop: (message: TabMessage) => boolean) => void (connection.queue = connection.queue.filter((m) => !drop(m))),
    close() {},
  }
  return connection
}

afterEach(() => {
  vi.useRealTimers()
})

describe('calls that never reach a host', () => {
  it('the guard rejects a queued call and takes its message back, so it never runs after its caller gave up', async () => {
    vi.useFakeTimers()
    const connection = queueingConnection()
    const calls = createCalls(connection, 1000)
    const result = calls.call('callTool', [{ name: 'echo' }])
    const settled = expect(result).rejects.toMatchObject({ name: 'SharedError', reason: 'host-lost' })
    expect(connection.queue).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(11_000)
    await settled
    await expect(result).rejects.toBeInstanceOf(SharedError)
    expect(connection.queue).toHaveLength(0)
  })

  it('a host that reports a call sent after its caller aborted it does not throw', async () => {
    const connection = queueingConnection()
    const calls = createCalls(connection, 1000)
    const controller = new AbortController()
    const result = calls.call('callTool', [{ name: 'echo' }], { signal: controller.signal })
    const id = (connection.queue[0] as { id: number }).id
    controller.abort(new Error('user left'))
    await expect(result).rejects.toMatchObject({ name: 'AbortError' })
    expect(connection.queue).toHaveLength(0)
    expect(() => calls.sent(id)).not.toThrow()
  })
})
