// isPlainProgress is a shortcut beside ProgressNotificationSchema: it must never say yes where the schema says
// no (a malformed notification would reach onProgress), and it should say yes to what servers actually send.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ProgressNotificationSchema } from '../schemas/request-stream'
import { isPlainProgress } from './validate'

type Message = Parameters<typeof isPlainProgress>[0]

/** Values at the edges of each field's type: other JSON types, fractions, non-finite numbers, undefined. */
const edgy = fc.oneof(
  fc.constantFrom<unknown>(undefined, null, true, 0, -1, 1.5, 2 ** 53, Number.NaN, Infinity, -Infinity, '', 'x', [], {}, [1], { a: 1 }, '2.0', 'notifications/progress'),
  fc.jsonValue({ maxDepth: 2 }),
)
/** A field (which the record may also leave out): mostly well-formed, sometimes an edgy value. */
const field = (good: fc.Arbitrary<unknown>) => fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: edgy })
const params = fc.oneof(
  { weight: 1, arbitrary: edgy },
  { weight: 6, arbitrary: fc.record(
    {
      progressToken: field(fc.oneof(fc.string(), fc.integer())),
      progress: field(fc.double()),
      total: field(fc.double()),
      message: field(fc.string()),
      _meta: field(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }))),
      extra: field(edgy),
    },
    { requiredKeys: [] },
  ) },
)
const message = fc.record(
  { jsonrpc: field(fc.constant('2.0')), method: field(fc.constant('notifications/progress')), params },
  { requiredKeys: ['method'] },
)

describe('isPlainProgress', () => {
  it('never says yes where ProgressNotificationSchema says no', () => {
    let yes = 0
    let no = 0
    fc.assert(
      fc.property(message, (m) => {
        if (isPlainProgress(m as Message)) {
          yes++
          expect(ProgressNotificationSchema.safeParse(m).success).toBe(true)
        } else no++
      }),
      { numRuns: 2000 },
    )
    // Both sides are exercised.
    expect(yes).toBeGreaterThan(20)
    expect(no).toBeGreaterThan(20)
  })

  it('says yes to progress notifications as servers send them', () => {
    const sent: Message[] = [
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'nanomcp-3', progress: 1 } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 0.5, total: 1, message: 'half', _meta: { a: 1 } } },
      { method: 'notifications/progress', params: { progressToken: 'x', progress: 3, total: 10, extra: [1] } },
    ]
    for (const m of sent) {
      expect(ProgressNotificationSchema.safeParse(m).success).toBe(true)
      expect(isPlainProgress(m)).toBe(true)
    }
  })

  it.each([
    ['a fractional token', { progressToken: 1.5, progress: 1 }],
    ['a progress that is a string', { progressToken: 't', progress: '1' }],
    ['a progress that is not finite', { progressToken: 't', progress: Infinity }],
    ['a total that is null', { progressToken: 't', progress: 1, total: null }],
    ['a message that is a number', { progressToken: 't', progress: 1, message: 3 }],
    ['_meta that is an array', { progressToken: 't', progress: 1, _meta: [] }],
  ])('turns down %s (the schema then gives the reason)', (_, p) => {
    expect(isPlainProgress({ jsonrpc: '2.0', method: 'notifications/progress', params: p })).toBe(false)
    expect(ProgressNotificationSchema.safeParse({ jsonrpc: '2.0', method: 'notifications/progress', params: p }).success).toBe(false)
  })
})
