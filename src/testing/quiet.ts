// Per-file checks that the library stays quiet: every promise a test leaves behind is handled, and nothing reaches the console.
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest'
import { forgetEras } from '../client/client'

/** Collects the file's unhandled rejections, so a test can assert there were none. */
export function collectUnhandled(): unknown[] {
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown) => void unhandled.push(reason)
  beforeAll(() => void process.on('unhandledRejection', onUnhandled))
  afterAll(() => void process.off('unhandledRejection', onUnhandled))
  return unhandled
}

/**
 * The fault files' checks after each test: real timers back, eras forgotten, no unhandled rejection and no
 * console call. The library never writes to the console, whatever the server does.
 */
export function expectQuiet(): void {
  const unhandled = collectUnhandled()
  const consoleCalls: string[] = []
  beforeAll(() => {
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void consoleCalls.push(`${level}: ${args.map(String).join(' ')}`))
    }
  })
  afterAll(() => {
    vi.restoreAllMocks()
  })
  afterEach(async () => {
    vi.useRealTimers()
    forgetEras()
    await new Promise((resolve) => setImmediate(resolve))
    expect(unhandled.map(String)).toEqual([])
    expect(consoleCalls.splice(0)).toEqual([])
  })
}
