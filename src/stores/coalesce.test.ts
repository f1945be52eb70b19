import { describe, expect, it } from 'vitest'
import { coalesce } from './coalesce'

describe('coalesce', () => {
  it('runs a burst of 1,000 calls as one run in flight plus one queued', async () => {
    let runs = 0
    let release = () => undefined as void
    const runner = coalesce(async () => {
      runs++
      await new Promise<void>((resolve) => (release = resolve))
    })
    const first = runner.run()
    const rest = Array.from({ length: 999 }, () => runner.run())
    expect(runs).toBe(1)
    expect(runner.queued).toBe(true)
    expect(new Set(rest).size).toBe(1)
    release()
    await first
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(runs).toBe(2)
    expect(runner.queued).toBe(false)
    release()
    await Promise.all(rest)
    expect(runs).toBe(2)
    // Idle again: the next call starts a run of its own.
    const again = runner.run()
    expect(runs).toBe(3)
    release()
    await again
  })
})
