// Bad input, method by method: every required field missing and every field mistyped is a ProtocolError
// ('invalid-result') whose message names the path; unknown fields and new kinds pass through untouched.
import { describe, expect, it } from 'vitest'
import { ProtocolError } from '../errors/protocol-error'
import { ErrorObjectSchema, InputRequiredResultSchema, parseResult, parseWith, resultSchemas, ServerNotificationSchema, type ResultMethod } from './index'

type Json = Record<string, unknown>

/** A valid complete result per method, with every field the schema types (so each can be mistyped). */
const valid: Record<ResultMethod, Json> = {
  initialize: {
    protocolVersion: '2025-11-25',
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: false }, logging: {}, completions: {} },
    serverInfo: { name: 'server', version: '1.0.0', title: 'Server' },
    instructions: 'be nice',
  },
  ping: {},
  'server/discover': { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { prompts: { listChanged: true } }, ttlMs: 1000, cacheScope: 'public', instructions: 'hi' },
  'tools/list': {
    resultType: 'complete',
    tools: [{ name: 'echo', title: 'Echo', description: 'says it back', inputSchema: { type: 'object' }, outputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
    nextCursor: 'next',
    ttlMs: 0,
    cacheScope: 'private',
  },
  'tools/call': {
    content: [
      { type: 'text', text: 'hello', annotations: { audience: ['user'], priority: 0.5 } },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'file:///a', name: 'a', size: 3 },
      { type: 'resource', resource: { uri: 'file:///b', text: 'b', mimeType: 'text/plain' } },
    ],
    isError: false,
  },
  'prompts/list': { prompts: [{ name: 'greet', description: 'greets', arguments: [{ name: 'who', required: true }] }] },
  'prompts/get': { description: 'a greeting', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] },
  'resources/list': { resources: [{ uri: 'file:///a', name: 'a', mimeType: 'text/plain', size: 1 }] },
  'resources/templates/list': { resourceTemplates: [{ uriTemplate: 'file:///{path}', name: 'files' }] },
  'resources/read': { contents: [{ uri: 'file:///a', text: 'a' }, { uri: 'file:///b', blob: 'AAAA' }], ttlMs: 5, cacheScope: 'private' },
  'resources/subscribe': {},
  'resources/unsubscribe': {},
  'completion/complete': { completion: { values: ['Ada', 'Alan'], total: 2, hasMore: false } },
  'logging/setLevel': {},
  'subscriptions/listen': { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 1 } },
  'tasks/get': { resultType: 'complete', taskId: 't1', status: 'completed', ttlMs: null, pollIntervalMs: 100, result: { content: [] } },
  'tasks/update': {},
  'tasks/cancel': {},
}

/** Fields (paths from the result) whose absence breaks the spec; every other field is optional. */
const required: Partial<Record<ResultMethod, string[]>> = {
  initialize: ['protocolVersion', 'capabilities', 'serverInfo', 'serverInfo.name', 'serverInfo.version'],
  'server/discover': ['supportedVersions', 'capabilities'],
  'tools/list': ['tools', 'tools.0.name', 'tools.0.inputSchema', 'tools.0.inputSchema.type'],
  'tools/call': [
    'content',
    ...[0, 1, 2, 3, 4].map((i) => `content.${i}.type`),
    'content.0.text',
    'content.1.data',
    'content.1.mimeType',
    'content.2.data',
    'content.2.mimeType',
    'content.3.uri',
    'content.3.name',
    'content.4.resource',
    'content.4.resource.uri',
    'content.4.resource.text',
  ],
  'prompts/list': ['prompts', 'prompts.0.name', 'prompts.0.arguments.0.name'],
  'prompts/get': ['messages', 'messages.0.role', 'messages.0.content', 'messages.0.content.type', 'messages.0.content.text'],
  'resources/list': ['resources', 'resources.0.uri', 'resources.0.name'],
  'resources/templates/list': ['resourceTemplates', 'resourceTemplates.0.uriTemplate', 'resourceTemplates.0.name'],
  'resources/read': ['contents', 'contents.0.uri', 'contents.0.text', 'contents.1.uri', 'contents.1.blob'],
  'completion/complete': ['completion', 'completion.values'],
  'tasks/get': ['taskId', 'status'],
}

/** Fields whose value is any JSON by the spec: no wrong type exists for them. */
const anyJson = new Set(['_meta', 'structuredContent', 'result', 'outputSchema', 'ttlMs'])

const clone = (v: Json | undefined): Json => structuredClone(v!)
const keyOf = (k: string) => (/^\d+$/.test(k) ? Number(k) : k)
const shown = (path: string[]) => `result${path.map((k) => (/^\d+$/.test(k) ? `[${k}]` : `.${k}`)).join('')}`

function at(root: Json, path: string[]): { parent: Json; key: string | number } {
  let parent: any = root
  for (const k of path.slice(0, -1)) parent = parent[keyOf(k)]
  return { parent, key: keyOf(path.at(-1)!) }
}

/** Every path in a value, depth first. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...(anyJson.has(k) ? [] : paths(v, [...prefix, k]))])
}

/** A value of another JSON type than the one given. */
const wrong = (v: unknown): unknown => (typeof v === 'string' ? 42 : typeof v === 'number' ? 'x' : typeof v === 'boolean' ? 'yes' : Array.isArray(v) ? {} : 'x')

function rejects(method: string, value: unknown): ProtocolError {
  try {
    parseResult(method, value)
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolError)
    expect((error as ProtocolError).reason).toBe('invalid-result')
    return error as ProtocolError
  }
  throw new Error(`${method}: accepted ${JSON.stringify(value)}`)
}

const methods = Object.keys(valid) as ResultMethod[]
const missing = methods.flatMap((method) => (required[method] ?? []).map((field) => ({ method, field })))
const mistyped = methods.flatMap((method) =>
  paths(valid[method])
    .filter((p) => !anyJson.has(p.at(-1)!))
    .map((path) => ({ method, field: path.join('.') })),
)

describe('results of every method', () => {
  it.each(methods)('a valid %s result parses to itself', (method) => {
    expect(parseResult(method, clone(valid[method]))).toEqual(valid[method])
  })

  it('every method has a schema and a fixture', () => {
    expect(Object.keys(resultSchemas).sort()).toEqual([...methods].sort())
    expect(missing.length).toBeGreaterThan(40)
    expect(mistyped.length).toBeGreaterThan(80)
  })

  it.each(missing)('$method without $field is rejected naming the path', ({ method, field }) => {
    const value = clone(valid[method])
    const { parent, key } = at(value, field.split('.'))
    delete parent[key]
    const error = rejects(method, value)
    // Resource contents need `text` or `blob`: without either, the contents object itself is what is wrong.
    const path = ['text', 'blob'].includes(String(key)) && 'uri' in parent ? field.split('.').slice(0, -1) : field.split('.')
    expect(error.message).toContain(`Malformed ${method} result: ${shown(path)}`)
  })

  it.each(mistyped)('$method with $field of the wrong type is rejected naming the path', ({ method, field }) => {
    const value = clone(valid[method])
    const path = field.split('.')
    const { parent, key } = at(value, path)
    parent[key] = wrong(parent[key])
    expect(rejects(method, value).message).toContain(shown(path))
  })

  it.each(methods.flatMap((method) => paths(valid[method]).filter((p) => !(required[method] ?? []).includes(p.join('.'))).map((p) => ({ method, field: p.join('.') }))))(
    '$method without the optional $field still parses',
    ({ method, field }) => {
      const value = clone(valid[method])
      const { parent, key } = at(value, field.split('.'))
      if (Array.isArray(parent)) return
      delete parent[key]
      expect(parseResult(method, value)).toEqual(value)
    },
  )
})

/** Payloads that look valid at a glance but break the spec, and the error each gives. */
const table: [what: string, method: string, value: unknown, message: string][] = [
  ['a tool without inputSchema', 'tools/list', { tools: [{ name: 'a' }] }, 'result.tools[0].inputSchema: required object'],
  ['a tool whose inputSchema is not an object schema', 'tools/list', { tools: [{ name: 'a', inputSchema: { type: 'string' } }] }, 'result.tools[0].inputSchema.type: expected "object"'],
  ['a text block without text', 'tools/call', { content: [{ type: 'text' }] }, 'result.content[0].text: required string'],
  ['an image without data', 'tools/call', { content: [{ type: 'image', mimeType: 'image/png' }] }, 'result.content[0].data: required string'],
  ['an audio block without mimeType', 'tools/call', { content: [{ type: 'audio', data: 'AA' }] }, 'result.content[0].mimeType: required string'],
  ['a resource link without name', 'tools/call', { content: [{ type: 'resource_link', uri: 'file:///a' }] }, 'result.content[0].name: required string'],
  ['an embedded resource with neither text nor blob', 'tools/call', { content: [{ type: 'resource', resource: { uri: 'file:///a' } }] }, 'result.content[0].resource: expected "text" or "blob"'],
  ['isError as a string', 'tools/call', { content: [], isError: 'false' }, 'result.isError: expected boolean, got string'],
  ['content that is not an array', 'tools/call', { content: 'hi' }, 'result.content: expected array, got string'],
  ['a prompt message with role system', 'prompts/get', { messages: [{ role: 'system', content: { type: 'text', text: 'x' } }] }, 'result.messages[0].role: expected "user" or "assistant"'],
  ['a prompt without name', 'prompts/list', { prompts: [{ description: 'x' }] }, 'result.prompts[0].name: required string'],
  ['101 completion values', 'completion/complete', { completion: { values: Array.from({ length: 101 }, (_, i) => String(i)) } }, 'result.completion.values: expected at most 100 values'],
  ['a completion value that is a number', 'completion/complete', { completion: { values: ['a', 1] } }, 'result.completion.values[1]: expected string, got number'],
  ['a fractional completion total', 'completion/complete', { completion: { values: [], total: 1.5 } }, 'result.completion.total: expected integer'],
  ['a string listChanged', 'initialize', { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: 'yes' } }, serverInfo: { name: 's', version: '1' } }, 'result.capabilities.tools.listChanged: expected boolean, got string'],
  ['a capability that is not an object', 'server/discover', { supportedVersions: ['2026-07-28'], capabilities: { tools: true } }, 'result.capabilities.tools: expected object, got boolean'],
  ['initialize without serverInfo', 'initialize', { protocolVersion: '2025-06-18', capabilities: {} }, 'result.serverInfo: required object'],
  ['a resource without uri', 'resources/list', { resources: [{ name: 'a' }] }, 'result.resources[0].uri: required string'],
  ['a template without uriTemplate', 'resources/templates/list', { resourceTemplates: [{ name: 'a' }] }, 'result.resourceTemplates[0].uriTemplate: required string'],
  ['resource contents without uri', 'resources/read', { contents: [{ text: 'a' }] }, 'result.contents[0].uri: required string'],
  ['a fractional ttlMs', 'tools/list', { tools: [], ttlMs: 1.5 }, 'result.ttlMs: expected integer'],
  ['an unknown cacheScope', 'tools/list', { tools: [], cacheScope: 'shared' }, 'result.cacheScope: expected "public" or "private"'],
  ['a numeric nextCursor', 'tools/list', { tools: [], nextCursor: 2 }, 'result.nextCursor: expected string, got number'],
  ['an interim resultType where a complete result is due', 'tools/list', { resultType: 'input_required', tools: [] }, 'result.resultType: expected "complete"'],
  ['a priority above 1', 'tools/call', { content: [{ type: 'text', text: 'x', annotations: { priority: 2 } }] }, 'result.content[0].annotations.priority: expected a number from 0 to 1'],
  ['a fractional resource size', 'resources/list', { resources: [{ uri: 'a', name: 'a', size: 1.5 }] }, 'result.resources[0].size: expected integer'],
  ['a task with an unknown status', 'tasks/get', { taskId: 't', status: 'paused' }, 'result.status: expected "working" or "input_required" or "completed" or "failed" or "cancelled"'],
]

describe('payloads that look valid at a glance', () => {
  it.each(table)('%s: ProtocolError', (_, method, value, message) => {
    expect(rejects(method, value).message).toBe(`Malformed ${method} result: ${message}`)
  })

  it('a fractional error code: ProtocolError', () => {
    expect(() => parseWith(ErrorObjectSchema, { code: -32600.5, message: 'x' }, 'error object')).toThrow('Malformed error object: result.code: expected integer')
  })

  it('an input_required result with neither inputRequests nor requestState: ProtocolError', () => {
    expect(() => parseWith(InputRequiredResultSchema, { resultType: 'input_required' }, 'input_required result')).toThrow('expected "inputRequests" or "requestState"')
  })

  it('an input request of a known method with bad params names the path', () => {
    const value = { resultType: 'input_required', inputRequests: { ask: { method: 'elicitation/create', params: { requestedSchema: { type: 'object', properties: {} } } } } }
    expect(() => parseWith(InputRequiredResultSchema, value, 'input_required result')).toThrow('result.inputRequests.ask.params.message: required string')
  })

  it('names every type a union of primitives allows, not its first branch alone', () => {
    const progress = (params: Record<string, unknown>) => () => parseWith(ServerNotificationSchema, { method: 'notifications/progress', params: { progress: 1, ...params } }, 'notification', 'notification')
    expect(progress({})).toThrow('notification.params.progressToken: required string or number')
    expect(progress({ progressToken: true })).toThrow('notification.params.progressToken: expected string or number, got boolean')
    expect(rejects('tasks/get', { taskId: 't', status: 'working', ttlMs: 'soon' }).message).toBe('Malformed tasks/get result: result.ttlMs: expected number or null, got string')
    // A union of objects (content blocks, notifications) given something else names "object" once.
    expect(rejects('tools/call', { content: ['text'] }).message).toBe('Malformed tools/call result: result.content[0]: expected object, got string')
    expect(() => parseWith(ServerNotificationSchema, 'x', 'notification', 'notification')).toThrow(/^Malformed notification: notification: expected object, got string$/)
  })

  it('counts every further issue', () => {
    expect(rejects('tools/list', { tools: [{}, {}] }).message).toMatch(/\(and 3 more\)$/)
    expect(rejects('tools/list', { tools: [{}, {}] }).detail).toHaveLength(4)
  })
})

describe('forward compatibility', () => {
  it('keeps unknown fields at every level', () => {
    const value = {
      tools: [{ name: 'a', inputSchema: { type: 'object', 'x-extra': 1 }, vendor: { deep: [1] }, annotations: { futureHint: true } }],
      nextPage: 'x',
      _meta: { 'com.example/trace': 'abc' },
    }
    expect(parseResult('tools/list', structuredClone(value))).toEqual(value)
  })

  it('keeps a content block of a new type as it is', () => {
    const value = { content: [{ type: 'video', url: 'https://example.com/v.mp4', frames: 3 }, { type: 'text', text: 'x' }] }
    expect(parseResult('tools/call', structuredClone(value))).toEqual(value)
  })

  it('keeps a capability of a new kind as it is', () => {
    const value = { supportedVersions: ['2026-07-28'], capabilities: { tools: {}, telepathy: { level: 3 }, extensions: { 'com.example/x': { on: true } } } }
    expect(parseResult('server/discover', structuredClone(value))).toEqual(value)
  })

  it('keeps a notification of a new method as it is', () => {
    const value = { jsonrpc: '2.0', method: 'notifications/com.example/weather', params: { sunny: true } }
    expect(ServerNotificationSchema.parse(structuredClone(value))).toEqual(value)
  })

  it('still checks a known notification', () => {
    expect(ServerNotificationSchema.safeParse({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: {} }).success).toBe(false)
  })

  it('keeps an input request of a new method as it is', () => {
    const value = { resultType: 'input_required', inputRequests: { a: { method: 'geolocation/get', params: { precise: true } } } }
    expect(InputRequiredResultSchema.parse(structuredClone(value))).toEqual(value)
  })

  it('leaves results of methods without a schema to the app', () => {
    const value = { anything: [1, 'two'] }
    expect(parseResult('com.example/search', value)).toBe(value)
  })
})
