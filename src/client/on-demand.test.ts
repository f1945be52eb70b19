// The rare paths the client loads on demand (tasks, input requests, the tasks/get schema): a chunk that cannot be
// fetched fails only the request that needed it, with a NetworkError, and a chunk that never arrives is bounded by
// that request's timeout or signal. The words of a malformed message's error load on demand too; without them the
// error is the same ProtocolError, in fewer words. The chunks are replaced by mocks that fail the way browsers fail.
import { describe, expect, it, vi } from 'vitest'
import { AbortError } from '../errors/abort-error'
import { NetworkError } from '../errors/network-error'
import { ProtocolError } from '../errors/protocol-error'
import { TimeoutError } from '../errors/timeout-error'
import { ok } from '../testing/scripted-server'
import { complete, scriptedClients, sse } from '../testing/scripted-client'
import { load } from '../transport/load'
import { VERSION } from '../version'

const offline = (chunk: string) => new TypeError(`Failed to fetch dynamically imported module: https://app.example/assets/${chunk}-1a2b.js`)

vi.mock('./tasks', () => {
  throw offline('tasks')
})
vi.mock('../schemas/task-results', () => {
  throw offline('task-results')
})
vi.mock('./output-schema', () => {
  throw offline('output-schema')
})
vi.mock('../schemas/explain', () => {
  throw offline('explain')
})
// A download that stalls for good.
vi.mock('./input-requests', () => new Promise(() => undefined))

const kit = scriptedClients({ unhandled: true })

const server = (seen: Parameters<Parameters<typeof kit.start>[0]>[0]) => {
  const { method } = seen.body
  if (method === 'tools/call' && seen.body.params.name === 'long') return ok(seen, { resultType: 'task', taskId: 't1', status: 'working', pollIntervalMs: 10 })
  if (method === 'tools/call') return ok(seen, { resultType: 'input_required', inputRequests: { who: { method: 'roots/list' } } })
  if (method === 'tasks/get') return complete(seen, { taskId: 't1', status: 'working' })
  return complete(seen, { tools: [] })
}

describe('code loaded on demand', () => {
  it("callTool of a tool with an outputSchema fails with a NetworkError when the validator's code cannot be fetched", async () => {
    const tool = { name: 'typed', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }
    const client = await kit.start((seen) =>
      seen.body.method === 'tools/list' ? complete(seen, { tools: [tool] }) : complete(seen, { content: [], structuredContent: {} }),
    )
    const failure = (await client.callTool({ name: 'typed', arguments: {} }).catch((e: unknown) => e)) as NetworkError
    expect(failure).toBeInstanceOf(NetworkError)
    expect(failure.message).toContain("nanomcp's outputSchema validator (loaded on demand)")
    await expect(client.request('tools/list')).resolves.toMatchObject({ tools: [tool] })
  })

  it('a task whose code cannot be fetched fails that call with a NetworkError; the client keeps working', async () => {
    const client = await kit.start(server, { tasks: true })
    const failure = (await client.request('tools/call', { name: 'long' }).catch((e: unknown) => e)) as NetworkError
    expect(failure).toBeInstanceOf(NetworkError)
    expect(failure.message).toContain("nanomcp's tasks code (loaded on demand)")
    // vitest wraps what a mock factory throws; the load test below checks the cause is kept as is.
    expect(failure.cause).toBeInstanceOf(Error)
    await expect(client.request('tools/list')).resolves.toEqual({ resultType: 'complete', tools: [] })
  })

  it("an app's own tasks/get fails with a NetworkError when its schema cannot be fetched", async () => {
    const client = await kit.start(server)
    const failure = (await client.request('tasks/get', { taskId: 't1' }).catch((e: unknown) => e)) as NetworkError
    expect(failure).toBeInstanceOf(NetworkError)
    expect(failure.message).toContain('tasks/get schema')
  })

  it("an input_required round whose code never arrives ends at the request's timeout, or when its signal aborts", async () => {
    const client = await kit.start(server, { onInputRequest: () => ({}) })
    await expect(client.request('tools/call', { name: 'ask' }, { timeout: 50 })).rejects.toBeInstanceOf(TimeoutError)
    const controller = new AbortController()
    const asked = client.request('tools/call', { name: 'ask' }, { signal: controller.signal })
    let calls = 0
    await kit.arrived.find((s) => s.body?.method === 'tools/call' && ++calls === 2)
    controller.abort()
    await expect(asked).rejects.toBeInstanceOf(AbortError)
  })
})

describe("a malformed message when its error's words cannot be fetched", () => {
  const tool = { name: 'ok', inputSchema: { type: 'object' } }

  it('still rejects only its request, with a ProtocolError naming the path and what was expected', async () => {
    const client = await kit.start((seen) =>
      seen.body.method === 'tools/call' ? complete(seen, { content: [{ type: 'text' }] }) : complete(seen, { tools: [tool] }),
    )
    const failure = (await client.request('tools/call', { name: 'ok' }).catch((e: unknown) => e)) as ProtocolError
    expect(failure).toBeInstanceOf(ProtocolError)
    expect(failure.reason).toBe('invalid-result')
    // With the words loaded this reads "result.content[0].text: required string" (invalid.test.ts).
    expect(failure.message).toMatch(/^Malformed tools\/call result: result\.content\[0\]/)
    await expect(client.request('tools/list')).resolves.toMatchObject({ tools: [tool] })
  })

  it('names the path of a bad list item and of a bad error object', async () => {
    const client = await kit.start((seen) =>
      seen.body.method === 'tools/list'
        ? complete(seen, { tools: [tool, { name: 'no-schema' }] })
        : { body: { jsonrpc: '2.0', id: seen.body.id, error: { code: 1.5, message: 'odd' } } },
    )
    const dropped: string[] = []
    await expect(client.listTools({ onInvalidItem: (_, reason) => dropped.push(reason) })).resolves.toEqual([tool])
    expect(dropped).toEqual(['tools[1].inputSchema: expected object'])
    await expect(client.request('tools/list')).rejects.toThrow('Malformed tools/list result: result.tools[1].inputSchema: expected object')
    await expect(client.request('prompts/list')).rejects.toThrow('Malformed error object for prompts/list: error.code: expected integer')
  })

  it('drops a malformed log message with a debug line that names its path', async () => {
    const debug: string[] = []
    const logs: unknown[] = []
    const client = await kit.start(
      (seen) =>
        seen.body.method === 'tools/call'
          ? {
              sse: sse(
                { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'loud', data: 'x' } },
                { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'y' } },
                { jsonrpc: '2.0', id: seen.body.id, result: { resultType: 'complete', content: [] } },
              ),
            }
          : complete(seen, { supportedVersions: [VERSION], capabilities: { logging: {} } }),
      { debug: (message) => debug.push(message), onNotification: (n) => logs.push(n.params) },
    )
    await client.setLoggingLevel('info')
    await client.request('tools/call', { name: 'ok' })
    expect(logs).toEqual([{ level: 'info', data: 'y' }])
    await vi.waitFor(() => expect(debug).toContain('dropped a malformed notifications/message: notification.params.level: Invalid input'))
  })
})

describe('load', () => {
  it('turns a failed import into a NetworkError naming what was loading, with the cause', async () => {
    const cause = offline('x')
    const failure = (await load('test code', () => Promise.reject(cause)).catch((e: unknown) => e)) as NetworkError
    expect(failure).toBeInstanceOf(NetworkError)
    expect(failure.message).toBe(`Could not reach nanomcp's test code (loaded on demand): ${cause.message}`)
    expect(failure.cause).toBe(cause)
    expect(failure.possibleCors).toBe(false)
  })

  it('stops waiting when the signal aborts, and an import that fails afterwards is no unhandled rejection', async () => {
    let fail!: (error: Error) => void
    const controller = new AbortController()
    const loading = load('test code', () => new Promise<never>((_, reject) => (fail = reject)), controller.signal)
    controller.abort('enough')
    await expect(loading).rejects.toBeInstanceOf(AbortError)
    fail(offline('x'))
  })
})
