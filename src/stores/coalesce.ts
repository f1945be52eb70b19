export interface Coalesced {
  /** Starts the task, or queues one more run if it is in flight; resolves when the run that covers this call ends. */
  run(): Promise<void>
  /** True while a further run is queued behind the one in flight. */
  readonly queued: boolean
}

/**
 * Keeps at most one run of `task` in flight and one queued behind it: any number of calls while a run is
 * queued share that queued run, so a burst of change notifications costs at most two fetches.
 * `task` must not reject.
 */
export function coalesce(task: () => Promise<void>): Coalesced {
  let running: Promise<void> | undefined
  let queued: Promise<void> | undefined
  const run = (): Promise<void> => {
    if (queued) return queued
    if (running) {
      return (queued = running.then(() => {
        queued = undefined
        return run()
      }))
    }
    return (running = task().finally(() => (running = undefined)))
  }
  return {
    run,
    get queued() {
      return queued !== undefined
    },
  }
}
