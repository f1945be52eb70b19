// The quick test must never say yes where zod says no (it would let a malformed result through), and on JSON it
// should say yes wherever zod does (else the fast path is not taken and a list costs a zod copy again).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { accepts } from './accepts'
import * as s from './index'

type Json = Record<string, any>
const ROOT = join(import.meta.dirname, 'spec-examples')
const examples = (folder: string, pick: (m: Json) => unknown = (m) => m): unknown[] =>
  readdirSync(join(ROOT, folder)).map((file) => pick(JSON.parse(readFileSync(join(ROOT, folder, file), 'utf8'))))
const result = (m: Json) => m.result

/** Valid values per schema: the specification's examples and payloads with every field each schema types. */
const seeds: [name: string, schema: z.ZodMiniType, values: unknown[]][] = [
  [
    'ListToolsResult',
    s.ListToolsResultSchema,
    [
      ...examples('ListToolsResult'),
      ...examples('ListToolsResultResponse', result),
      {
        resultType: 'complete',
        tools: [
          {
            name: 'a',
            title: 'A',
            icons: [{ src: 'https://x/i.png', sizes: ['16x16'], theme: 'dark' }],
            inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
            outputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, title: 't' },
            execution: { taskSupport: 'optional' },
            _meta: {},
          },
        ],
        nextCursor: 'n',
        ttlMs: -1,
        cacheScope: 'public',
      },
    ],
  ],
  [
    'CallToolResult',
    s.CallToolResultSchema,
    [
      ...examples('CallToolResult'),
      {
        content: [
          { type: 'text', text: 'hello', annotations: { audience: ['user'], priority: 0.5, lastModified: 'x' } },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'file:///a', name: 'a', size: 3 },
          { type: 'resource', resource: { uri: 'file:///b', text: 'b', mimeType: 'text/plain' } },
          { type: 'resource', resource: { uri: 'file:///c', blob: 'AAAA' } },
          { type: 'video', url: 'v' },
        ],
        structuredContent: { n: 1 },
        isError: false,
      },
    ],
  ],
  ['ReadResourceResult', s.ReadResourceResultSchema, examples('ReadResourceResult')],
  ['GetPromptResult', s.GetPromptResultSchema, examples('GetPromptResult')],
  ['ListPromptsResult', s.ListPromptsResultSchema, [{ prompts: [{ name: 'p', arguments: [{ name: 'who', required: true }] }] }]],
  ['ListResourcesResult', s.ListResourcesResultSchema, examples('ListResourcesResult')],
  ['CompleteResult', s.CompleteResultSchema, [{ completion: { values: ['a', 'b'], total: 2, hasMore: false } }]],
  ['DiscoverResult', s.DiscoverResultSchema, examples('DiscoverResult')],
  ['InitializeResult', s.InitializeResultSchema, [{ protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, x: 1 }, serverInfo: { name: 's', version: '1' } }]],
  ['InputRequiredResult', s.InputRequiredResultSchema, [...examples('InputRequiredResult'), { resultType: 'input_required', requestState: 'r' }]],
  ['GetTaskResult', s.GetTaskResultSchema, [{ taskId: 't', status: 'working', ttlMs: null, pollIntervalMs: 5, ttl: 3, error: { code: -1, message: 'm' } }]],
  ['CreateMessageParams', s.CreateMessageParamsSchema, examples('CreateMessageRequestParams')],
  [
    'ServerNotification',
    s.ServerNotificationSchema,
    [
      ...['ProgressNotification', 'LoggingMessageNotification', 'CancelledNotification', 'ResourceUpdatedNotification', 'SubscriptionsAcknowledgedNotification'].flatMap((f) => examples(f)),
      { jsonrpc: '2.0', method: 'notifications/com.example/x', params: { a: 1 } },
    ],
  ],
  ['ServerRequest', s.ServerRequestSchema, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 'x', method: 'roots/list', params: {} }]],
  ['ErrorObject', s.ErrorObjectSchema, [{ code: -32602, message: 'bad', data: [1] }]],
]

/** Every path into a value (the root is []). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix]
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value)
  return [prefix, ...keys.flatMap((k) => paths((value as Json)[k], [...prefix, k]))]
}

/** Values that hit the schemas' edges: other JSON types, tags, literals, fractions, ranges. */
const edgy = fc.oneof(
  fc.constantFrom<unknown>(null, true, 0, -1, 1.5, 2, '', 'x', [], {}, ['x'], { type: 'object' }, 'object', 'text', 'user', 'system', 'complete', 'input_required', 'ping', 'notifications/progress'),
  fc.jsonValue({ maxDepth: 2 }),
)
/** One change at a path: the field removed, replaced, or an unknown field added beside it. */
const change = fc.record({ at: fc.nat(), kind: fc.constantFrom('delete', 'replace', 'add'), value: edgy, key: fc.constantFrom('x-new', 'type', 'text', 'constructor', '__proto__') })

function mutate(seed: unknown, changes: { at: number; kind: string; value: unknown; key: string }[]): unknown {
  const root = { v: structuredClone(seed) }
  for (const original of changes) {
    // A copy: the arbitraries' constants are shared between runs.
    const c = { ...original, value: structuredClone(original.value) }
    const all = paths(root.v)
    const path = all[c.at % all.length]!
    let parent: Json = root
    let key: string | number = 'v'
    for (const k of path) [parent, key] = [parent[key], k]
    const target = parent[key]
    if (c.kind === 'add' && typeof target === 'object' && target !== null && !Array.isArray(target)) Object.defineProperty(target, c.key, { value: c.value, enumerable: true, writable: true, configurable: true })
    else if (c.kind === 'delete' && parent !== root) {
      if (Array.isArray(parent)) parent.splice(key as number, 1)
      else delete parent[key]
    } else parent[key] = c.value
  }
  return root.v
}

describe('accepts(): the quick test of a schema', () => {
  it.each(seeds)('says yes to every valid %s without asking zod', (_, schema, values) => {
    expect(values.length).toBeGreaterThan(0)
    for (const value of values) {
      expect(schema.safeParse(value).success).toBe(true)
      expect(accepts(schema)(value)).toBe(true)
    }
  })

  it.each(seeds)('gives zod’s verdict on mutated %s payloads', (_, schema, values) => {
    const test = accepts(schema)
    let rejected = 0
    fc.assert(
      fc.property(fc.constantFrom(...values), fc.array(change, { minLength: 1, maxLength: 3 }), (seed, changes) => {
        const value = mutate(seed, changes)
        const verdict = schema.safeParse(value).success
        if (!verdict) rejected++
        if (test(value)) expect(verdict).toBe(true)
        // The one "no" where zod says yes: an own `__proto__` key, which zod's catchall skips and this one checks.
        else if (verdict) expect(JSON.stringify(value)).toContain('"__proto__"')
      }),
      { numRuns: 400 },
    )
    // The mutations do break payloads, so the "no" side is exercised too.
    expect(rejected).toBeGreaterThan(20)
  })

  it('leaves to zod what it does not model, so it never says yes where zod says no', () => {
    const cases: [z.ZodMiniType, unknown][] = [
      // exactOptional shares the "optional" type but refuses an explicit undefined.
      [z.object({ a: z.exactOptional(z.string()) }), { a: undefined }],
      // Exactly one option may fit.
      [z.xor([z.string(), z.string()]), 'x'],
      [z.strictObject({ a: z.string() }), { a: 'x', b: 1 }],
      [z.string().check(z.minLength(3)), 'ab'],
      // Formats are checks of their own (no `checks` list): a whole number, an email, a URL, a UUID, a datetime.
      [z.int(), 1.5],
      [z.int32(), 2 ** 40],
      [z.email(), 'nope'],
      [z.url(), 'not a url'],
      [z.uuid(), 'x'],
      [z.iso.datetime(), 'yesterday'],
      [z.string().check(z.superRefine((v, ctx) => void (v === 'no' && ctx.addIssue('no')))), 'no'],
      // A stripping object hands its refinement a copy without the unknown keys.
      [z.object({}).check(z.refine((o: Json) => 'b' in o)), { b: 1 }],
      [z.record(z.string(), z.number()), { a: 'x' }],
      // A hole is checked as undefined.
      [z.array(z.string()), [, 'x']], // eslint-disable-line no-sparse-arrays
      [z.number(), Number.NaN],
      [z.number(), Number.POSITIVE_INFINITY],
      [z.custom(() => Promise.resolve(true) as never), 1],
    ]
    // A promise from a refinement makes zod's synchronous parse throw.
    const zodAccepts = (schema: z.ZodMiniType, value: unknown) => {
      try {
        return schema.safeParse(value).success
      } catch {
        return false
      }
    }
    for (const [schema, value] of cases) {
      expect(zodAccepts(schema, value), JSON.stringify(value)).toBe(false)
      expect(accepts(schema)(value)).toBe(false)
    }
  })

  it('checks unknown keys against a catchall that is not "anything", even ones named like Object.prototype members', () => {
    const test = accepts(s.InputRequestsSchema)
    expect(test({ ask: { method: 'roots/list' } })).toBe(true)
    expect(test(JSON.parse('{"constructor": {"method": "elicitation/create", "params": {}}}'))).toBe(false)
    expect(test({ ask: 'x' })).toBe(false)
  })

  it('builds the test of a schema that contains itself', () => {
    const Node = z.looseObject({
      name: z.string(),
      get children() {
        return z.optional(z.array(Node))
      },
    })
    const test = accepts(Node)
    expect(test({ name: 'a', children: [{ name: 'b', children: [] }] })).toBe(true)
    expect(test({ name: 'a', children: [{ children: [] }] })).toBe(false)
  })
})
