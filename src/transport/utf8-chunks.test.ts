// Chunk by chunk, the text must be what one TextDecoder makes of the whole stream, for any bytes and any cuts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createChunkDecoder } from './utf8-chunks'

const whole = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)

function inChunks(bytes: Uint8Array, cuts: number[]): string {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const decoder = createChunkDecoder()
  let out = ''
  let at = 0
  for (const point of [...points, bytes.length]) {
    out += decoder(bytes.subarray(at, point))
    at = point
  }
  return out + decoder()
}

/** Text with 1- to 4-byte characters, and bytes of any kind (stray continuations, cut sequences, overlongs). */
const bytes = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }).map((s) => new TextEncoder().encode(s)),
  fc.uint8Array({ maxLength: 20 }),
  fc.array(fc.constantFrom(0x41, 0x80, 0xbf, 0xc2, 0xc0, 0xe0, 0xa0, 0xed, 0xf0, 0x90, 0xf4, 0xf5, 0xff, 0xef, 0xbb), { maxLength: 20 }).map((a) => Uint8Array.from(a)),
)

describe('createChunkDecoder', () => {
  it('gives the text of the whole stream, whatever the chunking', () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 8 }), (b, cuts) => {
        expect(inChunks(b, cuts)).toBe(whole(b))
      }),
      { numRuns: 2000 },
    )
  })

  it('holds a character split between chunks, and ends an unfinished one as U+FFFD', () => {
    const euro = new TextEncoder().encode('€') // 3 bytes
    const decoder = createChunkDecoder()
    expect(decoder(euro.subarray(0, 2))).toBe('')
    expect(decoder(euro.subarray(2))).toBe('€')
    expect(decoder(euro.subarray(0, 1))).toBe('')
    expect(decoder()).toBe('\ufffd')
  })

  it('keeps a BOM wherever it comes (the reader of the text drops the one that opens the stream)', () => {
    const decoder = createChunkDecoder()
    expect(decoder(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]))).toBe('\ufeffa')
    expect(decoder(Uint8Array.from([0xef, 0xbb, 0xbf, 0x62]))).toBe('\ufeffb')
  })
})
