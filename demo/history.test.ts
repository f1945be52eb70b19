import { describe, expect, it } from 'vitest'
import { entryJson } from './history'

describe('entryJson', () => {
  it('rounds the elapsed time to whole milliseconds', () => {
    const text = entryJson({ method: 'tools/call', params: { name: 'echo' }, at: 0, ms: 55.199999999953434, result: { content: [] } })
    expect(JSON.parse(text)).toEqual({ method: 'tools/call', params: { name: 'echo' }, result: { content: [] }, ms: 55 })
  })

  it('says cancelled for a cancelled call, with the reason', () => {
    const text = entryJson({ method: 'tools/call', params: {}, at: 0, ms: 10.6, error: 'AbortError: Request aborted', cancelled: true })
    expect(JSON.parse(text)).toEqual({ method: 'tools/call', params: {}, cancelled: true, error: 'AbortError: Request aborted', ms: 11 })
  })
})
