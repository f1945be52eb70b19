// Test helper: a stand-in for one of the loaders of code loaded on demand (client/load-legacy.ts,
// client/load-subscription.ts, transport/load-legacy.ts). A test file makes one in `vi.hoisted` (with an
// `await import` of this file, since hoisted code runs before the file's imports) and hands its `load` to the
// `vi.mock` factory of the loader it replaces.
import { Arrivals } from './wait'

const unreachable = () => new TypeError('Failed to fetch dynamically imported module')

export class ChunkStandIn {
  /** Each load, as it starts (1, 2, …). */
  started = new Arrivals<number>()
  loads = 0
  /** How many loads from now fail, the way import() does when the chunk cannot be fetched. */
  failing = 0
  /** While true, every load fails that way. */
  offline = false
  /** While set, a load waits for it. */
  gate: Promise<void> | undefined
  /** The latest load. */
  last: Promise<unknown> | undefined

  /** `failAfterGate`: a failing load waits for the gate first (a download that fails late), else it fails at once. */
  constructor(readonly failAfterGate = false) {}

  /** One load: counted, perhaps held at the gate or failed, else the real module from `actual`. */
  load<T>(actual: () => Promise<T>): Promise<T> {
    this.started.push(++this.loads)
    const fails = this.offline || this.failing-- > 0
    const loading = (async () => {
      if (fails && !this.failAfterGate) throw unreachable()
      await this.gate
      if (fails) throw unreachable()
      return actual()
    })()
    this.last = loading
    return loading
  }

  /** Holds every later load until the returned function is called. */
  hold(): () => void {
    let open = () => undefined as void
    this.gate = new Promise<void>((resolve) => (open = resolve))
    return open
  }

  /** A fresh start for the next test. */
  reset(): void {
    Object.assign(this, { started: new Arrivals<number>(), loads: 0, failing: 0, offline: false, gate: undefined, last: undefined })
  }
}
