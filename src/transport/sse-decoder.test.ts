// SSE decoding against a model of the WHATWG rules, over arbitrary events, line endings (LF, CRLF, CR, mixed)
// and chunkings, including multi-byte characters split between chunks.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readSseEvents } from './read-sse'
import { createSseDecoder, type SseEvent } from './sse-decoder'

interface Spec {
  event?: string
  data: string[]
  id?: string
  comment?: string
}

const text = fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replace(/[\r\n\0]/g, '_'))
const spec: fc.Arbitrary<Spec> = fc
  .record(
    {
      event: text.filter((s) => s !== '' && !s.startsWith(' ')),
      data: fc.array(text, { maxLength: 3 }),
      id: text,
      comment: text,
    },
    { requiredKeys: ['data'] },
  )
  // An event with neither data nor id dispatches nothing and moves nothing: leave it out of the model.
  .filter((s) => s.data.length > 0 || s.id !== undefined)
const ending = fc.constantFrom('\n', '\r\n', '\r')

/** The wire text of `specs`, each line ended by the next of `endings` (cycled). */
function serialize(specs: Spec[], endings: string[]): string {
  const lines: string[] = []
  for (const s of specs) {
    if (s.comment !== undefined) lines.push(`:${s.comment}`)
    if (s.event !== undefined) lines.push(`event: ${s.event}`)
    for (const line of s.data) lines.push(`data: ${line}`)
    if (s.id !== undefined) lines.push(`id: ${s.id}`)
    lines.push('')
  }
  let out = ''
  let previous = ''
  lines.forEach((line, i) => {
    let end = endings[i % endings.length]!
    // CR then an empty line ended by LF reads as one CRLF: that is the format, not a decoder fault.
    if (previous === '\r' && line === '' && end === '\n') end = '\r\n'
    out += line + end
    previous = end
  })
  return out
}

/** What WHATWG says the events are: data lines joined by LF, the last event id carried over. */
function model(specs: Spec[]): SseEvent[] {
  let id: string | undefined
  return specs.map((s) => {
    if (s.id !== undefined) id = s.id
    return s.data.length ? { event: s.event, data: s.data.join('\n'), id } : { event: undefined, data: '', id }
  })
}

/** Splits `whole` at the given cut points (any order, duplicates allowed). */
function chunk<T extends string | Uint8Array>(whole: T, cuts: number[]): T[] {
  const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b)
  const parts: T[] = []
  let at = 0
  for (const point of [...points, whole.length]) {
    parts.push(whole.slice(at, point) as T)
    at = point
  }
  return parts
}

function decode(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = []
  const decoder = createSseDecoder((event) => void events.push(event), () => undefined, () => expect.unreachable('overflow'), 1 << 20)
  for (const part of chunks) decoder.feed(part)
  decoder.end()
  return events
}

const cuts = fc.array(fc.nat(), { maxLength: 12 })

describe('createSseDecoder (property-based)', () => {
  it('dispatches every complete event, whatever the line endings and the chunking', () => {
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 6 }), fc.array(ending, { minLength: 1, maxLength: 5 }), cuts, (specs, endings, at) => {
        expect(decode(chunk(serialize(specs, endings), at))).toEqual(model(specs))
      }),
      { numRuns: 400 },
    )
  })

  it('an event cut before its blank line is dropped, the ones before it are not', () => {
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 4 }), ending, cuts, (specs, end, at) => {
        const whole = serialize(specs, [end])
        // Cut inside the last event: everything but its final blank line (and a trailing line end or two).
        const cut = whole.slice(0, whole.length - (end === '\r\n' ? 2 : 1)).replace(/(\r\n|\r|\n)$/, '')
        expect(decode(chunk(cut, at))).toEqual(model(specs).slice(0, -1))
      }),
    )
  })

  it('reads the last event when the stream ends right after a lone CR (the parser alone waits for an LF forever)', () => {
    expect(decode(['data: a\r', '\r'])).toEqual([{ event: undefined, data: 'a', id: undefined }])
    expect(decode(['id: 7\r\r'])).toEqual([{ event: undefined, data: '', id: '7' }])
  })

  it('an id holding NUL is ignored; an empty id resets it', () => {
    expect(decode(['id: 1\n\nid: a\0b\ndata: x\n\nid\ndata: y\n\n'])).toEqual([
      { event: undefined, data: '', id: '1' },
      { event: undefined, data: 'x', id: '1' },
      { event: undefined, data: 'y', id: '' },
    ])
  })

  it('a BOM is dropped at the start of the stream only, even when the first events never reach the parser', () => {
    expect(decode(['\ufeffdata: a\n\n'])).toEqual([{ event: undefined, data: 'a', id: undefined }])
    // Past the start, a BOM is part of the field name: `\ufeffdata` is a field nobody knows, so nothing dispatches.
    expect(decode(['data: a\n\n', '\ufeffdata: b\n\n'])).toEqual([{ event: undefined, data: 'a', id: undefined }])
  })

  it('the single-line events read without the parser are bounded like any other', () => {
    let overflow = false
    const events: SseEvent[] = []
    const decoder = createSseDecoder((event) => void events.push(event), () => undefined, () => (overflow = true), 10)
    decoder.feed('data: 123\n\ndata: 1234567890\n\ndata: later\n\n')
    expect(overflow).toBe(true)
    expect(events).toEqual([{ event: undefined, data: '123', id: undefined }])
  })

  it('onEvent returning true stops the decoder: nothing after that event is dispatched, now or later', () => {
    const seen: string[] = []
    const decoder = createSseDecoder((event) => (seen.push(event.data), event.data === 'stop'), () => undefined, () => expect.unreachable('overflow'), 1000)
    decoder.feed('data: a\n\ndata: stop\n\ndata: b\n\nid: 1\ndata: c\n\n')
    decoder.feed('data: d\n\n')
    expect(seen).toEqual(['a', 'stop'])
    const slow: string[] = []
    // The same through the parser's path (CRLF line ends, an event type).
    const other = createSseDecoder((event) => (slow.push(event.data), event.data === 'stop'), () => undefined, () => expect.unreachable('overflow'), 1000)
    other.feed('event: message\r\ndata: stop\r\n\r\ndata: b\r\n\r\n')
    expect(slow).toEqual(['stop'])
  })

  it('bounds a whole event, not just one line: many short data lines without a blank line overflow', () => {
    let overflow = false
    const decoder = createSseDecoder(() => undefined, () => undefined, () => (overflow = true), 100)
    for (let i = 0; i < 30 && !overflow; i++) decoder.feed('data: 12345\n')
    expect(overflow).toBe(true)
  })
})

describe('readSseEvents over bytes', () => {
  const body = (parts: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(part)
        controller.close()
      },
    })

  it('gives the same events for any byte chunking, multi-byte characters split between chunks included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(spec, { maxLength: 4 }), fc.array(ending, { minLength: 1, maxLength: 3 }), cuts, async (specs, endings, at) => {
        const events: SseEvent[] = []
        const cursor = {}
        await readSseEvents(body(chunk(new TextEncoder().encode(serialize(specs, endings)), at)), 1 << 20, cursor, (event) => void events.push(event))
        expect(events).toEqual(model(specs))
        const last = model(specs).at(-1)
        expect(cursor).toEqual(last?.id === undefined ? {} : { lastEventId: last.id })
      }),
      { numRuns: 200 },
    )
  })

  it('a BOM opening the stream is dropped, one in a later chunk is not', async () => {
    const events: SseEvent[] = []
    const bom = [0xef, 0xbb, 0xbf]
    const bytes = [Uint8Array.from([...bom, ...new TextEncoder().encode('data: a\n\n')]), Uint8Array.from([...bom, ...new TextEncoder().encode('data: b\n\ndata: c\n\n')])]
    await readSseEvents(body(bytes), 1000, {}, (event) => void events.push(event))
    expect(events.map((e) => e.data)).toEqual(['a', 'c'])
  })

  it('invalid UTF-8 becomes U+FFFD, as in EventSource, and the stream goes on', async () => {
    const events: SseEvent[] = []
    const bytes = [new TextEncoder().encode('data: a'), new Uint8Array([0xff, 0xc3]), new TextEncoder().encode('\n\ndata: b\n\n')]
    await readSseEvents(body(bytes), 1000, {}, (event) => void events.push(event))
    expect(events.map((e) => e.data)).toEqual(['a\ufffd\ufffd', 'b'])
  })
})
