// Types inferred from the schemas: what the app sees after a result is checked. Checked by tsc (npm test's
// typecheck step) and by vitest (expectTypeOf is a no-op at run time).
import { describe, expectTypeOf, it } from 'vitest'
import type * as z from 'zod/mini'
import type { CallToolResult, ContentBlock, GetPromptResult, InputRequest, ListToolsResult, ParamsOf, ReadResourceResult, ResultOf, ServerCapabilities, ServerNotification, Tool } from './index'
import { CallToolResultSchema, extensionMethod, parseResult, type ExtensionMethod, type Method } from './index'

describe('inferred types', () => {
  it('a tool has its required fields typed and keeps unknown ones', () => {
    expectTypeOf<Tool['name']>().toEqualTypeOf<string>()
    expectTypeOf<Tool['inputSchema']['type']>().toEqualTypeOf<'object'>()
    expectTypeOf<Tool['description']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<Tool>().toHaveProperty('x-vendor-field')
    expectTypeOf<ListToolsResult['tools']>().toEqualTypeOf<Tool[]>()
    expectTypeOf<ListToolsResult['nextCursor']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<ListToolsResult['cacheScope']>().toEqualTypeOf<'public' | 'private' | undefined>()
  })

  it('content blocks narrow by type', () => {
    const block = {} as ContentBlock
    if (block.type === 'text') expectTypeOf(block.text).toEqualTypeOf<string>()
    if (block.type === 'image') expectTypeOf(block.mimeType).toEqualTypeOf<string>()
    if (block.type === 'resource') expectTypeOf(block.resource.uri).toEqualTypeOf<string>()
    expectTypeOf<CallToolResult['content']>().toEqualTypeOf<ContentBlock[]>()
    expectTypeOf<z.infer<typeof CallToolResultSchema>>().toEqualTypeOf<CallToolResult>()
  })

  it('prompt roles are user or assistant', () => {
    expectTypeOf<GetPromptResult['messages'][number]['role']>().toEqualTypeOf<'user' | 'assistant'>()
    // @ts-expect-error: no system role in any revision
    const role: GetPromptResult['messages'][number]['role'] = 'system'
    void role
  })

  it('resource contents are text or blob', () => {
    const item = {} as ReadResourceResult['contents'][number]
    if (item.text !== undefined) expectTypeOf(item.text).toEqualTypeOf<string>()
    else expectTypeOf(item.blob).toEqualTypeOf<string>()
  })

  it('capabilities are objects with typed flags', () => {
    expectTypeOf<NonNullable<ServerCapabilities['tools']>['listChanged']>().toEqualTypeOf<boolean | undefined>()
    expectTypeOf<NonNullable<ServerCapabilities['resources']>['subscribe']>().toEqualTypeOf<boolean | undefined>()
  })

  it('notifications narrow by method', () => {
    const n = {} as ServerNotification
    if (n.method === 'notifications/progress') expectTypeOf(n.params.progress).toEqualTypeOf<number>()
    if (n.method === 'notifications/resources/updated') expectTypeOf(n.params.uri).toEqualTypeOf<string>()
    if (n.method === 'notifications/message') expectTypeOf(n.params.level).toEqualTypeOf<'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'>()
  })

  it('input requests narrow by method', () => {
    const r = {} as InputRequest
    if (r.method === 'sampling/createMessage') expectTypeOf(r.params.maxTokens).toEqualTypeOf<number>()
    if (r.method === 'elicitation/create') expectTypeOf(r.params.message).toEqualTypeOf<string>()
  })
})

describe('the method map', () => {
  it('maps each spec method to its params and result', () => {
    expectTypeOf<ResultOf<'tools/list'>>().toEqualTypeOf<ListToolsResult>()
    expectTypeOf<ResultOf<'tools/call'>>().toEqualTypeOf<CallToolResult>()
    expectTypeOf<ParamsOf<'tools/call'>['name']>().toEqualTypeOf<string>()
    expectTypeOf<ParamsOf<'prompts/get'>['arguments']>().toEqualTypeOf<Record<string, string> | undefined>()
    expectTypeOf<'tools/list'>().toExtend<Method>()
    // @ts-expect-error: a misspelled method is no spec method
    expectTypeOf<'tools/lsit'>().toExtend<Method>()
  })

  it('parseResult is typed by method, and untyped for extension methods', () => {
    expectTypeOf(parseResult<'tools/list'>).returns.toEqualTypeOf<ListToolsResult>()
    expectTypeOf(parseResult<'com.example/search'>).returns.toEqualTypeOf<Record<string, unknown>>()
    expectTypeOf(extensionMethod('com.example/search')).toEqualTypeOf<ExtensionMethod>()
    // @ts-expect-error: a plain string is not an extension method until marked as one
    const method: ExtensionMethod = 'com.example/search'
    void method
  })
})
