/** A request's signal, linked to the caller's and the transport's lifetime. */
export interface Link {
  signal: AbortSignal
  /** Unlinks it and (unless `abort` is false) aborts it: the request is over, its stream may close. */
  done(abort?: boolean): void
  /** Aborts it with `reason` (a caller limit that covers only part of the work, such as opening a stream). */
  abort(reason: unknown): void
}

/** A signal that aborts with `caller`'s reason, or with `lifetime`'s when the transport closes. */
export function link(lifetime: AbortSignal, caller?: AbortSignal): Link {
  const controller = new AbortController()
  const onCaller = () => controller.abort(caller!.reason)
  const onClose = () => controller.abort(lifetime.reason)
  // A lifetime already over (a transport closed while code it needed was loading) must not leave a live signal.
  if (caller?.aborted) onCaller()
  else if (lifetime.aborted) onClose()
  caller?.addEventListener('abort', onCaller, { once: true })
  lifetime.addEventListener('abort', onClose, { once: true })
  return {
    signal: controller.signal,
    done: (abort = true) => {
      caller?.removeEventListener('abort', onCaller)
      lifetime.removeEventListener('abort', onClose)
      if (abort) controller.abort()
    },
    abort: (reason) => controller.abort(reason),
  }
}
