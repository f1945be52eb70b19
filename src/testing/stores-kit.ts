// Test helper for the stores' tests: createMcp instances over FakeTransport, closed after each test, and waits
// that run on the event loop (never on a clock).
import { vi } from 'vitest'
import type { ReadableAtom } from 'nanostores'
import { forgetEras } from '../client/client'
import { createMcp } from '../stores/create-mcp'
import type { ListState, Mcp, McpOptions } from '../stores/types'
import type { FakeTransport } from './fake-transport'

export const tool = (name: string, description?: string) => ({ name, inputSchema: { type: 'object' }, ...(description ? { description } : {}) })
export const manyTools = (n: number) => Array.from({ length: n }, (_, i) => tool(`tool-${i}`))

/** One turn of the event loop (promise jobs, I/O, timers due): no clock is involved, so none is waited on. */
export const turn = () => new Promise((resolve) => setImmediate(resolve))

/** Waits until `check` holds, re-checking after each turn of the event loop; fails if it never does. */
export async function until(check: () => boolean, what: string, turns = 5000): Promise<void> {
  for (let n = 0; !check(); n++) {
    if (n === turns) throw new Error(`never happened: ${what}`)
    await turn()
    // Under fake timers, what is due now (a 0 ms timeout) still runs; the clock itself does not move.
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(0)
  }
}

// nanostores unmounts a store this long after its last listener left.
export const UNMOUNT_DELAY = 1000

/** Watches an atom (which mounts it) and records every value it is set to. */
export function record<T>($atom: ReadableAtom<T>) {
  const values: T[] = []
  const off = $atom.listen((value) => values.push(value))
  return { values, off }
}

export const loaded = (state: ListState<unknown>) => !state.loading && state.updatedAt > 0

const opened: Mcp[] = []

export const open = (transport: FakeTransport, options?: McpOptions) => {
  const mcp = createMcp(transport, { listenBackoff: { baseMs: 5, maxMs: 20 }, ...options })
  opened.push(mcp)
  return mcp
}

/** For afterEach: real timers again, every createMcp of the test closed, eras forgotten. */
export async function closeOpened(): Promise<void> {
  vi.useRealTimers()
  await Promise.all(opened.splice(0).map((mcp) => mcp.close()))
  forgetEras()
}
