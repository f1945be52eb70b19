// The typed surface of Client as an app's TypeScript sees it: the method map on request(), the helpers, the
// handlers' unions, and the README's "Use" example. tsc checks it in npm test; vitest runs the parts that
// need no server (expectTypeOf is a no-op at run time).
import { describe, expectTypeOf, it } from 'vitest'
import { Client, extensionMethod, StreamableHttpTransport, type CallToolResult, type CompleteResult, type GetPromptResult, type InputRequest, type ListToolsResult, type Prompt, type ReadResourceResult, type Resource, type ResourceTemplate, type ServerNotification, type Tool } from '../index'
import { createMcp } from '../stores/create-mcp'

const client = new Client(new StreamableHttpTransport('http://127.0.0.1:1/mcp'))

describe('client.request()', () => {
  it('is typed by the method map', () => {
    expectTypeOf(client.request<'tools/list'>).returns.resolves.toEqualTypeOf<ListToolsResult>()
    expectTypeOf(client.request<'tools/call'>).returns.resolves.toEqualTypeOf<CallToolResult>()
    expectTypeOf(client.request<'prompts/get'>).returns.resolves.toEqualTypeOf<GetPromptResult>()
    expectTypeOf<Awaited<ReturnType<typeof client.request<'tools/list'>>>['tools']>().toEqualTypeOf<Tool[]>()
  })

  it('checks method names and params at compile time', () => {
    const never = () => {
      // @ts-expect-error: a misspelled spec method does not compile
      void client.request('tools/lsit')
      // @ts-expect-error: tools/call needs params with a name
      void client.request('tools/call')
      // @ts-expect-error: the name is a string
      void client.request('tools/call', { name: 1 })
      // @ts-expect-error: prompt arguments are strings
      void client.request('prompts/get', { name: 'p', arguments: { n: 1 } })
      // @ts-expect-error: an unknown params field is a typo
      void client.request('tools/list', { cursr: 'x' })
      void client.request('tools/list')
      void client.request('tools/list', { cursor: 'x' }, { timeout: 1000 })
    }
    void never
  })

  it('takes extension methods through extensionMethod(), untyped', () => {
    // Called for its type only: the server does not exist, so the rejection is caught.
    const answer = client.request(extensionMethod('com.example/search'), { q: 'x' })
    answer.catch(() => undefined)
    expectTypeOf(answer).resolves.toEqualTypeOf<Record<string, unknown>>()
  })
})

describe('helpers', () => {
  it('return the schemas types', () => {
    expectTypeOf(client.listTools).returns.resolves.toEqualTypeOf<Tool[]>()
    expectTypeOf(client.listPrompts).returns.resolves.toEqualTypeOf<Prompt[]>()
    expectTypeOf(client.listResources).returns.resolves.toEqualTypeOf<Resource[]>()
    expectTypeOf(client.listResourceTemplates).returns.resolves.toEqualTypeOf<ResourceTemplate[]>()
    expectTypeOf(client.callTool).returns.resolves.toEqualTypeOf<CallToolResult>()
    expectTypeOf(client.getPrompt).returns.resolves.toEqualTypeOf<GetPromptResult>()
    expectTypeOf(client.readResource).returns.resolves.toEqualTypeOf<ReadResourceResult>()
    expectTypeOf(client.complete).returns.resolves.toEqualTypeOf<CompleteResult>()
    expectTypeOf(client.ping).returns.resolves.toEqualTypeOf<void>()
    // @ts-expect-error: log levels are the RFC 5424 names
    void (() => client.setLoggingLevel('verbose'))
  })

  it("createMcp's helpers return the same types", () => {
    const mcp = createMcp('http://127.0.0.1:1/mcp')
    expectTypeOf(mcp.callTool).returns.resolves.toEqualTypeOf<CallToolResult>()
    expectTypeOf(mcp.getPrompt).returns.resolves.toEqualTypeOf<GetPromptResult>()
    expectTypeOf(mcp.readResource).returns.resolves.toEqualTypeOf<ReadResourceResult>()
    expectTypeOf(mcp.complete).returns.resolves.toEqualTypeOf<CompleteResult['completion']>()
    expectTypeOf(mcp.$tools.get().items).toEqualTypeOf<readonly Tool[]>()
    void mcp.close()
  })
})

describe('handlers receive typed unions', () => {
  it('onNotification, listen and onInputRequest', () => {
    new Client(new StreamableHttpTransport('http://127.0.0.1:1/mcp'), {
      onNotification(n) {
        expectTypeOf(n).toEqualTypeOf<ServerNotification>()
        if (n.method === 'notifications/resources/updated') expectTypeOf(n.params.uri).toEqualTypeOf<string>()
      },
      onInputRequest(requests) {
        expectTypeOf(requests).toEqualTypeOf<Record<string, InputRequest>>()
        for (const request of Object.values(requests)) if (request.method === 'elicitation/create') expectTypeOf(request.params.message).toEqualTypeOf<string>()
        return {}
      },
    })
    const listen = () =>
      client.listen({ toolsListChanged: true }, (n) => {
        if (n.method === 'notifications/progress') expectTypeOf(n.params.progress).toEqualTypeOf<number>()
      })
    void listen
  })
})

describe("the README's Use example", () => {
  it('type-checks as written', () => {
    const example = async () => {
      const client = new Client(new StreamableHttpTransport('https://example.com/mcp'), {
        clientInfo: { name: 'my-app', version: '1.0.0' },
        onNotification(n) {
          void n.method
        },
      })
      const { tools } = await client.request('tools/list')
      expectTypeOf(tools).toEqualTypeOf<Tool[]>()
      expectTypeOf(client.era).toEqualTypeOf<'modern' | 'legacy' | undefined>()
      expectTypeOf(client.protocolVersion).toEqualTypeOf<string | undefined>()
      const sub = client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] }, () => {})
      sub.$state.subscribe((s) => void s.status)
      await sub.close()
      await client.callTool({ name: 'echo', arguments: {} })
      await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })
      await client.readResource({ uri: 'file:///a' })
      await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'A' } })
    }
    void example
  })
})
