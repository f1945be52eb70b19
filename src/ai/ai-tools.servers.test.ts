// aiTools in a real generateText tool loop: the AI SDK's own mock model calls tools on real MCP servers (the
// embedded ones, @modelcontextprotocol/server-everything, and a real SDK server with awkward tool names), and
// what each call returned is read back from the prompt of the model's next turn.
import { generateText, isStepCount, type ToolSet } from 'ai'
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, inject, it } from 'vitest'
import { Client, forgetEras } from '../client/client'
import { createMcp } from '../stores/create-mcp'
import type { Mcp } from '../stores/types'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { scoped } from '../../scripts/servers/scoped.ts'
import { LONG_A, LONG_B, startAiTestServer, type AiTestServer } from '../testing/ai-tools-server'
import { scriptedModel, toolResultsSeen } from '../testing/ai-model'
import { AiToolError } from './ai-tool-error'
import { aiTools } from './ai-tools'
import { mcpApproval } from './approval'
import { mcpToolName } from './names'

const servers = inject('servers')
const closing: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(closing.splice(0).map((c) => c.close()))
  forgetEras()
})
const client = (url: string) => {
  const made = new Client(new StreamableHttpTransport(url))
  closing.push(made)
  return made
}
const store = (url: string): Mcp => {
  const made = createMcp(url, { autoListen: false })
  closing.push(made)
  return made
}
const stats = (control: string) => fetch(`${control}/control/stats`).then((r) => r.json() as Promise<{ byMethod: Record<string, number> }>)

describe.each(['modern', 'legacy'] as const)('a generateText tool loop on the %s embedded server', (kind) => {
  it('the server executes the call and its result reaches the model’s next prompt', async () => {
    const mcp = store(scoped(servers[kind], `ai-loop-${kind}`).url)
    const tools = await aiTools(mcp)
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(['echo', 'add']))
    const model = scriptedModel([{ calls: [{ name: 'add', input: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }])
    const result = await generateText({ model, tools, prompt: 'Add 2 and 3', stopWhen: isStepCount(3) })
    expect(result.text).toBe('The sum is 5.')
    const [seen] = toolResultsSeen(model, 1)
    expect(seen!.toolName).toBe('add')
    expect(seen!.output.type).toBe('content')
    expect(JSON.stringify(seen!.output.value)).toContain('5')
  })

  it('abort during a call cancels the MCP request', async () => {
    const server = scoped(servers[kind], `ai-abort-${kind}`)
    const progress: { tool: string; toolCallId: string }[] = []
    const tools = await aiTools(client(server.url), { onProgress: (_p, call) => (progress.push(call), controller.abort()) })
    const controller = new AbortController()
    const model = scriptedModel([{ calls: [{ name: 'slow_count', input: { steps: 50, delayMs: 100 } }] }, { text: 'never' }])
    await expect(generateText({ model, tools, prompt: 'count', stopWhen: isStepCount(3), abortSignal: controller.signal })).rejects.toThrow()
    expect(model.doGenerateCalls).toHaveLength(1)
    // Progress reached the callback, named by tool and call; the abort it caused ended the call.
    expect(progress[0]).toEqual({ tool: 'slow_count', toolCallId: 'call-1-0' })
    if (kind === 'legacy') await expect.poll(async () => (await stats(server.control!)).byMethod['notifications/cancelled']).toBe(1)
  })
})

describe('against @modelcontextprotocol/server-everything', () => {
  it('the server executes the call and its result reaches the model’s next prompt', async () => {
    const tools = await aiTools(store(servers.everything.url))
    const model = scriptedModel([{ calls: [{ name: 'echo', input: { message: 'over the wire' } }] }, { text: 'It echoed.' }])
    const result = await generateText({ model, tools, prompt: 'echo', stopWhen: isStepCount(3) })
    expect(result.text).toBe('It echoed.')
    const [seen] = toolResultsSeen(model, 1)
    expect(seen).toMatchObject({ toolName: 'echo', output: { type: 'content' } })
    expect(JSON.stringify(seen!.output.value)).toContain('over the wire')
  })

  it('an image arrives as a file part with its media type, not base64 text', async () => {
    const tools = await aiTools(client(servers.everything.url))
    const name = Object.keys(tools).find((n) => n.includes('tiny-image') || n.includes('tiny_image'))!
    expect(name).toBeDefined()
    const model = scriptedModel([{ calls: [{ name, input: {} }] }, { text: 'I see a tiny image.' }])
    await generateText({ model, tools, prompt: 'show me', stopWhen: isStepCount(3) })
    const [seen] = toolResultsSeen(model, 1)
    const files = seen!.output.value.filter((part: any) => part.type === 'file')
    expect(files[0]).toMatchObject({ mediaType: 'image/png', data: { type: 'data' } })
    for (const part of seen!.output.value) if (part.type === 'text') expect(part.text).not.toContain(files[0].data.data.slice(0, 40))
  })
})

describe('a real SDK server with awkward tools', () => {
  let server: AiTestServer
  beforeAll(async () => (server = await startAiTestServer()))
  afterAll(() => server.close())

  it('returns the AI SDK’s ToolSet type', async () => {
    const tools = await aiTools(client(server.url))
    expectTypeOf(tools).toEqualTypeOf<ToolSet>()
  })

  it('names with spaces, dots, over 64 characters and colliding after sanitising each reach the right tool', async () => {
    const skipped: AiToolError[] = []
    const mcp = client(server.url)
    const tools = await aiTools(mcp, { onSkip: (e) => skipped.push(e) })
    const names = Object.keys(tools)
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
    expect(names).toEqual(expect.arrayContaining(['read_file', 'files_read', 'a_b']))
    const listed = await mcp.listTools({ onInvalidItem: () => undefined })
    const wanted = ['read file', 'files.read', 'a_b', 'a.b', 'a b', LONG_A, LONG_B]
    const byMcp = new Map(names.map((n) => [mcpToolName(n, listed), n]))
    for (const mcpName of wanted) expect(byMcp.has(mcpName)).toBe(true)
    const calls = wanted.map((mcpName, i) => ({ name: byMcp.get(mcpName)!, input: { text: `#${i}` } }))
    server.calls.length = 0
    const model = scriptedModel([{ calls }, { text: 'done' }])
    await generateText({ model, tools, prompt: 'call them all', stopWhen: isStepCount(3) })
    expect(server.calls.map((c) => [c.name, c.arguments.text]).sort()).toEqual(wanted.map((n, i) => [n, `#${i}`]).sort())
  })

  it('leaves out app-only tools, a non-object input schema and a name with no usable character, each with a typed error', async () => {
    const skipped: AiToolError[] = []
    const tools = await aiTools(store(server.url), { onSkip: (e) => skipped.push(e) })
    expect(tools).not.toHaveProperty('app_only')
    expect(tools).toHaveProperty('shared_view')
    expect(skipped.map((e) => [e.reason, e.tool]).sort()).toEqual([['input-schema', 'bad_schema'], ['name', '🙂']])
    expect(skipped.every((e) => e instanceof AiToolError)).toBe(true)
  })

  it('isError reaches the model as error-text, unknown content as that call’s error; neither stops the loop', async () => {
    const tools = await aiTools(client(server.url))
    const model = scriptedModel([{ calls: [{ name: 'fails', input: {} }, { name: 'odd_content', input: {} }, { name: 'a_b', input: { text: 'still works' } }] }, { text: 'ok' }])
    const result = await generateText({ model, tools, prompt: 'go', stopWhen: isStepCount(3) })
    expect(result.text).toBe('ok')
    const seen = Object.fromEntries(toolResultsSeen(model, 1).map((part) => [part.toolName, part.output]))
    expect(seen.fails).toEqual({ type: 'error-text', value: 'the disk is full' })
    expect(seen.odd_content.type).toBe('error-text')
    expect(seen.odd_content.value).toContain('hologram')
    expect(JSON.stringify(seen.a_b)).toContain('still works')
  })

  it('a destructive tool waits for approval and sends nothing to the server until then', async () => {
    const tools = await aiTools(client(server.url))
    server.calls.length = 0
    const model = scriptedModel([{ calls: [{ name: 'delete_all', input: {} }] }, { text: 'waiting' }])
    const result = await generateText({ model, tools, toolApproval: mcpApproval, prompt: 'wipe', stopWhen: isStepCount(3) })
    const request = result.content.find((part) => part.type === 'tool-approval-request')
    expect(request).toBeDefined()
    expect(server.calls).toEqual([])
    // Approved: the next call runs it.
    const messages = [{ role: 'user' as const, content: 'wipe' }, ...result.response.messages, { role: 'tool' as const, content: [{ type: 'tool-approval-response' as const, approvalId: (request as any).approvalId, approved: true }] }]
    const after = scriptedModel([{ text: 'wiped' }])
    await generateText({ model: after, tools, toolApproval: mcpApproval, messages, stopWhen: isStepCount(3) })
    expect(server.calls.map((c) => c.name)).toEqual(['delete_all'])
  })

  it('without toolApproval a call that needs approval is refused, not sent; the model sees why', async () => {
    const tools = await aiTools(client(server.url))
    server.calls.length = 0
    const model = scriptedModel([{ calls: [{ name: 'delete_all', input: {} }, { name: 'a_b', input: { text: 'fine' } }] }, { text: 'ok' }])
    await generateText({ model, tools, prompt: 'wipe', stopWhen: isStepCount(3) })
    expect(server.calls.map((c) => c.name)).toEqual(['a_b'])
    const seen = Object.fromEntries(toolResultsSeen(model, 1).map((part) => [part.toolName, part.output]))
    expect(seen.delete_all).toMatchObject({ type: 'error-text', value: expect.stringContaining('not approved') })
  })

  it('approve: a predicate over the tool and its arguments', async () => {
    const tools = await aiTools(client(server.url), { approve: (tool, input) => tool.name === 'a_b' && input.text === 'risky' })
    server.calls.length = 0
    const model = scriptedModel([{ calls: [{ name: 'a_b', input: { text: 'risky' } }, { name: 'a_b', input: { text: 'fine' } }, { name: 'delete_all', input: {} }] }, { text: 'ok' }])
    const result = await generateText({ model, tools, toolApproval: mcpApproval, prompt: 'go', stopWhen: isStepCount(3) })
    expect(result.content.filter((part) => part.type === 'tool-approval-request')).toHaveLength(1)
    expect(server.calls.map((c) => [c.name, c.arguments.text]).sort()).toEqual([['a_b', 'fine'], ['delete_all', undefined]])
  })
})
