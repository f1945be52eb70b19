// The rare paths the client loads on demand (the outputSchema validator, tasks, input requests): a chunk that cannot
// be fetched fails only the request that needed it, with a CodeLoadError (never a NetworkError, which would blame the
// MCP server), and a chunk that never arrives is bounded by that request's timeout or signal. The chunks are replaced
// by mocks that fail the way browsers fail.
import { describe, expect, it, vi } from 'vitest'
import { AbortError } from '../errors/abort-error'
import { CodeLoadError } from '../errors/code-load-error'
import { NetworkError } from '../errors/network-error'
import { TimeoutError } from '../errors/timeout-error'
import { ok } from '../testing/scripted-server'
import { complete, scriptedClients } from '../testing/scripted-client'
import { load } from '../transport/load'

const offline = (chunk: string) => new TypeError(`Failed to fetch dynamically imported module: https://app.example/assets/${chunk}-1a2b.js`)

vi.mock('./tasks', () => {
  throw offline('tasks')
})
vi.mock('./output-schema', () => {
  throw offline('output-schema')
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
  it("callTool of a tool with an outputSchema fails with a CodeLoadError when the validator's code cannot be fetched", async () => {
    const tool = { name: 'typed', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }
    const client = await kit.start((seen) =>
      seen.body.method === 'tools/list' ? complete(seen, { tools: [tool] }) : complete(seen, { content: [], structuredContent: {} }),
    )
    const failure = (await client.callTool({ name: 'typed', arguments: {} }).catch((e: unknown) => e)) as CodeLoadError
    expect(failure).toBeInstanceOf(CodeLoadError)
    expect(failure).not.toBeInstanceOf(NetworkError)
    expect(failure.part).toBe('outputSchema validator')
    expect(failure.message).toMatch(/^nanomcp could not load its outputSchema validator code \(.*\); the MCP server was not involved$/)
    await expect(client.request('tools/list')).resolves.toMatchObject({ tools: [tool] })
  })

  it('a task whose code cannot be fetched fails that call with a CodeLoadError; the client keeps working', async () => {
    const client = await kit.start(server, { tasks: true })
    const failure = (await client.request('tools/call', { name: 'long' }).catch((e: unknown) => e)) as CodeLoadError
    expect(failure).toBeInstanceOf(CodeLoadError)
    expect(failure.part).toBe('tasks')
    // vitest wraps what a mock factory throws; the load test below checks the cause is kept as is.
    expect(failure.cause).toBeInstanceOf(Error)
    await expect(client.request('tools/list')).resolves.toEqual({ resultType: 'complete', tools: [] })
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

describe('load', () => {
  it('turns a failed import into a CodeLoadError naming the part, with the cause', async () => {
    const cause = offline('x')
    const failure = (await load('test', () => Promise.reject(cause)).catch((e: unknown) => e)) as CodeLoadError
    expect(failure).toBeInstanceOf(CodeLoadError)
    expect(failure.message).toBe(`nanomcp could not load its test code (${cause.message}); the MCP server was not involved`)
    expect(failure.cause).toBe(cause)
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
